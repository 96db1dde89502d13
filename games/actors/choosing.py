"""Choosing a move for a seat from that seat's view, and finding the seats that must act."""

import hashlib
import logging

from django.conf import settings

import ai
from games.models import Action, Game, Seat
from games.rules_api import ruleset_of
from games.services.decisions import still_deciding
from games.services.frames import load_state

from .public_history import bot_choice

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "random"


def derived_seed(game_seed: int, version: int, seat: int | None = None) -> int:
    """The bot's seed for the decision at this version: reproducible, different every turn (and,
    where several seats decide at once, for every seat)."""
    key = f"{game_seed}:{version}" if seat is None else f"{game_seed}:{version}:{seat}"
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def make_seat_bot(level: str, seed: int, game: str = "condottiere"):
    """The bot of this level for this game, or the random bot while that level is not written."""
    try:
        return ai.make_bot(level, seed=seed, time_limit=settings.BOT_THINK_SECONDS, game=game)
    except (NotImplementedError, ValueError):
        log.warning("bot level %r is not available: playing %r", level, FALLBACK_LEVEL)
        return ai.make_bot(FALLBACK_LEVEL, seed=seed, game=game)


def seat_seed(ruleset, game_seed: int, version: int, seat: int) -> int:
    """Condottiere keeps its one seed per version (one seat decides at a time)."""
    if ruleset.name == "condottiere":
        return derived_seed(game_seed, version)
    return derived_seed(game_seed, version, seat)


def choose_move(
    ruleset, game_seed: int, state, seat: int, level: str, version: int, game_id=None, view=None
) -> dict:
    """A bot's move for `seat`, chosen from that seat's view (`view` if already read) and the
    game's public history."""
    bot = make_seat_bot(level, seat_seed(ruleset, game_seed, version, seat), ruleset.name)
    view = ruleset.view_for(state, seat) if view is None else view
    return bot_choice(bot, view, game_id, version)


def choose_offer(
    ruleset, game_seed: int, state, seat: int, level: str, version: int, game_id: int
) -> tuple[dict | None, dict | None]:
    """(a bot's offer of diplomacy to make before its move, or None; the seat's view if it was
    read, for the move). A bot that makes offers (`make_offer`, the Renaissance heuristic) is
    told the offers its seat made this turn, read from the game's log only when it asks (it
    makes no offer twice in a turn, and few). A game without offers makes no bot for them."""
    if not ruleset.offer_types:
        return None, None
    bot = make_seat_bot(level, seat_seed(ruleset, game_seed, version, seat), ruleset.name)
    make_offer = getattr(bot, "make_offer", None)
    if make_offer is None:
        return None, None
    view = ruleset.view_for(state, seat)
    return make_offer(view, made=lambda: offers_made_this_turn(game_id, seat)), view


def offers_made_this_turn(game_id: int, seat: int) -> list[dict]:
    """The offers `seat` made since the current turn began (the log's public record of the
    action that began it says `turn`): the seat's own actions, nothing it may not know."""
    actions = Action.objects.filter(game_id=game_id)
    began = actions.filter(public__has_key="turn").order_by("-seq").values_list("seq", flat=True)
    since = began.first() or 0
    mine = actions.filter(seat=seat, seq__gt=since, action__type__startswith="offer_")
    return list(mine.order_by("seq").values_list("action", flat=True))


def choose_answer(ruleset, game_seed: int, state, seat: int, level: str, version: int):
    """A bot's answer to an offer of diplomacy waiting for `seat`, or None (from its view)."""
    bot = make_seat_bot(level, seat_seed(ruleset, game_seed, version, seat), ruleset.name)
    answer = getattr(bot, "answer_offer", None)
    return None if answer is None else answer(ruleset.view_for(state, seat))


def acting_seats_at(game: Game, version: int, seats=None):
    """(state, seat rows) of the seats that act now and were already asked the same decision at
    `version` (a seat whose decision changed since is not: a newer announcement serves it)."""
    if game.status != Game.Status.PLAYING or not 0 <= version <= game.version:
        return None
    state = load_state(game)
    acting = ruleset_of(game).acting_seats(state)
    if not acting:
        return None
    if seats is None:
        seats = list(Seat.objects.filter(game=game, index__in=acting).order_by("index"))
    return state, [
        seat for seat in seats if seat.index in acting and still_deciding(game, version, seat.index)
    ]


def acting_seat(game: Game, version: int):
    """(state, seat row) of the one seat that must act, if the game still waits for the
    decision awaited at `version` (another seat's actions since that left it as it was do not
    count: games/services/decisions.py). None when nobody or several seats act."""
    found = acting_seats_at(game, version)
    if found is None or len(found[1]) != 1:
        return None
    state, (seat,) = found
    return state, seat
