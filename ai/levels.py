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

# Per-decision budgets of the search levels when the caller sets none: (iterations, seconds).
# With only an iteration budget a bot is reproducible; the seconds cap protects live play.
DEFAULT_BUDGETS = {
    "medium": (300, 0.4),
    "hard": (2000, 1.5),
    "expert": (6000, 4.0),
}
