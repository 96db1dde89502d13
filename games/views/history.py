"""History and replay pages: the public history, "my games", the replay page and its frames,
and game records (export as JSON, import from a file or pasted JSON)."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.accounts.quotas import OverQuota, import_refusal
from games.board.map import board_svg
from games.board.renaissance_log_words import log_labels
from games.board.renaissance_map import renaissance_svg
from games.board.renaissance_words import renaissance_labels
from games.board.words import game_labels, reason_labels
from games.forms.history import HistoryFilterForm, ImportRecordForm
from games.forms.tables import OPTION_LABELS, option_words
from games.history.records import RecordError, check_replay_cost, import_record, record_for
from games.history.replay import replay_body, replay_payload
from games.matches.records import import_match_record, is_match_record
from games.models import SEAT_COLOUR_LABELS, Game, Seat
from games.views.renaissance_table import board_facts
from games.words.bot_names import level_name

PAGE_SIZE = 20
REPLAYABLE = (Game.Status.FINISHED,)


def with_seats(games):
    seats = Seat.objects.select_related("user").order_by("index")
    return games.prefetch_related(Prefetch("seats", queryset=seats))


def rule_chips(game: Game) -> list[str]:
    """The game's rules in words: Condottiere's optional rules that are on; for Renaissance, its
    name and its table's options."""
    options = game.options or {}
    if game.ruleset == Game.Ruleset.RENAISSANCE:
        return ["Renaissance", *option_words(game.ruleset, options)]
    return [str(label) for name, label in OPTION_LABELS.items() if options.get(name)]


def game_row(game: Game, reasons: dict) -> dict:
    """What a history row shows of one game."""
    result = game.result or {}
    winners = set(result.get("winners", []))
    return {
        "game": game,
        "seats": [
            {
                "seat": seat,
                "name": seat.record_name or seat.occupant_name(),
                "colour": str(SEAT_COLOUR_LABELS[seat.colour]),
                "user": seat.user,
                "level": level_name(seat.bot_level) if seat.bot_level else "",
                "winner": seat.index in winners,
            }
            for seat in game.seats.all()
        ],
        "rules": rule_chips(game),
        "reason": str(reasons.get(result.get("reason"), result.get("reason", ""))),
    }


def query_without_page(request) -> str:
    """The current filters as a query string, for the pagination links."""
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


def paginated_rows(request, games):
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    reasons = reason_labels()
    return page, [game_row(game, reasons) for game in page.object_list]


def history(request):
    """Finished games, newest first, filtered by the GET form, 20 a page."""
    form = HistoryFilterForm(request.GET or None)
    games = Game.objects.filter(status=Game.Status.FINISHED)
    games = form.filter(games) if form.is_bound else games.filter(source=Game.Source.LIVE)
    games = with_seats(games.order_by("-finished_at", "-pk"))
    page, rows = paginated_rows(request, games)
    context = {"form": form, "page": page, "rows": rows, "query": query_without_page(request)}
    return render(request, "history/history.html", context)


@login_required
def my_games(request):
    """The user's games of every status: open tables, games in progress, finished ones."""
    games = Game.objects.filter(seats__user=request.user).distinct()
    games = with_seats(games.order_by("-created_at", "-pk"))
    page, rows = paginated_rows(request, games)
    context = {"page": page, "rows": rows, "query": ""}
    return render(request, "history/my_games.html", context)


def replayable_game(game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id, status__in=REPLAYABLE)


def replay(request, game_id: int):
    """The replay page of a finished (or imported) game; a game in progress is watched live."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.PLAYING:
        messages.info(request, _("This game is still being played: you can watch it live."))
        return redirect("game", game_id=game.pk)
    if game.status != Game.Status.FINISHED:
        raise Http404("only a finished game can be replayed")
    if game.ruleset == Game.Ruleset.RENAISSANCE:
        return renaissance_replay(request, game)
    labels = game_labels()
    labels["replay"] = replay_labels()
    context = {
        "game": game,
        "board_svg": board_svg(),
        "replay_info": {"id": game.pk, "framesUrl": f"/games/{game.pk}/replay.json"},
        "game_labels": labels,
    }
    return render(request, "replay/replay.html", context)


def renaissance_replay(request, game: Game):
    """A Renaissance game's replay on the table's board (static/js/renaissance_replay.js reads
    replay.json); every step's label is in the page too, for a browser without JavaScript."""
    payload = replay_payload(game, request.user)
    context = {
        "game": game,
        "steps": payload["steps"],
        "board_svg": renaissance_svg(),
        "board_facts": board_facts(),
        "replay_info": {"id": game.pk, "framesUrl": reverse("replay_frames", args=[game.pk])},
        "rn_labels": renaissance_labels(),
        "rn_log_labels": log_labels(),
    }
    return render(request, "replay/replay_renaissance.html", context)


def replay_labels() -> dict:
    return {
        "step": _("Step {step} of {total}"),
        "start": _("The deal"),
        "loading": _("Loading the replay…"),
        "failed": _("The replay could not be loaded."),
        "hand_of": _("Hand"),
        "winner": _("{players} won: {reason}"),
        "no_winner": _("The game ended without a winner"),
    }


def replay_frames(request, game_id: int):
    """The replay's frames: a finished game's, computed once and then read from the cache."""
    game = replayable_game(game_id)
    return HttpResponse(replay_body(game, request.user), content_type="application/json")


def game_record(request, game_id: int):
    """A finished game's record as a download. A game in progress has none: its seed would
    reveal every hidden card."""
    game = replayable_game(game_id)
    body = json.dumps(record_for(game), indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = f"{game.ruleset}-game-{game.pk}.json"  # condottiere-game-12.json, renaissance-...
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_record_page(request):
    """Upload or paste a record; a valid one is saved as an imported game and replayed."""
    form = ImportRecordForm(request.POST or None, request.FILES or None)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        try:
            return imported(request, form.cleaned_data["record"])
        except OverQuota as over:
            form.add_error(None, over.refusal.message)
            status = 429
        except RecordError as error:
            form.add_error(None, str(error))
    return render(request, "history/import.html", {"form": form}, status=status)


def imported(request, record):
    """Import a parsed record, a game's or a match's, and go to it. Bounded before any replay:
    its actions (RecordError), then the account's imports this hour (OverQuota)."""
    check_replay_cost(record)
    refusal = import_refusal(request.user)
    if refusal is not None:
        raise OverQuota(refusal)
    if is_match_record(record):  # a match's record: its games and its facts (#15)
        match = import_match_record(record, request.user)
        messages.success(request, _("The record was imported as match #%(id)s.") % {"id": match.pk})
        return redirect("match", match_id=match.pk)
    game = import_record(record, request.user)
    messages.success(request, _("The record was imported as game #%(id)s.") % {"id": game.pk})
    return redirect("replay", game_id=game.pk)
