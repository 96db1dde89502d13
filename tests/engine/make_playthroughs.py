"""Write the golden playthroughs: a few seeded random games, replayed by test_playthroughs.

Run from the repository root:  .venv/bin/python -m tests.engine.make_playthroughs

A playthrough records what a game was (seed, players, first seat, options and every action) and
how it ended (winners, control markers, and the SHA-256 of the final ``to_json()``). Rerun this
only when a rule changes on purpose, and say so in the commit: the diff shows which games moved.
"""

import dataclasses
import hashlib
import json
import random
from pathlib import Path

from games.engine import Options, apply_action, is_terminal, legal_actions, new_game, view_for
from games.engine import winners as winners_of

DIRECTORY = Path(__file__).parent / "playthroughs"
MAX_ACTIONS = 20000

# name, players, seed, first seat, optional rules switched on
GAMES = (
    ("2p-base", 2, 101, 0, ()),
    ("3p-hidden-capturing", 3, 202, 2, ("hidden_cards", "capturing_regions")),
    ("4p-base", 4, 303, 1, ()),
    ("4p-draw-bigger", 4, 404, 3, ("draw_after_battle", "bigger_kingdoms")),
    ("5p-capturing-draw", 5, 505, 0, ("capturing_regions", "draw_after_battle")),
    ("6p-all-options", 6, 606, 5, tuple(f.name for f in dataclasses.fields(Options))),
)


def state_hash(state):
    return hashlib.sha256(state.to_json().encode()).hexdigest()


def result_of(state):
    return {
        "winners": winners_of(state),
        "owners": view_for(state, None)["owners"],
        "state_sha256": state_hash(state),
    }


def replay(record):
    """The state reached by replaying a playthrough record's actions from its seed."""
    options = Options(**record["options"])
    state = new_game(record["players"], seed=record["seed"], options=options, first=record["first"])
    for action in record["actions"]:
        state = apply_action(state, action)
    return state


def play(players, seed, first, options):
    """A whole game of seeded random legal choices; returns (final state, actions)."""
    rng = random.Random(f"playthrough:{seed}")
    state = new_game(players, seed=seed, options=options, first=first)
    actions = []
    while not is_terminal(state):
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"game {seed} not over after {MAX_ACTIONS} actions")
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply_action(state, action)
    return state, actions


def record_for(players, seed, first, switched_on):
    options = Options(**{name: True for name in switched_on})
    state, actions = play(players, seed, first, options)
    return {
        "seed": seed,
        "players": players,
        "first": first,
        "options": dataclasses.asdict(options),
        "actions": actions,
        "result": result_of(state),
    }


def main():
    DIRECTORY.mkdir(exist_ok=True)
    for name, players, seed, first, switched_on in GAMES:
        record = record_for(players, seed, first, switched_on)
        path = DIRECTORY / f"{name}.json"
        path.write_text(json.dumps(record, indent=1) + "\n")
        print(f"{path}: {len(record['actions'])} actions, winners {record['result']['winners']}")


if __name__ == "__main__":
    main()
