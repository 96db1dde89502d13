"""Is the table ganging up on this seat? A test on the game's public history.

Independent players fight one another whoever leads the table: in most battles two or more of
the observer's rivals lay cards. Players who gang up on a leader do not, once the observer
leads: one of them fights for the team and the others pass behind it (the arena's
`coalition`). So the test takes the finished battles of the game that began while the observer
led the table (its progress, `board.progress`, positive and strictly above every other seat's)
and at least two other seats held cards, and counts those in which two or more of them laid a
card. When at least `MIN_BATTLES` such battles have been fought and at most `MAX_CONTESTED` of
them were contested between the others, the table is a coalition, and the search models the
other seats as one (`SearchBot(coalition="auto")`, `opponents.TeamOpponents`).

Two earlier tests counted every battle or every decision of the game, whoever led
(docs/ai.md, "Tried and dropped"): a coalition that gangs only on a leader fights like anyone
else the rest of the time, and those tests fired late or not at all.
"""

from .. import board

BATTLE_PHASES = ("battle", "final_battle")
# Battles begun under the observer's lead, with two or more others holding cards, that the test
# needs; and the share of them contested between the others that it still calls a coalition.
MIN_BATTLES = 1
MAX_CONTESTED = 0.25


def battles_of(history: list) -> list[list[dict]]:
    """The finished battles of the history, each as its run of consecutive battle views (the
    battle going on, if any, is left out: it may still be contested)."""
    battles, current = [], []
    for view in history:
        if view["phase"] in BATTLE_PHASES:
            current.append(view)
        elif current:
            battles.append(current)
            current = []
    return battles


def leads_the_table(view: dict, seat: int) -> bool:
    """`seat`'s progress is positive and strictly above every other seat's."""
    players = len(view["players"])
    options = view.get("options") or {}
    targets = board.win_targets(players, bool(options.get("bigger_kingdoms")))
    owned = board.owned_by_seat(view.get("owners") or {}, players)
    progress = [board.progress(owned[s], targets) for s in range(players)]
    return progress[seat] > 0 and all(
        progress[seat] > progress[s] for s in range(players) if s != seat
    )


def contest_counts(history: list, observer: int) -> tuple[int, int]:
    """(battles begun under the observer's lead with two or more other seats holding cards,
    those of them in which two or more other seats laid a card)."""
    eligible = contested = 0
    for battle in battles_of(history):
        start = battle[0]
        others = [p for p in start["players"] if p["seat"] != observer]
        if sum(1 for p in others if p["hand_size"] > 0) < 2:
            continue
        if not leads_the_table(start, observer):
            continue
        eligible += 1
        fighters = {
            p["seat"]
            for view in battle
            for p in view["players"]
            if p["seat"] != observer and p["line"]
        }
        contested += len(fighters) >= 2
    return eligible, contested


def suspects_coalition(history: list | None, observer: int) -> bool:
    """Whether the other seats have clearly stopped contesting one another's battles while the
    observer leads."""
    if not history or len(history[0]["players"]) < 3:
        return False  # heads-up there is nobody to gang with
    eligible, contested = contest_counts(history, observer)
    return eligible >= MIN_BATTLES and contested <= MAX_CONTESTED * eligible
