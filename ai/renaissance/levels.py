"""Which Renaissance bot plays each of the site's levels.

The site offers the same level names for both games (ai/levels.py). The table below is the one
place that says which Renaissance bot plays each, and the site reads it to tell a player which
bot sits at the table.
"""

# The Renaissance bots that exist, weakest first (the arena plays these by name). `medium` and
# `hard` are the search bot (search.py) at their budgets (search.BUDGETS), each with its own
# rules of thumb (search.OWN_POLICIES: a war hand of 9 and of 12, where the heuristic buys 7).
LEVELS = ("random", "easy", "heuristic", "medium", "hard")

# The bots that search, and so take a thinking time.
SEARCH_LEVELS = ("medium", "hard")

# The share of decisions the `easy` bot plays at random rather than by the heuristic's rules:
# honest mistakes (a legal move of its own seat), at no cost in thinking time.
EASY_MISTAKES = 0.2

# Site level -> Renaissance bot. "easy" is the heuristic with mistakes, as in Condottiere;
# "medium" and "hard" search at their own budgets. There is no Renaissance bot stronger than
# `hard` yet, so `expert` gets `hard`: a weaker bot there would only make the site's strongest
# level play worse. When a stronger bot exists only this table changes.
LEVEL_BOTS = {
    "random": "random",
    "easy": "easy",
    "heuristic": "heuristic",
    "medium": "medium",
    "hard": "hard",
    "expert": "hard",
}
