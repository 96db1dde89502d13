"""Compact moves (small ints) for bots and the hot path, and their dict actions.

Encoding (see docs/engine.md): PASS 0, PASS_REVEAL 1, play card kind k 10+k, Scarecrow taking
kind t 31+t (30: nothing), Bishop with the Pope on region r 41+r (40: off the board), Bishop in
the final battle 60, choose region r 100+r, discard hand 200 (no) / 201 (yes), keep cards a<=b
300 + 16*(a+1) + (b+1) (-1: no card), draw n 600+n.
"""

from functools import lru_cache

from . import aftermath, battle, rounds
from .board import REGIONS
from .cards import BISHOP, CODES, SCARECROW
from .options import CAPTURING_REGIONS, HIDDEN_CARDS
from .state import BATTLE, CHOOSE_REGION, DISCARD_HAND, DRAW, FINAL_BATTLE, KEEP, clone

PASS, PASS_REVEAL = 0, 1
PLAY, SCARECROW_TAKE, BISHOP_POPE, BISHOP_FINAL = 10, 31, 41, 60
REGION, DISCARD_NO, DISCARD_YES, KEEP_BASE, DRAW_BASE = 100, 200, 201, 300, 600


def keep_move(kept):
    """Kinds kept (0, 1 or 2 of them, any order) -> move."""
    kept = sorted(kept) + [-1, -1]
    first, second = (kept[0], kept[1]) if kept[1] >= 0 else (-1, kept[0])
    return KEEP_BASE + 16 * (first + 1) + (second + 1)


def keep_cards(move):
    first, second = divmod(move - KEEP_BASE, 16)
    return tuple(kind - 1 for kind in (first, second) if kind > 0)


def pope_targets(state):
    """[rules] Bishop: the Pope token goes on a region with no control marker (Capturing Regions:
    any region), or off the board. [ruling] Never on the region being fought over."""
    return _pope_targets_on(state.owners, state.region, state.opts & CAPTURING_REGIONS)


def _pope_targets_on(owners, battle_region, capturing):
    return [
        region
        for region in range(17)
        if region != battle_region and (capturing or owners[region] < 0)
    ]


def _bishop_moves(state):
    return _bishop_moves_on(state.owners, state.region, state.opts & CAPTURING_REGIONS)


# The Bishop's moves depend only on the board, the battle region and Capturing Regions; random
# play asks for them very often, so they are memoised.
@lru_cache(maxsize=50_000)
def _bishop_moves_on(owners, battle_region, capturing):
    targets = _pope_targets_on(owners, battle_region, capturing)
    return (BISHOP_POPE - 1,) + tuple(BISHOP_POPE + region for region in targets)


# Without a Bishop or a Scarecrow, a battle turn's moves depend on the hand alone (and on whether
# a face-down card may be revealed): memoised, since searches ask for them constantly.
@lru_cache(maxsize=50_000)
def _plain_battle_moves(hand, may_reveal):
    passes = (PASS, PASS_REVEAL) if may_reveal else (PASS,)
    return passes + tuple(PLAY + kind for kind, count in enumerate(hand) if count)


def _battle_moves(state):
    """[rules] On a turn: play one card or pass. Moves stay in card-kind order."""
    seat = state.current
    hand = state.hands[seat]
    may_reveal = bool(state.opts & HIDDEN_CARDS) and state.fd[seat] >= 0
    if not (hand[BISHOP] or hand[SCARECROW]):
        return _plain_battle_moves(hand, may_reveal)
    moves = [PASS, PASS_REVEAL] if may_reveal else [PASS]
    plays = [PLAY + kind for kind, count in enumerate(hand) if count]
    for move in plays:
        if move == PLAY + BISHOP:
            if state.phase == FINAL_BATTLE:
                moves.append(BISHOP_FINAL)
            else:
                moves.extend(_bishop_moves(state))
        elif move == PLAY + SCARECROW:
            moves.append(SCARECROW_TAKE - 1)
            line = state.lines[seat]
            moves.extend(SCARECROW_TAKE + take for take in range(7) if take in line)
        else:
            moves.append(move)
    return moves


def _keep_moves(hand):
    moves = [keep_move(())]
    kinds = [kind for kind in range(15) if hand[kind]]
    for index, first in enumerate(kinds):
        moves.append(keep_move((first,)))
        if hand[first] >= 2:
            moves.append(keep_move((first, first)))
        moves.extend(keep_move((first, second)) for second in kinds[index + 1 :])
    return moves


def _discard_moves(hand):
    """[ruling] Every seat with cards is asked; only one holding no Mercenary (kinds 0..6) may
    discard, the others can only decline."""
    if any(hand[:7]):
        return (DISCARD_NO,)
    return (DISCARD_NO, DISCARD_YES)


def legal_moves(state):
    """All legal moves of the current player (a tuple, cached on the state); () when over."""
    moves = state._moves
    if moves is not None:
        return moves
    phase = state.phase
    if phase in (BATTLE, FINAL_BATTLE):
        moves = _battle_moves(state)
    elif phase == CHOOSE_REGION:
        moves = [REGION + region for region in aftermath.choosable_regions(state)]
    elif phase == DISCARD_HAND:
        moves = _discard_moves(state.hands[state.current])
    elif phase == KEEP:
        moves = _keep_moves(state.hands[state.current])
    elif phase == DRAW:
        moves = [DRAW_BASE + count for count in range(aftermath.drawable(state, state.current) + 1)]
    else:
        moves = ()
    moves = tuple(moves)
    state._moves = moves
    return moves


def apply_move(state, move):
    """A new state after the current player makes `move` (assumed legal: no validation)."""
    ns = clone(state)
    seat = state.current
    if move < PLAY:
        battle.pass_turn(ns, seat, move == PASS_REVEAL)
    elif move < SCARECROW_TAKE - 1:
        battle.play(ns, seat, move - PLAY, None)
    elif move < BISHOP_POPE - 1:
        battle.play(ns, seat, SCARECROW, move - SCARECROW_TAKE)
    elif move < BISHOP_FINAL:
        battle.play(ns, seat, BISHOP, move - BISHOP_POPE)
    elif move == BISHOP_FINAL:
        battle.play(ns, seat, BISHOP, None)
    elif move < DISCARD_NO:
        rounds.choose_region(ns, move - REGION)
    elif move < KEEP_BASE:
        rounds.discard_hand(ns, seat, move == DISCARD_YES)
    elif move < DRAW_BASE:
        rounds.keep(ns, seat, keep_cards(move))
    else:
        aftermath.draw(ns, seat, move - DRAW_BASE)
    return ns


def _region_name(region):
    return None if region < 0 else REGIONS[region]


def move_to_action(move):
    """Compact move -> the contract's action dict."""
    if move == PASS:
        return {"type": "pass"}
    if move == PASS_REVEAL:
        return {"type": "pass", "reveal": True}
    if move < SCARECROW_TAKE - 1:
        return {"type": "play", "card": CODES[move - PLAY]}
    if move < BISHOP_POPE - 1:
        take = move - SCARECROW_TAKE
        return {"type": "play", "card": "scarecrow", "take": None if take < 0 else CODES[take]}
    if move < BISHOP_FINAL:
        return {"type": "play", "card": "bishop", "pope": _region_name(move - BISHOP_POPE)}
    if move == BISHOP_FINAL:
        return {"type": "play", "card": "bishop"}
    if move < DISCARD_NO:
        return {"type": "choose_region", "region": REGIONS[move - REGION]}
    if move < KEEP_BASE:
        return {"type": "discard_hand", "discard": move == DISCARD_YES}
    if move < DRAW_BASE:
        return {"type": "keep", "cards": [CODES[kind] for kind in keep_cards(move)]}
    return {"type": "draw", "count": move - DRAW_BASE}
