"""Starting a game: players, options, the first token holder, and optional stacked set-ups."""

from collections import Counter

from .aftermath import to_choose_region
from .board import REGION_INDEX
from .cards import CODES, DECK_KINDS, KIND
from .options import DRAW_AFTER_BATTLE, Options
from .piles import draw_cards, set_hand, shuffled
from .state import blank_state


def _allotment(opts, regions):
    """[rules] 10 cards + 1 per region; Draw After Battle: players start with 7."""
    return 7 if opts & DRAW_AFTER_BATTLE else 10 + regions


def _kinds(codes, what):
    if not isinstance(codes, (list, tuple)):
        raise ValueError(f"{what} must be a list of card codes")
    for code in codes:
        if not isinstance(code, str) or code not in KIND:
            raise ValueError(f"{what}: {code!r} is not a card code")
    return [KIND[code] for code in codes]


def _validate_basics(players, seed, options, first):
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"Condottiere is played by 2 to 6 players, not {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be an integer, not {seed!r}")
    if not isinstance(options, Options):
        raise ValueError("options must be an Options instance")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise ValueError(f"first must be a seat from 0 to {players - 1}, not {first!r}")


def _place_owners(state, owners):
    if owners is None:
        return
    if not isinstance(owners, dict):
        raise ValueError("owners must be a dict {region: seat}")
    board = list(state.owners)
    counts = list(state.counts)
    for name, seat in owners.items():
        if name not in REGION_INDEX:
            raise ValueError(f"unknown region {name!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise ValueError(f"owners: {seat!r} is not a seat")
        board[REGION_INDEX[name]] = seat
        counts[seat] += 1
    state.owners = tuple(board)
    state.counts = tuple(counts)


def _check_sub_multiset(cards):
    extra = Counter(cards) - Counter(DECK_KINDS)
    if extra:
        names = ", ".join(f"{count} x {CODES[kind]}" for kind, count in sorted(extra.items()))
        raise ValueError(f"the stacked deal has more cards than the deck holds: {names}")


def new_game(
    players, seed=0, options=None, first=0, hands=None, deck=None, owners=None
):  # fmt: skip
    """[rules] Set up: the first player holds the Condottiere token, each player is dealt 10
    cards (7 with Draw After Battle) [+1 per region already owned], the token holder chooses the
    first region. [ruling] The Pope token starts off the board.

    Test set-ups: `hands` (one list per seat, each at most the allotment), `deck` (the draw pile,
    top first; every card in neither starts face down in the discard pile), `owners`."""
    options = Options() if options is None else options
    _validate_basics(players, seed, options, first)
    state = blank_state(players, options.to_bits(), seed)
    state.token = first
    _place_owners(state, owners)
    hand_kinds = _stacked_hands(state, hands)
    deck_kinds = _kinds(deck, "deck") if deck is not None else None
    _check_sub_multiset([card for hand in hand_kinds or () for card in hand] + (deck_kinds or []))
    if hand_kinds is not None:
        for seat, kinds in enumerate(hand_kinds):
            set_hand(state, seat, kinds)
    _fill_deck(state, hand_kinds, deck_kinds)
    if hand_kinds is None:
        needed = sum(_allotment(state.opts, regions) for regions in state.counts)
        if deck_kinds is not None and len(deck_kinds) < needed:
            raise ValueError(f"a deck of {len(deck_kinds)} cards cannot deal {needed} cards")
        for step in range(players):
            seat = (first + step) % players
            draw_cards(state, seat, _allotment(state.opts, state.counts[seat]))
    to_choose_region(state)
    return state


def _stacked_hands(state, hands):
    if hands is None:
        return None
    if not isinstance(hands, (list, tuple)) or len(hands) != state.n:
        raise ValueError(f"hands must hold one list per seat ({state.n})")
    result = []
    for seat, codes in enumerate(hands):
        kinds = _kinds(codes, f"hands[{seat}]")
        allotment = _allotment(state.opts, state.counts[seat])
        if len(kinds) > allotment:
            raise ValueError(f"hands[{seat}] holds {len(kinds)} cards, more than {allotment}")
        result.append(kinds)
    return result


def _fill_deck(state, hand_kinds, deck_kinds):
    """The draw pile: as given (the rest face down in the discard pile), or the rest shuffled."""
    rest = Counter(DECK_KINDS)
    for kinds in hand_kinds or ():
        rest.subtract(kinds)
    if deck_kinds is not None:
        rest.subtract(deck_kinds)
        state.deck = tuple(deck_kinds)
        state.dead = tuple(sorted(rest.elements()))
        if hand_kinds is None:
            # Hands are then dealt from the top of the given deck; keep the rest as given.
            return
    else:
        state.deck = shuffled(state, list(rest.elements()))
