"""`new_game`: nations by player count, closed provinces, starting garrisons, the order draw."""

from .cards import KINDS
from .geography import NATIONS, map_for
from .piles import shuffled
from .state import SETUP_RAMPART, SETUP_START, State, put

GARRISONS, RAMPARTS, CASTLES, PALACES, PILLAGES, ARTISTS = 21, 20, 10, 10, 10, 11
START_DUCATS = 6
# [rules] Five players: Genoa is removed; four: also Naples or Milan (the players choose;
# [ruling] R3 Naples unless the option says "milan"); three: both.
REMOVED = {6: (), 5: ("genoa",), 4: ("genoa", "naples"), 3: ("genoa", "naples", "milan")}

OPTION_KEYS = {"nations", "remove", "scenario", "powers"}
SCENARIOS = ("1494", "1499", "1515")


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
    scenario = options.get("scenario")
    if scenario is not None and scenario not in SCENARIOS:
        raise ValueError(f'the option "scenario" is one of {list(SCENARIOS)}')
    if scenario is not None and players < 4:
        # [ruling] R47: the scenarios name removals for five and four players only.
        raise ValueError("the historical scenarios are for 4 to 6 players")
    if scenario is not None and "remove" in options:
        raise ValueError('the option "remove" is for the 1454 game only')
    if not isinstance(options.get("powers", False), bool):
        raise ValueError('the option "powers" is true or false')


def _closed_cities(geo, removed):
    """[rules] A removed nation's listed provinces are inaccessible (its own cities are not)."""
    closed = [0] * len(geo.cities)
    for nation in removed:
        for province in geo.closed_without.get(nation, ()):
            for city in geo.province_cities[province]:
                closed[city] = 1
    return tuple(closed)


def scenario_data(geo, scenario):
    data = geo.data.get("scenarios", {}).get(scenario)
    if data is None:
        raise ValueError(f"this board has no scenario {scenario}")
    return data


def _nations_in_play(geo, players, options):
    """The nations in play in the rulebook's order, and the closed cities.

    [ruling] R47: a scenario removes its nations cumulatively (at four players both named
    nations) and closes no province."""
    scenario = options.get("scenario")
    if scenario is None:
        removed = removed_nations(players, options)
        in_play = [nation for nation in NATIONS if nation not in removed]
        return in_play, _closed_cities(geo, removed)
    data = scenario_data(geo, scenario)
    removed = data["remove"].get(str(players), [])
    in_play = [nation for nation in data["starts"] if nation not in removed]
    return in_play, (0,) * len(geo.cities)


def new_game(players, seed=0, options=None, board=None):
    """A new game waiting for the first set-up choice.

    options: {"nations": [one nation key per seat]} (else drawn at random among those in play),
    {"remove": "naples" | "milan"} with four players, {"scenario": "1494" | "1499" | "1515"}
    (the Italian Wars, [ruling] R46-R49), {"powers": True} (the nations' powers, R50-R59)."""
    options = dict(options or {})
    _check(players, options)
    geo = map_for(board)
    in_play, closed = _nations_in_play(geo, players, options)
    s = object.__new__(State)
    s.geo, s._acting, s._legal, s._owned = geo, None, None, None
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
    s.closed = closed
    s.scenario = options.get("scenario", "")
    _empty_board(s)
    if s.scenario:
        _scenario_starts(s, geo, in_play)
        return s
    s.starts = tuple(geo.starts[nation] for nation in nations)
    # [rules] The first turn order is drawn at set-up.
    s.order = shuffled(s, range(players))
    for seat in s.order:
        for city in s.starts[seat]:
            s.owner = put(s.owner, city, seat)
    s.reserve = tuple(GARRISONS - len(s.starts[seat]) for seat in range(players))
    s.phase, s.step, s.current = SETUP_RAMPART, 0, s.order[0]
    return s


def _scenario_starts(s, geo, in_play):
    """[ruling] R46: the turn order is the rulebook's list; the fixed starting garrisons are
    placed, then each player in turn order picks its "ou" city (setup_start)."""
    data = scenario_data(geo, s.scenario)
    s.order = tuple(s.nations.index(nation) for nation in in_play)
    starts = []
    for seat in range(s.n):
        slots = data["starts"][s.nations[seat]]
        fixed = tuple(geo.index[slot[0]] for slot in slots if len(slot) == 1)
        starts.append(fixed)
        for city in fixed:
            s.owner = put(s.owner, city, seat)
    s.starts = tuple(starts)
    s.reserve = tuple(GARRISONS - len(s.starts[seat]) for seat in range(s.n))
    s.phase, s.step = SETUP_START, -1
    from_step(s)


def start_choices(s, seat):
    """The cities `seat` may pick for its scenario slot with a choice (free ones)."""
    data = scenario_data(s.geo, s.scenario)
    for slot in data["starts"][s.nations[seat]]:
        if len(slot) > 1:
            return [s.geo.index[c] for c in slot if s.owner[s.geo.index[c]] < 0]
    return []


def from_step(s):
    """The next seat in turn order with a start to pick; then the ramparts."""
    while True:
        s.step += 1
        if s.step >= s.n:
            s.phase, s.step, s.current = SETUP_RAMPART, 0, s.order[0]
            return
        seat = s.order[s.step]
        if start_choices(s, seat) and len(s.starts[seat]) < _slots(s, seat):
            s.current = seat
            return


def _slots(s, seat):
    return len(scenario_data(s.geo, s.scenario)["starts"][s.nations[seat]])


def _empty_board(s):
    cities, n = len(s.geo.cities), s.n
    s.turn, s.war, s.votes, s.last_votes = 0, 0, (-1,) * n, ()
    s.ducats = (START_DUCATS,) * n
    s.hands = s.known = s.exposed = ((0,) * KINDS,) * n
    s.deck, s.discards = (), ()
    s.owner = (-1,) * cities
    s.fort = s.palace = s.artist = s.pillaged = (0,) * cities
    # [rules] Each player holds one of the 20 ramparts until it places it ([ruling] R35).
    s.ramparts, s.castles, s.palaces = RAMPARTS - n, CASTLES, PALACES
    s.pillages, s.artists = PILLAGES, ARTISTS
    s.points, s.sheet = (0,) * n, ((),) * n
    s.bought, s.expansions, s.exp_from, s.sea_used = (0,) * n, (0,) * n, (-1,) * n, (0,) * n
    s.attacks, s.used_from, s.targets, s.attacked, s.married = 0, (), (), 0, 0
    s.banked, s.exchanged, s.battle, s.winners = (), (), None, ()
    s.offers, s.prepaid, s.gained, s.power = (), (0,) * n, (), (0,) * n
