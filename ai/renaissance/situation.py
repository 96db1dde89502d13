"""What the heuristic reads in one view: the board's facts by index and what cities are worth.

Worth is in Renaissance Points to come: a whole province scores 1 RP at the end of every turn
left, a palace with its artist too; a city also yields ducats every turn (1/2/3 by its
fortification), which buy cards and walls.
"""

from .geometry import geometry_for

TURNS = 6


class Situation:
    """One seat's view, read once per decision (plain attributes, indices for cities)."""

    def __init__(self, view: dict):
        public = view["public"]
        self.view = view
        self.me = view["seat"]
        self.geo = geometry_for(view)
        self.n = public["n"]
        self.owner = public["owner"]
        self.fort = public["fort"]
        self.palace = public["palace"]
        self.artist = public["artist"]
        self.closed = public["closed"]
        self.ducats = public["ducats"]
        self.points = public["points"]
        self.hand_sizes = public["hand_sizes"]
        self.reserve = public["reserve"]
        self.war = public["war"]
        self.turn = public["turn"]
        self.battle = public["battle"]
        self.hand = list(view["hand"] or [])
        # Scoring turns still to come, this one included (the set-up counts the whole game).
        self.turns_left = TURNS if self.turn < 1 else max(1, TURNS + 1 - self.turn)
        self.index = self.geo.index
        # Read many times per decision (each candidate city asks them): computed once.
        self._province_counts = {}
        self._open_cities = {}
        self._leader = None

    # --- facts ------------------------------------------------------------------------

    def city(self, name: str) -> int:
        return self.index[name]

    def mine(self) -> list:
        return [c for c, owner in enumerate(self.owner) if owner == self.me]

    def open_cities(self, province: int) -> tuple:
        cities = self._open_cities.get(province)
        if cities is None:
            cities = self._open_cities[province] = tuple(
                c for c in self.geo.province_cities[province] if not self.closed[c]
            )
        return cities

    def counts(self, province: int) -> dict:
        """{seat or -1: cities of the open part of the province it holds}."""
        counts = self._province_counts.get(province)
        if counts is None:
            counts = {}
            for c in self.open_cities(province):
                counts[self.owner[c]] = counts.get(self.owner[c], 0) + 1
            self._province_counts[province] = counts
        return counts

    def leader(self) -> int:
        """The other seat with the most points (then the most cities): the one to hold back."""
        if self._leader is None:
            others = [seat for seat in range(self.n) if seat != self.me]
            cities = [self.owner.count(seat) for seat in range(self.n)]
            self._leader = max(others, key=lambda seat: (self.points[seat], cities[seat], -seat))
        return self._leader

    def enemy_neighbours(self, city: int) -> int:
        owner = self.owner[city]
        return sum(1 for c in self.geo.neighbours[city] if self.owner[c] not in (-1, owner))

    def defence_base(self, city: int, ride: bool = False, sea: bool = False) -> int:
        """Fortification and bonuses the city's holder adds in a battle."""
        bonus = 0 if ride else self.geo.rough[city] + int(sea)
        return FORT[self.fort[city]] + bonus

    # --- worth ------------------------------------------------------------------------

    def gain(self, city: int, seat: int | None = None) -> float:
        """What taking `city` is worth to `seat` (default: me), its owner's loss included."""
        seat = self.me if seat is None else seat
        left = self.turns_left
        province = self.geo.province_of[city]
        size = len(self.open_cities(province))
        counts = self.counts(province)
        held = counts.get(seat, 0) + 1
        owner = self.owner[city]
        if held >= size:
            worth = left + 1.0
        else:
            shared = any(s not in (-1, seat, owner) for s in counts) or (
                owner >= 0 and counts.get(owner, 0) > 1
            )
            worth = 0.6 * left * held / size * (0.5 if shared else 1.0)
        worth += 0.25 * left * (1 + self.fort[city])  # its income, in RP's terms
        worth += left * self.artist[city]
        if self.geo.port[city]:
            worth += 0.5
        if owner >= 0 and owner != seat:
            if counts.get(owner, 0) == size:  # breaking its whole province
                worth += 0.7 * left
            if owner == self.leader():
                worth += 0.2 * left
        return worth

    def loss(self, city: int) -> float:
        """What losing my `city` would cost me."""
        left = self.turns_left
        province = self.geo.province_of[city]
        size = len(self.open_cities(province))
        held = self.counts(province).get(self.me, 0)
        worth = self.province_share(held, size)
        worth += 0.25 * left * (1 + self.fort[city]) + left * self.artist[city]
        return worth + self.palace[city]

    def province_share(self, held: int, size: int) -> float:
        """What holding `held` of a province's `size` open cities is worth: the whole province
        scores every turn left (and a little more), a part of it is a start toward that."""
        left = self.turns_left
        return left + 1.0 if held == size else 0.6 * left * held / size

    def holdings(self, owner) -> float:
        """What my cities are worth if the board's owners were `owner` (a city index -> seat
        list): the provinces by the share I would hold, each city's income, artist, palace and
        port. Compares two boards, e.g. before and after an exchange of cities."""
        left = self.turns_left
        worth = 0.0
        for province in range(len(self.geo.province_cities)):
            cities = self.open_cities(province)
            held = sum(1 for c in cities if owner[c] == self.me)
            if held:
                worth += self.province_share(held, len(cities))
        for city, seat in enumerate(owner):
            if seat == self.me:
                worth += 0.25 * left * (1 + self.fort[city]) + left * self.artist[city]
                worth += self.palace[city] + 0.5 * self.geo.port[city]
        return worth

    def threat(self, city: int) -> float:
        """How exposed my city is: enemy and free neighbours, a coast open to landings."""
        near = sum(1 for c in self.geo.neighbours[city] if self.owner[c] != self.me)
        return near + 2 * self.enemy_neighbours(city) + (1 if self.geo.coastal[city] else 0)


FORT = (2, 4, 6)
