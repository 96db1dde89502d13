"""The rating scale players read, apart from the rating updates (games.ratings.rate) so that the
models may use it: games.ratings.rate imports the models."""

from openskill.models import PlackettLuce

# The scale players read (docs/protocol.md section 11): OpenSkill's cautious ordinal, mu - 3 sigma,
# is 0 for a newcomer and goes negative after a first loss ("-2.8" reads like a penalty), so it
# is shifted and stretched onto the 1500-based numbers chess players know. A newcomer (mu 25,
# sigma 25/3, ordinal 0) reads exactly 1500; one ordinal point is worth 60 display points, so a
# single game moves a player by tens of points, like an Elo rating.
DISPLAY_BASE = 1500
DISPLAY_POINTS_PER_ORDINAL = 60
# OpenSkill's defaults for a newcomer (openskill.models.PlackettLuce: mu 25, sigma 25/3).
NEWCOMER_ORDINAL = PlackettLuce().mu - 3 * PlackettLuce().sigma
NEWCOMER_SIGMA = PlackettLuce().sigma
# A rating is provisional, shown with a "?" as lichess does, while its uncertainty is still above
# this: 7/10 of a newcomer's, about the first dozen rated games. Until then a game moves the shown
# number by a hundred points or more on average, since every game both moves mu and shrinks sigma
# (docs/protocol.md, section 11; tests/web/test_provisional_ratings.py measures it).
PROVISIONAL_SIGMA = 0.7 * NEWCOMER_SIGMA
# The games whose bot levels start from the arena's ladder (ai/ladder.py's LADDER_FILES, named here
# without importing the bots; tests/ai/test_ladder.py holds the two equal): their first number is
# a measurement, not a guess, so it is never provisional.
LADDER_GAMES = frozenset({"condottiere", "renaissance"})
# The game a rating belongs to when none is named.
DEFAULT_GAME = "condottiere"


def display_rating(mu: float, sigma: float) -> int:
    """The rating people see for OpenSkill numbers (mu, sigma): 1500 for a newcomer."""
    ordinal = mu - 3 * sigma
    return round(DISPLAY_BASE + DISPLAY_POINTS_PER_ORDINAL * (ordinal - NEWCOMER_ORDINAL))


def display_change(
    mu_before: float, sigma_before: float, mu_after: float, sigma_after: float
) -> int:
    """A game's rating change as people see it: the displayed rating after minus the displayed
    rating before, so the change shown always adds up with the two numbers shown."""
    return display_rating(mu_after, sigma_after) - display_rating(mu_before, sigma_before)


def is_provisional(sigma: float, bot_level: str = "", ruleset: str = DEFAULT_GAME) -> bool:
    """Whether a rating is still provisional: too uncertain to trust yet (sigma above
    PROVISIONAL_SIGMA), unless it is a bot level whose start its game's ladder measured."""
    measured_start = bool(bot_level) and ruleset in LADDER_GAMES
    return sigma > PROVISIONAL_SIGMA and not measured_start
