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
