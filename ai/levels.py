"""The bot levels, weakest first, with the label a person sees when picking an opponent."""

LEVELS = ("random", "easy", "heuristic", "medium", "hard", "expert")

LEVEL_LABELS = {
    "random": "Random (plays any legal move)",
    "easy": "Easy (rules of thumb, with mistakes)",
    "heuristic": "Solid (a good player's rules of thumb)",
    "medium": "Medium (tree search, quick)",
    "hard": "Hard (tree search, about a second a move)",
    "expert": "Expert (tree search on every core, with a model of strong play)",
}

# Per-decision budgets of the search levels: (iteration cap, seconds). `medium` is bounded by its
# iterations (~0.1-0.2 s); `hard` uses its time (a mid-game iteration costs about a millisecond
# of CPU); `expert` usually reaches its cap first (3,000 iterations in each of its two processes,
# about 1.5 s of each core with its model of `hard`). See factory.make_search_bot for how a
# caller's budget combines with these.
# `medium` and `hard` search alike (below), so these budgets alone set them apart: at 150
# iterations `medium` wins 70.5% of heads-up games against the heuristic; `hard` at 1,000
# iterations beats it less than that gap suggests, 62.75% of 400 (docs/ai.md, results table,
# rows ).
# `expert` has `hard`'s cap: its step over `hard` (69.0% of 400, row R-5) comes from its model
# of `hard`, not from more iterations, which bought little (docs/ai.md, "Tried and dropped",
# `expert` with the heuristic model and 20,000 iterations).
DEFAULT_BUDGETS = {
    "medium": (150, 0.4),
    "hard": (6000, 1.5),
    "expert": (6000, 4.0),
}

# How many battles each search level's iterations simulate before the evaluation. Two battles
# cost about twice as much per iteration, and at the same iterations beat the heuristic clearly
# more often than one (docs/ai.md, "Tried and dropped", one battle deep).
SEARCH_BATTLES = {
    "medium": 2,
    "hard": 2,
    "expert": 2,
}

# How each search level plays the other seats inside its tree (search/opponents.py): the
# heuristic bot's move on their determinized hand. At `hard`'s 1,000 iterations that beat the
# heuristic in 74 of 80 deals where the plain tree won 56 (docs/ai.md, results table, row R-14).
# `medium` searches as `hard` does, with its small budget: the levels differ by thinking time
# alone (rows ). The model costs about twice the CPU per iteration. `expert` plays
# them with the imitation model of `hard` (search/imitation.py), since `hard` is the level it
# must beat: at equal iterations that model won 60% of 200 heads-up games against `hard`
# (row R-13). `hard` keeps the heuristic: the model imitates it.
SEARCH_OPPONENTS = {
    "medium": "heuristic",
    "hard": "heuristic",
    "expert": "imitation",
}
