"""One seat's position in Renaissance, valued from a view: what the bots' diplomacy is judged by.

`worth(s, seat)` counts, in Renaissance Points (RP), what a seat has and what its holdings will
score: the points already scored; its cities by the share of each province it holds (a province
wholly held scores 1 RP at the end of every turn left, [rules] line 22, 434-440); each city's
income, artist, palace and port; its ducats; and the troops of its hand that can still serve
this turn (hands go back to the box at the end of every turn). `standing(s, seat)` is that
worth less the average worth of the other seats: a game is won against the others, so a deal
that helps a rival as much as it helps me is worth less to me than one that helps me alone.

It reads only what the view's seat may know: the board, the points, the ducats and the hand
sizes are public; a hand's cards are read only for the view's own seat (another seat's hand is
valued by its size). The same numbers serve any seat of the view, so a bot can weigh what a
deal is worth to the other party as far as its own view tells.

A `Change` is what a deal does (cities that change hands, ducats paid, Condottieri handed
over); `change_of_standing(s, seat, change)` is how much it raises the seat's standing, computed
from the provinces and purses it touches only. The diplomacy answers and offers (offers.py) use
it; a search bot may use `worth` or `standing` as a leaf evaluation and `change_of_standing` to
judge an offer (all take a Situation built from the seat's view: situation.py).
"""

from dataclasses import dataclass

from .odds import troop_value
from .situation import Situation

# [rules] line 278: "1 carte de bataille coûte 2 ducats" (printed on the player aid, public).
CARD_PRICE = 2

# A ducat in RP: a city's income is counted 0.25 RP a ducat in the heuristic's worth
# (situation.py), and so is a ducat in hand.
DUCAT_RP = 0.25
# A troop card that can serve this turn is worth its price: 2 ducats ([rules] line 278).
CARD_RP = CARD_PRICE * DUCAT_RP
# [rules] line 143-144: in peace a player makes a single attack in the combat phase (two
# troops, [rules] line 369) and may have to defend once or twice; at war as many attacks as its
# cards allow. Troops beyond these many are not expected to serve before the turn's end.
USEFUL_TROOPS = (3, 7)
# [rules] line 190: every Condottiere played costs a ducat (unless bought, line 206).
CONDOTTIERE_FEE = 1


@dataclass(frozen=True)
class Change:
    """A change of the board and purses a piece of diplomacy makes: cities whose owner changes
    ({city index: new owner}), ducats moved ({seat: +/- ducats}), and Condottieri handed over
    ({seat: +/- cards}, each received one already paid, [ruling] R44)."""

    owners: tuple = ()  # ((city, seat), ...)
    ducats: tuple = ()  # ((seat, amount), ...)
    condottieri: tuple = ()  # ((seat, count), ...)

    @classmethod
    def exchange(cls, s: Situation, give: str, take: str, sender: int, receiver: int):
        """[ruling] R42: `sender`'s city `give` for `receiver`'s city `take`."""
        return cls(owners=((s.city(give), receiver), (s.city(take), sender)))

    @classmethod
    def sale(cls, seller: int, buyer: int):
        """[ruling] R44: a Condottiere from `seller` to `buyer` for one ducat."""
        return cls(ducats=((seller, 1), (buyer, -1)), condottieri=((seller, -1), (buyer, 1)))


def worth(s: Situation, seat: int, change: Change = Change()) -> float:
    """The seat's position in RP (see the module's docstring), after `change` if one is given."""
    owner = list(s.owner)
    for city, new_owner in change.owners:
        owner[city] = new_owner
    ducats = s.ducats[seat] + dict(change.ducats).get(seat, 0)
    handed = dict(change.condottieri).get(seat, 0)
    return (
        s.points[seat]
        + board_worth(s, seat, owner)
        + DUCAT_RP * ducats
        + hand_worth(s, seat, ducats, handed)
    )


def standing(s: Situation, seat: int, change: Change = Change()) -> float:
    """The seat's worth less the average worth of the other seats (after `change`)."""
    others = [worth(s, other, change) for other in range(s.n) if other != seat]
    return worth(s, seat, change) - sum(others) / len(others)


def change_of_standing(s: Situation, seat: int, change: Change) -> float:
    """How much `change` raises (or lowers) the seat's standing: its own gain less the average
    gain of the others. Only the seats the change touches gain, and on the board only in the
    provinces it touches, so the difference is computed from those alone (a candidate offer
    is judged in microseconds)."""
    touched = {who for who, _ in change.ducats + change.condottieri}
    touched |= {s.owner[city] for city, _ in change.owners}
    touched |= {new for _, new in change.owners}
    touched.discard(-1)
    # In seat order, and the provinces below in theirs: the same view gives the same sums to
    # the last bit, so the same choice, whatever the process's hash seed.
    gains = {who: gain(s, who, change) for who in sorted(touched)}
    theirs = sum(value for who, value in gains.items() if who != seat)
    return gains.get(seat, 0.0) - theirs / (s.n - 1)


def gain(s: Situation, seat: int, change: Change) -> float:
    """worth(s, seat, change) - worth(s, seat), from the provinces and purses the change
    touches."""
    after = list(s.owner)
    for city, new_owner in change.owners:
        after[city] = new_owner
    provinces = sorted({s.geo.province_of[city] for city, _ in change.owners})
    board = sum(province_worth(s, seat, after, p) - worth_now(s, seat, p) for p in provinces)
    paid = dict(change.ducats).get(seat, 0)
    handed = dict(change.condottieri).get(seat, 0)
    if not paid and not handed:
        return board
    ducats = s.ducats[seat]
    hand = hand_worth(s, seat, ducats + paid, handed) - hand_worth(s, seat, ducats)
    return board + DUCAT_RP * paid + hand


def board_worth(s: Situation, seat: int, owner) -> float:
    """What the seat's cities are worth if the board's owners were `owner` (a list of seats by
    city index): the sum of `province_worth` over the provinces."""
    return sum(province_worth(s, seat, owner, p) for p in range(len(s.geo.province_cities)))


def worth_now(s: Situation, seat: int, province: int) -> float:
    """province_worth on the board as it is, kept on the Situation (one per decision): every
    candidate offer compares against it."""
    cache = s.__dict__.setdefault("_province_worth_now", {})
    key = (seat, province)
    if key not in cache:
        cache[key] = province_worth(s, seat, s.owner, province)
    return cache[key]


def province_worth(s: Situation, seat: int, owner, province: int) -> float:
    """What the seat's cities of one province are worth: the province by the share the seat
    holds of its open cities (Situation.province_share: whole, it scores every turn left), and
    each city's income, artist, palace and port over the scoring turns left."""
    left = s.turns_left
    open_cities = s.open_cities(province)
    held = sum(1 for c in open_cities if owner[c] == seat)
    total = s.province_share(held, len(open_cities)) if held else 0.0
    for city in s.geo.province_cities[province]:
        if owner[city] == seat:
            total += 0.25 * left * (1 + s.fort[city]) + left * s.artist[city]
            total += s.palace[city] + 0.5 * s.geo.port[city]
    return total


def hand_worth(s: Situation, seat: int, ducats: int, handed: int = 0) -> float:
    """The troops in the seat's hand that can serve this turn, CARD_RP each (a Condottiere
    less the ducat its play costs, unless it was bought; none the seat cannot pay for). Only
    the view's own seat's cards are read; another seat's hand counts by its size, as troops.
    `handed` Condottieri (bought: already paid, or sold: gone) change the hand."""
    useful = USEFUL_TROOPS[bool(s.war)]
    if seat != s.me:
        troops = max(0, s.hand_sizes[seat] + handed)
        return CARD_RP * min(troops, useful)
    hand = list(s.hand)
    prepaid = s.view["public"]["prepaid"][seat]
    if handed > 0:
        hand += ["condottiere"] * handed
        prepaid += handed
    for _ in range(-handed):
        if "condottiere" in hand:
            hand.remove("condottiere")
    condottieri = hand.count("condottiere")
    prepaid = min(prepaid, condottieri)
    payable = min(condottieri - prepaid, max(0, ducats) // CONDOTTIERE_FEE)
    # The strongest troops are played first; the Condottieri the seat can play: paid ones
    # cost nothing more, unpaid ones a ducat each.
    values = [troop_value(card) for card in hand if card != "condottiere" and troop_value(card)]
    values = [(value, 0.0) for value in values]
    values += [(troop_value("condottiere"), 0.0)] * prepaid
    values += [(troop_value("condottiere"), DUCAT_RP * CONDOTTIERE_FEE)] * payable
    values.sort(key=lambda item: -item[0])
    return sum(CARD_RP - fee for _, fee in values[:useful])
