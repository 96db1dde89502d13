"""Positions for bot tests: the views seats see in random games, sorted by what they ask."""

import random
from itertools import product

from games.engine import Options, apply_action, current_player, is_terminal, new_game, view_for

OPTION_COMBINATIONS = [Options(*flags) for flags in product((False, True), repeat=4)]


def kind_of_decision(view: dict) -> str:
    """The phase, refined by the situations that call for special handling."""
    if view.get("defender") == view["seat"] and view["phase"] == "battle":
        return "defender"
    if any(a.get("reveal") for a in view["legal_actions"]):
        return "hidden_card"
    if any(a.get("card") == "bishop" for a in view["legal_actions"]):
        return "bishop"
    if any(a.get("card") == "scarecrow" and a.get("take") for a in view["legal_actions"]):
        return "scarecrow"
    return view["phase"]


def random_game_views(players: int, options: Options, seed: int):
    """Every decision view of one random game (uniform random legal actions)."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed, options=options)
    while not is_terminal(state):
        view = view_for(state, current_player(state))
        yield view
        state = apply_action(state, rng.choice(view["legal_actions"]))


def sample_views(per_kind: int, games_per_combination: int = 1, seed: int = 0) -> dict:
    """{kind: [views]}: up to `per_kind` views of each kind of decision, from random games over
    every option combination and 2–6 players."""
    rng = random.Random(seed)
    found: dict[str, list] = {}
    for index, options in enumerate(OPTION_COMBINATIONS):
        for game in range(games_per_combination):
            players = 2 + (index + game) % 5
            for view in random_game_views(players, options, seed * 1000 + index * 10 + game):
                bucket = found.setdefault(kind_of_decision(view), [])
                if len(bucket) < per_kind:
                    bucket.append(view)
                elif rng.random() < 0.05:
                    bucket[rng.randrange(per_kind)] = view
    return found
