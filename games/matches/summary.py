"""What the match page and the game page's end box show of a match: standings after each game,
each game's links, the timer, who is ready, the result. Public facts only (points come from
finished games)."""

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import SEAT_COLOUR_LABELS

from .models import Match
from .scoring import totals
from .services import entries_of, latest_seats, next_game_plan, scored_points, seat_of_user


def epoch_ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def match_labels() -> dict:
    """The words static/js/game/match.js shows, in the request's language."""
    return {
        "title": _("Match to %(target)s points"),
        "game": _("Game %(number)s"),
        "decider": _("Final game"),
        "total": _("Total"),
        "ready": _("Ready for the next game"),
        "ready_decider": _("Ready for the final game"),
        "you_are_ready": _("You are ready. Waiting for the others…"),
        "starts_in": _("The next game starts in %(seconds)s s, or when everyone is ready."),
        "next_game": _("Go to the next game"),
        "starting": _("Starting the next game…"),
        "start_now": _("Start the next game"),
        "match_page": _("Match page"),
        "won": _("%(names)s won the match."),
        "tied": _("Tied at the top: %(names)s play a final game to decide."),
        "aborted": _("This match was stopped."),
    }


def seat_rows(seats) -> list[dict]:
    return [
        {
            "index": seat.index,
            "name": seat.record_name or seat.occupant_name(),
            "colour": seat.colour,
            "colour_name": str(SEAT_COLOUR_LABELS[seat.colour]),
            "bot": bool(seat.bot_level),
        }
        for seat in seats
    ]


def played_names(entry) -> dict[int, str]:
    """Who played each match seat in this game, by the name shown at its table."""
    seats = entry.game.seats.select_related("user").order_by("index")
    return {entry.seats[seat.index]: seat.record_name or seat.occupant_name() for seat in seats}


def cells(entry, winners: list[int], header: list[dict]) -> list[dict]:
    """One per match seat: its points, whether it won, whether it played, and its name in this
    game when it is not the one the standings' header shows (a seat played by a stand-in since)."""
    names = played_names(entry)
    return [
        {
            "points": None if entry.decider or not entry.points else entry.points[seat["index"]],
            "won": seat["index"] in winners,
            "played": seat["index"] in names,
            "name": names.get(seat["index"], ""),
            "renamed": names.get(seat["index"], seat["name"]) != seat["name"],
        }
        for seat in header
    ]


def game_rows(entries, header: list[dict]) -> list[dict]:
    """Each game of the match, with the points after it and the names its seats were played by."""
    rows, running = [], None
    for entry in entries:
        game = entry.game
        if entry.points is not None and not entry.decider:
            before = running or [0] * len(entry.points)
            running = [a + b for a, b in zip(before, entry.points, strict=True)]
        winners = sorted(entry.seats[seat] for seat in (game.result or {}).get("winners", []))
        rows.append(
            {
                "number": entry.number,
                "id": game.pk,
                "decider": entry.decider,
                "status": game.status,
                "seats": entry.seats,
                "points": None if entry.decider else entry.points,
                "running": list(running) if running and entry.points is not None else None,
                "winners": winners,
                "cells": cells(entry, winners, header),
                "url": reverse("game", args=[game.pk]),
                "replay_url": reverse("replay", args=[game.pk])
                if game.status == "finished"
                else None,
            }
        )
    return rows


def match_summary(match: Match, user=None) -> dict:
    """The match as JSON for the page and match.js."""
    entries = entries_of(match)
    seats = latest_seats(entries) if entries else []
    header = seat_rows(seats)
    you = seat_of_user(match, user)
    latest = entries[-1] if entries else None
    between = match.status == Match.Status.PLAYING and match.next_game_at is not None
    playing_next, next_is_decider = next_game_plan(match, entries) if between else ([], False)
    return {
        "id": match.pk,
        "status": match.status,
        "target": match.target,
        "players": match.players,
        "url": reverse("match", args=[match.pk]),
        "ready_url": reverse("match_ready", args=[match.pk]),
        "record_url": reverse("match_record", args=[match.pk]),
        "seats": header,
        "games": game_rows(entries, header),
        "totals": totals(scored_points(entries), match.players),
        "you": you,
        "between_games": between,
        "next_game_at": epoch_ms(match.next_game_at),
        "next_is_decider": next_is_decider,
        "next_players": playing_next,
        "ready": list(match.ready),
        "can_ready": between and you is not None and you in playing_next,
        "current_game": latest.game_id if latest else None,
        "current_game_url": reverse("game", args=[latest.game_id]) if latest else None,
        "result": match.result,
    }
