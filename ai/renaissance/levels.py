"""Which Renaissance bot plays each of the site's levels.

The site offers the same level names for both games (ai/levels.py). Renaissance has three bots
today, so a level is played by the best one that exists for it: the table below is the one place
that says so, and the site reads it to tell a player which bot sits at the table.
"""

# The Renaissance bots that exist, weakest first (the arena plays these by name).
LEVELS = ("random", "easy", "heuristic")

# The share of decisions the `easy` bot plays at random rather than by the heuristic's rules:
# honest mistakes (a legal move of its own seat), at no cost in thinking time.
EASY_MISTAKES = 0.2

# Site level -> Renaissance bot. "random" and "heuristic" have their own bot; "easy" is the
# heuristic with mistakes, as in Condottiere. There is no Renaissance search bot yet, so the
# search levels get the strongest bot there is, the heuristic: a weaker bot there would only
# make the site's strongest levels play worse. When a search bot exists only this table changes.
LEVEL_BOTS = {
    "random": "random",
    "easy": "easy",
    "heuristic": "heuristic",
    "medium": "heuristic",
    "hard": "heuristic",
    "expert": "heuristic",
}
