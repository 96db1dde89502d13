"""The arena's bot tokens: the site's levels plus the arena-only test opponents, with an optional
per-bot iteration budget.

A token is `level` or `level:N` (N iterations per decision, no clock), e.g. `hard:4000`. The
token as written is the bot's label in the arena's summary, so two budgets of one level are told
apart. The arena-only levels are never offered by the site: `ai.LEVELS` does not hold them.

- `oracle` (`oracle.py`): the search given the true hands and face-down cards. It cheats on
  purpose; its default budget is `hard`'s.
- `ganging` (`ganging.py`): heuristic bots that play as a team once one of them leads; the seats
  playing `ganging` are each other's allies.
- `coalition` (`coalition_bot.py`): `ganging` bots that see every hand (they cheat on purpose)
  and play as one team from the start; the seats playing `coalition` are each other's allies.
"""

from .coalition_bot import CoalitionBot
from .factory import make_bot, make_search_bot
from .ganging import GangingBot
from .levels import DEFAULT_BUDGETS, LEVELS
from .oracle import OracleBot

ARENA_ONLY_LEVELS = ("oracle", "ganging", "coalition")
# Levels whose seats play as one team: a seat's allies are the other seats of its level.
TEAM_LEVELS = {"ganging": GangingBot, "coalition": CoalitionBot}
ARENA_LEVELS = LEVELS + ARENA_ONLY_LEVELS
# Levels that search, so take an iteration budget (`:N`, --iterations, --time-limit).
BUDGETED_LEVELS = (*DEFAULT_BUDGETS, "oracle")
# The oracle is `hard` given the true cards: it takes hard's default budget.
ORACLE_BUDGET_LEVEL = "hard"


# Search options a token may switch on with `+`: `hard+inference:1000`, `hard+coalition`.
SEARCH_FLAGS = {
    "inference": {"inference": True},  # reading the table (ai/inference)
    "coalition": {"coalition": True},  # the others always modelled as one team
    "auto-coalition": {"coalition": "auto"},  # ... once the public history shows it
    "deep": {"battles": 2},  # iterations simulate through two battles before the evaluation
    "shallow": {"battles": 1},  # ... through one (hard and expert's first setting)
    "deeper": {"battles": 3},  # ... through three (a candidate for expert's longer budget)
    "learned": {"value": "learned"},  # the learned cut-off evaluation (search/value_model.py)
    # How the other seats choose inside the tree (search/opponents.py): by UCB on the merged
    # node (medium's first default, and hard's), or by a model of their hand.
    "searched-opponents": {"opponents": "searched"},
    "playout-opponents": {"opponents": "playout"},
    "heuristic-opponents": {"opponents": "heuristic"},
    "noisy-opponents": {"opponents": "noisy-heuristic"},
    "imitation-opponents": {"opponents": "imitation"},  # a learned model of `hard`
}
# Flags about the other seats' hidden intent or hands: nothing to a bot that sees every hand.
READING_FLAGS = ("inference", "coalition", "auto-coalition")
# The oracle takes every other flag (how it searches), so that it can be set against a search of
# the same kind.
ORACLE_FLAGS = tuple(flag for flag in SEARCH_FLAGS if flag not in READING_FLAGS)


def parse_token(token: str) -> tuple[str, int | None]:
    """(level, iterations or None) of a `--bots` token; ValueError with the reason if malformed."""
    level, _flags, budget = split_token(token)
    return level, budget


def search_options(token: str) -> dict:
    """The SearchBot options a token's `+flag`s switch on."""
    options = {}
    for flag in split_token(token)[1]:
        options.update(SEARCH_FLAGS[flag])
    return options


def split_token(token: str) -> tuple[str, list, int | None]:
    name, colon, budget = token.strip().partition(":")
    level, *flags = name.split("+")
    if level not in ARENA_LEVELS:
        choices = ", ".join(ARENA_LEVELS)
        raise ValueError(f"unknown bot {level!r} in {token!r}; choose among {choices}")
    for flag in flags:
        if flag not in flags_of(level):
            raise ValueError(
                f"{token!r}: +{flag} is not an option of {level} (the search levels take "
                f"{', '.join('+' + name for name in SEARCH_FLAGS)}; the oracle "
                f"{', '.join('+' + name for name in ORACLE_FLAGS)})"
            )
    if not colon:
        return level, flags, None
    if level not in BUDGETED_LEVELS:
        raise ValueError(
            f"{token!r}: {level} does not search, so it takes no budget "
            f"(level:N is for {', '.join(BUDGETED_LEVELS)})"
        )
    if not (budget.isascii() and budget.isdigit()) or int(budget) < 1:
        raise ValueError(f"{token!r}: the budget after ':' must be a positive whole number")
    return level, flags, int(budget)


def flags_of(level: str) -> tuple:
    if level == "oracle":
        return ORACLE_FLAGS
    return tuple(SEARCH_FLAGS) if level in DEFAULT_BUDGETS else ()


def check_tokens(tokens: list[str]) -> None:
    """Raise ValueError for the first malformed token (or none at all)."""
    if not tokens:
        raise ValueError("--bots names no bot")
    for token in tokens:
        parse_token(token)


def allies_of(seat: int, lineup: list[str]) -> frozenset:
    """The other seats playing the same team level (`ganging` or `coalition`) as `seat`."""
    level = parse_token(lineup[seat])[0]
    return frozenset(
        other
        for other, token in enumerate(lineup)
        if other != seat and parse_token(token)[0] == level
    )


def make_arena_bot(token: str, *, seat: int, lineup: list[str], seed, iterations, time_limit):
    """The bot for `seat` of `lineup` (tokens per seat). A token's own `:N` replaces the run's
    `iterations` and `time_limit` (N iterations, no clock)."""
    level, own_iterations = parse_token(token)
    if own_iterations is not None:
        iterations, time_limit = own_iterations, None
    if level in TEAM_LEVELS:
        return TEAM_LEVELS[level](seed, allies=allies_of(seat, lineup))
    if level == "oracle":
        budget = make_search_bot(
            ORACLE_BUDGET_LEVEL, seed=seed, iterations=iterations, time_limit=time_limit
        )
        bot = OracleBot(
            seed,
            iterations=budget.iterations,
            time_limit=budget.time_limit,
            battles=budget.battles,
            opponents=budget.opponents,
            level="oracle",
        )
    else:
        bot = make_bot(level, seed=seed, iterations=iterations, time_limit=time_limit)
    for option, value in search_options(token).items():
        setattr(bot, option, value)
    return bot
