"""Template tags that show the analysis on pages whose views belong to other parts (the replay
and the game page)."""

from django import template

from games.analysis.labels import analysis_labels
from games.analysis.models import Analysis
from games.analysis.service import seat_accuracies
from games.models import SEAT_COLOUR_LABELS, Game
from games.rules_api import ruleset_of

register = template.Library()


@register.simple_tag
def analysis_words() -> dict:
    return analysis_labels()


@register.simple_tag
def finished_analysis(game: Game):
    """The finished game's analysis as the game page shows it: its status, whether an older
    search made it, whether a request would start it (never asked, failed or outdated), and once
    done each seat's name and accuracy; None for a game not finished, or one the computer does
    not analyse (other rules than Condottiere's)."""
    if game.status != Game.Status.FINISHED or not ruleset_of(game).analysed:
        return None
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        return {"status": "none", "outdated": False, "askable": True, "rows": []}
    rows = []
    if analysis.status == Analysis.Status.DONE:
        seats = {seat.index: seat for seat in game.seats.select_related("user")}
        decisions = (analysis.results or {}).get("decisions", [])
        for row in seat_accuracies(decisions, game.players):
            seat = seats.get(row["seat"])
            colour = SEAT_COLOUR_LABELS[seat.colour] if seat else row["seat"]
            name = (seat.record_name or seat.occupant_name()) if seat else ""
            rows.append({**row, "colour": colour, "name": name, "index": row["seat"]})
    return {
        "status": analysis.status,
        "outdated": analysis.outdated,
        "askable": analysis.restarts_on_request,
        "rows": rows,
    }
