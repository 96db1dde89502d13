"""The analysis endpoints (docs/protocol.md, section 13): ask for a finished game's analysis,
read it, and ask for a hint in a game against bots only."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.accounts.quotas import OverQuota
from games.analysis import hints
from games.analysis.models import Analysis
from games.analysis.service import NotAnalysed, NotFinished, analysis_payload, request_analysis
from games.models import Game


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def request_view(request, game_id: int):
    """Ask for the analysis (once per game; a second request finds the first). From a script
    (Accept: application/json): 202 and the status; from a form: back to the replay."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        analysis, _asked = request_analysis(game, request.user)
    except NotFinished as error:
        raise Http404("only a finished game is analysed") from error
    except OverQuota as over:
        return over_quota(request, game, over.refusal)
    except NotAnalysed as refused:
        return not_analysed(request, game, refused)
    if wants_json(request):
        return JsonResponse(analysis_payload(game, analysis, request.user), status=202)
    messages.info(request, _("The computer analysis was requested: it appears here when done."))
    return redirect("replay", game_id=game.pk)


def over_quota(request, game: Game, refusal):
    """A request over the asker's analysis quotas: 429 and why, for a script or the replay page."""
    if wants_json(request):
        return JsonResponse({"error": refusal.code, "message": refusal.message}, status=429)
    messages.error(request, refusal.message)
    return redirect("replay", game_id=game.pk)


def not_analysed(request, game: Game, refused: NotAnalysed):
    """A request for a game the computer does not analyse: 409 and why, or back to its page."""
    if wants_json(request):
        return JsonResponse({"error": refused.code, "message": str(refused.message)}, status=409)
    messages.error(request, refused.message)
    return redirect("game", game_id=game.pk)


@require_GET
def analysis_json(request, game_id: int):
    """The analysis of a finished game, for anyone: its status, and its results once done."""
    game = get_object_or_404(Game, pk=game_id, status=Game.Status.FINISHED)
    analysis = Analysis.objects.filter(game=game).first()
    return JsonResponse(analysis_payload(game, analysis, request.user))


@login_required
@require_POST
def hint_view(request, game_id: int):
    """Ask for the search's suggestion for the asker's current decision (games.analysis.hints):
    202 and the URL where it appears once searched."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        asked = hints.ask(request, game)
    except hints.HintRefused as refusal:
        return JsonResponse(
            {"error": refusal.code, "message": refusal.message}, status=refusal.status
        )
    return JsonResponse(asked, status=202)


@login_required
@require_GET
def hint_answer_view(request, game_id: int, token: str):
    """A hint asked for by this person: 202 while it is searched, then the suggestion."""
    game = get_object_or_404(Game, pk=game_id)
    body, status = hints.answer(request, game, token)
    return JsonResponse(body, status=status)
