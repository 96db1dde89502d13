"""The playout policy: a cheap caricature of a sensible player, fast enough to run thousands of
battles a second. Uniformly random play would waste cards and almost never pass, so the search
would learn that battles go to whoever holds the most cards; this policy passes when ahead,
gives up hopeless fights now and then, and never wastes a Surrender.
"""

from functools import lru_cache

from games.engine import (
    BATTLE,
    DISCARD_HAND,
    DISCARD_NO,
    DISCARD_YES,
    DRAW,
    DRAW_BASE,
    FINAL_BATTLE,
    HEROINE,
    PASS,
    PLAY,
    SURRENDER,
    legal_moves,
    line_strengths,
)

from .evaluation import hand_worth

STRONG_PLAYS = frozenset(
    PLAY + kind for kind in (*range(7), HEROINE)
)  # Mercenaries and Heroine: plain strength
SURRENDER_MOVE = PLAY + SURRENDER


@lru_cache(maxsize=200_000)
def strengths_of(lines):
    """`line_strengths`, memoised: battle lines are public, so the same lines recur across
    determinizations and iterations, and computing them is the policy's main cost."""
    return line_strengths(lines)


@lru_cache(maxsize=50_000)
def card_plays(moves: tuple) -> tuple[tuple, tuple]:
    """The moves that play a card other than Surrender, and the strong ones among them; memoised
    per tuple of legal moves (a hand's moves recur all through a search)."""
    plays = tuple(m for m in moves if m != SURRENDER_MOVE and m > 1)
    return plays, tuple(m for m in plays if m in STRONG_PLAYS)


def battle_move(state, moves, rng, observer=None):
    """`observer`: when set, the other seats play as one team against it (a coalition that
    stops contesting its own members): each of them counts only the observer as a rival and the
    team's best line as its own."""
    seat = state.current
    strengths = strengths_of(state.lines)
    if observer is None or seat == observer:
        mine, rivals = strengths[seat], [other for other in range(state.n) if other != seat]
    else:
        mine = max(strengths[other] for other in range(state.n) if other != observer)
        rivals = (observer,)
    best_rival, rivals_active = 0, 0
    for other in rivals:
        best_rival = max(best_rival, strengths[other])
        if not state.passed >> other & 1 and state.sizes[other]:
            rivals_active += 1
    lead = mine - best_rival
    if lead > 0:
        if not rivals_active:
            return PASS
        if SURRENDER_MOVE in moves and rng.random() < 0.7:
            return SURRENDER_MOVE
        if rng.random() < (0.85 if lead >= 5 else 0.45):
            return PASS
    elif lead < -12 and rng.random() < 0.5:
        return PASS
    plays, strong = card_plays(moves)
    if not plays:
        return PASS
    if strong and rng.random() < 0.7:
        return rng.choice(strong)
    return rng.choice(plays)


def policy_move(state, rng, observer=None):
    """One move for the current player of `state` (`observer`: see `battle_move`)."""
    moves = legal_moves(state)
    phase = state.phase
    if phase in (BATTLE, FINAL_BATTLE):
        return battle_move(state, moves, rng, observer)
    if phase == DRAW:
        return moves[-1]  # as many as allowed: more cards never hurt
    if len(moves) == 1:
        return moves[0]  # a seat holding a Mercenary can only keep its hand, among others
    if phase == DISCARD_HAND:
        # No Mercenary here: keep only a hand that can still win battles and is worth it.
        return DISCARD_NO if hand_worth(state.hands[state.current]) >= 12 else DISCARD_YES
    if moves[0] == DRAW_BASE:
        return moves[-1]
    return rng.choice(moves)
