"""The board's words, translated into the active language: card names and effects, region names,
phases, log lines, victory reasons, the board's interface and its plural sentences.

Pure label functions over Django's translation functions, with the card and region codes they
name. The game page hands `game_labels()` to the browser; the history, the replay and the
engine's refusals (games.words.refusals) name cards and reasons with the same words.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.models import SEAT_COLOUR_LABELS
from games.words.table_talk import table_talk_labels

MERCENARY_VALUES = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}
SPECIAL_CARDS = (
    "winter",
    "spring",
    "bishop",
    "courtesan",
    "drummer",
    "heroine",
    "scarecrow",
    "surrender",
)
REGION_NAMES = (
    "Torino",
    "Milano",
    "Venezia",
    "Genova",
    "Mantova",
    "Ferrara",
    "Parma",
    "Modena",
    "Bologna",
    "Lucca",
    "Firenze",
    "Siena",
    "Urbino",
    "Ancona",
    "Spoleto",
    "Roma",
    "Napoli",
)


# --- Shared with the Renaissance table (games/board/renaissance_words.py) ---------------------


def plural_forms(forms: dict) -> dict:
    """Each sentence with a number in its "one" and "other" forms, as the client picks them
    (English, French and Italian need no more, as CLDR and Django's ngettext agree)."""
    return {key: {"one": form(1), "other": form(2)} for key, form in forms.items()}


def table_labels() -> dict:
    """The words both live tables show alike: the connection line, the status strip's common
    sentences, the seats' marks, the stand-in control (static/js/game/table_client.js) and the
    hand's heading."""
    return {
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "game_gone": _("This game no longer exists."),
        "your_turn": _("Your turn"),
        "turn_of": _("{player} to play"),
        "waiting": _("Waiting for the other players"),
        "spectating": _("You are watching this game"),
        "time_left": _("{seconds} s left"),
        "error": _("Not accepted: {message}"),
        "you": _("you"),
        "bot": _("bot"),
        "standin": _("stand-in bot"),
        "standin_on": _("Hand my seat to a bot"),
        "standin_off": _("Take my seat back"),
        "standin_active": _("A bot is playing your seat."),
        "hand": _("Your hand"),
        "hand_empty": _("No cards in hand"),
        "strength": _("Strength {strength}"),
        "deck": _("Deck: {count}"),
        "game_over": _("Game over"),
    }


def game_labels() -> dict:
    """Every word the client shows, translated into the request's language.

    Placeholders in braces ({player}, {card}, ...) are filled in by the client.
    """
    return {
        "cards": card_labels(),
        "regions": region_labels(),
        "colours": {key: str(label) for key, label in SEAT_COLOUR_LABELS.items()},
        "phases": phase_labels(),
        "log": {**log_labels(), **log_event_labels()},
        "reasons": reason_labels(),
        "ui": {
            **ui_labels(),
            **turn_cue_labels(),
            **battle_panel_labels(),
            **card_help_labels(),
            **feedback_labels(),
            **insight_labels(),
            **table_talk_labels(),
            **rematch_labels(),
        },
        "plurals": {**plural_labels(), **log_event_plurals()},
    }


def card_labels() -> dict:
    """Name and one-line effect of each card code."""
    cards = {
        code: {
            "name": str(value),
            "title": pgettext("card", "Mercenary %(value)s") % {"value": value},
            "kind": "mercenary",
            "value": value,
            "effect": pgettext("card", "Mercenary"),
        }
        for code, value in MERCENARY_VALUES.items()
    }
    # The context keeps card names apart from the same English words elsewhere ("Spring" the
    # season of the year, "Surrender" a button): each language names the cards as its rulebook.
    names = {
        "winter": pgettext("card", "Winter"),
        "spring": pgettext("card", "Spring"),
        "bishop": pgettext("card", "Bishop"),
        "courtesan": pgettext("card", "Courtesan"),
        "drummer": pgettext("card", "Drummer"),
        "heroine": pgettext("card", "Heroine"),
        "scarecrow": pgettext("card", "Scarecrow"),
        "surrender": pgettext("card", "Surrender"),
    }
    effects = {
        "winter": _("every Mercenary counts 1"),
        "spring": _("+3 to the highest Mercenaries"),
        "bishop": _("discards the highest Mercenaries"),
        "courtesan": _("1; the most take the token"),
        "drummer": _("doubles your Mercenaries"),
        "heroine": _("10, not a Mercenary"),
        "scarecrow": _("take back a Mercenary"),
        "surrender": _("the battle ends now"),
    }
    # The effect in two or three short words, for the small cards that have no room for the
    # line above (the battle lines' cards, a crowded hand on a wide screen).
    short_effects = {
        "winter": pgettext("card effect", "all count 1"),
        "spring": pgettext("card effect", "+3 to top"),
        "bishop": pgettext("card effect", "discards top"),
        "courtesan": pgettext("card effect", "+1, token"),
        "drummer": pgettext("card effect", "×2 line"),
        "heroine": pgettext("card effect", "+10"),
        "scarecrow": pgettext("card effect", "takes back"),
        "surrender": pgettext("card effect", "ends battle"),
    }
    for code in SPECIAL_CARDS:
        cards[code] = {
            "name": names[code],
            "kind": "special",
            "effect": effects[code],
            "short": short_effects[code],
        }
    # The log tells everyone what a rival's Drummer did: not "your" Mercenaries but theirs.
    cards["drummer"]["effect_theirs"] = _("doubles the Mercenaries in their line")
    for code, help_text in card_help_texts().items():
        cards[code]["help"] = help_text
    cards["hidden"] = {
        "name": _("face-down card"),
        "title": _("a face-down card"),
        "kind": "hidden",
        "effect": "",
    }
    return cards


def region_labels() -> dict:
    """Region names as each language's rulebook prints them (the board's Italian names).

    Spelled out one by one so that makemessages finds every name; the context keeps a region
    apart from a city of the same name in ordinary prose.
    """
    labels = {
        "Torino": pgettext("region", "Torino"),
        "Milano": pgettext("region", "Milano"),
        "Venezia": pgettext("region", "Venezia"),
        "Genova": pgettext("region", "Genova"),
        "Mantova": pgettext("region", "Mantova"),
        "Ferrara": pgettext("region", "Ferrara"),
        "Parma": pgettext("region", "Parma"),
        "Modena": pgettext("region", "Modena"),
        "Bologna": pgettext("region", "Bologna"),
        "Lucca": pgettext("region", "Lucca"),
        "Firenze": pgettext("region", "Firenze"),
        "Siena": pgettext("region", "Siena"),
        "Urbino": pgettext("region", "Urbino"),
        "Ancona": pgettext("region", "Ancona"),
        "Spoleto": pgettext("region", "Spoleto"),
        "Roma": pgettext("region", "Roma"),
        "Napoli": pgettext("region", "Napoli"),
    }
    return labels


def phase_labels() -> dict:
    return {
        "choose_region": _("Choosing the next region"),
        "battle": _("Battle"),
        "discard_hand": _("Players without a Mercenary may discard their hand"),
        "keep": _("End of the round: keep up to 2 cards"),
        "draw": _("Drawing after the battle"),
        "final_battle": _("Final battle"),
        "over": _("The game is over"),
    }


def log_labels() -> dict:
    return {
        "choose_region": _("{player} sends the Condottiere to {region}"),
        "play": _("{player} plays {card}"),
        "play_effect": _("{player} plays {card}: {effect}"),
        "play_hidden": _("{player} plays a card face down"),
        "scarecrow_take": _("{player} plays Scarecrow and takes back {card}"),
        "scarecrow_none": _("{player} plays Scarecrow and takes nothing back"),
        "bishop_pope": _("{player} plays Bishop and places the Pope on {region}"),
        "bishop_off": _("{player} plays Bishop and sets the Pope off the board"),
        "bishop_final": _("{player} plays Bishop"),
        "pass": _("{player} passes"),
        "pass_reveal": _("{player} passes and turns the face-down card up"),
        "discard_hand": _("{player} discards their hand"),
        "discard_keep": _("{player} keeps their hand"),
        "battle_won": _("{player} wins {region} ({strength} to {other})"),
        "battle_tied": _("Nobody wins {region}: a tie at {strength}"),
        "final_won": _("{player} wins the final battle ({strength} to {other})"),
        "final_tied": _("The final battle ends in a tie at {strength}"),
    }


def reason_labels() -> dict:
    """How a game was won: the engine's `victory` names (the result's `reason`)."""
    return {
        "total": _("controls enough regions"),
        "adjacency": _("controls enough adjacent regions"),
        "most_regions": _("holds the most regions when no region is left to fight over"),
        "final_battle": _("won the final battle"),
    }


def ui_labels() -> dict:
    return {
        **table_labels(),
        "discard_asked": _("{player} decides whether to discard their hand"),
        "pass": _("Pass"),
        "pass_keep_hidden": _("Pass (keep your face-down card hidden)"),
        "pass_reveal": _("Pass and turn your face-down card up"),
        "pass_defender": _("Pass for now (as defender you may still play later)"),
        "choose_region": _("Choose the region to fight over"),
        "choose_region_hint": _("Click a highlighted region on the map."),
        "scarecrow_prompt": _("Scarecrow: which Mercenary do you take back?"),
        "take_back": _("Take back {card}"),
        "take_nothing": _("Take nothing back"),
        "pope_off": _("Off the board"),
        "cancel": _("Cancel"),
        "discard_prompt": _("You hold no Mercenary. Discard your whole hand?"),
        "discard_forced": _("You hold a Mercenary: you keep your hand."),
        "discard_yes": _("Discard my hand"),
        "discard_no": _("Keep my hand"),
        "keep_prompt": _("Choose up to 2 cards to keep; the rest are discarded."),
        "keep_confirm": _("Keep these cards"),
        "keep_none": _("Keep nothing"),
        "draw_prompt": _("How many cards do you draw?"),
        "draw_count": _("Draw {count}"),
        "play_prompt": _("Play a card from your hand, or pass."),
        "lines": _("Battle lines"),
        "log": _("Game log"),
        "passed": _("passed"),
        "face_down": _("face down"),
        "defender": _("defender"),
        "known_hand": _("known in hand: {cards}"),
        "condottiere_holder": _("holds the Condottiere"),
        "contested": _("Battle for {region}"),
        "no_battle": _("No battle under way"),
        "pope_at": _("Pope: {region}"),
        "pope_off_board": _("Pope: off the board"),
        "bot_account": _("bot account"),
        "winner": _("{player} wins the game: {reason}"),
        "winners_shared": _("{players} share the victory: {reason}"),
        "no_winner": _("The game ended without a winner"),
        "final_regions": _("Regions held: {list}"),
        "rating_change": _("Rating {before} → {after}"),
        "rating_provisional": _("Provisional: too few rated games to trust this rating yet."),
    }


# --- A rematch offered on the finished game's page (static/js/game/rematch.js). ---------------


def rematch_labels() -> dict:
    return {
        "rematch_offered_by": _("{player} offers a rematch."),
        "rematch_you_offered": _("You offered a rematch."),
        "rematch_you_accepted": _("You accepted the rematch."),
        "rematch_you_declined": _("You declined the rematch."),
        "rematch_you_left": _("You left the rematch table."),
        "rematch_accept": _("Accept"),
        "rematch_decline": _("Decline"),
        "rematch_waiting": _("Waiting for {players}."),
        "rematch_declined": _("{players} declined the rematch: the seat is open to anyone."),
        "rematch_to_table": _("Go to the new table"),
        "rematch_started": _("The rematch has started."),
        "rematch_watch": _("Watch the rematch"),
        "rematch_closed": _("The rematch table has closed."),
    }


# --- The turn cue (static/js/game/turn_cue.js): the tab's title and the hidden tab's alerts. ---


def turn_cue_labels() -> dict:
    return {
        # The tab's title at your decision: a mark first, so it shows in a narrow tab.
        "turn_title": _("● Your turn — {title}"),
        "cue_legend": _("When this tab is hidden, tell me it is my turn:"),
        "cue_sound": _("with a sound"),
        "cue_notify": _("with a notification"),
        "cue_notify_denied": _("This browser blocks notifications from this site."),
        "cue_notify_unsupported": _("This browser cannot show notifications."),
        "cue_notify_body": _("{game} is waiting for your decision."),
    }


# --- What an action set off (static/js/game/log.js) and the battle's result panel -------------
# (static/js/game/battle_panel.js).


def log_event_labels() -> dict:
    return {
        "bishop_victims": _("The Bishop discards {cards}"),
        "bishop_victim": _("{card} of {player}"),
        "bishop_no_victim": _("The Bishop finds no Mercenary to discard"),
        "token_moves": _("{player} takes the Condottiere token"),
        "round_end": _("The round is over: nobody holds cards any more"),
        "round_end_keep": _("The round is over: {player} alone holds cards and keeps up to 2"),
        "dealt": _("New deal: {list}"),
        **win_line_labels(),
    }


def win_line_labels() -> dict:
    """The log's last line, how the game was won (static/js/game/win_line.js): one per `victory`
    name of the engine's result (its `reason`)."""
    return {
        "game_won": _("{player} wins the game ({how})"),
        "game_won_shared": _("{players} share the victory ({how})"),
        "won_by_adjacency": _("by adjacent regions"),
        "won_by_total": _("by number of regions"),
        "won_by_most_regions": _("most regions when the map ran out"),
        "won_by_final_battle": _("by the final battle"),
    }


def log_event_plurals() -> dict:
    forms = {
        "dealt_to": lambda n: ngettext("{player} {count} card", "{player} {count} cards", n),
    }
    return plural_forms(forms)


def battle_panel_labels() -> dict:
    return {
        "battle_result": _("Battle result"),
        "battle_result_region": _("Battle for {region}"),
        "battle_result_final": _("The final battle"),
        "battle_result_winner": _("{player} wins"),
        "battle_result_tie": _("Nobody wins: a tie"),
        "battle_result_close": _("Close"),
    }


def feedback_labels() -> dict:
    # Read by screen readers on the highlighted card, region or line (static/js/game/feedback.js).
    return {"last_move": _("Last move: {move}")}


# --- The victory meter (static/js/game/victory.js), the discard pile's viewer
# (static/js/game/discards.js) and the Pope's prompt on the map (static/js/game/prompt.js). ---


def insight_labels() -> dict:
    return {
        "victory_title": _("Progress to victory"),
        "victory_rule": _("Wins at once: {regions} regions, or {adjacent} adjacent regions."),
        "victory_regions": _("Regions {count}/{target}"),
        "victory_adjacent": _("Adjacent {count}/{target}"),
        "victory_chain": _("{player}: longest chain {regions}"),
        # The compact meter's two rows (counts against the targets follow, "2/5").
        "victory_regions_row": pgettext("victory meter", "Regions"),
        "victory_adjacent_row": pgettext("victory meter", "Adjacent"),
        "discards_button": _("Discard pile ({count})"),
        "discards_title": _("Discard pile, face up"),
        "discards_empty": _("The discard pile is empty."),
        "discards_note": _(
            "Everyone may look at these cards. Cards set aside face down (a discarded hand, "
            "the keep step) are not shown."
        ),
        "discards_hidden": _("{count} more cards lie face down in the pile."),
        "discards_own": _("Yours among them: {cards}."),
        "pope_map_prompt": _(
            "Where does the Pope go? Choose a highlighted region on the map, or from this list."
        ),
        "pope_select": _("Region for the Pope"),
        "pope_place": _("Place the Pope"),
        "winning_region": _("winning region"),
    }


def plural_labels() -> dict:
    """Sentences with a number, in the forms the client picks with Intl.PluralRules.

    English, French and Italian need two forms: "one" and "other" (French uses "one" for 0 too,
    as CLDR and Django's ngettext agree).
    """
    forms = {
        "cards_in_hand": lambda n: ngettext("{count} card in hand", "{count} cards in hand", n),
        "regions_count": lambda n: ngettext("{count} region", "{count} regions", n),
        "keep": lambda n: ngettext(
            "{player} keeps {count} card", "{player} keeps {count} cards", n
        ),
        "draw": lambda n: ngettext(
            "{player} draws {count} card", "{player} draws {count} cards", n
        ),
    }
    return plural_forms(forms)


# --- Card help: the long descriptions of the cards' tooltips, and the confirm panel's words -----


def card_help_texts() -> dict:
    """What each card does, in the rules' terms (our own words), for the card's tooltip."""
    mercenary = _(
        "A Mercenary adds its value to your line. Under Winter it counts 1; a Drummer in your "
        "line doubles your Mercenaries; under Spring the highest Mercenaries in play get +3."
    )
    helps = {code: mercenary for code in MERCENARY_VALUES}
    helps.update(
        {
            "winter": _(
                "Every Mercenary in every line counts 1. Winter discards any Spring in play."
            ),
            "spring": _(
                "Every Mercenary of the highest value in play, in every line, gets +3. "
                "Spring discards any Winter in play."
            ),
            "bishop": _(
                "Discards every face-up Mercenary of the highest value in play, from all lines "
                "(yours too), then you place the Pope: no battle may be fought in his region."
            ),
            "courtesan": _(
                "Adds 1 to your line. At the end of the battle, whoever has the most Courtesans "
                "in his line takes the Condottiere token and chooses the next battle's region."
            ),
            "drummer": _(
                "Doubles the value of the Mercenaries in your line. A second Drummer adds nothing."
            ),
            "heroine": _("Adds 10 to your line. She is not a Mercenary: no card touches her."),
            "scarecrow": _(
                "Take back into your hand one of your face-up Mercenaries, or none; "
                "the Scarecrow is discarded."
            ),
            "surrender": _(
                "The battle ends at once: whoever is strongest now wins it, as if everyone had "
                "passed."
            ),
        }
    )
    return helps


def card_help_labels() -> dict:
    """The strength preview and the confirm panel before a card that would weaken you."""
    return {
        "preview_strengths": _("If you play it: {strengths}"),
        # The confirm panel says why it asks, then what changes: {changes} lists "you go from 8
        # to 5" or "you stay at 0", then each other player whose strength changes.
        "confirm_weakens": _("{card} weakens you: {changes}. Play it anyway?"),
        "confirm_helps_rival": _(
            "{card} leaves you as you are and strengthens a rival: {changes}. Play it anyway?"
        ),
        "confirm_helps_rival_more": _(
            "{card} strengthens a rival more than you: {changes}. Play it anyway?"
        ),
        "confirm_surrender": _(
            "{card} ends the battle now, and you are not ahead: {strengths}. Play it anyway?"
        ),
        "confirm_you_change": _("you go from {before} to {after}"),
        "confirm_you_stay": _("you stay at {strength}"),
        "confirm_other_change": _("{player} goes from {before} to {after}"),
        "confirm_play": _("Play it"),
        "ask_before_hurt": _("Ask before cards that hurt me"),
        "pope_help": _(
            "The Pope: no battle may be fought in {region} while he is there. "
            "Whoever plays a Bishop moves him."
        ),
    }
