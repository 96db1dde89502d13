"""The arena's `ganging` bots: heuristic players that stop contesting each other once one of them
leads (issue #16). Arena only, never a level of the site.

At a real table players gang up: once one of them leads, the others stop fighting him and turn on
the rest. Here the seats playing `ganging` form a coalition; the arena tells each its allies (the
other `ganging` seats). Each bot still sees only its own view: the allies share no cards, only
the rule.

- **Who leads**: a seat's progress toward victory is `board.progress` of its regions (regions
  count / total target or largest connected group / connected target, the nearer). The coalition
  leads when a member's progress is positive and the highest at the table, ties included. Before
  any region is won nobody leads (everyone is at 0).
- **While no member leads**, each bot plays the plain heuristic (`heuristic.choose_by_phase`).
- **Once a member leads**, the members play as a team, every decision read through a
  `TeamSituation`:
  - only outsiders are rivals: region choice weighs the worst outsider's gain, the Pope shields
    the region an outsider needs most, a battle's stake is against the likeliest outsider, and
    only outsiders who have not passed count as threats that may still answer;
  - an ally winning a region counts as good, exactly as much as winning it oneself (its progress,
    plus what an outsider owner loses, minus what a member owner loses); an outsider winning
    costs the outsider's gain (x0.7, as the heuristic weighs a rival's gain) plus what a member
    owner loses;
  - in battle the margin is the coalition's best line against the best outsider's (a tie between
    two members at the top wins nothing outside the final battle, so it counts as no lead);
  - an ally's winning line is never contested: when an ally holds the strongest line at the table
    and no outsider beats it (the heuristic's tie rule: the defender keeps a tie), the bot passes;
    and no play is made that would turn an ally who beats every outsider into one who does not
    (a Bishop on its top Mercenary, Winter on its Mercenaries, Spring, ...), unless nothing else
    is legal.
  Everything else (discarding a hand, the cards kept, Draw After Battle, a waiting defender, the
  uncontested-battle rule) is the heuristic's.
- With no outsider at the table (every seat ganging) there is nobody to gang against: the plain
  heuristic.
"""

from dataclasses import dataclass, fields

from . import board
from .battle_play import (
    BattleReader,
    Style,
    defender_may_wait,
    uncontested_win,
)
from .cards import lines_after_play
from .heuristic import HeuristicBot, choose_by_phase, choose_region
from .seeding import decision_rng
from .situation import DENIAL_WEIGHT, POINTS_PER_PROGRESS, Situation

BATTLE_PHASES = ("battle", "final_battle")


@dataclass(frozen=True)
class TeamSituation(Situation):
    """A Situation in which the allies are friends: only outsiders are rivals."""

    allies: frozenset = frozenset()

    @classmethod
    def for_team(cls, sit: Situation, allies) -> "TeamSituation":
        base = {field.name: getattr(sit, field.name) for field in fields(Situation)}
        return cls(**base, allies=frozenset(allies) - {sit.seat})

    def members(self):
        return sorted(self.allies | {self.seat})

    def is_member(self, seat: int) -> bool:
        return seat == self.seat or seat in self.allies

    def rivals(self):
        return (s for s in range(self.players) if not self.is_member(s))

    def value_of_winning(self, seat: int, region: str) -> float:
        """Card points the coalition gains if `seat` wins `region` (negative for an outsider)."""
        owner = next((s for s in range(self.players) if region in self.owned[s]), None)
        owner_loss = (
            0.0
            if owner in (None, seat)
            else board.region_loss(self.owned[owner], region, self.targets)
        )
        owner_is_member = owner is not None and self.is_member(owner)
        if self.is_member(seat):
            swing = -owner_loss if owner_is_member else owner_loss
            return POINTS_PER_PROGRESS * (self.gain(seat, region) + swing)
        member_loss = owner_loss if owner_is_member else 0.0
        return -POINTS_PER_PROGRESS * (DENIAL_WEIGHT * self.gain(seat, region) + member_loss)


def coalition_leads(sit: Situation, coalition) -> bool:
    """A member's progress is positive and the highest at the table (ties included)."""
    progress = [board.progress(sit.owned[s], sit.targets) for s in range(sit.players)]
    best = max(progress)
    return best > 0 and any(progress[s] == best for s in coalition)


def team_situation(view: dict, allies) -> TeamSituation | None:
    """The team's reading of the view, or None when the plain heuristic should decide (no member
    leads, or no outsider is left to gang against)."""
    sit = Situation.from_view(view)
    team = TeamSituation.for_team(sit, allies)
    if not any(True for _ in team.rivals()):
        return None
    if not coalition_leads(sit, team.members()):
        return None
    return team


class TeamBattleReader(BattleReader):
    """The heuristic's battle reading with the coalition's margin, stake and threats."""

    def __init__(self, view: dict, sit: TeamSituation, style: Style):
        super().__init__(view, sit, style)
        # Allies do not answer against us: only outsiders still in the battle are threats.
        self.threats = sum(
            min(1.0, p["hand_size"] / 3.0)
            for p in view["players"]
            if not sit.is_member(p["seat"]) and not p["passed"] and p["hand_size"] > 0
        )

    def _stake(self) -> float:
        """Card points between the coalition winning (its most valuable winner) and the
        likeliest outsider winning."""
        if self.sit.final_battle or self.sit.region is None:
            return super()._stake()
        region = self.sit.region
        strengths = self.strengths(self.lines)
        outsider = max(self.sit.rivals(), key=lambda s: (strengths[s], s != self.sit.defender))
        ours = max(self.sit.value_of_winning(m, region) for m in self.sit.members())
        return max(3.0, ours - self.sit.value_of_winning(outsider, region))

    def margin(self, lines) -> float:
        """The coalition's best strength minus the best outsider's; ties lean to the defender."""
        strengths = self.strengths(lines)
        team = [strengths[m] for m in self.sit.members()]
        best = max(team)
        margin = best - max(strengths[s] for s in self.sit.rivals())
        if self.sit.defender is not None:
            margin += 0.5 if self.sit.is_member(self.sit.defender) else -0.5
        if team.count(best) > 1 and not self.sit.final_battle:
            margin = min(margin, 0.0)  # two members tied at the top: nobody takes the region
        return margin

    def winning_allies(self, lines) -> set[int]:
        """Allies who beat every outsider on these lines (the defender keeps a tie)."""
        strengths = self.strengths(lines)
        best_outsider = max(strengths[s] for s in self.sit.rivals())
        defender = self.sit.defender
        return {
            ally
            for ally in self.sit.allies
            if strengths[ally] > best_outsider
            or (strengths[ally] == best_outsider and ally == defender)
        }

    def ally_holds_the_battle(self) -> bool:
        """An ally holds the strongest line at the table and no outsider beats it."""
        strengths = self.strengths(self.lines)
        for ally in self.winning_allies(self.lines):
            others = [strengths[s] for s in range(self.sit.players) if s != ally]
            if strengths[ally] > max(others) or (
                strengths[ally] == max(others) and ally == self.sit.defender
            ):
                return True
        return False

    def costs_an_ally(self, action: dict) -> bool:
        """Would this play turn an ally who beats every outsider into one who does not?"""
        if action["type"] != "play" or action["card"] == "surrender":
            return False
        before = self.winning_allies(self.lines)
        after = self.winning_allies(lines_after_play(self.lines, self.me, action))
        return bool(before - after)


def plain_pass(actions: list[dict]) -> dict:
    passes = [a for a in actions if a["type"] == "pass"]
    return next((a for a in passes if not a.get("reveal")), passes[0])


def choose_team_battle_action(view: dict, sit: TeamSituation, style: Style) -> dict:
    """`battle_play.choose_battle_action` for a team: never contest an ally's winning line."""
    actions = view["legal_actions"]
    if defender_may_wait(view, sit):
        return plain_pass(actions)
    reader = TeamBattleReader(view, sit, style)
    free_region = uncontested_win(view, reader)
    if free_region is not None:
        return free_region
    can_pass = any(a["type"] == "pass" for a in actions)
    if can_pass and reader.ally_holds_the_battle():
        return plain_pass(actions)
    allowed = [a for a in actions if not reader.costs_an_ally(a)] or actions
    return max(allowed, key=reader.score)


class GangingBot(HeuristicBot):
    """The heuristic, playing as a team with `allies` (seats) once one of the team leads."""

    def __init__(self, seed=None, *, allies=(), style: Style | None = None):
        super().__init__(seed, style=style)
        self.allies = frozenset(allies)
        self.level = "ganging"

    def choose(self, view: dict) -> dict:
        actions = view["legal_actions"]
        if not actions:
            raise ValueError("this seat has nothing to decide in this view")
        if len(actions) == 1:
            return actions[0]
        team = team_situation(view, self.allies)
        rng = decision_rng(self.seed, view)
        if team is None:
            return choose_by_phase(view, self.style, rng)
        kind = actions[0]["type"]
        if kind == "choose_region":
            return choose_region(view, team, rng)
        if view["phase"] in BATTLE_PHASES:
            return choose_team_battle_action(view, team, self.style)
        return choose_by_phase(view, self.style, rng)


__all__ = ["GangingBot", "TeamSituation", "coalition_leads", "team_situation"]
