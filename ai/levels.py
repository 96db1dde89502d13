"""The bot levels, weakest first, with the label a person sees when picking an opponent."""

LEVELS = ("random", "easy", "heuristic", "medium", "hard", "expert")

LEVEL_LABELS = {
    "random": "Random (plays any legal move)",
    "easy": "Easy (rules of thumb, with mistakes)",
    "heuristic": "Solid (a good player's rules of thumb)",
    "medium": "Medium (tree search, quick)",
    "hard": "Hard (tree search, about a second a move)",
    "expert": "Expert (tree search on every core, longer)",
}

# Per-decision budgets of the search levels: (iteration cap, seconds). `medium` is bounded by its
# iterations (~0.1 s); `hard` and `expert` use their time (a mid-game iteration costs ~0.2-0.3 ms
# of CPU). See factory.make_search_bot for how a caller's budget combines with these.
DEFAULT_BUDGETS = {
    "medium": (300, 0.4),
    "hard": (6000, 1.5),
    "expert": (20000, 4.0),
}

# How many battles each search level's iterations simulate before the evaluation. Two battles
# cost about twice as much per iteration, and at the same iterations beat the heuristic clearly
# more often than one (docs/ai.md, "Searching two battles deep"); `medium` stays quick at one.
SEARCH_BATTLES = {
    "medium": 1,
    "hard": 2,
    "expert": 2,
}

# How each search level plays the other seats inside its tree (search/opponents.py). `hard` and
# `expert` let them play the heuristic bot's move on their determinized hand: at the same
# iterations that beat the heuristic in 74 of 80 deals where the plain tree won 56, and wins 90%
# of a fresh run against it; against searching opponents it is about as strong as the plain tree
# (docs/ai.md, "Session 25"). It costs about twice as much per iteration; `medium`, which must
# stay quick, keeps the plain tree (at 300 iterations the model gained nothing there).
SEARCH_OPPONENTS = {
    "medium": "searched",
    "hard": "heuristic",
    "expert": "heuristic",
}
