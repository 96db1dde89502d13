"""Whose turn is next in a battle, and everything after a battle: strength, control markers, the
token, victory, drawing, the next region to choose, the board running out, the final battle.

[rules] Order after a battle: (1) compare strength, place the marker, check victory; (2) the token
holder chooses the next region; (3) battle lines are discarded; (4) players with no Mercenary in
hand may discard it; (5) end-of-round check (steps 3-5: rounds.py).
Draw After Battle: compare, draw, choose, discard lines.

The turn order (`start_turn`, `advance`) lives here rather than in battle.py because the flow
loops: the last pass ends the battle (`conclude`), and a board out of regions can start the final
battle, whose first turn is given by `start_turn`. With the loop in one module, the imports go
one way: rounds -> battle -> aftermath.
"""

from .board import largest_group, owned_mask
from .cards import COURTESAN, DECK_KINDS, line_strengths
from .options import BIGGER_KINGDOMS, CAPTURING_REGIONS, DRAW_AFTER_BATTLE, HIDDEN_CARDS
from .piles import discard_pile_size, draw_cards, shuffled
from .shown import forget_all
from .state import (
    BY_ADJACENCY,
    BY_FINAL_BATTLE,
    BY_MOST_REGIONS,
    BY_TOTAL,
    CHOOSE_REGION,
    DRAW,
    FINAL_BATTLE,
    OVER,
)


def empty_lines(n):
    return tuple(() for _ in range(n))


def start_turn(ns, first):
    """Give the turn to `first`, or, if it has no cards, pass it and move on."""
    if ns.sizes[first] and not ns.passed >> first & 1:
        ns.current = first
    else:
        ns.passed |= 1 << first
        advance(ns, first)


def advance(ns, seat):
    """[rules] Next player clockwise after `seat` who has not passed. [rules] A player with no
    cards can only pass: he is passed automatically, never asked. Nobody left: the battle ends."""
    n = ns.n
    passed = ns.passed
    sizes = ns.sizes
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if passed >> candidate & 1:
            continue
        if sizes[candidate] == 0:
            passed |= 1 << candidate
            continue
        ns.passed = passed
        ns.current = candidate
        return
    ns.passed = passed
    conclude(ns)


def _reveal_all(ns):
    """[rules] Hidden Cards: all cards are revealed before strength is compared."""
    if any(card >= 0 for card in ns.fd):
        ns.lines = tuple(
            line + (card,) if card >= 0 else line
            for line, card in zip(ns.lines, ns.fd, strict=True)
        )
        ns.fd = (-1,) * ns.n


def conclude(ns):
    """[rules] Compare strength: the strongest line takes the region; a tie places no marker and
    the token goes left of its last holder; the strict Courtesan leader takes the token instead.
    [ruling] Strength tie + strict Courtesan leader: the leader takes it. Capturing Regions: a
    tie leaves the region to its defender, who takes the token (unless a strict Courtesan
    leader)."""
    if ns.opts & HIDDEN_CARDS:
        _reveal_all(ns)
    strengths = tuple(line_strengths(ns.lines))
    if ns.phase == FINAL_BATTLE:
        _conclude_final_battle(ns, strengths)
        return
    n = ns.n
    best = max(strengths)
    winner = strengths.index(best) if strengths.count(best) == 1 else -1
    courtesans = [line.count(COURTESAN) for line in ns.lines]
    most = max(courtesans)
    leader = courtesans.index(most) if most and courtesans.count(most) == 1 else -1
    if winner >= 0:
        _place_marker(ns, ns.region, winner)
        token = winner
    elif ns.defender >= 0:
        token = ns.defender
    else:
        token = (ns.token + 1) % n
    ns.token = leader if leader >= 0 else token
    ns.last_battle = (winner, strengths, ns.region)
    ns.region = -1
    ns.defender = -1
    ns.defender_played = 0
    if winner >= 0 and _check_victory(ns, winner):
        return
    if ns.opts & DRAW_AFTER_BATTLE:
        _start_draws(ns)
    else:
        to_choose_region(ns)


def _place_marker(ns, region, seat):
    """[rules] The winner places a control marker ([rules] Capturing: it replaces the old one)."""
    old = ns.owners[region]
    if old == seat:
        return
    owners = list(ns.owners)
    owners[region] = seat
    ns.owners = tuple(owners)
    counts = list(ns.counts)
    counts[seat] += 1
    if old >= 0:
        counts[old] -= 1
    ns.counts = tuple(counts)


def targets(state):
    """[rules] 4-6 players: 5 regions or 3 adjacent; 2-3 players: 6 or 4. Bigger Kingdoms: the
    adjacency target rises by one."""
    total, adjacent = (5, 3) if state.n >= 4 else (6, 4)
    if state.opts & BIGGER_KINGDOMS:
        adjacent += 1
    return total, adjacent


def _check_victory(ns, seat):
    """[rules] Checked after step (1): a total of regions, or a connected group of them."""
    total, adjacent = targets(ns)
    if largest_group(owned_mask(ns.owners, seat)) >= adjacent:
        victory = BY_ADJACENCY
    elif ns.counts[seat] >= total:
        victory = BY_TOTAL
    else:
        return False
    _game_over(ns, (seat,), victory)
    return True


def _game_over(ns, winners, victory):
    ns.winners = winners
    ns.victory = victory
    ns.phase = OVER
    ns.current = -1


def choosable_regions(state):
    """[rules] The token goes on a region with no control marker and no Pope token. Capturing
    Regions: also on another player's region ([ruling] not the token holder's own)."""
    capturing = state.opts & CAPTURING_REGIONS
    pope, token, owners = state.pope, state.token, state.owners
    return [
        region
        for region in range(17)
        if region != pope and (owners[region] < 0 or (capturing and owners[region] != token))
    ]


def to_choose_region(ns):
    """[rules] Step (2). No region left to choose: the player with the most regions wins."""
    if not choosable_regions(ns):
        _end_by_most_regions(ns)
        return
    ns.phase = CHOOSE_REGION
    ns.current = ns.token


def position_from_token(ns, seat):
    return (seat - ns.token) % ns.n


def drawable(state, seat):
    """[rules] Draw After Battle: up to 3 cards, never beyond 10 + 1 per region controlled."""
    room = 10 + state.counts[seat] - state.sizes[seat]
    return max(0, min(3, room, len(state.deck) + discard_pile_size(state)))


def _start_draws(ns):
    """[rules] If nobody has cards, everyone draws 10 ([ruling] dealt automatically, in seat
    order from the token holder); else [ruling] each player who can draw is asked, in seat order
    from the token holder."""
    if not any(ns.sizes):
        for position in range(ns.n):
            draw_cards(ns, (ns.token + position) % ns.n, 10)
        to_choose_region(ns)
        return
    _ask_draw(ns, -1)


def _ask_draw(ns, after_position):
    n = ns.n
    for position in range(after_position + 1, n):
        seat = (ns.token + position) % n
        if drawable(ns, seat):
            ns.phase = DRAW
            ns.current = seat
            return
    to_choose_region(ns)


def draw(ns, seat, count):
    draw_cards(ns, seat, count)
    _ask_draw(ns, position_from_token(ns, seat))


def _end_by_most_regions(ns):
    """[rules] No region can be chosen: the player with the most regions wins; a tie for most
    regions is settled by a final battle among the tied players."""
    best = max(ns.counts)
    tied = tuple(seat for seat in range(ns.n) if ns.counts[seat] == best)
    if len(tied) == 1:
        _game_over(ns, tied, BY_MOST_REGIONS)
    else:
        _start_final_battle(ns, tied)


def _start_final_battle(ns, tied):
    """[rules] Final battle: all hands discarded, all 110 cards shuffled, each tied player dealt
    10 + 1 per region; the token holder leads, or the tied player nearest to his left.
    [ruling] No region, no Pope placement, no Courtesan effect; optional rules still apply."""
    n = ns.n
    ns.hands = tuple((0,) * 15 for _ in range(n))
    ns.sizes = (0,) * n
    ns.lines = empty_lines(n)
    ns.fd = (-1,) * n
    ns.discards = ()
    ns.dead = ()
    ns.hidden_discards = empty_lines(n)
    ns.known = empty_lines(n)
    forget_all(ns)
    ns.deck = shuffled(ns, DECK_KINDS)
    leader = next((ns.token + step) % n for step in range(n) if (ns.token + step) % n in tied)
    for step in range(n):
        seat = (leader + step) % n
        if seat in tied:
            draw_cards(ns, seat, 10 + ns.counts[seat])
    ns.final_players = tied
    ns.phase = FINAL_BATTLE
    ns.region = -1
    ns.defender = -1
    ns.defender_played = 0
    ns.passed = sum(1 << seat for seat in range(n) if seat not in tied)
    start_turn(ns, leader)


def _conclude_final_battle(ns, strengths):
    """[rules] The final battle's winner wins the game; a tie shares the victory."""
    best = max(strengths[seat] for seat in ns.final_players)
    top = tuple(seat for seat in ns.final_players if strengths[seat] == best)
    ns.last_battle = (top[0] if len(top) == 1 else -1, strengths, -1)
    _game_over(ns, top, BY_FINAL_BATTLE)
