"""Small builders and readers shared by the engine rule tests.

Everything here goes through the public API of ``games.engine`` only: set-ups are stacked with
``new_game(hands=..., deck=..., owners=...)``, moves go through ``apply_action`` and facts are read
back from ``view_for`` / ``legal_actions`` / ``winners``.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from games.engine import (
    DECK,
    Options,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
)

PASS = {"type": "pass"}
PASS_REVEAL = {"type": "pass", "reveal": True}
MERCENARIES = ("m1", "m2", "m3", "m4", "m5", "m6", "m10")
PRINTED = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}
# Six players, 16 regions taken, Genova free; no one holds 3 connected regions. Seat 1 taking
# Genova ties seat 0 at 4 regions with the board full: a final battle between seats 0 and 1.
FINAL_BATTLE_BOARD = {
    "Roma": 0, "Mantova": 0, "Venezia": 0, "Urbino": 0,
    "Parma": 1, "Ancona": 1, "Napoli": 1,
    "Torino": 2, "Firenze": 2, "Milano": 2,
    "Siena": 3, "Spoleto": 3, "Modena": 4, "Bologna": 4, "Lucca": 5, "Ferrara": 5,
}  # fmt: skip
# Six players, 15 regions taken, Spoleto and Firenze free; seat 0 taking Spoleto makes 4,
# the most, with no 3 connected.
RUN_OUT_BOARD = {
    "Ancona": 0, "Genova": 0, "Modena": 0,
    "Venezia": 1, "Urbino": 1, "Parma": 1,
    "Torino": 2, "Milano": 2, "Napoli": 2,
    "Mantova": 3, "Bologna": 3, "Lucca": 4, "Siena": 4, "Roma": 5, "Ferrara": 5,
}  # fmt: skip

ALL_OPTIONS = ("draw_after_battle", "bigger_kingdoms", "capturing_regions", "hidden_cards")


def choose(region):
    return {"type": "choose_region", "region": region}


def play(card):
    return {"type": "play", "card": card}


def bishop(pope=None):
    return {"type": "play", "card": "bishop", "pope": pope}


def scarecrow(take=None):
    return {"type": "play", "card": "scarecrow", "take": take}


def keep(*cards):
    return {"type": "keep", "cards": list(cards)}


def draw(count):
    return {"type": "draw", "count": count}


def discard_hand(discard):
    return {"type": "discard_hand", "discard": discard}


def start(players, hands, *, first=0, owners=None, deck=None, seed=1, **options):
    """A stacked game: ``hands`` per seat, optional control markers and draw pile."""
    return new_game(
        players,
        seed=seed,
        options=Options(**options),
        first=first,
        hands=[list(h) for h in hands],
        deck=None if deck is None else list(deck),
        owners=owners,
    )


def act(state, seat, action):
    """Apply ``action`` after checking that ``seat`` is the one the game waits for."""
    assert current_player(state) == seat, (
        f"expected seat {seat} to act before {action}, the game waits for "
        f"{current_player(state)} (phase {view_for(state, None)['phase']})"
    )
    return apply_action(state, action)


def run(state, *moves):
    """Apply a script of ``(seat, action)`` pairs."""
    for seat, action in moves:
        state = act(state, seat, action)
    return state


def public(state):
    return view_for(state, None)


def hand(state, seat):
    return sorted(view_for(state, seat)["hand"])


def line(state, seat, viewer=None):
    """Seat's battle line as ``viewer`` sees it (a spectator by default)."""
    return list(view_for(state, viewer)["players"][seat]["line"])


def owners(state):
    return dict(public(state)["owners"])


def token(state):
    return public(state)["condottiere"]


def phase(state):
    return public(state)["phase"]


def hand_sizes(state):
    return [p["hand_size"] for p in public(state)["players"]]


def sorted_actions(actions):
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def plays_of(state, card):
    """The legal ``play`` actions of ``card`` (several for a Scarecrow or a Bishop)."""
    return [a for a in legal_actions(state) if a.get("type") == "play" and a.get("card") == card]


def is_sub_multiset(cards, of):
    return not (Counter(cards) - Counter(of))


def deck_without(*cards):
    """The 110-card deck minus ``cards`` (a multiset), as a list."""
    rest = Counter(DECK) - Counter(cards)
    return sorted(rest.elements())


def visible_cards(state):
    """Every card some seat can see: own hands, lines (owners see their face-down card),
    public discards and each seat's own face-down discards."""
    players = len(public(state)["players"])
    cards = list(public(state)["discards"])
    for seat in range(players):
        view = view_for(state, seat)
        cards += view["hand"]
        cards += view["players"][seat]["line"]
        cards += view.get("own_discards") or []
    return cards


def counted_cards(state):
    """deck + hands + lines + discard pile, from the public view: must always be 110."""
    view = public(state)
    in_lines = sum(len(p["line"]) for p in view["players"])
    in_hands = sum(p["hand_size"] for p in view["players"])
    return view["deck_size"] + in_hands + in_lines + view["discard_pile_size"]


def random_options(rng):
    return Options(**{name: rng.random() < 0.5 for name in ALL_OPTIONS})


def play_random_game(players, seed, options, choice_seed, max_actions=20000, on_state=None):
    """Play uniformly random legal actions until the end; return (final state, actions)."""
    rng = random.Random(choice_seed)
    state = new_game(players, seed=seed, options=options, first=seed % players)
    actions = []
    while not is_terminal(state):
        if on_state is not None:
            on_state(state)
        assert len(actions) < max_actions, f"game not over after {max_actions} actions"
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply_action(state, action)
    if on_state is not None:
        on_state(state)
    return state, actions


def property_games(share=1.0):
    """Random games for one property: ENGINE_PROPERTY_GAMES (default 1000) is the budget of the
    main property; the heavier ones take a ``share`` of it."""
    budget = int(os.environ.get("ENGINE_PROPERTY_GAMES", "1000"))
    return max(1, int(budget * share))


def every_nth(check, n):
    """Run ``check`` on every n-th state only: for the expensive per-state properties."""
    seen = [0]

    def sampled(state):
        if seen[0] % n == 0 or is_terminal(state):
            check(state)
        seen[0] += 1

    return sampled
