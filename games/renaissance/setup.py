"""`new_game`: nations by player count, closed provinces, starting garrisons, the order draw."""

from .cards import KINDS
from .geography import NATIONS, map_for
from .piles import shuffled
from .state import SETUP_RAMPART, State

GARRISONS, RAMPARTS, CASTLES, PALACES, PILLAGES, ARTISTS = 21, 20, 10, 10, 10, 11
START_DUCATS = 6
# [rules] Five players: Genoa is removed; four: also Naples or Milan (the players choose;
# [ruling] R3 Naples unless the option says "milan"); three: both.
REMOVED = {6: (), 5: ("genoa",), 4: ("genoa", "naples"), 3: ("genoa", "naples", "milan")}

OPTION_KEYS = {"nations", "remove"}


def removed_nations(players, options):
    removed = REMOVED[players]
    if players == 4 and options.get("remove", "naples") == "milan":
        removed = ("genoa", "milan")
    elif players == 4 and options.get("remove", "naples") != "naples":
        raise ValueError('the option "remove" is "naples" or "milan"')
    return removed


def _check(players, options):
    if isinstance(players, bool) or players not in REMOVED:
        raise ValueError("Renaissance is for 3 to 6 players")
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)}")


def _closed_cities(geo, removed):
    """[rules] A removed nation's listed provinces are inaccessible (its own cities are not)."""
    closed = [0] * len(geo.cities)
    for nation in removed:
        for province in geo.closed_without.get(nation, ()):
            for city in geo.province_cities[province]:
                closed[city] = 1
    return tuple(closed)


def new_game(players, seed=0, options=None, board=None):
    """A new game waiting for the first player's rampart.

    options: {"nations": [one nation key per seat]} (else drawn at random among those in play),
    {"remove": "naples" | "milan"} with four players."""
    options = dict(options or {})
    _check(players, options)
    geo = map_for(board)
    removed = removed_nations(players, options)
    in_play = [nation for nation in NATIONS if nation not in removed]
    s = object.__new__(State)
    s.geo, s._legal = geo, None
    s.n, s.seed, s.rng = players, seed, 0
    if "nations" in options:
        nations = tuple(options["nations"])
        if sorted(nations) != sorted(in_play):
            raise ValueError(f"the nations in play are {in_play}")
    else:
        nations = shuffled(s, in_play)
    s.options = tuple(
        sorted((k, v if not isinstance(v, list) else tuple(v)) for k, v in options.items())
    )
    s.nations = nations
    s.closed = _closed_cities(geo, removed)
    s.starts = tuple(geo.starts[nation] for nation in nations)
    _empty_board(s)
    # [rules] The first turn order is drawn at set-up.
    s.order = shuffled(s, range(players))
    for seat in s.order:
        for city in s.starts[seat]:
            s.owner = s.owner[:city] + (seat,) + s.owner[city + 1 :]
    s.reserve = tuple(GARRISONS - len(s.starts[seat]) for seat in range(players))
    s.phase, s.step, s.current = SETUP_RAMPART, 0, s.order[0]
    return s


def _empty_board(s):
    cities, n = len(s.geo.cities), s.n
    s.turn, s.war, s.votes, s.last_votes = 0, 0, (-1,) * n, ()
    s.ducats = (START_DUCATS,) * n
    s.hands = s.known = s.exposed = ((0,) * KINDS,) * n
    s.deck, s.discards = (), ()
    s.owner = (-1,) * cities
    s.fort = s.palace = s.artist = s.pillaged = (0,) * cities
    # [rules] Each player holds one of the 20 ramparts until it places it.
    s.ramparts, s.castles, s.palaces = RAMPARTS - n, CASTLES, PALACES
    s.pillages, s.artists = PILLAGES, ARTISTS
    s.points, s.sheet = (0,) * n, ((),) * n
    s.bought, s.expansions, s.exp_from, s.sea_used = (0,) * n, (0,) * n, (-1,) * n, (0,) * n
    s.attacks, s.used_from, s.targets, s.attacked, s.married = 0, (), (), 0, 0
    s.banked, s.exchanged, s.battle, s.winners = (), (), None, ()
