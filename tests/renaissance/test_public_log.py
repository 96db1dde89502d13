"""The public log: what a spectator may know of each accepted action, and nothing more
([ruling] R28 what a seat sees, R29 the secret vote, R45 offers seen by their two parties only):
over random games of every player count, on the real board in each scenario with the nations'
powers and random diplomacy, and in chosen situations."""

import json
import random
from collections import Counter

import pytest

from games.renaissance.api import apply_action, legal_actions, view_for
from games.renaissance.cards import KIND, NAMES
from games.renaissance.public_log import public_record
from games.renaissance.state import COMBAT, OVER, PHASE_NAMES, PURCHASE, RETREAT, VOTE, put
from tests.renaissance.conftest import (
    RANDOM_GAMES,
    TINY,
    city,
    combat_state,
    edit,
    game,
    hand,
    random_game,
    through_setup,
    until,
)
from tests.renaissance.test_engine_battle import commit, prepare
from tests.renaissance.test_engine_diplomacy import offer, table

PRIVATE = {
    "offer_exchange",
    "decline_exchange",
    "withdraw_exchange",
    "offer_condottiere",
    "decline_condottiere",
    "withdraw_condottiere",
}
CARD_NAMES = set(NAMES)
# A record's keys that carry card names by right: the revealed battle, the move and its phase.
TOLD_APART = ("battle", "fight", "type", "phase")
# (players, board, options): the tiny board at every player count; the real board in the 1454
# game and in each scenario, with and without the powers.
CASES = [(players, TINY, None) for players in (3, 4, 5, 6)] + [
    (6, None, {"powers": True}),
    (3, None, {"powers": True}),
    *[
        (players, None, {"scenario": scenario, "powers": powers})
        for scenario in ("1494", "1499", "1515")
        for players, powers in ((4, False), (6, True))
    ],
]


# --- Over random games --------------------------------------------------------------------------


class Watch:
    """Checks every step of a game; counts what was checked, so that no check is vacuous."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seen = {"twins": 0, "fights": 0, "private": 0}
        self.last_fight = self.last_record = None
        self.concluded = Counter()  # battles concluded, by the phase of the concluding action

    def __call__(self, before, seat, action, after):
        record = public_record(action, seat, before, after)
        seen_before, seen_after = view_for(before, None), view_for(after, None)
        if action["type"] in PRIVATE:
            # [ruling] R45: no entry, and nothing a spectator sees changed either.
            assert record is None and seen_before == seen_after
            self.seen["private"] += 1
            return
        assert record is not None and json.loads(json.dumps(record)) == record
        self.last_record = record
        check_changes(record, seen_before, seen_after)
        check_no_hidden_card(record, action)
        if action["type"] == "vote":
            check_vote(record, seen_before, seen_after)
        if action["type"] == "commit":
            assert record["count"] == len(action["blue"]) + (action["red"] is not None)
        if action["type"] in ("vote", "commit"):
            self.check_twins(record, before, seat, action, seen_after)
        if "fight" in record:
            check_fight(record["fight"], seen_after["public"]["battle"])
            self.last_fight = record["fight"]
            self.seen["fights"] += 1
        if "battle" in record:
            self.check_battle(record, before, seat, action, after)

    def check_twins(self, record, before, seat, action, seen_after):
        """A secret choice (how a seat voted, which cards lie face down) changes no record: any
        other choice a spectator cannot tell from it gives the very same record. (Cards turned
        up are seen at the reveal, even when the view after it no longer shows them.)"""
        if "battle" in record or "fight" in record:
            return
        others = [other for other in legal_actions(before, seat) if other != action]
        for other in self.rng.sample(others, min(3, len(others))):
            twin = apply_action(before, seat, other)
            if view_for(twin, None) == seen_after:
                assert public_record(other, seat, before, twin) == record
                self.seen["twins"] += 1

    def check_battle(self, record, before, seat, action, after):
        battle = record["battle"]
        assert battle["cards"] == committed_cards(before, seat, action)
        check_outcome(battle, before, after)
        if before.phase == RETREAT:  # the engine had counted it already
            assert battle["totals"] == list(before.battle["totals"])
        if not before.battle["dice"]:  # fought by this very action: its first two draws
            assert battle["dice"] == [die(before, before.rng), die(before, before.rng + 1)]
        self.concluded[PHASE_NAMES[before.phase]] += 1
        fight = self.last_fight
        if fight and (fight["to"], fight["attacker"]) == (battle["to"], battle["attacker"]):
            assert fight["cards"] == battle["cards"]
            assert fight.get("dice", battle["dice"]) == battle["dice"]
        self.last_fight = None


def check_changes(record, seen_before, seen_after):
    """The cities, ducats and hand sizes a record says changed are the view's changes."""
    names, was, now = seen_after["cities"], seen_before["public"], seen_after["public"]
    changed = {}
    for field in ("owner", "fort", "palace", "artist", "pillaged"):
        for index, name in enumerate(names):
            if was[field][index] != now[field][index]:
                value = now[field][index]
                changed.setdefault(name, {})[field] = (
                    None if field == "owner" and value < 0 else value
                )
    assert record.get("cities", {}) == changed
    for key, field in (("ducats", "ducats"), ("cards", "hand_sizes")):
        change = [b - a for a, b in zip(was[field], now[field], strict=True)]
        assert record.get(key, [0] * len(change)) == change


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def check_no_hidden_card(record, action):
    """Outside a revealed battle, the only card a record may name is one the action played
    face up (a Retreat's saved card). The type and the phase are left out: "raiders" or
    "retreat" name moves and phases too (a yellow card is played face up)."""
    told = {key: value for key, value in record.items() if key not in TOLD_APART}
    assert set(strings(told)) & CARD_NAMES <= {action.get("card")}


def check_vote(record, seen_before, seen_after):
    """[ruling] R29: secret until the last vote, which reveals them all at once."""
    still = (
        seen_after["phase"] == "vote"
        and seen_after["public"]["turn"] == seen_before["public"]["turn"]
    )
    if still:
        assert record == {"type": "vote", "phase": "vote"}
        return
    assert record["votes"] == [bool(vote) for vote in seen_after["public"]["last_votes"]]
    assert record["war"] == bool(seen_after["public"]["war"])


def check_fight(fight, seen):
    """A revealed battle as the record tells it is the one the spectator's view shows."""
    for side, shown in enumerate(seen["commits"]):
        red = shown["red"]
        assert fight["cards"][side] == {
            "blue": [NAMES[kind] for kind in shown["blue"]],
            "red": NAMES[red] if red >= 0 else None,
        }
    assert fight.get("dice", []) == seen["dice"]
    if seen["dice"]:
        assert fight["troops"] == [
            [[NAMES[kind], value if value >= 0 else None] for kind, value in troops]
            for troops in seen["troops"]
        ]
    assert fight.get("totals", []) == seen["totals"]


def committed_cards(before, seat, action):
    """Each side's face-down cards, turned up at the reveal: the battle's commitments, and the
    action's own if it was one (the engine files blue cards in card order)."""
    b = before.battle
    blue, red = list(b["blue"]), list(b["red"])
    if action["type"] == "commit":
        side = 0 if seat == b["a"] else 1
        blue[side] = sorted(KIND[name] for name in action["blue"])
        red[side] = -1 if action["red"] is None else KIND[action["red"]]
    return [
        {
            "blue": [NAMES[kind] for kind in blue[side]],
            "red": NAMES[red[side]] if red[side] >= 0 else None,
        }
        for side in (0, 1)
    ]


def check_outcome(battle, before, after):
    """[rules] Each side's total is its troops, its die and its Sign of God; the defender adds
    its fortification, the terrain and its Engineer; the Swiss their +1 ([ruling] R59). The
    higher total takes the city; a tie leaves it to the defender."""
    assert all(1 <= die <= 6 for die in battle["dice"])
    swiss = battle.get("swiss", [0, 0])
    for side in (0, 1):
        values = [value for _name, value in battle["troops"][side]]
        assert all(isinstance(value, int) and value >= 0 for value in values)
        total = sum(values) + battle["dice"][side] + swiss[side]
        if battle["signs"][side] is not None:
            total += values[battle["signs"][side]]
        if side == 1:
            total += battle["fortification"] + battle["terrain"] + battle["engineer"]
        assert battle["totals"][side] == total
    attack, defence = battle["totals"]
    assert battle["captured"] == (attack > defence)
    assert battle["winner"] == (battle["attacker"] if attack > defence else battle["defender"])
    if after.turn == before.turn:  # (a new turn may bring back a wiped seat on it)
        taken = after.owner[before.geo.index[battle["to"]]] == battle["attacker"]
        assert taken == battle["captured"]


@pytest.mark.parametrize(("players", "board", "options"), CASES)
def test_random_games_log_only_what_a_spectator_may_know(players, board, options):
    watch = Watch(players)
    share = max(1, RANDOM_GAMES // (4 if board is TINY else 12))
    for number in range(share):
        random_game(players, 900 + number, board, watch, options, diplomacy=0.1)
    assert all(watch.seen.values()) and watch.concluded, (watch.seen, watch.concluded)


# --- Random battles, small hands ------------------------------------------------------------------

# Cards for a battle's blue slots and for its red slot.
BLUE_CARDS = ("pikemen", "knights", "cannon", "condottiere")
RED_CARDS = ("engineer", "traitor", "condottiere")


def committed(action):
    return len(action["blue"]) + (action["red"] is not None)


def random_battle(rng, watch):
    """Florence attacks Rome's Siena with two or three random cards against at most two, each
    committing as many as it may most of the time and answering every other question at
    random: hands are emptied, so that many battles end on the very action that fights them."""
    cards = [rng.choice(BLUE_CARDS) for _ in range(2)] + rng.sample(RED_CARDS, rng.randint(0, 1))
    state, attacker = combat_state(war=1, cards=cards, ducats=rng.randint(0, 3))
    rome, siena = state.nations.index("rome"), city(state, "Siena")
    defence = [rng.choice(BLUE_CARDS + RED_CARDS) for _ in range(rng.randint(0, 2))]
    state = edit(
        state,
        hands=put(state.hands, rome, hand(*defence)),
        fort=put(state.fort, siena, rng.randint(0, 2)),
    )
    attack = {"type": "attack", "from": "Firenze", "to": "Siena"}
    if attack not in legal_actions(state, attacker):
        return
    state = apply_action(state, attacker, attack)
    while state.battle is not None:
        seat = state.current
        action = rng.choice(legal_actions(state, seat))
        if action["type"] == "commit" and rng.random() < 0.8:
            action = max(legal_actions(state, seat), key=committed)
        after = apply_action(state, seat, action)
        watch(state, seat, action, after)
        state = after


def test_battles_ended_by_the_action_that_fought_them_are_told_as_the_engine_fought_them():
    """Whichever action ends a battle (a commitment, a counter, a traitor bought or not, a Sign
    of God, a Retreat), its record holds the cards turned up, the engine's dice, totals that
    add up by the rules and the city's fate."""
    watch = Watch(5)
    rng = random.Random(5)
    for _ in range(100 * max(1, RANDOM_GAMES // 4)):
        random_battle(rng, watch)
    # (A counter ends a battle too; too rarely here: see the test after this one.)
    phases = {"attack", "defend", "treason", "sign_of_god", "retreat"}
    assert phases <= set(watch.concluded), watch.concluded


def test_a_battle_ended_by_a_counter_is_told_whole():
    """[ruling] R16: the defender, asked, counters the attacker's Engineer from its hand; with
    no card left on either side the counter's answer fights and ends the battle."""
    state, attacker = combat_state(war=1, cards=["knights", "cannon", "engineer"])
    rome = state.nations.index("rome")
    state = edit(state, hands=put(state.hands, rome, hand("pikemen", "engineer")))
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["knights", "cannon"], "engineer"))
    state = apply_action(state, rome, commit(["pikemen"]))
    answer = {"type": "counter", "play": True}
    watch = Watch(0)
    watch(state, rome, answer, apply_action(state, rome, answer))
    assert watch.concluded == {"counter": 1}
    assert watch.last_record["battle"]["countered"] is True


# --- Chosen situations --------------------------------------------------------------------------


def vote_state(players=4):
    return until(through_setup(game(players, 2)), lambda s: s.phase == VOTE)


def test_votes_before_the_last_say_only_who_voted_and_the_last_reveals_every_vote():
    """[ruling] R29: the votes are secret until the last, when all are revealed with the
    outcome; [rules] war if at least half voted war."""
    state = vote_state()
    votes = {0: True, 1: False, 2: True, 3: False}
    records = []
    for seat, war in votes.items():
        after = apply_action(state, seat, {"type": "vote", "war": war})
        records.append(public_record({"type": "vote", "war": war}, seat, state, after))
        state = after
    assert records[:3] == [{"type": "vote", "phase": "vote"}] * 3
    last = records[-1]
    assert last["votes"] == [True, False, True, False] and last["war"] is True
    assert last["cards"] == [6, 6, 6, 6]  # [rules] war: six cards each


def test_offers_refusals_and_withdrawals_leave_no_entry_and_an_accepted_exchange_is_public():
    """[ruling] R45: an offer is seen by its two parties only; what an accepted one does (the
    two cities change hands) is public."""
    state, florence, rome = table()
    offered = offer(state, florence, rome, "Pistoia", "Siena")
    assert (
        public_record(
            {"type": "offer_exchange", "to": rome, "give": "Pistoia", "take": "Siena"},
            florence,
            state,
            offered,
        )
        is None
    )
    for seat, answer in (
        (rome, {"type": "decline_exchange", "from": florence, "give": "Pistoia", "take": "Siena"}),
        (florence, {"type": "withdraw_exchange", "to": rome, "give": "Pistoia", "take": "Siena"}),
    ):
        assert public_record(answer, seat, offered, apply_action(offered, seat, answer)) is None
    accept = {"type": "accept_exchange", "from": florence, "give": "Pistoia", "take": "Siena"}
    record = public_record(accept, rome, offered, apply_action(offered, rome, accept))
    assert record == {
        **accept,
        "cities": {"Pistoia": {"owner": rome}, "Siena": {"owner": florence}},
    }


def test_a_gift_of_ducats_is_public():
    """[ruling] R43: immediate and public."""
    state, florence, rome = table()
    gift = {"type": "give_ducats", "to": florence, "amount": 3}
    record = public_record(gift, rome, state, apply_action(state, rome, gift))
    change = [0] * 6
    change[florence], change[rome] = 3, -3
    assert record == {**gift, "ducats": change}


def test_an_accepted_condottiere_sale_is_public_the_rest_of_the_hands_not():
    """[ruling] R44: the card goes into the buyer's hand known to all; the buyer pays the
    seller a ducat. The offer itself is the two parties' (R45)."""
    state, florence, rome = table()
    sale = {"type": "offer_condottiere", "to": rome}
    offered = apply_action(state, florence, sale)
    assert public_record(sale, florence, state, offered) is None
    accept = {"type": "accept_condottiere", "from": florence}
    record = public_record(accept, rome, offered, apply_action(offered, rome, accept))
    change = [0] * 6
    change[florence], change[rome] = 1, -1
    assert record == {**accept, "ducats": change, "cards": [-c for c in change]}


def test_a_face_down_commitment_shows_how_many_cards_never_which():
    """[ruling] R28: the number of face-down cards, not their kinds."""
    state, (attacker, _) = prepare(["knights", "cannon", "pikemen", "pikemen"], ["knights"])
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    records = []
    for blue in (["cannon", "knights"], ["pikemen", "pikemen"]):
        action = commit(blue)
        records.append(
            public_record(action, attacker, state, apply_action(state, attacker, action))
        )
    change = [0] * 6
    change[attacker] = -2
    assert records == [{"type": "commit", "phase": "attack", "count": 2, "cards": change}] * 2


def test_the_reveal_rides_on_the_action_that_turned_the_cards_up():
    """[ruling] R28: everything after the reveal is public; R19 the attacker, holding a card,
    is then asked for a Sign of God, so the battle goes on."""
    state, (attacker, defender) = prepare(["knights", "cannon"], ["pikemen"])
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["knights", "cannon"]))
    after = apply_action(state, defender, commit(["pikemen"]))
    fight = public_record(commit(["pikemen"]), defender, state, after)["fight"]
    assert fight["cards"] == [
        {"blue": ["knights", "cannon"], "red": None},
        {"blue": ["pikemen"], "red": None},
    ]
    assert fight["dice"] == list(after.battle["dice"]) and "totals" not in fight


def test_a_battle_fought_and_ended_by_one_commitment_is_told_whole():
    """The defender commits its last card and nobody has one left: the reveal, the dice, the
    totals and the city's fate all come with that commitment ([rules] lines 385-426)."""
    state, attacker = combat_state(war=1, cards=["knights", "cannon"])
    rome = state.nations.index("rome")
    siena = city(state, "Siena")
    state = edit(state, hands=put(state.hands, rome, hand("pikemen")))
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    state = apply_action(state, attacker, commit(["knights", "cannon"]))
    after = apply_action(state, rome, commit(["pikemen"]))
    assert after.battle is None
    battle = public_record(commit(["pikemen"]), rome, state, after)["battle"]
    dice = [die(state, state.rng), die(state, state.rng + 1)]
    attack, defence = 5 + 6 + dice[0], 3 + dice[1] + 2  # Siena: a garrison (2), plain
    assert battle["cards"] == [
        {"blue": ["knights", "cannon"], "red": None},
        {"blue": ["pikemen"], "red": None},
    ]
    assert battle["dice"] == dice and battle["totals"] == [attack, defence]
    assert battle["captured"] == (attack > defence)
    assert battle["winner"] == (attacker if attack > defence else rome)
    assert (after.owner[siena] == attacker) == battle["captured"]


def die(state, k):
    """The die the engine rolls as its k-th random draw."""
    return random.Random(f"{state.seed}:{k}").randint(1, 6)


def test_purchases_show_how_many_cards_and_which_building_where():
    """[ruling] R30: the cards bought are drawn face down (their number is public); a building
    goes on a city for all to see."""
    state = until(through_setup(game(4, 3)), lambda s: s.phase == PURCHASE)
    seat = state.current
    state = edit(state, ducats=put(state.ducats, seat, 20))
    buy = {"type": "buy_cards", "count": 2}
    bought = apply_action(state, seat, buy)
    record = public_record(buy, seat, state, bought)
    assert record["type"] == "buy_cards" and record["count"] == 2
    assert record["cards"][seat] == 2 and record["ducats"][seat] == -4
    build = next(a for a in legal_actions(bought, seat) if a["type"] == "build")
    record = public_record(build, seat, bought, apply_action(bought, seat, build))
    assert {key: record[key] for key in ("type", "piece", "city")} == build
    assert build["city"] in record["cities"]


def test_the_end_of_a_turn_a_new_turn_and_the_end_of_the_game_are_told():
    """[rules] Sequence 6 scores the turn's Renaissance Points; the game ends after the sixth
    turn ([ruling] R33)."""
    entries = []

    def log(before, seat, action, after):
        entries.append((before, public_record(action, seat, before, after), after))

    random_game(4, 31, TINY, log)
    turn_ends = [(b, r, a) for b, r, a in entries if "scored" in r]
    assert len(turn_ends) == 6
    for _before, record, after in turn_ends:
        assert record["scored"] == [sheet[-1] for sheet in after.sheet]
        assert record["points"] == list(after.points)
    new_turns = [r["turn"] for _b, r, _a in entries if "turn" in r]
    assert new_turns == [1, 2, 3, 4, 5, 6]
    before, last, after = entries[-1]
    assert after.phase == OVER and last["over"] == {
        "winners": list(after.winners),
        "points": list(after.points),
    }


def test_a_move_is_told_with_its_phase():
    """A pass means something else in each phase: the record says which."""
    state, seat = combat_state(cards=["pikemen"])
    end = {"type": "end_turn"}
    after = apply_action(state, seat, end)
    record = public_record(end, seat, state, after)
    assert record["type"] == "end_turn" and record["phase"] == "combat"
    assert state.phase == COMBAT
