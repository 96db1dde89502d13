"""The words of the Renaissance table's log, end panel and replay, translated into the request's
language.

Rendered into the page with json_script (id `rn-log-labels`); the client fills the placeholders
in braces ({player}, {city}...) and picks a plural form with Intl.PluralRules ("one", "other":
English, French and Italian need two). Read by static/js/renaissance/log.js, end.js and
static/js/renaissance_replay.js.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board.words import plural_forms
from games.history.renaissance_steps import CARD_WORDS


def log_labels() -> dict:
    """Every log, end and replay word the client shows, keyed by what it names."""
    return {
        "log": sentence_labels(),
        "plurals": plural_labels(),
        "cards": {name: str(word) for name, word in CARD_WORDS.items()},
        "nations": nation_labels(),
        "reasons": reason_labels(),
        "end": end_labels(),
        "replay": replay_labels(),
    }


def sentence_labels() -> dict:
    """One sentence per log entry type (and per variant: a pass in each phase, each piece built),
    then the sentences of what an action set off."""
    return {
        **set_up_sentences(),
        **move_sentences(),
        **battle_sentences(),
        **turn_sentences(),
        "list_and": _("{first} and {last}"),
        "list_separator": _(", "),
        "nobody": _("nobody"),
        "log_title": _("Log"),
        "no_entry": _("Nothing has happened yet."),
    }


def set_up_sentences() -> dict:
    return {
        "start": _("{player} starts from {city}."),
        "rampart": _("{player} puts a rampart on {city}."),
        "palace": _("{player} puts a palace in {city}."),
        "garrison": _("{player} places a garrison in {city}."),
        "pass_setup_garrison": _("{player} places no garrison."),
        "pass_setup_palace": _("{player} places no palace."),
        "return": _("{player} comes back to {city}."),
        "vote": _("{player} votes."),
        "votes_war": _("The vote: war ({war} for war; {peace} for peace)."),
        "votes_peace": _("The vote: peace ({war} for war; {peace} for peace)."),
        "deal_war": _("A turn of war: the cards are dealt."),
        "deal_peace": _("A turn of peace: the cards are dealt."),
    }


def move_sentences() -> dict:
    return {
        "build_palace": _("{player} builds a palace in {city}."),
        "build_rampart": _("{player} builds a rampart in {city}."),
        "build_castle": _("{player} adds a castle in {city}: a fortress."),
        "build_fortress": _("{player} builds a fortress in {city}."),
        "done": _("{player} is done buying."),
        "announce_attack": _("{player} announces the Swiss bonus in attack."),
        "announce_defence": _("{player} announces the Swiss bonus in defence."),
        "expand": _("{player} expands from {from} to {to}."),
        "expand_road": _("{player} expands from {from} to {to} by road."),
        "expand_sea": _("{player} expands from {from} to {to} by sea."),
        "pass_expansion": _("{player} makes no more expansion."),
        "attack": _("{player} attacks {to} from {from}."),
        "attack_road": _("{player} attacks {to} from {from} by road."),
        "attack_sea": _("{player} attacks {to} from {from} by sea."),
        "ride": _("{player} rides against {to}."),
        "raiders": _("{player} sends Raiders to {city}."),
        "raiders_free": _("{player} sends Spain's free Raiders to {city}."),
        "raiders_hit": _("{city} is pillaged."),
        "raiders_miss": _("The Raiders fail at {city}."),
        "ambassador": _("{player} sends an Ambassador."),
        "ambassador_cards": _("{player} draws two cards."),
        "corrupt": _("{player} tries to corrupt {city}."),
        "corrupt_won": _("{city} rebels and joins {player}."),
        "corrupt_failed": _("{city} stays loyal."),
        "pass_corrupt": _("{player} corrupts no city."),
        "neglect": _("{player} has the walls of {city} neglected."),
        "pass_neglect": _("{player} neglects no city."),
        "marriage": _("{player} marries into {city}."),
        "marriage_with": _("{player} marries into {city} of {other} (2 ducats to {other})."),
        "artist": _("{player} calls an artist to {city}."),
        "artist_settles": _("An artist settles in {city}."),
        "artist_savonarola": _("Savonarola burns the palace of {city}."),
        "banker": _("{player} calls the Banker to {city} (5 ducats)."),
        "lure": _("{player} tries to lure the artist of {from} to {to}."),
        "lure_won": _("The artist moves to {to}."),
        "lure_failed": _("The artist stays in {from}."),
        "end_turn": _("{player} ends their combat phase."),
        "accept_exchange": _("{other} and {player} exchange {give} and {take}."),
        "accept_condottiere": _("{player} buys a Condottiere from {other} for a ducat."),
        "pass": _("{player} passes."),
        "unknown": _("{player} plays."),
    }


def battle_sentences() -> dict:
    return {
        "commit_none": _("{player} commits no card."),
        "counter_play": _("{player} counters."),
        "counter_no": _("{player} does not counter."),
        "buy_traitor_yes": _("{player} buys the traitor for a ducat."),
        "buy_traitor_no": _("{player} does not buy the traitor."),
        "sign_of_god": _("{player} plays a Sign of God on their {card}."),
        "sign_of_god_plain": _("{player} plays a Sign of God."),
        "pass_sign_of_god": _("{player} plays no Sign of God."),
        "retreat": _("{player} saves {card} by a Retreat."),
        "retreat_free": _("{player} saves {card} by Naples' free Retreat."),
        "pass_retreat": _("{player} saves no more card."),
        "cards_shown": _("The cards are turned up: {attacker} {attack}; {defender} {defence}."),
        "no_card": _("no card"),
        "dice": _("The dice: {attacker} {attack}, {defender} {defence}."),
        "battle_taken": _("{attacker} takes {city} ({attack} against {defence})."),
        "battle_held": _("{defender} holds {city} ({defence} against {attack})."),
        "battle_taken_plain": _("{attacker} takes {city}."),
        "battle_held_plain": _("{defender} holds {city}."),
    }


def turn_sentences() -> dict:
    return {
        "scored": _("Turn {turn} ({year}) scored: {list}."),
        "scored_seat": _("{player} +{scored} ({points})"),
        "new_turn": _("{year}: turn {turn}."),
        "order": _("Turn order: {list}."),
        "over": _("The game is over."),
    }


def plural_labels() -> dict:
    forms = {
        "buy_cards": lambda n: ngettext(
            "{player} buys {count} card.", "{player} buys {count} cards.", n
        ),
        "commit": lambda n: ngettext(
            "{player} commits {count} card face down.",
            "{player} commits {count} cards face down.",
            n,
        ),
        "give_ducats": lambda n: ngettext(
            "{player} gives {count} ducat to {other}.",
            "{player} gives {count} ducats to {other}.",
            n,
        ),
        "winners": lambda n: ngettext("{players} wins.", "{players} share the victory.", n),
    }
    return plural_forms(forms)


def nation_labels() -> dict:
    return {
        "milan": _("Milan"),
        "florence": _("Florence"),
        "venice": _("Venice"),
        "naples": _("Naples"),
        "rome": _("Rome"),
        "genoa": _("Genoa"),
        "france": _("France"),
        "spain": _("Spain"),
        "empire": _("Empire"),
        "swiss": _("Swiss"),
    }


def reason_labels() -> dict:
    """The result's `reason`: the first of the rulebook's criteria on which the winners beat
    every other seat ([ruling] R5)."""
    return {
        "points": _("Won on Renaissance Points."),
        "fortresses": _("Tied on Renaissance Points: won on the most fortresses."),
        "ramparts": _("Tied on Renaissance Points and fortresses: won on the most ramparts."),
        "ducats": _("Tied on Renaissance Points, fortresses and ramparts: won on the most ducats."),
        "shared": _(
            "Tied on Renaissance Points, fortresses, ramparts and ducats: a shared victory."
        ),
    }


def end_labels() -> dict:
    return {
        "title": _("The game is over"),
        "caption": _("Renaissance Points, turn by turn"),
        "turn": _("Turn"),
        "total": _("Total"),
        "provinces": _("Provinces (last count)"),
        "artists": _("Artists (last count)"),
        "winners_title": _("Winners"),
        "fortresses": _("Fortresses"),
        "ramparts": _("Ramparts"),
        "ducats": _("Ducats"),
        "winner_mark": _("winner"),
        "rematch": _("Rematch"),
        "new_game": _("New game"),
        "lobby": _("Lobby"),
        "replay": _("Replay"),
    }


def replay_labels() -> dict:
    return {
        "first": _("First step"),
        "previous": _("Previous step"),
        "next": _("Next step"),
        "last": _("Last step"),
        "slider": _("Step"),
        "step": _("Step {step} of {total}"),
        "start": _("The board is set up."),
        "loading": _("Loading the replay…"),
        "failed": _("The replay could not be loaded."),
        "hands": _("Hands"),
        "hand_empty": _("no card"),
        "ducats": _("{count} ducats"),
        "points": _("{count} points"),
        "seats": _("Seats"),
        "keys": _("Left and right arrows: previous and next step; Home and End: first and last."),
    }
