"""What each seat's public play this round says about its hand, read from spectator views.

A round starts at a deal (hand sizes jump up, outside a Draw After Battle step). Between two
consecutive spectator views exactly one seat acted (the first view's `current_player`), so
comparing them tells what it did: played a card (its line gained one), passed (with an empty
line, or behind), kept its hand at the discard step, or kept cards at the end of the round.
Everything here is public: every player at the table saw each of these views.
"""

MERCENARY_RANK = {"m1": 1, "m2": 1, "m3": 1, "m4": 2, "m5": 2, "m6": 2, "m10": 3}
STRENGTH_CARDS = ("heroine", "courtesan")
# Cards that change a line without being played onto the end of it as a longer line would:
# each is placed on the line while it takes cards back or away.
LINE_CHANGERS = ("scarecrow", "bishop")
BATTLE_PHASES = ("battle", "final_battle")

# Feature names and how many values each takes (the model's tables are indexed by both).
FEATURES = (
    ("passed_empty", 3),  # battles this round given up with no card played, holding cards
    ("passed_behind", 3),  # battles this round left after playing, while behind
    ("top_mercenary", 4),  # highest face-up Mercenary played this round: none, 1-3, 4-6, 10
    ("played", 4),  # cards played this round: 0, 1-2, 3-4, 5+
    ("kept_hand", 2),  # declined to discard its hand this round
    ("last_card", 4),  # last card played: none, Mercenary, Heroine/Courtesan, other
    ("keeper", 2),  # kept two cards at the end of the last round (they are in this hand)
    ("this_battle", 3),  # in the battle going on: nothing yet, fighting, passed
)
FEATURE_NAMES = tuple(name for name, _ in FEATURES)


def _hand_total(view) -> int:
    return sum(player["hand_size"] for player in view["players"])


def is_new_round(before: dict, after: dict) -> bool:
    """Hand sizes only grow at a deal, or in a Draw After Battle step."""
    return _hand_total(after) > _hand_total(before) and before["phase"] != "draw"


def round_start(history: list) -> int:
    """Index of the first view of the current round."""
    for index in range(len(history) - 1, 0, -1):
        if is_new_round(history[index - 1], history[index]):
            return index
    return 0


def played_card(before: dict, after: dict) -> str | None:
    """The card a seat put on its line between two of its states, if any (a pass that turns a
    face-down card up changes the line but adds nothing)."""
    old, new = before["line"], after["line"]
    if not new:
        return None
    if len(new) > len(old) or (new[-1] in LINE_CHANGERS and new != old):
        return new[-1]
    return None


class SeatRecord:
    """Running counts of one seat's public play this round."""

    __slots__ = (
        "passed_empty",
        "passed_behind",
        "top_mercenary",
        "played",
        "kept_hand",
        "last_card",
        "keeper",
    )

    def __init__(self, keeper: bool):
        self.passed_empty = 0
        self.passed_behind = 0
        self.top_mercenary = 0
        self.played = 0
        self.kept_hand = 0
        self.last_card = 0
        self.keeper = int(keeper)

    def play(self, card: str):
        self.played += 1
        if card in MERCENARY_RANK:
            self.top_mercenary = max(self.top_mercenary, MERCENARY_RANK[card])
            self.last_card = 1
        elif card == "hidden":
            self.last_card = 1  # a face-down card is a Mercenary most of the time
        elif card in STRENGTH_CARDS:
            self.last_card = 2
        else:
            self.last_card = 3

    def pass_battle(self, seat: int, view: dict):
        player = view["players"][seat]
        if not player["line"]:
            self.passed_empty += 1
            return
        best_rival = max(p["strength"] for p in view["players"] if p["seat"] != seat)
        if player["strength"] < best_rival:
            self.passed_behind += 1


def _step(records: list, before: dict, after: dict):
    actor = before["current_player"]
    if actor is None:
        return
    record = records[actor]
    phase = before["phase"]
    if phase in BATTLE_PHASES:
        card = played_card(before["players"][actor], after["players"][actor])
        if card is not None:
            record.play(card)
        elif not before["players"][actor]["passed"]:
            record.pass_battle(actor, before)
    elif phase == "discard_hand" and after["players"][actor]["hand_size"]:
        record.kept_hand = 1


def _this_battle(view: dict, seat: int) -> int:
    if view["phase"] not in BATTLE_PHASES:
        return 0
    player = view["players"][seat]
    if player["passed"]:
        return 2
    return 1 if player["line"] else 0


def _bucket(count: int, edges) -> int:
    """The number of `edges` that `count` reaches."""
    return sum(1 for edge in edges if count >= edge)


def seat_features(record: SeatRecord, view: dict, seat: int) -> tuple:
    return (
        min(record.passed_empty, 2),
        min(record.passed_behind, 2),
        record.top_mercenary,
        _bucket(record.played, (1, 3, 5)),
        record.kept_hand,
        record.last_card,
        record.keeper,
        _this_battle(view, seat),
    )


class RoundReader:
    """Feeds spectator views in order; `features(seat)` describes each seat's play so far this
    round. Used incrementally when logging games (training) and over a history (the bot)."""

    def __init__(self, first_view: dict, keepers=()):
        self.view = first_view
        self.records = [SeatRecord(seat in keepers) for seat in range(len(first_view["players"]))]

    def feed(self, view: dict):
        before = self.view
        if is_new_round(before, view):
            keepers = (before["current_player"],) if before["phase"] == "keep" else ()
            self.records = [SeatRecord(seat in keepers) for seat in range(len(self.records))]
        else:
            _step(self.records, before, view)
        self.view = view

    def features(self, seat: int) -> tuple:
        return seat_features(self.records[seat], self.view, seat)


def read_history(history: list) -> RoundReader:
    """A reader positioned at the last view of `history`, having read only the current round."""
    start = round_start(history)
    keepers = ()
    if start > 0 and history[start - 1]["phase"] == "keep":
        keepers = (history[start - 1]["current_player"],)
    reader = RoundReader(history[start], keepers)
    for view in history[start + 1 :]:
        reader.feed(view)
    return reader
