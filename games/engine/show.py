"""Showing cards: "They may show each other their cards, but may not exchange cards."

[rules] At any time a player may show cards of his hand to another player. [ruling] A seat shows
chosen cards (one or more, a multiset of its hand) to one other seat or to every other seat
(`to=None`); any seat, at any time of a game still being played, whoever's turn it is. The
viewer then knows those cards are in that hand, as everyone knows a Scarecrow's take-back:

- `state.shown` holds what each viewer was shown: sorted (owner, viewer, kinds) triples, `()`
  when nothing is shown (the common case, so the hot path pays one truth test);
- showing the same kinds again does not add to them (the viewer knows "at least" that many:
  the multiset union of all shows);
- a card leaves the shown set when it is played face up (one of its kind), every shown card
  when the owner plays face down (removing just one would reveal the face-down card), when the
  hand is discarded, and at the end of the round or before the final battle (`forget_all`);
- the number of cards shown, and to whom, is public; which cards, only the viewer's (and the
  shower's own) view says.

A show is not a move: it never appears in `legal_moves` and does not change whose turn it is.
The site logs it like an action and counts it in the game's version.
"""

from .actions import IllegalAction
from .cards import KIND
from .state import OVER, clone


class IllegalShow(IllegalAction):
    """A refused show. `code` says why, for a translated message: `over`, `seat`, `target`,
    `self`, `cards`, `not_in_hand`."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _counts(kinds):
    counts = [0] * 15
    for kind in kinds:
        counts[kind] += 1
    return counts


def _union(first, second):
    """The multiset union (per kind, the larger count) of two sorted kind tuples."""
    a, b = _counts(first), _counts(second)
    union = []
    for kind in range(15):
        union.extend((kind,) * max(a[kind], b[kind]))
    return tuple(union)


def _is_seat(value, n):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _parse_cards(state, seat, cards):
    if not isinstance(cards, list) or not cards:
        raise IllegalShow("cards", "a show needs a non-empty list of card codes")
    kinds = []
    for code in cards:
        if not isinstance(code, str) or code not in KIND:
            raise IllegalShow("cards", f"{code!r} is not a card code")
        kinds.append(KIND[code])
    hand = state.hands[seat]
    wanted = _counts(kinds)
    for kind, count in enumerate(wanted):
        if count > hand[kind]:
            raise IllegalShow("not_in_hand", "you can show only cards of your hand")
    return tuple(sorted(kinds))


def show_targets(state, seat, to):
    """The seats that see a show by `seat` to `to` (None: every other seat); IllegalShow if `to`
    is not another seat of the game."""
    if to is None:
        return tuple(other for other in range(state.n) if other != seat)
    if not _is_seat(to, state.n):
        raise IllegalShow("target", f"{to!r} is not a seat of this game")
    if to == seat:
        raise IllegalShow("self", "you cannot show cards to yourself")
    return (to,)


def show_cards(state, seat, to, cards):
    """[rules] Seat `seat` shows `cards` (card codes, a multiset of its hand) to seat `to`, or to
    every other seat when `to` is None. A NEW state (the old one is unchanged); IllegalShow (an
    IllegalAction) with a readable message for anything not allowed."""
    if state.phase == OVER:
        raise IllegalShow("over", "the game is over")
    if not _is_seat(seat, state.n):
        raise IllegalShow("seat", f"{seat!r} is not a seat of this game")
    targets = show_targets(state, seat, to)
    kinds = _parse_cards(state, seat, cards)
    entries = {(owner, viewer): shown for owner, viewer, shown in state.shown}
    for viewer in targets:
        entries[(seat, viewer)] = _union(entries.get((seat, viewer), ()), kinds)
    new = clone(state)
    new.shown = tuple((owner, viewer, shown) for (owner, viewer), shown in sorted(entries.items()))
    return new


SHOW_KEYS = {"type", "to", "cards"}


def is_show(action) -> bool:
    """Whether a logged action is a show (`{"type": "show", "to": seat or None, "cards": [...]}`)
    rather than a move of the seat to act."""
    return isinstance(action, dict) and action.get("type") == "show"


def apply_show(state, seat, action):
    """The show action dict of `seat` applied: `show_cards` after checking the dict's keys."""
    if not is_show(action) or set(action) != SHOW_KEYS:
        raise IllegalShow("cards", f"a show action has exactly the keys {sorted(SHOW_KEYS)}")
    return show_cards(state, seat, action["to"], action["cards"])
