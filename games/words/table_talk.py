"""The game page's words for table talk: the chat panel (static/js/game/chat.js) and the "Show
cards" control and its log lines (static/js/game/show.js). Merged into the board's `ui` labels
by games/board/words.py; placeholders in braces are filled in by the client. Sentences with a
number come in the two forms the client picks with Intl.PluralRules (`..._one`, `..._other`).
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def table_talk_labels() -> dict:
    return {**chat_labels(), **show_labels()}


def chat_labels() -> dict:
    return {
        "chat_players": _("Players’ chat: only the players read it"),
        "chat_spectators": _("Spectators’ chat: the players do not read it"),
        "chat_empty": _("No messages yet."),
        "chat_mute": _("Mute"),
        "chat_unmute": _("Unmute"),
        "chat_mute_label": _("Hide the messages of {name}"),
        "chat_muted": _("Muted: {names}"),
        "chat_delete": _("Delete"),
        "chat_delete_label": _("Delete this message for everyone (staff)"),
        "chat_bot": _("{name} (bot)"),
        "chat_you": _("you"),
        # The replay marks each message with its room.
        "chat_room_table": _("Table"),
        "chat_room_players": _("Players"),
        "chat_room_spectators": _("Spectators"),
    }


def _forms(key: str, form) -> dict:
    """The "one" and "other" forms of a sentence with a number (`form(n)` calls ngettext with
    literal strings, so that makemessages finds them)."""
    return {f"{key}_one": form(1), f"{key}_other": form(2)}


def show_labels() -> dict:
    return {
        "show_title": _("Show cards"),
        "show_help": _(
            "You may show cards of your hand to another player or to everyone (never exchange "
            "them). They see them until you play or discard them, or the round ends."
        ),
        "show_to": _("Show to"),
        "show_everyone": _("Everyone"),
        "show_whole_hand": _("Whole hand"),
        "show_button": _("Show"),
        "show_pick": _("Choose the cards to show."),
        "shown_to_you": _("{player} showed you: {cards}"),
        "shown_by_you": _("You showed {player}: {cards}"),
        **_forms(
            "show_log",
            lambda n: ngettext(
                "{player} showed {count} card to {target}",
                "{player} showed {count} cards to {target}",
                n,
            ),
        ),
        **_forms(
            "show_log_all",
            lambda n: ngettext(
                "{player} showed {count} card to everyone",
                "{player} showed {count} cards to everyone",
                n,
            ),
        ),
    }
