"""A stored game re-simulated: its seed, options and first token holder, then its action log.

The database keeps every accepted action (`Action`), so any started game can be rebuilt by the
engine from its start. That rebuilt history is the replay, and it is also the check of the
stored record: `verify_game` compares the re-simulation with the stored snapshot and result.

The first token holder: a live game derives it from its seed (`services.first_token_holder`,
what `start_game` used). An imported record states it; it is not stored separately because the
token holder is always the one to act first (he chooses the first region), so the seat of the
imported game's first logged action is that holder.

Export and import of game records live in `games.records`; `record_for` and `import_record` are
re-exported here, the one place other parts look for the replay's functions.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import (
    GameState,
    IllegalAction,
    Options,
    apply_action,
    current_player,
    new_game,
    view_for,
)
from games.models import SEAT_COLOUR_LABELS, Action, Game, Seat
from games.services.actions import first_token_holder
from games.services.followups import game_result


class ReplayError(Exception):
    """The stored log cannot be replayed: an action is illegal or out of turn."""


def first_seat(game: Game, actions: list[Action]) -> int:
    """The seat that started with the Condottiere token (see the module's docstring)."""
    if game.source == Game.Source.IMPORTED and actions:
        return actions[0].seat
    return first_token_holder(game)


def initial_state(game: Game, first: int) -> GameState:
    return new_game(
        game.players,
        seed=game.seed,
        options=Options.from_dict(game.options or {}),
        first=first,
    )


def logged_actions(game: Game) -> list[Action]:
    return list(Action.objects.filter(game=game).order_by("seq").only("seq", "seat", "action"))


def simulate(initial: GameState, moves) -> list[GameState]:
    """The state before the first move, then after each (seat, action) in `moves`.

    Each move must come from the seat whose turn it is and be legal for it, else ReplayError
    (numbered from 1, as the log's seq)."""
    states = [initial]
    state = initial
    for number, (seat, action) in enumerate(moves, start=1):
        expected = current_player(state)
        if expected is None:
            raise ReplayError(f"action {number}: the game was already over")
        if seat != expected:
            raise ReplayError(
                f"action {number}: seat {seat} acted, but it was seat {expected}'s turn"
            )
        try:
            state = apply_action(state, action)
        except (IllegalAction, KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"action {number} ({action!r}) is illegal: {error}") from None
        states.append(state)
    return states


def replay_states(game: Game, actions: list[Action] | None = None) -> list[GameState]:
    """The state of a started game after each action: index 0 is the start, index n the state
    after the n-th action. Raises ReplayError if the stored log does not replay."""
    actions = logged_actions(game) if actions is None else actions
    initial = initial_state(game, first_seat(game, actions))
    return simulate(initial, [(action.seat, action.action) for action in actions])


def final_result(state: GameState) -> dict | None:
    """The result the services store for a finished state; None while it is still going."""
    if current_player(state) is not None:
        return None
    return game_result(state, view_for(state, None))


def verify_game(game: Game) -> list[str]:
    """What differs between the stored game and its re-simulation ([] when all agrees)."""
    actions = logged_actions(game)
    problems = []
    if [action.seq for action in actions] != list(range(1, len(actions) + 1)):
        problems.append("the action log's sequence numbers are not 1, 2, 3, ...")
    if game.version != len(actions):
        problems.append(f"version is {game.version} but the log holds {len(actions)} actions")
    try:
        states = replay_states(game, actions)
    except ReplayError as error:
        return [*problems, f"the log does not replay: {error}"]
    last = states[-1]
    if game.snapshot != last.to_json():
        problems.append("the stored snapshot differs from the re-simulated state")
    if game.status == Game.Status.FINISHED and game.result != final_result(last):
        problems.append(f"the stored result {game.result!r} differs from {final_result(last)!r}")
    if game.status == Game.Status.PLAYING and final_result(last) is not None:
        problems.append("the game is stored as playing but its log ends the game")
    return problems


# --- The replay page's frames ---------------------------------------------------------------------


def seat_info(seat: Seat) -> dict:
    """A seat as a record and the replay show it: an imported seat keeps its recorded name."""
    return {
        "index": seat.index,
        "colour": seat.colour,
        "name": seat.record_name or seat.occupant_name(),
        "kind": "bot" if seat.bot_level else "human",
        "level": seat.bot_level or None,
    }


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


def replay_payload(game: Game) -> dict:
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
    return {"game": info, "steps": steps, "log": log}


def step_frame(seq: int, state: GameState, seat: int | None, label: str) -> dict:
    return {
        "seq": seq,
        "seat": seat,
        "label": label,
        "view": view_for(state, None),
        "hands": [view_for(state, other)["hand"] for other in range(state.n)],
    }


def record_for(game: Game) -> dict:
    from games.records import record_for as build  # records builds on this module

    return build(game)


def import_record(data, user) -> Game:
    from games.records import import_record as save

    return save(data, user)


class StepLabels:
    """One short sentence per replayed action, in the request's language. The game is over, so
    a label may name what was secret at the time (a face-down card, the cards kept)."""

    def __init__(self, seats: list[dict]):
        from games.board_words import card_labels  # the card names the board shows

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
        if kind == "draw":
            count = action.get("count", 0)
            return ngettext(
                "%(player)s draws %(count)s card", "%(player)s draws %(count)s cards", count
            ) % {"player": player, "count": count}
        return f"{player}: {kind}"

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
