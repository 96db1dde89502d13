"""Action.public: what everyone may know of an accepted action.

Computed from the action and the spectator's views before and after it, so that it can never say
more than the engine lets a spectator see:
- a card played face down (Hidden Cards) is "hidden";
- `keep` shows only how many cards were kept; `draw` how many were drawn (hand sizes are public);
- a `show` (a seat showing cards to another, or to everyone) says how many cards and to whom,
  never which: those only the viewer's view and the stored action hold;
- a `discard_hand` says whether the hand was discarded (`discard` true, the cards face down) or
  kept: every seat with cards is asked (rulings, step 4), so keeping reveals nothing;
- a battle's conclusion (region, winner, strengths) rides on the action that concluded it;
- so do the other things an action set off that the table saw happen: the Bishop's victims
  (face-up Mercenaries leaving the lines), the Condottiere token changing hands, the end of a
  round and a new deal (how many cards each seat was dealt: hand sizes are public).
"""

from collections import Counter

BATTLE_PHASES = ("battle", "final_battle")
MERCENARIES = ("m1", "m2", "m3", "m4", "m5", "m6", "m10")


def public_record(action: dict, seat: int, before: dict, after: dict) -> dict:
    """The public record of `action` by `seat`; `before`/`after` are `view_for(state, None)` of
    the states around it."""
    record = _action_record(action, seat, after)
    battle = concluded_battle(before, after)
    if battle is not None:
        record["battle"] = battle
    if record["type"] == "play" and record["card"] == "bishop":
        record["bishop"] = bishop_victims(seat, before, after)
    if battle is not None and after["condottiere"] != before["condottiere"]:
        record["token"] = after["condottiere"]
    record.update(round_facts(action, seat, before, after))
    return record


def _action_record(action: dict, seat: int, after: dict) -> dict:
    kind = action["type"]
    if kind == "choose_region":
        return {"type": kind, "region": action["region"]}
    if kind == "play":
        return _play_record(action, seat, after)
    if kind == "pass":
        return {"type": kind, "reveal": True} if action.get("reveal") else {"type": kind}
    if kind == "discard_hand":
        return {"type": kind, "discard": bool(action.get("discard"))}
    if kind == "keep":
        return {"type": kind, "count": len(action.get("cards", []))}
    if kind == "draw":
        return {"type": kind, "count": action.get("count", 0)}
    if kind == "show":  # how many cards and to whom (None: everyone); which ones stay hidden
        return {"type": kind, "to": action.get("to"), "count": len(action.get("cards", []))}
    return {"type": kind}


def _play_record(action: dict, seat: int, after: dict) -> dict:
    record = {"type": "play", "card": action["card"]}
    if _played_face_down(seat, after):
        record["card"] = "hidden"
        return record
    for key in ("take", "pope"):
        if key in action:
            record[key] = action[key]
    return record


def _played_face_down(seat: int, after: dict) -> bool:
    """Hidden Cards: the card just played lies face down at the end of the seat's line, as the
    spectator sees it. Once the battle is over every card is revealed, and so may be logged."""
    line = after["players"][seat]["line"]
    return bool(line) and line[-1] == "hidden"


def concluded_battle(before: dict, after: dict) -> dict | None:
    """The battle that the action ended, from the public views: a battle (or the final battle)
    was on before and is over after (its region is cleared, or the phase moved on)."""
    if before["phase"] not in BATTLE_PHASES:
        return None
    still_on = after["phase"] == before["phase"] and after.get("region") == before.get("region")
    if still_on:
        return None
    summary = after.get("last_battle") or {}
    return {
        "region": summary.get("region", before.get("region")),
        "winner": summary.get("winner"),
        "strengths": summary.get("strengths", []),
    }


def bishop_victims(seat: int, before: dict, after: dict) -> list[dict]:
    """The Mercenaries the Bishop discarded, one {"seat", "card"} per card, in seat order.

    The Bishop discards every face-up Mercenary of the highest value, so the victims are the
    cards of that value that left the lines. The Bishop's own play may first turn up its
    player's face-down card, which is then a victim that the line before never showed: the face-
    up discards it added (victims, then the Bishop) tell how many victims there were in all."""
    removed = [_left_line(before, after, other, seat) for other in range(len(before["players"]))]
    victims = [
        {"seat": other, "card": card}
        for other, cards in enumerate(removed)
        for card in sorted(cards.elements(), key=MERCENARIES.index)
    ]
    unseen = _discarded_victims(before, after) - Counter(victim["card"] for victim in victims)
    victims += [{"seat": seat, "card": card} for card in sorted(unseen.elements())]
    return sorted(victims, key=lambda victim: victim["seat"])


def _left_line(before: dict, after: dict, seat: int, bishop_seat: int) -> Counter:
    """The face-up Mercenaries in `seat`'s line before that are no longer in it after.

    If the Bishop ended the battle, the other seats' face-down cards were revealed at the end of
    their lines: such a card was never a victim, so it must not hide one of the same value."""
    line = before["players"][seat]["line"]
    now = after["players"][seat]["line"]
    if seat != bishop_seat and "hidden" in line and "hidden" not in now:
        now = now[:-1]
    was = Counter(card for card in line if card in MERCENARIES)
    return was - Counter(now)


def _discarded_victims(before: dict, after: dict) -> Counter:
    """The Mercenaries added to the face-up discards (nothing if the pile was reshuffled)."""
    old, new = before["discards"], after["discards"]
    if new[: len(old)] != old:
        return Counter()
    return Counter(card for card in new[len(old) :] if card in MERCENARIES)


def round_facts(action: dict, seat: int, before: dict, after: dict) -> dict:
    """The end of a round and a new deal, if the action brought them.

    Without Draw After Battle a round ends when at most one seat still holds cards: one seat
    left is asked which cards it keeps (`round_end` with that `keeper`); nobody left, or the
    keeper's answer, brings the new deal. Any deal (a new round, the final battle, everybody
    dealt 10 with Draw After Battle) is logged as `dealt`, the cards each seat received."""
    facts = {}
    dealt = dealt_counts(action, seat, before, after)
    rounds = not after["options"].get("draw_after_battle")
    starts_keep = after["phase"] == "keep" and before["phase"] != "keep"
    new_round = any(dealt) and rounds and after["phase"] == "battle"
    if starts_keep:
        facts["round_end"] = True
        facts["keeper"] = after["current_player"]
    elif new_round and before["phase"] != "keep":
        facts["round_end"] = True  # the keeper's answer was logged with the round's end
    if any(dealt):
        facts["dealt"] = dealt
    return facts


def dealt_counts(action: dict, seat: int, before: dict, after: dict) -> list[int]:
    """Cards each seat received beyond what the action itself explains (a draw, a Scarecrow)."""
    expected = [player["hand_size"] for player in before["players"]]
    kind = action["type"]
    if kind == "play":
        expected[seat] -= 1
        expected[seat] += 1 if action.get("take") else 0
    elif kind == "discard_hand" and action.get("discard"):
        expected[seat] = 0
    elif kind == "keep":
        expected[seat] = len(action.get("cards", []))
    elif kind == "draw":
        expected[seat] += action.get("count", 0)
    sizes = [player["hand_size"] for player in after["players"]]
    return [max(0, size - was) for size, was in zip(sizes, expected, strict=True)]
