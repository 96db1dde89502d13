"""Is the table ganging up? A test on the game's public history (issue #16, part 4).

Players who stop contesting each other once one of them leads (the arena's `ganging`, and real
tables) let a battle go when one of them holds the strongest line, but fight on when the
observer holds it. Independent players treat every rival alike. So the test compares how often
the other seats give up a battle (pass, or let it end without playing) while a third seat other
than the observer leads it, against how often they do while the observer leads it: a clearly
higher rate in the first case (a one-sided two-proportion z-test) means a coalition, and the
search then models the other seats as one team (`tree.Search(team_against=...)`).

Measured on 40 four-player games each (the observer a heuristic bot, seat 0): against three
`ganging` bots the other seats passed 39% of the time behind one another and 11% behind the
observer; four independent heuristic bots, 16% and 14%.
"""

import math

BATTLE_PHASES = ("battle", "final_battle")
# How much more often the others must let one of their own win, and how sure the test must be.
MIN_GAP = 0.15
MIN_Z = 2.0
MIN_DECISIONS = 8


def answers_to_leaders(history: list, observer: int) -> dict:
    """{"others": [gave up, decisions], "observer": [...]}: the other seats' answers while a
    single seat other than themselves leads a battle, by who leads: another non-observer seat
    or the observer."""
    counts = {"others": [0, 0], "observer": [0, 0]}
    for before, after in zip(history[:-1], history[1:], strict=True):
        if before["phase"] not in BATTLE_PHASES:
            continue
        seat = before["current_player"]
        if seat is None or seat == observer:
            continue
        strengths = [player["strength"] for player in before["players"]]
        top = max(strengths)
        leaders = [other for other, value in enumerate(strengths) if value == top]
        if top == 0 or len(leaders) != 1 or leaders[0] == seat:
            continue
        line_before = before["players"][seat]["line"]
        line_after = after["players"][seat]["line"] if after["phase"] in BATTLE_PHASES else ()
        gave_up = after["players"][seat]["passed"] or len(line_after) <= len(line_before)
        row = counts["observer" if leaders[0] == observer else "others"]
        row[0] += bool(gave_up)
        row[1] += 1
    return counts


def suspects_coalition(history: list | None, observer: int) -> bool:
    """Whether the other seats spare one another clearly more than they spare the observer."""
    if not history or len(history[0]["players"]) < 3:
        return False  # heads-up there is nobody to gang with
    counts = answers_to_leaders(history, observer)
    (spared, asked), (let_me, asked_me) = counts["others"], counts["observer"]
    if asked < MIN_DECISIONS or asked_me < MIN_DECISIONS:
        return False
    gap = spared / asked - let_me / asked_me
    pooled = (spared + let_me) / (asked + asked_me)
    spread = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / asked + 1 / asked_me))
    return gap >= MIN_GAP and gap / spread >= MIN_Z
