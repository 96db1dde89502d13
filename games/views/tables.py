"""Pages of the lobby: the live list of tables, a table, creating one, "Play now", and bots.

The views are thin: a form or a URL becomes one call to `games.lobby.tables`, whose LobbyError
message is shown to the person as it is, and nothing changes when it is raised.
"""

from datetime import datetime, timezone

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms.tables import (
    OPTION_WORDS,
    CreateTableForm,
    PlayAgainstBotsForm,
    PlayNowForm,
)
from games.lobby import tables as lobby
from games.models import SEAT_COLOUR_LABELS, Game
from games.sockets.lobby import game_url, table_entries, table_entry
from games.words.bot_names import LEVEL_NAMES, level_name


def lobby_labels() -> dict:
    """The words lobby.js shows, in the request's language."""
    return {
        "options": {key: str(label) for key, label in OPTION_WORDS.items()},
        "games": {key: str(name) for key, name in lobby.GAME_NAMES.items()},
        "levels": {key: str(label) for key, label in LEVEL_NAMES.items()},
        "colours": {key: str(label) for key, label in SEAT_COLOUR_LABELS.items()},
        "no_options": _("Standard rules"),
        "rules": _("Rules"),
        "seats": _("Seats"),
        "table": _("Table %(id)s"),
        "copied": _("Link copied."),
        "copy_by_hand": _("Select the link and copy it."),
        "players": _("%(n)s players"),
        "seats_taken": _("%(taken)s of %(total)s seats taken"),
        "created_by": _("opened by %(name)s"),
        "open_seat": _("Open seat"),
        "reserved_for": _("Kept for %(name)s"),
        "bot": _("%(name)s (%(level)s bot)"),
        "bot_account": _("%(name)s (bot account)"),
        "you": _("you"),
        "join": _("Join"),
        "view": _("View"),
        "watch": _("Watch"),
        "resume": _("Back to the game"),
        "your_table": _("Your table"),
        "timer": _("%(seconds)s s per decision"),
        "no_open_tables": _("No open table right now. Open one, or use Play now."),
        "no_games": _("No game in progress."),
        "no_own_games": _("You are not playing right now."),
        "more_open_tables": _("Open tables not listed here: %(n)s. Play now seats you at one."),
        "live": _("Live"),
        "offline": _("Reconnecting…"),
        "bots_in": _("Bots fill the empty seats in %(seconds)s s"),
        "bots_now": _("Bots are taking the empty seats…"),
        "table_closed": _("This table has closed: everyone left."),
    }


def decorate(entry: dict) -> dict:
    """Adds the human words to a table entry, for the server-rendered first view."""
    entry["option_names"] = [str(OPTION_WORDS.get(key, key)) for key in entry["options"]]
    entry["game_name"] = str(lobby.GAME_NAMES.get(entry["ruleset"], entry["ruleset"]))
    entry["created"] = datetime.fromtimestamp(entry["created_at"] / 1000, tz=timezone.utc)
    for seat in entry["seats"]:
        seat["level_name"] = level_name(seat["level"]) if seat["level"] else ""
        seat["colour_name"] = str(SEAT_COLOUR_LABELS[seat["colour"]])
    return entry


def split_tables(entries: list[dict]) -> dict:
    """The lobby's three lists: yours, open tables to join, games to watch."""
    return {
        "own": [entry for entry in entries if entry["you"]],
        "open": [entry for entry in entries if not entry["you"] and entry["status"] == "open"],
        "playing": [
            entry for entry in entries if not entry["you"] and entry["status"] == "playing"
        ],
    }


def lobby_config(request, **extra) -> dict:
    return {
        "wsPath": "/ws/lobby/",
        "csrfToken": get_token(request),
        "labels": lobby_labels(),
        **extra,
    }


def sweep_overdue_tables():
    """Fill tables whose wait is over, in case their timer was lost (a server restart, say)."""
    lobby.autofill_due_tables()


@login_required
def lobby_page(request):
    sweep_overdue_tables()
    entries, more_open = table_entries(request.user.pk)
    context = {
        "lists": split_tables([decorate(entry) for entry in entries]),
        "more_open_tables": more_open,
        "play_now_form": PlayNowForm(),
        "lobby_config": lobby_config(request, page="lobby"),
    }
    return render(request, "lobby/lobby.html", context)


@login_required
def play_against_bots(request):
    form = PlayAgainstBotsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = lobby.play_against_bots(
                request.user,
                form.cleaned_data["bots"],
                form.cleaned_data["level"],
                form.options(),
                turn_seconds=form.cleaned_data["turn_seconds"],
                game=form.chosen_game(),
            )
        except lobby.LobbyError as error:
            form.add_error(None, error.message)
        else:
            return redirect(game_url(game.pk))
    status = 400 if request.method == "POST" else 200
    return render(request, "lobby/play.html", {"form": form}, status=status)


@login_required
def table_new(request):
    # A GET may pre-fill the form (the "New game" link after a game: its settings); unknown or
    # invalid values are only initial values, checked like any on submit.
    prefill = request.GET.dict() if request.method == "GET" else None
    form = CreateTableForm(request.POST or None, creator=request.user, initial=prefill)
    if request.method == "POST" and form.is_valid():
        try:
            game = lobby.create_table(
                request.user,
                form.cleaned_data["players"],
                form.cleaned_data["seat_plans"],
                options=form.options(),
                turn_seconds=form.cleaned_data["turn_seconds"],
                game=form.chosen_game(),
            )
        except lobby.LobbyError as error:
            form.add_error(None, error.message)
        else:
            return redirect(table_or_game_url(game))
    status = 400 if request.method == "POST" else 200
    return render(request, "lobby/table_new.html", {"form": form}, status=status)


@login_required
@require_POST
def play_now(request):
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        messages.error(request, play_now_refusal(form))
        return redirect("lobby")
    data = form.cleaned_data
    autofill_level = ""
    if data["autofill"]:
        autofill_level = data["autofill_level"] or lobby.DEFAULT_BOT_LEVEL
    try:
        game = lobby.play_now(
            request.user,
            data["players"],
            form.options(),
            autofill_level=autofill_level,
            game=form.chosen_game(),
        )
    except lobby.LobbyError as error:  # no table to join, and the account may open no more
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect(table_or_game_url(game))


def play_now_refusal(form) -> str:
    """Why "Play now" refused, said above the lobby (the form has no page of its own): a number
    of players out of the list, or what the game's rules say of the choice."""
    if form.has_error("players", code="invalid_choice"):
        return _("Choose a number of players from 2 to 6.")
    return " ".join(problem for problems in form.errors.values() for problem in problems)


@login_required
def table_detail(request, game_id: int):
    sweep_overdue_tables()
    game = get_object_or_404(Game, pk=game_id)
    if game.status in (Game.Status.PLAYING, Game.Status.FINISHED):
        return redirect(game_url(game.pk))
    return render_table(request, game)


@login_required
def invite(request, code: str):
    """The invitation link: the table, with a button to take the seat (POST takes it)."""
    game = get_object_or_404(Game, invite_code=code)
    if request.method == "POST":
        return join_and_redirect(request, game)
    if game.status in (Game.Status.PLAYING, Game.Status.FINISHED):
        return redirect(game_url(game.pk))
    return render_table(request, game, via_invite=True)


@login_required
@require_POST
def table_join(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    return join_and_redirect(request, game)


@login_required
@require_POST
def table_leave(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    try:
        lobby.leave_table(game.pk, request.user)
    except lobby.LobbyError as error:
        messages.error(request, error.message)
        return redirect(table_or_game_url(game))
    messages.info(request, _("You left the table."))
    return redirect("lobby")


def join_and_redirect(request, game):
    index = requested_seat(request.POST.get("seat", ""), game.players)
    if index is NO_SUCH_SEAT:
        messages.error(request, _("There is no such seat at this table."))
        return redirect(table_or_game_url(game))
    try:
        lobby.join_table(game.pk, request.user, index)
    except lobby.LobbyError as error:
        messages.error(request, error.message)
    game.refresh_from_db()
    return redirect(table_or_game_url(game))


NO_SUCH_SEAT = object()


def requested_seat(value: str, players: int):
    """The seat index asked for: None when none is (any free seat will do), NO_SUCH_SEAT when the
    value is not one of this table's seats (only ASCII digits count: "²".isdigit() is true, but
    int() refuses it)."""
    if value == "":
        return None
    if not (value.isascii() and value.isdecimal() and len(value) <= 2):
        return NO_SUCH_SEAT
    index = int(value)
    return index if index < players else NO_SUCH_SEAT


def table_or_game_url(game) -> str:
    if game.status == Game.Status.OPEN or game.status == Game.Status.ABORTED:
        return reverse("table_detail", args=[game.pk])
    return game_url(game.pk)


def render_table(request, game, via_invite=False):
    entry = decorate(table_entry(game, request.user.pk))
    seated = entry["you"]
    can_join = (
        game.status == Game.Status.OPEN
        and not seated
        and bool(lobby.free_seats(list(game.seats.all()), request.user))
    )
    invite_url = request.build_absolute_uri(reverse("invite", args=[game.invite_code]))
    context = {
        "game": game,
        "table": entry,
        "seated": seated,
        "can_join": can_join,
        "invite_url": invite_url,
        "via_invite": via_invite,
        "lobby_config": lobby_config(request, page="table", tableId=game.pk),
    }
    return render(request, "lobby/table.html", context)
