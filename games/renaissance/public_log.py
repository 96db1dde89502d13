"""What every spectator may know of an accepted action: `public_record`, the game log's entry.

The record is built from the action's public fields and from what the spectator's view
(`view_for(state, None)`) shows changed, so that it never says more than the table saw:
- a vote before the last one is only `{"type": "vote", "phase": "vote"}` (who voted is stored
  beside it, never how); the last vote reveals every seat's vote (`votes`) and the outcome
  (`war`) ([ruling] R29);
- an offer, its refusal or its withdrawal is seen by its two parties only ([ruling] R45): no
  record at all (None); an accepted exchange or sale and a gift of ducats are public facts,
  recorded with the action's fields;
- a face-down commitment says how many cards (`count`), never which ([ruling] R28); the action
  that turns the cards up, or plays on in the revealed battle, carries the battle as it stands
  (`fight`), and the action that concludes it its outcome (`battle`);
- every other move is its action's fields and the phase it was made in (`phase`);
- what the action set off that the table saw is added (`board_facts`, `turn_facts`): the cities
  whose owner or pieces changed, the ducats and hand sizes that changed, a deal (`war`), the
  points of a finished turn, a new turn, a new turn order, the end of the game.

A battle (`fight`, `battle`; see `battle_summary`) names the attacker and defender seats, the
cities and the kind of attack; after the reveal each side's cards; once fought the dice, the
troops and the defence's bonuses; once counted the totals; when concluded the winner and
whether the city was captured.

A battle concluded by the action that fought it (the defender's commitment, say, when nobody
has a card left to play) leaves no trace in the view after it: the engine clears the battle as
it ends. Its dice and troops are found by playing the same action again on a scratch copy on
which the attacker holds one card more (`fought_battle`), so the engine itself rolls them.
"""

from .actions import apply_action
from .battle import strength
from .cards import KIND, MARRIAGE, NAMES
from .diplomacy import is_diplomacy
from .flow import has_power
from .state import PHASE_NAMES, RETREAT, SIGN, YEARS, clone, put
from .visibility import view_for

# Diplomacy seen by its two parties only ([ruling] R45): a spectator learns nothing of it.
PRIVATE = frozenset(
    {
        "offer_exchange",
        "decline_exchange",
        "withdraw_exchange",
        "offer_condottiere",
        "decline_condottiere",
        "withdraw_condottiere",
    }
)
# The public fields of each city, as the view lists them (per city index).
CITY_FIELDS = ("owner", "fort", "palace", "artist", "pillaged")
# The phases before a turn's deal: nobody holds a card yet.
BEFORE_DEAL = frozenset(
    {"setup_start", "setup_rampart", "setup_palace", "setup_garrison", "return", "vote"}
)


def public_record(action: dict, seat: int, before, after) -> dict | None:
    """The public record of `action` by `seat`, `before` and `after` being the engine's states
    around it; None when a spectator must learn nothing of it."""
    if action["type"] in PRIVATE:
        return None
    seen_before = view_for(before, None)["public"]
    seen_after = view_for(after, None)["public"]
    record = _action_record(action, seen_before, seen_after)
    record.update(battle_facts(action, seat, before, after))
    record.update(board_facts(seen_before, seen_after, before.geo.cities))
    record.update(turn_facts(seen_before, seen_after))
    return record


def _action_record(action: dict, seen_before: dict, seen_after: dict) -> dict:
    kind = action["type"]
    if is_diplomacy(action):  # a gift or an accepted offer: its fields are public
        return dict(action)
    record = {"type": kind, "phase": phase_of(seen_before)}
    if kind == "vote":
        record.update(vote_reveal(seen_before, seen_after))
    elif kind == "commit":  # face down: the number of cards only
        record["count"] = len(action["blue"]) + (action["red"] is not None)
    else:
        record.update((key, value) for key, value in action.items() if key != "type")
    return record


def phase_of(seen: dict) -> str:
    return PHASE_NAMES[seen["phase"]]


def vote_reveal(seen_before: dict, seen_after: dict) -> dict:
    """Nothing before the last vote; the last one reveals every seat's vote (its outcome, the
    turn's war or peace, comes with the deal: `turn_facts`)."""
    still_voting = phase_of(seen_after) == "vote" and seen_after["turn"] == seen_before["turn"]
    if still_voting:
        return {}
    return {"votes": [bool(vote) for vote in seen_after["last_votes"]]}


# --- Battles ------------------------------------------------------------------------------------


def battle_facts(action: dict, seat: int, before, after) -> dict:
    """`battle`: the outcome of the battle the action concluded; `fight`: the revealed battle
    as the action left it, when the action turned the cards up or played on after the reveal."""
    if before.battle is None:
        return {}
    names = before.geo.cities
    if after.battle is None:
        concluded = concluded_battle(action, seat, before)
        return {"battle": {**battle_summary(names, concluded), **outcome(concluded)}}
    now = battle_summary(names, after.battle)
    if after.battle["revealed"] and now != battle_summary(names, before.battle):
        return {"fight": now}
    return {}


def battle_summary(names, b: dict) -> dict:
    """What the table sees of the battle `b` (the engine's dict): who fights over which city;
    after the reveal each side's cards; once fought the dice, the troops and the defence's
    bonuses; once counted the totals."""
    summary = {
        "attacker": b["a"],
        "defender": b["d"],
        "from": names[b["from"]] if b["from"] >= 0 else None,
        "to": names[b["to"]],
        "ride": bool(b["ride"]),
        "sea": bool(b["sea"]),
    }
    if not b["revealed"]:
        return summary
    summary["cards"] = [
        {"blue": card_names(b["blue"][side]), "red": card_name(b["red"][side])} for side in (0, 1)
    ]
    summary["countered"] = bool(b["countered"])
    if b["dice"]:
        summary.update(fought(b))
    if b["totals"]:
        summary["totals"] = list(b["totals"])
        summary["saved"] = [card_names(b["saved"][side]) for side in (0, 1)]
        if any(b.get("swiss", ())):
            summary["swiss"] = list(b["swiss"])
    return summary


def fought(b: dict) -> dict:
    """The dice and what stands on each side once they are rolled (a Condottiere not rolled
    yet has the value None; `lost`: the blue card a defending Traitor discarded)."""
    return {
        "dice": list(b["dice"]),
        "troops": [
            [[NAMES[kind], value if value >= 0 else None] for kind, value in b["troops"][side]]
            for side in (0, 1)
        ],
        "fortification": b["fort"],
        "terrain": b["bonus"],
        "engineer": b["engineer"],
        "lost": card_name(b["lost"]),
        "signs": [index if index >= 0 else None for index in b["signs"]],
    }


def outcome(b: dict) -> dict:
    """[rules] The higher total wins; a tie goes to the defender, whose city stays its own."""
    attack, defence = b["totals"]
    taken = attack > defence
    return {"winner": b["a"] if taken else b["d"], "captured": taken}


def concluded_battle(action: dict, seat: int, before) -> dict:
    """The battle as it stood when `action` ended it, its totals counted.

    After a Retreat ask the totals are on the battle already; after a Sign of God ask only the
    sign is new; otherwise the action fought the battle too (`fought_battle`)."""
    b = before.battle
    side = b["asked"]
    if before.phase == RETREAT:
        if action["type"] == "retreat":
            saved = b["saved"][side] + (KIND[action["card"]],)
            b = {**b, "saved": put(b["saved"], side, saved)}
        return b
    if before.phase == SIGN:
        if action["type"] == "sign_of_god":
            b = {**b, "signs": put(b["signs"], side, action["target"])}
        return counted(before, b)
    return counted(before, fought_battle(action, seat, before))


def fought_battle(action: dict, seat: int, before) -> dict:
    """The battle right after its dice and Condottieri, when `action` fought and ended it.

    The engine asks the attacker for a Sign of God after the dice if it holds a card; as the
    battle ended, it held none. On a scratch copy where it holds one more card (a Marriage,
    which no commitment, counter or treason question looks at) the same action rolls the same
    dice and stops at that question, with the battle still on the board."""
    attacker = before.battle["a"]
    scratch = clone(before)
    held = scratch.hands[attacker]
    scratch.hands = put(scratch.hands, attacker, put(held, MARRIAGE, held[MARRIAGE] + 1))
    paused = apply_action(scratch, seat, action)
    if paused.phase != SIGN or paused.battle["asked"] != 0:
        raise RuntimeError("the scratch battle did not stop at the attacker's Sign of God")
    return paused.battle


def counted(state, b: dict) -> dict:
    """`b` with its totals, as battle.totals counts them."""
    swiss = swiss_bonus(state, b)
    b = {**b, "swiss": swiss} if any(swiss) else dict(b)
    b["totals"] = (strength(b, 0), strength(b, 1))
    return b


def swiss_bonus(state, b: dict) -> tuple:
    """[ruling] R59: +1 PC to the Swiss on the side they announced (1: attack, 2: defence)."""
    return tuple(
        int(has_power(state, seat, "swiss") and state.power[seat] == side + 1)
        for side, seat in enumerate((b["a"], b["d"]))
    )


def card_names(kinds) -> list[str]:
    return [NAMES[kind] for kind in kinds]


def card_name(kind: int) -> str | None:
    return NAMES[kind] if kind >= 0 else None


# --- What else the table saw change ------------------------------------------------------------


def board_facts(seen_before: dict, seen_after: dict, names) -> dict:
    """`cities`: per city whose owner or pieces changed, the new values (owner None: free);
    `ducats` and `cards`: per seat, the change of its ducats and of its hand's size."""
    facts = {}
    cities = {}
    for field in CITY_FIELDS:
        pairs = zip(seen_before[field], seen_after[field], strict=True)
        for city, (was, now) in enumerate(pairs):
            if was != now:
                value = None if field == "owner" and now < 0 else now
                cities.setdefault(names[city], {})[field] = value
    if cities:
        facts["cities"] = cities
    for key, field in (("ducats", "ducats"), ("cards", "hand_sizes")):
        change = [now - was for was, now in zip(seen_before[field], seen_after[field], strict=True)]
        if any(change):
            facts[key] = change
    return facts


def turn_facts(seen_before: dict, seen_after: dict) -> dict:
    """The turn's public milestones the action brought: a deal (`war`: war or peace), the
    points of a finished turn (`scored` this turn, `points` in all), a new turn (`turn`,
    `year`), a new turn order (`order`), the end of the game (`over`)."""
    facts = {}
    phase_before, phase_after = phase_of(seen_before), phase_of(seen_after)
    if phase_before in BEFORE_DEAL and phase_after not in BEFORE_DEAL | {"over"}:
        facts["war"] = bool(seen_after["war"])
    if len(seen_after["sheet"][0]) > len(seen_before["sheet"][0]):
        facts["scored"] = [sheet[-1] for sheet in seen_after["sheet"]]
        facts["points"] = list(seen_after["points"])
    turn = seen_after["turn"]
    if turn != seen_before["turn"] and turn <= len(YEARS):
        facts["turn"], facts["year"] = turn, YEARS[turn - 1]
    if seen_after["order"] != seen_before["order"]:
        facts["order"] = list(seen_after["order"])
    if phase_after == "over" and phase_before != "over":
        facts["over"] = {"winners": list(seen_after["winners"]), "points": seen_after["points"]}
    return facts
