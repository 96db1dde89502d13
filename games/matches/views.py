"""Pages of matches: the match page, its JSON for the game page's end box, "ready", the record,
the list of matches, and the two table forms when "Play for points" is ticked.

The table forms post here; a form without "Play for points" is handed, untouched, to the
lobby's own view (games.views.tables), so a single game is opened exactly as before.
"""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.forms.tables import CreateTableForm, PlayAgainstBotsForm
from games.lobby import tables as lobby
from games.sockets.lobby import game_url
from games.views import tables as table_views
from games.views.tables import table_or_game_url

from . import services
from .models import Match, MatchGame
from .records import match_record
from .summary import match_labels, match_summary

MATCHES_PER_PAGE = 30


def match_list(request):
    """Matches being played and the latest finished ones."""
    live = Match.objects.filter(source=Match.Source.LIVE)
    context = {
        "playing": live.filter(status=Match.Status.PLAYING)[:MATCHES_PER_PAGE],
        "finished": Match.objects.filter(status=Match.Status.FINISHED).order_by(
            "-finished_at", "-pk"
        )[:MATCHES_PER_PAGE],
    }
    return render(request, "matches/list.html", context)


def match_page(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    summary = match_summary(match, request.user)
    context = {"match": match, "summary": summary, "labels": match_labels()}
    return render(request, "matches/match.html", context)


def match_json(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    return JsonResponse({"match": match_summary(match, request.user), "labels": match_labels()})


def match_of_game_json(request, game_id: int):
    """The match a game belongs to, for the game page's end box ({"match": null} if none)."""
    entry = MatchGame.objects.filter(game_id=game_id).select_related("match").first()
    if entry is None:
        return JsonResponse({"match": None})
    summary = match_summary(entry.match, request.user)
    return JsonResponse({"match": summary, "labels": match_labels()})


@login_required
@require_POST
def ready(request, match_id: int):
    """ "Ready for the next game": JSON for the game page's script, a redirect for a form."""
    get_object_or_404(Match, pk=match_id)
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        services.say_ready(match_id, request.user)
    except services.MatchError as error:
        if wants_json:
            return JsonResponse({"error": error.code, "message": str(error.message)}, status=400)
        messages.error(request, error.message)
        return redirect("match", match_id=match_id)
    match = Match.objects.get(pk=match_id)
    if wants_json:
        return JsonResponse({"match": match_summary(match, request.user)})
    return redirect(match_summary(match, request.user)["current_game_url"])


def record(request, match_id: int):
    """The record of a finished match: its games' records and the match's facts."""
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404("only a finished match has a record")
    body = json.dumps(match_record(match), indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="condottiere-match-{match.pk}.json"'
    return response


# --- The table forms, with "Play for points" ---------------------------------------------------


@login_required
@require_POST
def table_new(request):
    if not request.POST.get("play_for_points"):
        return table_views.table_new(request)
    form = CreateTableForm(request.POST, creator=request.user)
    if form.is_valid():
        try:
            match = services.create_match(
                request.user,
                form.cleaned_data["players"],
                form.cleaned_data["seat_plans"],
                target=form.match_target(),
                options=form.options(),
                turn_seconds=form.cleaned_data["turn_seconds"],
                game=form.chosen_game(),
            )
        except (lobby.LobbyError, services.MatchError) as error:
            form.add_error(None, error.message)
        else:
            return redirect(table_or_game_url(match.entries.get(number=1).game))
    return render(request, "lobby/table_new.html", {"form": form}, status=400)


@login_required
@require_POST
def play_against_bots(request):
    if not request.POST.get("play_for_points"):
        return table_views.play_against_bots(request)
    form = PlayAgainstBotsForm(request.POST)
    if form.is_valid():
        try:
            match = services.create_match_against_bots(
                request.user,
                form.cleaned_data["bots"],
                form.cleaned_data["level"],
                target=form.match_target(),
                options=form.options(),
                turn_seconds=form.cleaned_data["turn_seconds"],
                game=form.chosen_game(),
            )
        except (lobby.LobbyError, services.MatchError) as error:
            form.add_error(None, error.message)
        else:
            return redirect(game_url(match.entries.get(number=1).game_id))
    return render(request, "lobby/play.html", {"form": form}, status=400)
