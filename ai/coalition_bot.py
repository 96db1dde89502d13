"""The arena's `coalition`: players who gang up on an outsider who leads, and see every hand.
It CHEATS ON PURPOSE; arena only, never a level of the site.

A table that lets nobody run away with the game: while an outsider (a seat not of the coalition)
leads, the members stop fighting one another and play as one team against it, knowing every
card in every hand (as friends showing each other their cards would). It is the `ganging` team
play (ganging.py) with another trigger and two changes:

- **When**: an outsider's progress (`board.progress`) is positive and strictly above every
  member's. Otherwise each member plays the plain heuristic for itself. (Teaming up whenever
  anyone has won a region, on a member's lead as `ganging` does too, left the heuristic 6 of 200
  games at seed 991, and from the first battle none: a wall nothing measures against.)
- **True threats**: an outsider counts as a threat still able to answer only if its true hand
  can still beat the coalition's best line (its line plus every strength card it holds, see
  `reach`); a member whose lead nobody can answer passes at once, spending nothing.
- **One champion per battle**: of the members still in the battle, the one whose line and true
  hand reach the most fights for the team; the others pass (keeping their cards for the battles
  they will fight) unless the champion cannot beat the outsiders' reach without them.

The arena hands it the true state (`choose_with_state(view, state)`, as the `oracle`);
`choose(view)` raises, so no caller holding only a view can make it play.
"""

from games.engine import GameState, view_for

from . import board
from .battle_play import Style, defender_may_wait, uncontested_win
from .cards import MERCENARY_VALUES
from .ganging import (
    BATTLE_PHASES,
    GangingBot,
    TeamBattleReader,
    TeamSituation,
    plain_pass,
)
from .heuristic import choose_by_phase, choose_region
from .seeding import decision_rng
from .situation import Situation

# Strength a card can add to its holder's line, at most (Heroine 10, a Courtesan 1; a Drummer
# doubles the Mercenaries, counted by `reach`). Bishops and seasons only take strength away.
CARD_REACH = {**MERCENARY_VALUES, "heroine": 10, "courtesan": 1}


def reach(strength: float, hand: list[str]) -> float:
    """About the most a seat's line could reach this battle: its strength now plus every card of
    its hand that adds strength, the Mercenaries doubled when the hand holds a Drummer or Spring
    (a rough bound: Spring adds 3 to the highest Mercenaries, not double)."""
    mercenaries = sum(MERCENARY_VALUES.get(card, 0) for card in hand)
    others = sum(CARD_REACH.get(card, 0) for card in hand if card not in MERCENARY_VALUES)
    doubling = "drummer" in hand or "spring" in hand
    return strength + mercenaries * (2 if doubling else 1) + others


class OmniscientTeamReader(TeamBattleReader):
    """The team's battle reading with every hand known: only an outsider whose true hand can
    still beat the coalition's best line is a threat."""

    def __init__(self, view: dict, sit: TeamSituation, style: Style, hands: list[list[str]]):
        self.hands = hands
        super().__init__(view, sit, style)
        strengths = self.strengths(self.lines)
        team_best = max(strengths[m] for m in sit.members())
        players = view["players"]
        self.threats = sum(
            min(1.0, len(hands[s]) / 3.0)
            for s in sit.rivals()
            if not players[s]["passed"] and hands[s] and reach(strengths[s], hands[s]) >= team_best
        )

    def reaches(self) -> list[float]:
        strengths = self.strengths(self.lines)
        players = self.view["players"]
        return [
            strengths[s] if players[s]["passed"] else reach(strengths[s], self.hands[s])
            for s in range(self.sit.players)
        ]

    def champion(self) -> int | None:
        """The member still in the battle whose line and hand reach the most (lowest seat on a
        tie), or None when every member has passed or holds nothing."""
        players = self.view["players"]
        reaches = self.reaches()
        fighting = [m for m in self.sit.members() if not players[m]["passed"] and self.hands[m]]
        return max(fighting, key=lambda m: (reaches[m], -m), default=None)

    def leaves_it_to_the_champion(self) -> bool:
        """Another member fights for the team and can beat every outsider's reach alone."""
        champion = self.champion()
        if champion is None or champion == self.me:
            return False
        reaches = self.reaches()
        return reaches[champion] > max(reaches[s] for s in self.sit.rivals())


def choose_coalition_battle_action(view, sit: TeamSituation, style, hands) -> dict:
    actions = view["legal_actions"]
    if defender_may_wait(view, sit):
        return plain_pass(actions)
    reader = OmniscientTeamReader(view, sit, style, hands)
    free_region = uncontested_win(view, reader)
    if free_region is not None:
        return free_region
    can_pass = any(a["type"] == "pass" for a in actions)
    if can_pass and (reader.ally_holds_the_battle() or reader.leaves_it_to_the_champion()):
        return plain_pass(actions)
    allowed = [a for a in actions if not reader.costs_an_ally(a)] or actions
    return max(allowed, key=reader.score)


def outsider_leads(sit: Situation, members) -> bool:
    """An outsider's progress is positive and strictly above every member's."""
    progress = [board.progress(sit.owned[s], sit.targets) for s in range(sit.players)]
    outsiders = [progress[s] for s in range(sit.players) if s not in members]
    if not outsiders:
        return False
    best = max(outsiders)
    return best > 0 and best > max(progress[m] for m in members)


class CoalitionBot(GangingBot):
    """Gangs up on a leading outsider, seeing every hand (module docstring)."""

    sees_true_state = True

    def __init__(self, seed=None, *, allies=(), style: Style | None = None):
        super().__init__(seed, allies=allies, style=style)
        self.level = "coalition"

    def choose(self, view: dict, **_ignored) -> dict:
        raise TypeError("a coalition bot reads every hand: call choose_with_state(view, state)")

    def choose_with_state(self, view: dict, truth: GameState) -> dict:
        actions = view["legal_actions"]
        if not actions:
            raise ValueError("this seat has nothing to decide in this view")
        if len(actions) == 1:
            return actions[0]
        return self.decide(view, truth, decision_rng(self.seed, view))

    def decide(self, view: dict, truth: GameState, rng) -> dict:
        """The member's action in `view` (two legal actions or more), every hand read from
        `truth`; `rng` breaks the heuristic's ties."""
        sit = Situation.from_view(view)
        team = TeamSituation.for_team(sit, self.allies)
        if not outsider_leads(sit, team.members()):
            return choose_by_phase(view, self.style, rng)
        if view["legal_actions"][0]["type"] == "choose_region":
            return choose_region(view, team, rng)
        if view["phase"] in BATTLE_PHASES:
            hands = [view_for(truth, seat)["hand"] for seat in range(sit.players)]
            return choose_coalition_battle_action(view, team, self.style, hands)
        return choose_by_phase(view, self.style, rng)


__all__ = ["CoalitionBot", "outsider_leads", "reach"]
