"""A seat's reading of its view: whose regions are where, what each battle is worth to whom.

Built once per decision from the view alone (never from a full state), then queried by the
heuristic's phase handlers.
"""

from dataclasses import dataclass

from . import board
from .cards import HIDDEN, HIDDEN_CARD_ESTIMATE

# Card points (strength a player would spend) that one unit of win progress is worth: a first
# region in a 4-player game (progress 0.2) is then worth a 12-point fight, a winning one 70+.
POINTS_PER_PROGRESS = 60.0
# Denying a rival a region is worth less than taking it oneself: other rivals remain.
DENIAL_WEIGHT = 0.7


@dataclass(frozen=True)
class Situation:
    seat: int
    players: int
    owned: tuple  # frozenset of regions per seat
    targets: tuple
    region: str | None
    defender: int | None
    final_battle: bool

    @classmethod
    def from_view(cls, view: dict) -> "Situation":
        players = len(view["players"])
        options = view.get("options") or {}
        defender = view.get("defender")
        region = view.get("region")
        if defender is None and region is not None:
            defender = (view.get("owners") or {}).get(region)
        return cls(
            seat=view["seat"],
            players=players,
            owned=tuple(board.owned_by_seat(view.get("owners") or {}, players)),
            targets=board.win_targets(players, bool(options.get("bigger_kingdoms"))),
            region=region,
            defender=defender,
            final_battle=view["phase"] == "final_battle",
        )

    def rivals(self):
        return (s for s in range(self.players) if s != self.seat)

    def gain(self, seat: int, region: str) -> float:
        """Progress `seat` makes by winning `region`, taking it from its defender if any."""
        return board.region_gain(self.owned[seat], region, self.targets)

    def denial(self, seat: int, region: str) -> float:
        """Progress the region's current owner loses when `seat` takes it."""
        owner = next((s for s in range(self.players) if region in self.owned[s]), None)
        if owner is None or owner == seat:
            return 0.0
        return board.region_loss(self.owned[owner], region, self.targets)

    def value_of_winning(self, seat: int, region: str) -> float:
        """Card points `self.seat` gains if `seat` wins `region` (negative for a rival)."""
        if seat == self.seat:
            return POINTS_PER_PROGRESS * (self.gain(seat, region) + self.denial(seat, region))
        loss_to_me = board.region_loss(self.owned[self.seat], region, self.targets)
        return -POINTS_PER_PROGRESS * (DENIAL_WEIGHT * self.gain(seat, region) + loss_to_me)


def visible_lines(view: dict) -> list[list[str]]:
    """Face-up cards per seat (own face-down card included: this seat sees it)."""
    return [[c for c in p["line"] if c != HIDDEN] for p in view["players"]]


def hidden_bonus(view: dict) -> list[int]:
    """Estimated strength of each seat's face-down cards, unknown to this seat."""
    return [HIDDEN_CARD_ESTIMATE * p["line"].count(HIDDEN) for p in view["players"]]
