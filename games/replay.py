"""A stored game re-simulated: its seed, options and first token holder, then its action log.

The database keeps every accepted action (`Action`), so any started game can be rebuilt by the
engine from its start. That rebuilt history is the replay, and it is also the check of the
stored record: `verify_game` compares the re-simulation with the stored snapshot and result.
The re-simulation and the comparison are the engine's (`games.engine.record`); this module loads
the rows they need and builds the replay page's frames. The first token holder: see
`games.game_log`. Export and import of game records: `games.records`.
"""

from bisect import bisect_right

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board_words import card_labels
from games.chat.models import ChatMessage, Room
from games.engine import GameState, Options, new_game, view_for
from games.engine.record import simulate, verify_log
from games.game_log import first_seat, logged_actions, seat_info
from games.models import SEAT_COLOUR_LABELS, Action, Game
from games.services.good_game import message_entry
from games.services.table_talk import localized


def initial_state(game: Game, first: int) -> GameState:
    return new_game(
        game.players,
        seed=game.seed,
        options=Options.from_dict(game.options or {}),
        first=first,
    )


def replay_states(game: Game, actions: list[Action] | None = None) -> list[GameState]:
    """The state of a started game after each action: index 0 is the start, index n the state
    after the n-th action. Raises ReplayError (games.engine.record) if the stored log does not
    replay."""
    actions = logged_actions(game) if actions is None else actions
    initial = initial_state(game, first_seat(game, actions))
    return simulate(initial, [(action.seat, action.action) for action in actions])


def verify_game(game: Game) -> list[str]:
    """What differs between the stored game and its re-simulation ([] when all agrees)."""
    actions = logged_actions(game)
    return verify_log(
        initial_state(game, first_seat(game, actions)),
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
        "status": game.status,
        "source": game.source,
        "players": game.players,
        "options": game.options,
        "seats": [{**seat_info(seat), "you": False, "standin": False} for seat in seats],
        "result": game.result,
    }


def replay_payload(game: Game, viewer=None) -> dict:
    """Everything the replay page shows, computed now from seed + log (nothing cached).

    `steps[i]` is the state after the i-th action (0: the deal): the spectator's view, every
    seat's hand, the acting seat and a label. The public log is sent once (`log`): step i shows
    the entries whose seq is at most i."""
    actions = logged_actions(game)
    states = replay_states(game, actions)
    info = replay_game_info(game)
    labels = StepLabels(info["seats"])
    steps = [step_frame(0, states[0], None, labels.start())]
    for action, state in zip(actions, states[1:], strict=True):
        label = labels.action(action.seat, action.action)
        steps.append(step_frame(action.seq, state, action.seat, label))
    log = [
        {**action.public, "seq": action.seq, "seat": action.seat}
        for action in Action.objects.filter(game=game, public__isnull=False).order_by("seq")
    ]
    return {"game": info, "steps": steps, "log": log, "chat": replay_chat(game, viewer)}


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


def step_frame(seq: int, state: GameState, seat: int | None, label: str) -> dict:
    return {
        "seq": seq,
        "seat": seat,
        "label": label,
        "view": view_for(state, None),
        "hands": [view_for(state, other)["hand"] for other in range(state.n)],
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

    def action(self, seat: int, action: dict) -> str:
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
