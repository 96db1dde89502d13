"""The words of the analysis on the replay and game pages (their scripts read them as JSON)."""

from django.utils.translation import gettext as _


def analysis_labels() -> dict:
    return {
        "requesting": _("Requesting…"),
        "log_in": _("Log in to request a computer analysis of this game."),
        "none": _("This game has not been analysed yet."),
        "queued": _("The analysis is queued."),
        "running": _("Analysing: {progress} of {total} decisions."),
        "failed": _("The analysis failed."),
        "error": _("The analysis could not be loaded."),
        "done": _("{count} decisions analysed at {iterations} iterations each."),
        "truncated": _("Only the first {count} decisions were analysed."),
        "outdated": _(
            "An older version of the computer's search made this analysis; "
            "analyse again for today's."
        ),
        "request": _("Request analysis"),
        "again": _("Analyse again"),
        "graph": _("Estimated chance of winning before each decision, per player"),
        "axis_moves": _("Move"),
        "axis_chance": _("Chance of winning (%)"),
        "legend_item": _("{player}: {chance}%"),
        "mark_at": _("Move {move}: {mark}. {text}"),
        "best_was": _("best was: {move}"),
        "win_chance": _("{player}: {before}% → {after}%"),
        "accuracy": _("Accuracy"),
        "marks": {
            "inaccuracy": _("Inaccuracy"),
            "mistake": _("Mistake"),
            "blunder": _("Blunder"),
        },
        "symbols": {"inaccuracy": "?!", "mistake": "?", "blunder": "??"},
    }
