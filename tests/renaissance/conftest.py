"""Shared helpers of the Renaissance engine tests: a tiny board of our own (so that the tests do
not depend on the reconstructed map's details), games on it, and random play."""

import os
import random

from games.renaissance.api import (
    IllegalAction,
    acting_seats,
    apply_action,
    legal_actions,
    new_game,
)
from games.renaissance.cards import KIND, KINDS
from games.renaissance.diplomacy import diplomacy_actions
from games.renaissance.state import COMBAT, EXPANSION, clone

# How many random games the property tests play per player count (more with the env var).
RANDOM_GAMES = int(os.environ.get("RENAISSANCE_GAMES", "12"))


def _city(province, terrain="plain", coastal=False, port=False):
    return {"province": province, "terrain": terrain, "coastal": coastal, "port": port}


CITIES = {
    "Torino": _city("Ducato di Savoia"),
    "Nizza": _city("Ducato di Savoia", coastal=True, port=True),
    "Trento": _city("Heiligens Römisches Reich", "mountain"),
    "Genova": _city("Liguria", coastal=True, port=True),
    "Savona": _city("Liguria", coastal=True),
    "Ajaccio": _city("Corsica", coastal=True, port=True),
    "Milano": _city("Ducato di Milano"),
    "Pavia": _city("Ducato di Milano"),
    "Brescia": _city("Lombardia"),
    "Saluzzo": _city("Marchesato di Saluzzo e di Monferrato", "mountain"),
    "Venezia": _city("Veneto", "marsh", coastal=True, port=True),
    "Padova": _city("Veneto"),
    "Ragusa": _city("Dalmazia", coastal=True, port=True),
    "Firenze": _city("Toscana"),
    "Pistoia": _city("Toscana"),
    "Siena": _city("Repubblica di Siena"),
    "Roma": _city("Lazio", coastal=True),
    "Viterbo": _city("Lazio"),
    "Perugia": _city("Umbria", "mountain"),
    "Napoli": _city("Regno di Napoli", "mountain", coastal=True, port=True),
    "Capua": _city("Regno di Napoli"),
    "L'Aquila": _city("Abruzzo Basilicata", "mountain"),
    "Bari": _city("Calabria Puglia", coastal=True, port=True),
    "Bologna": _city("Emilia"),
}
ROADS = [
    ("Nizza", "Torino"),
    ("Saluzzo", "Torino"),
    ("Genova", "Saluzzo"),
    ("Genova", "Savona"),
    ("Nizza", "Savona"),
    ("Genova", "Pavia"),
    ("Milano", "Pavia"),
    ("Brescia", "Milano"),
    ("Milano", "Trento"),
    ("Brescia", "Trento"),
    ("Brescia", "Padova"),
    ("Padova", "Venezia"),
    ("Padova", "Trento"),
    ("Bologna", "Padova"),
    ("Bologna", "Pavia"),
    ("Bologna", "Firenze"),
    ("Firenze", "Pistoia"),
    ("Firenze", "Siena"),
    ("Siena", "Viterbo"),
    ("Roma", "Viterbo"),
    ("Perugia", "Roma"),
    ("Firenze", "Perugia"),
    ("Capua", "Roma"),
    ("Capua", "Napoli"),
    ("L'Aquila", "Roma"),
    ("Bari", "L'Aquila"),
    ("Bari", "Napoli"),
]
PROVINCES = {}
for _name, _info in CITIES.items():
    PROVINCES.setdefault(_info["province"], {"cities": [], "sea": False})["cities"].append(_name)
PROVINCES["Corsica"]["sea"] = PROVINCES["Dalmazia"]["sea"] = True

TINY = {
    "source": "a tiny test board (not the game's map)",
    "nations": {
        key: {"name": name, "capital": name}
        for key, name in [
            ("milan", "Milano"),
            ("florence", "Firenze"),
            ("venice", "Venezia"),
            ("naples", "Napoli"),
            ("rome", "Roma"),
            ("genoa", "Genova"),
        ]
    },
    "provinces": PROVINCES,
    "cities": CITIES,
    "roads": [sorted(road) for road in ROADS],
    "starts": {
        "florence": ["Firenze", "Pistoia"],
        "genoa": ["Genova", "Ajaccio"],
        "naples": ["Napoli", "Capua"],
        "milan": ["Milano", "Pavia"],
        "rome": ["Roma", "Viterbo"],
        "venice": ["Venezia", "Ragusa"],
    },
    "closed_without": {
        "genoa": ["Heiligens Römisches Reich", "Ducato di Savoia"],
        "naples": ["Abruzzo Basilicata", "Regno di Napoli", "Calabria Puglia"],
        "milan": ["Marchesato di Saluzzo e di Monferrato", "Ducato di Milano", "Lombardia"],
    },
}
NATION_ORDER = ["milan", "florence", "venice", "naples", "rome", "genoa"]


def game(players=6, seed=0, **options):
    """A new game on the tiny board; seat i plays NATION_ORDER's nations in play, in order."""
    if "nations" not in options:
        removed = {5: {"genoa"}, 4: {"genoa", options.get("remove", "naples")}}.get(players)
        removed = removed or ({"genoa", "naples", "milan"} if players == 3 else set())
        options["nations"] = [n for n in NATION_ORDER if n not in removed]
    return new_game(players, seed, options, board=TINY)


def city(state, name):
    return state.geo.index[name]


def first_legal(state):
    seat = min(acting_seats(state))
    return apply_action(state, seat, legal_actions(state, seat)[0])


def through_setup(state):
    """Each set-up choice is the first legal one; returns the first purchase's state."""
    while state.turn == 0:
        state = first_legal(state)
    return state


def edit(state, **fields):
    """A copy of `state` with some fields replaced (to set up a situation)."""
    new = clone(state)
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def hand(*names):
    counts = [0] * KINDS
    for name in names:
        counts[KIND[name]] += 1
    return tuple(counts)


def random_game(players, seed, board=TINY, on_step=None, options=None, diplomacy=0.0):
    """A uniformly random game to its end; on_step(state, seat, action, new_state) per step.
    With `diplomacy` > 0, that share of the steps is a random diplomacy action of a random
    seat (when it has one)."""
    rng = random.Random(seed)
    state = new_game(players, seed, options, board=board)
    steps = 0
    while state.winners == ():
        seat = rng.choice(sorted(acting_seats(state)))
        actions = legal_actions(state, seat)
        assert actions, f"seat {seat} acts with no legal action in {state!r}"
        if diplomacy and rng.random() < diplomacy:
            other = rng.randrange(players)
            offered = diplomacy_actions(state, other)
            if offered:
                seat, actions = other, offered
        action = rng.choice(actions)
        new = apply_action(state, seat, action)
        if on_step:
            on_step(state, seat, action, new)
        state = new
        steps += 1
        assert steps < 20000, "a game that does not end"
    return state


def until(state, done, chooser=None):
    """Play first legal actions (or chooser(state, seat, actions)) until done(state)."""
    steps = 0
    while not done(state):
        seat = min(acting_seats(state))
        actions = legal_actions(state, seat)
        action = chooser(state, seat, actions) if chooser else actions[0]
        state = apply_action(state, seat, action)
        steps += 1
        assert steps < 5000
    return state


def names(state, cities):
    return {state.geo.cities[c] for c in cities}


def expansion_state(seed=1):
    """The first expansion, with only the starting garrisons on the board."""
    state = through_setup(game(6, seed))
    state = until(state, lambda s: s.phase == EXPANSION)
    owner = [-1] * 24
    for seat, starts in enumerate(state.starts):
        for c in starts:
            owner[c] = seat
    return edit(state, owner=tuple(owner), reserve=(19,) * 6, step=0, current=state.order[0])


def combat_state(seat_nation="florence", war=0, cards=(), ducats=10):
    state = expansion_state()
    seat = state.nations.index(seat_nation)
    hands = tuple(hand(*cards) if s == seat else hand() for s in range(6))
    owner = list(state.owner)
    owner[city(state, "Siena")] = state.nations.index("rome")
    owner[city(state, "Bologna")] = state.nations.index("milan")
    return edit(
        state,
        phase=COMBAT,
        current=seat,
        step=state.order.index(seat),
        war=war,
        hands=hands,
        owner=tuple(owner),
        ducats=(ducats,) * 6,
        attacks=0,
        used_from=(),
        targets=(),
        attacked=0,
        married=0,
    ), seat


def refused(state, seat, action):
    """Assert that `action` by `seat` is refused with IllegalAction and changes nothing."""
    before = state.to_json()
    try:
        apply_action(state, seat, action)
    except IllegalAction:
        assert state.to_json() == before, "a refused action changed the state"
        return
    raise AssertionError(f"{action!r} by seat {seat} was accepted")
