"""Action.public: what everyone may know of an accepted action.

Computed from the action and the spectator's views before and after it, so that it can never say
more than the engine lets a spectator see:
- a card played face down (Hidden Cards) is "hidden";
- `keep` shows only how many cards were kept; `draw` how many were drawn (hand sizes are public);
- a `discard_hand` says whether the hand was discarded (`discard` true, the cards face down) or
  kept: every seat with cards is asked (rulings, step 4), so keeping reveals nothing;
- a battle's conclusion (region, winner, strengths) rides on the action that concluded it.
"""

BATTLE_PHASES = ("battle", "final_battle")


def public_record(action: dict, seat: int, before: dict, after: dict) -> dict:
    """The public record of `action` by `seat`; `before`/`after` are `view_for(state, None)` of
    the states around it."""
    record = _action_record(action, seat, after)
    battle = concluded_battle(before, after)
    if battle is not None:
        record["battle"] = battle
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
