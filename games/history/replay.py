"""A stored game re-simulated: its seed, options (and Condottiere's first token holder), then its
action log; for both games, through games.rules_api.

The database keeps every accepted action (`Action`), so any started game can be rebuilt by its
rules from its start. That rebuilt history is the replay, and it is also the check of the stored
record: `verify_game` compares the re-simulation with the stored snapshot and result. The
re-simulation and the comparison are the game's record module's (`ruleset.record`: `simulate`,
`verify_log`); this module loads the rows they need and builds the replay page's frames. The
first token holder: see `games.history.game_log`. Export and import of game records:
`games.history.records`.

A finished game never changes, so its frames (every step and the public log) are computed once
per language and kept in the cache (Redis in production, shared by every process), compressed;
while one request computes them, the others asking for the same game wait for its result
instead of computing them again. Only finished games are replayed (a game in progress would
reveal its hands). What may change after the end is read on every request: the seats' names (an
account renamed or deleted) and the chat (staff delete messages; the players' room is for the
players only).
"""

import json
import logging
import time
import zlib
from bisect import bisect_right

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from games.board.words import card_labels
from games.chat.models import ChatMessage, Room
from games.history.game_log import first_seat, logged_actions, seat_info
from games.history.renaissance_steps import RenaissanceStepLabels
from games.models import SEAT_COLOUR_LABELS, Action, Game
from games.rules_api import CONDOTTIERE, ruleset_of
from games.services.good_game import message_entry
from games.services.table_talk import localized


def initial_state(game: Game, actions: list[Action]):
    """The state the game started from: its seed and options, and for Condottiere the seat that
    held the token first (drawn from the seed, or an imported record's first actor)."""
    rules = ruleset_of(game)
    options = dict(game.options or {})
    if rules is CONDOTTIERE:
        options["first"] = first_seat(game, actions)
    return rules.new_game(game.players, seed=game.seed, options=options)


def replay_states(game: Game, actions: list[Action] | None = None) -> list:
    """The state of a started game after each action: index 0 is the start, index n the state
    after the n-th action. Raises the game's ReplayError (`ruleset.record.ReplayError`) if the
    stored log does not replay."""
    actions = logged_actions(game) if actions is None else actions
    simulate = ruleset_of(game).record.simulate
    return simulate(initial_state(game, actions), [(a.seat, a.action) for a in actions])


def verify_game(game: Game) -> list[str]:
    """What differs between the stored game and its re-simulation ([] when all agrees)."""
    actions = logged_actions(game)
    return ruleset_of(game).record.verify_log(
        initial_state(game, actions),
        [(action.seq, action.seat, action.action) for action in actions],
        game.version,
        game.snapshot,
        game.result,
        finished=game.status == Game.Status.FINISHED,
        playing=game.status == Game.Status.PLAYING,
    )


# --- The replay page's frames ---------------------------------------------------------------------


def replay_game_info(game: Game) -> dict:
    """The table's public facts, shaped like the live frame's GAME so the board modules read it."""
    seats = game.seats.select_related("user").order_by("index")
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "source": game.source,
        "players": game.players,
        "options": game.options,
        "seats": [{**seat_info(seat), "you": False, "standin": False} for seat in seats],
        "result": game.result,
    }


log = logging.getLogger(__name__)

# How long a finished game's frames stay in the cache after they were last computed (a replay
# watched again after that is computed again: the cache holds the games being watched, not all).
FRAMES_CACHE_SECONDS = 3600
# One request computes a game's frames at a time; the lock lapses after this long in case that
# request died. A request waits for another's frames as long as that lock may hold (a computing
# request slowed by a loaded machine is still the one to wait for), then computes them itself.
COMPUTING_LOCK_SECONDS = 30
WAIT_FOR_FRAMES_SECONDS = COMPUTING_LOCK_SECONDS
WAIT_STEP_SECONDS = 0.05


def replay_payload(game: Game, viewer=None) -> dict:
    """Everything the replay page shows (see `replay_body`), as a dict."""
    return json.loads(replay_body(game, viewer))


def replay_body(game: Game, viewer=None) -> str:
    """replay.json of a finished game: the table (`game`), the frames (`steps`, `log`) and the
    table talk `viewer` may read (`chat`).

    `steps[i]` is the state after the i-th action (0: the deal): the spectator's view, every
    seat's hand, the acting seat and a label. The public log is sent once (`log`): step i shows
    the entries whose seq is at most i. The frames come from the cache (`game_frames`); the
    JSON around them is written here, so that they are never parsed again."""
    around = {"game": replay_game_info(game), "chat": replay_chat(game, viewer)}
    head = json.dumps(around, cls=DjangoJSONEncoder)
    return head[:-1] + ", " + game_frames(game)[1:]


def game_frames(game: Game) -> str:
    """The JSON of {"steps", "log"} of a game: a finished game's from the cache (`kept_frames`),
    any other's computed now. With Redis down the replay is still served, computed here."""
    if game.status == Game.Status.FINISHED:
        try:
            return kept_frames(game)
        except RedisError:
            log.warning("replay of game %s computed without the cache (Redis)", game.pk)
    return json.dumps(frames_payload(game), cls=DjangoJSONEncoder)


def kept_frames(game: Game) -> str:
    """A finished game's frames computed once per language (see the module's docstring): the
    cache's copy, or this request computes it while holding the lock, or it waits for the
    request that does."""
    key = frames_key(game)
    lock = key + ":computing"
    deadline = time.monotonic() + WAIT_FOR_FRAMES_SECONDS
    while True:
        found = cache.get(key)
        if found is not None:
            return zlib.decompress(found).decode()
        if cache.add(lock, 1, COMPUTING_LOCK_SECONDS):
            break
        if time.monotonic() > deadline:  # the computing request is stuck or gone: compute too
            return json.dumps(frames_payload(game), cls=DjangoJSONEncoder)
        time.sleep(WAIT_STEP_SECONDS)
    try:
        # The request that held the lock may have stored the frames and let the lock go between
        # this request's look into the cache and its taking of the lock: look again.
        found = cache.get(key)
        if found is not None:
            return zlib.decompress(found).decode()
        frames = json.dumps(frames_payload(game), cls=DjangoJSONEncoder)
        cache.set(key, zlib.compress(frames.encode(), 1), FRAMES_CACHE_SECONDS)
    finally:
        cache.delete(lock)
    return frames


def frames_key(game: Game) -> str:
    """The cache key of a game's frames: its id and when it finished (ids start again in
    another database on the same Redis, the tests' for one), in the request's language."""
    finished = game.finished_at.timestamp() if game.finished_at else ""
    return f"replay-frames:1:{game.pk}:{finished}:{game.version}:{get_language()}"


def frames_payload(game: Game) -> dict:
    """The frames of `game`, computed now from seed + log (the work the cache saves)."""
    actions = logged_actions(game)
    states = replay_states(game, actions)
    public = list(Action.objects.filter(game=game, public__isnull=False).order_by("seq"))
    entries = {action.seq: action.public for action in public}
    labels = step_labels(game, replay_game_info(game)["seats"])
    view_for = ruleset_of(game).view_for
    steps = [step_frame(view_for, game.players, 0, states[0], None, labels.start())]
    for action, state in zip(actions, states[1:], strict=True):
        label = labels.action(action.seat, action.action, entries.get(action.seq))
        steps.append(step_frame(view_for, game.players, action.seq, state, action.seat, label))
    log = [{**action.public, "seq": action.seq, "seat": action.seat} for action in public]
    return {"steps": steps, "log": log}


def step_labels(game: Game, seats: list[dict]):
    """The labeller of the game's steps, in the request's language."""
    if ruleset_of(game) is CONDOTTIERE:
        return StepLabels(seats)
    return RenaissanceStepLabels(seats)


def replay_chat(game: Game, viewer=None) -> list[dict]:
    """The game's table talk for its replay, each message marked with its room. The spectators'
    room (and a lobby table's) is public once the game is over; the players' room stays for the
    players of the game (and the staff), as it was while they played: players talk more freely
    when the table's deals are not published afterwards. `seq` is the number of actions logged
    when it was written, so the replay shows it at that step. Messages deleted by staff are left
    out."""
    times = list(
        Action.objects.filter(game=game).order_by("seq").values_list("created_at", flat=True)
    )
    messages = (
        ChatMessage.objects.filter(game=game, deleted=False)
        .select_related("user")
        .order_by("created_at", "pk")
    )
    if not reads_players_room(game, viewer):
        messages = messages.exclude(room=Room.PLAYERS)
    return [
        {**localized(message_entry(message)), "seq": bisect_right(times, message.created_at)}
        for message in messages
    ]


def reads_players_room(game: Game, viewer) -> bool:
    if viewer is None or not viewer.is_authenticated:
        return False
    return viewer.is_staff or game.seats.filter(user=viewer).exists()


def step_frame(view_for, players: int, seq: int, state, seat: int | None, label: str) -> dict:
    """The step after action `seq` (0: the start): the spectator's view, and beside it every
    seat's hand as that seat's own view shows it (the game is over; the page may show them)."""
    return {
        "seq": seq,
        "seat": seat,
        "label": label,
        "view": view_for(state, None),
        "hands": [view_for(state, other)["hand"] for other in range(players)],
    }


class StepLabels:
    """One short sentence per replayed action, in the request's language. The game is over, so
    a label may name what was secret at the time (a face-down card, the cards kept)."""

    def __init__(self, seats: list[dict]):
        self.cards = card_labels()
        self.names = [str(SEAT_COLOUR_LABELS[seat["colour"]]) for seat in seats]

    def card(self, code: str) -> str:
        info = self.cards.get(code, {})
        return str(info.get("title") or info.get("name") or code)

    def start(self) -> str:
        return _("The cards are dealt")

    def action(self, seat: int, action: dict, public: dict | None = None) -> str:
        """`public`, the action's public log entry, is not needed: the game is over."""
        player = self.names[seat] if 0 <= seat < len(self.names) else str(seat)
        kind = action.get("type")
        if kind == "choose_region":
            return _("%(player)s sends the Condottiere to %(region)s") % {
                "player": player,
                "region": action.get("region"),
            }
        if kind == "play":
            return self.play(player, action)
        if kind == "pass":
            if action.get("reveal"):
                return _("%(player)s passes and turns the face-down card up") % {"player": player}
            return _("%(player)s passes") % {"player": player}
        if kind == "discard_hand":
            if action.get("discard"):
                return _("%(player)s discards their hand") % {"player": player}
            return _("%(player)s keeps their hand") % {"player": player}
        if kind == "keep":
            cards = ", ".join(self.card(code) for code in action.get("cards", []))
            if not cards:
                return _("%(player)s keeps no card") % {"player": player}
            return _("%(player)s keeps %(cards)s") % {"player": player, "cards": cards}
        if kind == "show":
            return self.show(player, action)
        if kind == "draw":
            count = action.get("count", 0)
            return ngettext(
                "%(player)s draws %(count)s card", "%(player)s draws %(count)s cards", count
            ) % {"player": player, "count": count}
        return f"{player}: {kind}"

    def show(self, player: str, action: dict) -> str:
        """The game is over: the replay may name the cards shown."""
        cards = ", ".join(self.card(code) for code in action.get("cards", []))
        to = action.get("to")
        if to is None:
            return _("%(player)s shows %(cards)s to everyone") % {"player": player, "cards": cards}
        target = self.names[to] if isinstance(to, int) and 0 <= to < len(self.names) else str(to)
        return _("%(player)s shows %(cards)s to %(target)s") % {
            "player": player,
            "cards": cards,
            "target": target,
        }

    def play(self, player: str, action: dict) -> str:
        card = action.get("card")
        if card == "scarecrow" and action.get("take"):
            return _("%(player)s plays Scarecrow and takes back %(card)s") % {
                "player": player,
                "card": self.card(action["take"]),
            }
        if card == "bishop" and "pope" in action:
            if action["pope"]:
                return _("%(player)s plays Bishop and places the Pope on %(region)s") % {
                    "player": player,
                    "region": action["pope"],
                }
            return _("%(player)s plays Bishop and sets the Pope off the board") % {"player": player}
        return _("%(player)s plays %(card)s") % {"player": player, "card": self.card(card)}
