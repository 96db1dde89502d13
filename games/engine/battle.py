"""A battle: its start, playing a card (every card's effect), passing. Whose turn comes next and
the battle's end are aftermath.py's (`advance`, `conclude`)."""

from .aftermath import advance, conclude, start_turn
from .cards import BISHOP, FACE_DOWN_KINDS, SCARECROW, SPRING, SURRENDER, WINTER
from .options import CAPTURING_REGIONS, HIDDEN_CARDS
from .piles import add_to_hand, remove_from_hand
from .shown import forget_played
from .state import BATTLE


def start_battle(ns):
    """[rules] The token holder plays first, then clockwise. [rules] Capturing Regions: the
    region's controller is its defender. [ruling] A token holder with no cards is passed."""
    ns.phase = BATTLE
    # Players without cards are passed from the start ([rules] they can only pass).
    ns.passed = sum(1 << seat for seat in range(ns.n) if not ns.sizes[seat])
    owner = ns.owners[ns.region]
    ns.defender = owner if (ns.opts & CAPTURING_REGIONS and owner >= 0) else -1
    ns.defender_played = 0
    start_turn(ns, ns.token)


def _turn_up(ns, seat, line):
    """[rules] Hidden Cards: a player's face-down card is turned up when he next plays or, if he
    chooses, when he passes. It is always the last card of his line."""
    face_down = ns.fd[seat]
    if face_down < 0:
        return line
    fd = list(ns.fd)
    fd[seat] = -1
    ns.fd = tuple(fd)
    return line + (face_down,)


def _forget_known(ns, seat, kind, face_down):
    """[ruling] A Scarecrow's take-back stays known until played. A face-down play could be that
    card or another, so nobody knows any more: the seat's whole known list is dropped (removing
    just that card would reveal the face-down card)."""
    known = ns.known[seat]
    if not known:
        return
    if face_down:
        remaining = ()
    elif kind in known:
        index = known.index(kind)
        remaining = known[:index] + known[index + 1 :]
    else:
        return
    all_known = list(ns.known)
    all_known[seat] = remaining
    ns.known = tuple(all_known)


def play(ns, seat, kind, arg):
    """[rules] Play one card. `arg`: Scarecrow's take-back (-1 none), Bishop's Pope region (-1
    off the board, None in the final battle)."""
    remove_from_hand(ns, seat, kind)
    face_down = bool(ns.opts & HIDDEN_CARDS) and kind in FACE_DOWN_KINDS
    _forget_known(ns, seat, kind, face_down)
    if ns.shown:
        forget_played(ns, seat, kind, face_down)
    if seat == ns.defender:
        ns.defender_played = 1
    line = _turn_up(ns, seat, ns.lines[seat]) if ns.opts & HIDDEN_CARDS else ns.lines[seat]
    lines = list(ns.lines)
    if kind in (WINTER, SPRING):
        _play_season(ns, lines, seat, line, kind)
    elif kind == BISHOP:
        _play_bishop(ns, lines, seat, line, arg)
    elif kind == SCARECROW:
        _play_scarecrow(ns, lines, seat, line, arg)
    elif kind == SURRENDER:
        # [rules] Surrender: the battle ends at once (the card goes straight to the discards).
        lines[seat] = line
        ns.lines = tuple(lines)
        ns.discards = ns.discards + (SURRENDER,)
        conclude(ns)
        return
    elif face_down:
        lines[seat] = line
        ns.lines = tuple(lines)
        fd = list(ns.fd)
        fd[seat] = kind
        ns.fd = tuple(fd)
    else:
        lines[seat] = line + (kind,)
        ns.lines = tuple(lines)
    advance(ns, seat)


def _play_season(ns, lines, seat, line, kind):
    """[rules] Winter discards every Spring in play, and Spring every Winter."""
    lines[seat] = line
    opposite = SPRING if kind == WINTER else WINTER
    removed = ()
    for other, other_line in enumerate(lines):
        if opposite in other_line:
            removed += (opposite,) * other_line.count(opposite)
            lines[other] = tuple(card for card in other_line if card != opposite)
    lines[seat] = lines[seat] + (kind,)
    ns.lines = tuple(lines)
    if removed:
        ns.discards = ns.discards + removed


def _play_bishop(ns, lines, seat, line, pope):
    """[rules] Bishop: discard every face-up Mercenary tied for the highest printed value, from
    all lines; the Bishop is discarded; the player places the Pope token. [ruling] A Bishop counts
    the card its own play just turned up and ignores other face-down cards (they are not in
    `lines`). [ruling] Final battle: no Pope placement (`pope` is None)."""
    lines[seat] = line
    top = -1
    for other_line in lines:
        for card in other_line:
            if card < 7 and card > top:
                top = card
    victims = ()
    if top >= 0:
        for other, other_line in enumerate(lines):
            if top in other_line:
                victims += (top,) * other_line.count(top)
                lines[other] = tuple(card for card in other_line if card != top)
    ns.lines = tuple(lines)
    ns.discards = ns.discards + victims + (BISHOP,)
    if pope is not None:
        ns.pope = pope


def _play_scarecrow(ns, lines, seat, line, take):
    """[rules] Scarecrow: take back at most one of your face-up Mercenaries. [ruling] Not the
    card its own play just turned up (legal moves only offer cards face up before)."""
    if take >= 0:
        cards = list(line)
        cards.remove(take)
        line = tuple(cards)
        add_to_hand(ns, seat, (take,))
        known = list(ns.known)
        known[seat] = tuple(sorted(known[seat] + (take,)))
        ns.known = tuple(known)
    lines[seat] = line
    ns.lines = tuple(lines)
    ns.discards = ns.discards + (SCARECROW,)


def pass_turn(ns, seat, reveal):
    """[rules] Passing is final for this battle. [rules] Capturing Regions: until the defender
    has played a card, his pass keeps him in the battle; [ruling] the battle ends when he passes
    while all the others have passed for good. [rules] Hidden Cards: `reveal` turns up the
    face-down card."""
    if reveal:
        lines = list(ns.lines)
        lines[seat] = _turn_up(ns, seat, lines[seat])
        ns.lines = tuple(lines)
    if seat == ns.defender and not ns.defender_played:
        # Others with no cards count as passed for good (they would be passed automatically).
        others_out = ns.passed | (1 << seat)
        for other in range(ns.n):
            if not ns.sizes[other]:
                others_out |= 1 << other
        if others_out == (1 << ns.n) - 1:
            ns.passed = others_out & ~(1 << seat)
            conclude(ns)
        else:
            advance(ns, seat)
        return
    ns.passed |= 1 << seat
    advance(ns, seat)
