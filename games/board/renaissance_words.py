"""The words of the Renaissance table (templates/game/renaissance.html), translated into the
request's language: cards and what they do, nations and their marks, phases, pieces, the
decisions and the board's tooltips.

Rendered into the page with json_script ("rn-labels"); static/js/renaissance/i18n.js reads them
and fills the placeholders in braces. The battle's and the log's words are in
games/board/renaissance_battle_words.py and games/board/renaissance_log_words.py.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.board.words import plural_forms, table_labels, turn_cue_labels
from games.history.renaissance_steps import CARD_WORDS
from games.models import SEAT_COLOUR_LABELS
from games.words.table_talk import chat_labels

# The card kinds in the protocol's order (docs/protocol.md, section 17), with their colour and,
# for the blue cards, their strength (docs/renaissance/rules.md, section 3).
CARDS = (
    ("pikemen", "blue", 3),
    ("arquebusiers", "blue", 4),
    ("knights", "blue", 5),
    ("cannon", "blue", 6),
    ("swiss", "blue", 7),
    ("condottiere", "red", None),
    ("engineer", "red", None),
    ("traitor", "red", None),
    ("sign_of_god", "red", None),
    ("retreat", "red", None),
    ("raiders", "yellow", None),
    ("ambassador", "yellow", None),
    ("marriage", "yellow", None),
    ("ride", "yellow", None),
    ("artist_banker", "yellow", None),
)


def renaissance_labels() -> dict:
    """Every word of the Renaissance table's own parts, keyed by what it names."""
    return {
        "ui": {**ui_labels(), **decision_labels(), **turn_cue_labels(), **chat_labels()},
        "cards": card_labels(),
        "nations": nation_labels(),
        "powers": power_labels(),
        "colours": {key: str(label) for key, label in SEAT_COLOUR_LABELS.items()},
        "phases": phase_labels(),
        "pieces": piece_labels(),
        "terrains": {
            "plain": pgettext("terrain", "plain"),
            "mountain": pgettext("terrain", "mountain (+1 in defence)"),
            "marsh": pgettext("terrain", "marsh (+1 in defence)"),
        },
        "plurals": plural_labels(),
    }


def card_labels() -> dict:
    """Per card name: its name, colour, strength (blue cards) and what it does."""
    effects = card_effects()
    return {
        name: {
            "name": str(CARD_WORDS[name]),
            "colour": colour,
            "strength": strength,
            "effect": effects[name],
        }
        for name, colour, strength in CARDS
    }


def card_effects() -> dict:
    return {
        "pikemen": _("Troops: 3 combat points in a battle."),
        "arquebusiers": _("Troops: 4 combat points in a battle."),
        "knights": _("Troops: 5 combat points in a battle."),
        "cannon": _("Troops: 6 combat points in a battle."),
        "swiss": _("Troops: 7 combat points in a battle."),
        "condottiere": _(
            "A mercenary, in place of a blue card or of the red card: costs a ducat when revealed; "
            "its strength is rolled on the Condottiere die (it may betray you)."
        ),
        "engineer": _(
            "Red card. In attack: the city's fortification counts one level less. In defence: "
            "+2 combat points, or counters the attacker's Engineer."
        ),
        "traitor": _(
            "Red card. In attack: the city's fortification does not count. In defence: the "
            "attacker loses his strongest blue card, or counters the attacker's Traitor."
        ),
        "sign_of_god": _("After the reveal: doubles one of your blue cards or Condottieri."),
        "retreat": _("After a lost battle: one of your blue cards goes back to your hand."),
        "raiders": _(
            "In your combat phase: a free or enemy city, not a fortress, not pillaged; on a die "
            "above its fortification it is pillaged (ducats for you, no income for its owner)."
        ),
        "ambassador": _(
            "In your combat phase: two dice. 2–6: corrupt an opponent's city; 7–8: have a "
            "rampart or fortress neglected; 9–12: draw two cards."
        ),
        "marriage": _(
            "In your combat phase, for 2 ducats to its owner: another seat's bare garrison "
            "becomes yours; you may not attack that seat this turn."
        ),
        "ride": _(
            "In your combat phase: attack any enemy city, wherever it is, without terrain bonus."
        ),
        "artist_banker": _(
            "In your combat phase: an artist into one of your palaces (1 Renaissance Point a "
            "turn), or 5 ducats from one of your palaces."
        ),
    }


def nation_labels() -> dict:
    """Per nation: its name and the short mark drawn on its garrisons beside the colour."""
    names = {
        "milan": (_("Milan"), pgettext("nation mark", "Mi")),
        "florence": (_("Florence"), pgettext("nation mark", "Fl")),
        "venice": (_("Venice"), pgettext("nation mark", "Ve")),
        "naples": (_("Naples"), pgettext("nation mark", "Na")),
        "rome": (_("Rome"), pgettext("nation mark", "Ro")),
        "genoa": (_("Genoa"), pgettext("nation mark", "Ge")),
        "france": (_("France"), pgettext("nation mark", "Fr")),
        "spain": (_("Spain"), pgettext("nation mark", "Sp")),
        "empire": (_("The Empire"), pgettext("nation mark", "Em")),
        "swiss": (_("The Swiss"), pgettext("nation mark", "Sw")),
    }
    return {key: {"name": str(name), "mark": str(mark)} for key, (name, mark) in names.items()}


def power_labels() -> dict:
    """Per nation: its power with the nations' powers on, in a short line and in full
    (docs/renaissance/rules.md 13.2, read with rulings R50-R59)."""
    powers = {
        "genoa": (
            _("No terrain or landing bonus against its attacks"),
            _("When Genoa attacks, the defender gets no mountain, marsh or landing bonus."),
        ),
        "florence": (
            _("Lures an artist on a 5 or 6"),
            _(
                "Once a turn, in its combat phase, if it owns a palace without an artist: a die "
                "roll of 5 or 6 moves another player's artist into that palace."
            ),
        ),
        "naples": (
            _("A free Retreat each turn"),
            _(
                "Once a turn, Naples saves a blue card from a lost battle as a Retreat card "
                "would, without the card."
            ),
        ),
        "rome": (
            _("The Pope's vote counts twice"),
            _(
                "Rome's vote counts twice in every vote on war or peace: war when the war votes "
                "are at least half of all votes."
            ),
        ),
        "venice": (
            _("2 more ducats each turn"),
            _("Venice receives 2 more ducats each turn, with its income."),
        ),
        "milan": (
            _("A free Condottiere each turn"),
            _("The first Condottiere Milan plays each turn costs no ducat."),
        ),
        "france": (
            _("Attacks from a city just taken"),
            _("France may attack from a city it took earlier in the same combat phase."),
        ),
        "spain": (
            _("Free Raiders each turn"),
            _(
                "Once a turn, in its combat phase, Spain pillages a city as a Raiders card "
                "would, without the card."
            ),
        ),
        "empire": (
            _("A free battle card each turn"),
            _("The Empire draws one more battle card at each deal; it counts in its hand."),
        ),
        "swiss": (
            _("+1 in attack or in defence"),
            _(
                "Each turn the Swiss announce a bonus of +1 in attack or in defence, for every "
                "battle of that turn."
            ),
        ),
    }
    return {key: {"short": str(short), "full": str(full)} for key, (short, full) in powers.items()}


def phase_labels() -> dict:
    return {
        "setup_start": _("Set-up: starting cities"),
        "setup_rampart": _("Set-up: ramparts"),
        "setup_palace": _("Set-up: palaces"),
        "setup_garrison": _("Set-up: garrisons"),
        "return": _("Return to the board"),
        "vote": _("Vote: war or peace"),
        "purchase": _("Purchases"),
        "expansion": _("Expansion"),
        "combat": _("Combats"),
        "attack": _("Battle: the attacker commits"),
        "defend": _("Battle: the defender commits"),
        "counter": _("Battle: counter"),
        "treason": _("Battle: treason"),
        "sign_of_god": _("Battle: Sign of God"),
        "retreat": _("Battle: retreat"),
        "corrupt": _("Ambassador: corruption"),
        "neglect": _("Ambassador: neglect"),
        "over": _("Game over"),
    }


def piece_labels() -> dict:
    """The pieces a seat builds, with their price in ducats filled in by the client."""
    return {
        "palace": _("Palace"),
        "rampart": _("Rampart"),
        "castle": _("Castle (makes a fortress)"),
        "fortress": _("Fortress"),
    }


def ui_labels() -> dict:
    """The status strip, the seats, the hand and the board's tooltips."""
    return {
        **table_labels(),
        "your_vote": _("Your vote"),
        "voting": _("Waiting for the votes of {players}"),
        "turn_track": _("Turns"),
        "turn_year": _("Turn {turn}: {year}"),
        "setup": _("Set-up"),
        "peace": _("Peace"),
        "war": _("War"),
        "peace_now": _("This turn: peace"),
        "war_now": _("This turn: war"),
        "politics_voting": _("This turn: war or peace, being voted"),
        "order": _("Turn order"),
        "seats": _("Nations"),
        "ducats": _("Ducats"),
        "cards_in_hand": _("Cards"),
        "cities": _("Cities"),
        "provinces": _("Provinces"),
        "points": _("Renaissance Points"),
        "points_short": _("RP"),
        "voted": _("voted"),
        "not_voted": _("not voted yet"),
        "voted_war": _("voted war"),
        "voted_peace": _("voted peace"),
        "last_votes": _("Last vote"),
        "acting": _("to act"),
        "hand_limit": _("{count} of 12 cards"),
        "strength_die": _("Strength: the Condottiere die"),
        "known_cards": _("Known in hand: {cards}"),
        "exposed_cards": _("Face up: {cards}"),
        "map": _("Map of Italy"),
        "zoom_in": _("Zoom in"),
        "zoom_out": _("Zoom out"),
        "zoom_reset": _("Whole map"),
        "free_city": _("free city"),
        "closed": _("out of play at this number of players"),
        "owner": _("Owner: {player}"),
        "nation": _("Nation: {nation}"),
        "fort_0": _("bare garrison"),
        "fort_1": _("rampart"),
        "fort_2": _("fortress"),
        "palace": _("palace"),
        "artist": _("artist"),
        "pillaged": _("pillaged this turn"),
        "terrain": _("Terrain: {terrain}"),
        "port": _("port"),
        "coastal": _("on the coast"),
        "province": _("Province: {province}"),
        "city_choice": _("{city}: choose"),
        "last_move": _("Last move"),
        "winners": _("Won by {players}"),
        "power": _("Power: {power}"),
    }


def decision_labels() -> dict:
    """The decision panel (static/js/renaissance/decision.js)."""
    return {
        "decision": _("Your decision"),
        "no_decision": _("Nothing to decide now."),
        "pick_city": _("Choose a highlighted city on the map."),
        "setup_start": _("Choose your starting city on the map."),
        "setup_rampart": _("Choose one of your cities for your rampart."),
        "setup_palace": _("Choose one of your cities for your palace."),
        "setup_garrison": _("Choose a free city for your extra garrison, or pass."),
        "return": _("You were wiped off the board: choose a starting city to come back to."),
        "vote_prompt": _("War or peace this turn? Your vote stays secret until the last vote."),
        "vote_peace": _("Peace"),
        "vote_war": _("War"),
        "vote_peace_help": _("Peace: 4 cards and 4 ducats each; one attack a turn."),
        "vote_war_help": _("War: 6 cards each, no ducats; any number of attacks."),
        "vote_cast": _("You voted {vote}. Nobody sees it until the last vote."),
        "vote_waiting": _("Waiting for: {players}"),
        "purchase_prompt": _("Buy cards and pieces, then finish your purchases."),
        "buy_cards": _("Buy cards"),
        "buy_count": _("How many cards"),
        "buy_button": _("Buy {count} for {price} ducats"),
        "buy_limit": _("You hold {cards} cards (12 at most) and {ducats} ducats; 2 ducats a card."),
        "buy_done": _("Cards bought this turn."),
        "build": _("Build"),
        "build_piece": _("{piece}: {price} ducats"),
        "build_pick": _("{piece}: choose one of your highlighted cities."),
        "announce_prompt": _("The Swiss announce their bonus for this turn:"),
        "announce_attack": _("Swiss bonus in attack"),
        "announce_defence": _("Swiss bonus in defence"),
        "done": _("Done buying"),
        "expansion_prompt": _("Expand: choose one of your highlighted cities, then a free city."),
        "expansion_to": _("From {city}: choose a highlighted free city (dashed: by sea)."),
        "expansion_left": _("Expansions this turn: {done} of 2"),
        "pass": _("Pass"),
        "cancel": _("Cancel"),
        "combat_prompt": _("Your combat phase: attack, play a card, or end your turn."),
        "attack": _("Attack"),
        "attack_pick_from": _("Attack: choose the city you attack from."),
        "attack_pick_to": _("Attack from {city}: choose the enemy city (dashed: by sea)."),
        "attacks_left_peace": _("Peace: one attack this turn ({done} made)."),
        "attacks_war": _("War: attacks made this turn: {done}."),
        "play_card": _("Play {card}"),
        "play_ride": _("Ride: choose any enemy city to attack."),
        "play_raiders": _("Raiders: choose the city to pillage."),
        "play_raiders_free": _("Spain's free Raiders"),
        "play_raiders_free_pick": _("Spain's free Raiders: choose the city to pillage."),
        "play_marriage": _("Marriage: choose the bare garrison that becomes yours."),
        "play_artist": _("Artist: choose one of your palaces."),
        "play_banker": _("Banker: choose one of your palaces."),
        "play_artist_button": _("Artist"),
        "play_banker_button": _("Banker (5 ducats)"),
        "play_ambassador": _("Send the Ambassador"),
        "lure": _("Lure an artist"),
        "lure_pick_from": _("Lure: choose the artist to lure."),
        "lure_pick_to": _("Lure from {city}: choose one of your palaces."),
        "end_turn": _("End my turn"),
        "corrupt_prompt": _("The Ambassador corrupts: choose an opponent's city, or pass."),
        "neglect_prompt": _("The Ambassador: choose a rampart or fortress to neglect, or pass."),
        "battle_prompt": _("The battle asks you:"),
        "commit": _("Commit {cards}"),
        "commit_nothing": _("Commit no card"),
        "counter_yes": _("Counter"),
        "counter_no": _("Do not counter"),
        "traitor_yes": _("Buy the traitor (1 ducat)"),
        "traitor_no": _("Do not buy the traitor"),
        "sign_target": _("Sign of God on troop {index}"),
        "retreat_card": _("Save {card}"),
        "retreat_free": _("Save {card} (free)"),
        "sent": _("Sent…"),
        "by_sea": _("by sea"),
        "by_road": _("by road"),
    }


def plural_labels() -> dict:
    return plural_forms(
        {
            "cards_count": lambda n: ngettext("{count} card", "{count} cards", n),
            "ducats_count": lambda n: ngettext("{count} ducat", "{count} ducats", n),
            "cities_count": lambda n: ngettext("{count} city", "{count} cities", n),
            "points_count": lambda n: ngettext("{count} point", "{count} points", n),
        }
    )
