"""A bot's turn: the jobs "bot_turn" (choose) and "bot_move" (play the chosen move when due).

`run_bot_turn(game_id, version)` is idempotent, keyed by (game, version): it returns at once if
the game moved on, is not being played, or the seat to act is not played by a bot. Otherwise it
asks the seat's bot for a move from that seat's VIEW only. Every bot decision is shown
`BOT_MOVE_DELAY` after it was asked for, thinking included — the same pause for every decision,
so that it never tells anyone what was decided. The rest of that pause is not slept on a worker
(which would hold it idle): the move is announced as the job "bot_move" with that delay, and
`play_bot_move` submits it through the one way in if the game still waits for that bot at that
version. A StaleVersion there is normal: someone else moved first. A lone bot that does not
search is sent its turn only when the pause is over (services.followups.pause_before_choosing):
no pause is left when it has chosen, and it plays the move in the same job. With no pause to
show, the turns a bot's moves leave to a lone bot of the same game are played by the same job, a
few at a time (games/jobs/bot_chain.py).
"""

import logging
import time

from django.conf import settings

from games import jobs
from games.jobs import bot_chain, pending_bot_turns
from games.models import Action, Game, Seat
from games.rules_api import ruleset, ruleset_of
from games.services import NotYourTurn, ServiceError, StaleVersion, submit_action
from games.services.decisions import decision_began
from games.services.errors import IllegalMove, NotBotTurn
from games.services.followups import tell_held_notices
from games.services.frames import STANDIN_LEVEL

from .choosing import acting_seats_at, choose_answer, choose_move, choose_offer

log = logging.getLogger(__name__)

# Below this many seconds of pause left, the move is played at once rather than announced.
SHORTEST_ANNOUNCED_PAUSE = bot_chain.SHORTEST_PAUSE


def run_bot_turn(*turn, **named) -> str:
    """Serve the bot turn `serve_bot_turn(*turn, **named)`, then the turns its moves leave to a
    lone bot of the game when no pause is shown (games/jobs/bot_chain.py), as long as the chain
    allows; the outcome of the last."""
    with bot_chain.chaining() as chain:
        try:
            outcome = serve_bot_turn(*turn, **named)
            while (turn := bot_chain.take_next(chain)) is not None:
                outcome = serve_kept_turn(turn)
        finally:
            tell_held_notices(chain)  # moves whose kept turn was not played into a move
    return outcome


def serve_kept_turn(turn: tuple) -> str:
    """A turn the chain kept; should it fail, it is announced as any turn would have been (the
    job's retry replays only the first turn, by then stale), and the error goes on."""
    try:
        return serve_bot_turn(*turn)
    except Exception:
        game_id, version, scheduled_at, level, (seed, snapshot), game_name = turn
        if pending_bot_turns.announce(game_id, version):
            args = [game_id, version, scheduled_at, level, seed, snapshot, game_name, None]
            jobs.later("bot_turn", *args)
        raise


def serve_bot_turn(
    game_id: int,
    version: int,
    scheduled_at: float | None = None,
    level: str | None = None,
    known: tuple[int, str] | None = None,
    game_name: str = "condottiere",
    since: int | None = None,
) -> str:
    """Choose the moves of the bots asked a decision at `version`, if they still are, and play
    each when its pause is over. `level` and `known` = (the game's seed, its snapshot at
    `version`) come from the move that made this version when one bot acts, which saves reading
    the game; the one way in checks everything again under the game's lock. Without them the
    game is read, and every bot seat is served that is still asked the decision it was asked at
    `version` (with `since`, only those whose decision began at that version or later: several
    bots asked at once, whose earlier decisions have their moves on the way), and every bot seat
    that an offer of diplomacy waits for. Returns what happened ("moved", "announced", "stale",
    "not_bot_turn", "refused: <code>").

    At most one message per game waits in the queue (games/jobs/pending_bot_turns.py): if a newer
    version was announced while this one waited, its turn is played here instead, read from
    the game, and the older version is never thought about."""
    asked_at = scheduled_at or time.time()
    since = 0 if since is None else since
    newest = pending_bot_turns.take(game_id)
    if newest is not None and newest > version:
        version, level, known = newest, None, None
    if level is not None and known is not None:
        rules = ruleset(game_name)
        seed, snapshot = known
        state = rules.from_json(snapshot)
        acting = rules.acting_seats(state)
        if len(acting) != 1:
            return "stale"
        (seat_index,) = acting
        offer, view = choose_offer(rules, seed, state, seat_index, level, version, game_id)
        move = choose_move(rules, seed, state, seat_index, level, version, game_id, view=view)
        offers, choices = [(seat_index, offer)] if offer else [], [(seat_index, move)]
    else:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return "no_game"
        found = bot_choices(game, version, since)
        if isinstance(found, str):
            return found
        version, offers, choices = found
    for seat, offer in offers:
        play_bot_offer(game_id, version, seat, offer)
    outcomes = [announce_move(game_id, version, seat, action, asked_at) for seat, action in choices]
    return outcomes[0] if len(outcomes) == 1 else ",".join(sorted(set(outcomes)))


def play_bot_offer(game_id: int, version: int, seat: int, offer: dict) -> str:
    """Play a bot's offer of diplomacy at once, before its move is announced: the offer is no
    move of the turn, so the move chosen at `version` still holds after it (an offer changes
    nobody's decision, games/services/decisions.py), and the recipient answers whenever it
    likes (a bot at once, in a job of its own; a person on its table). It never holds the game
    up: unanswered, it vanishes at the end of the turn ([ruling] R45)."""
    return play_bot_move(game_id, version, seat, offer, time.time())


def announce_move(game_id: int, version: int, seat: int, action: dict, asked_at: float) -> str:
    """Play the bot's move when its pause is over (at once if none is left)."""
    pause = settings.BOT_MOVE_DELAY - (time.time() - asked_at)
    if pause >= SHORTEST_ANNOUNCED_PAUSE:
        jobs.later("bot_move", game_id, version, seat, action, asked_at, delay=pause)
        return "announced"
    return play_bot_move(game_id, version, seat, action, asked_at)


def bot_choices(game: Game, version: int, since: int):
    """(the version chosen at, [(seat, offer), ...], [(seat, action), ...]) for the bots to
    serve at `version`: the offers some make before their moves, then the moves and answers;
    or why there are none ("stale", "not_bot_turn")."""
    rules = ruleset_of(game)
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    found = acting_seats_at(game, version, seats)
    if found is None:
        return "stale"
    state, asked = found
    served = [
        seat for seat in asked if seat.plays_as_bot and since <= decision_start(game, seat.index)
    ]
    answering = [
        seat for seat in seats if seat.plays_as_bot and rules.awaits_answer(state, seat.index)
    ]
    if not served and not answering:
        return "not_bot_turn" if asked and not any(s.plays_as_bot for s in asked) else "stale"
    # The game as read is the newest version; every decision served is still the one asked.
    version = game.version
    offers, choices = [], []
    for seat in served:
        level = bot_level(seat)
        offer, view = choose_offer(rules, game.seed, state, seat.index, level, version, game.pk)
        move = choose_move(rules, game.seed, state, seat.index, level, version, game.pk, view=view)
        if offer is not None:
            offers.append((seat.index, offer))
        choices.append((seat.index, move))
    for seat in answering:
        answer = choose_answer(rules, game.seed, state, seat.index, bot_level(seat), version)
        if answer is not None:
            choices.append((seat.index, answer))
    return (version, offers, choices) if choices else "stale"


def decision_start(game: Game, seat: int) -> int:
    """When `seat`'s decision began (decisions.decision_began); a game stored before seat
    versions counts as begun at its current version."""
    began = decision_began(game, seat)
    return game.version if began is None else began


def bot_level(seat: Seat) -> str:
    return seat.bot_level or STANDIN_LEVEL


def play_bot_move(game_id: int, version: int, seat: int, action: dict, asked_at: float) -> str:
    """Submit a bot's chosen move for `seat`. The one way in refuses it if the game moved on or
    a person took the seat back during the pause, all under the game's lock."""
    try:
        submit_action(
            game_id,
            seat,
            action,
            expected_version=version,
            actor=Action.Actor.BOT,  # or STANDIN: the service logs whichever plays the seat
            latency_ms=max(0, int(1000 * (time.time() - asked_at))),
        )
    except (StaleVersion, NotYourTurn):
        return "stale"
    except IllegalMove as error:
        if str(action.get("type", "")).startswith(("accept_", "decline_")):
            # The offer was answered or withdrawn meanwhile, or the game moved on so that this
            # answer may not be given now (a battle began): ask again from the game as it is.
            ask_for_answers(game_id, error.version)
            return "stale"
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    except NotBotTurn:
        return "not_bot_turn"
    except ServiceError as error:
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    return "moved"


def ask_for_answers(game_id: int, version: int | None) -> None:
    """Announce a bot turn at `version` that serves only the answers still owed to offers (the
    bots asked a move before it have theirs on the way): a bot whose answer was refused must
    not leave the offer waiting, and nothing else would ask it again (only a piece of diplomacy
    announces answers; a lone bot's next move is played from the snapshot alone)."""
    game_name = Game.objects.filter(pk=game_id).values_list("ruleset", flat=True).first()
    if version is None or game_name is None:
        return
    if pending_bot_turns.announce(game_id, version):
        # No level nor snapshot: the job reads the game; `since` past every decision asked.
        jobs.later(
            "bot_turn", game_id, version, time.time(), None, None, None, game_name, version + 1
        )
