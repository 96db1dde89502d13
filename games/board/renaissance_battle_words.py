"""The words of the Renaissance table's battle parts, translated into the request's language.

Rendered into the page with json_script (id `rn-battle-labels`); the client
(static/js/renaissance/battle_words.js) fills placeholders in braces. Three parts: `cards` (the
battle cards by name), `words` (the battle panel, the battle decisions and diplomacy) and
`plurals` (sentences with a number, in the forms the client picks with Intl.PluralRules).
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board.words import plural_forms


def battle_labels() -> dict:
    """Every battle word the client shows, keyed by what it names."""
    return {
        "cards": card_labels(),
        "words": {**panel_words(), **commit_words(), **decision_words(), **diplomacy_words()},
        "plurals": plural_labels(),
    }


def card_labels() -> dict:
    return {
        "pikemen": _("Pikemen"),
        "arquebusiers": _("Arquebusiers"),
        "knights": _("Knights"),
        "cannon": _("Cannon"),
        "swiss": _("Swiss"),
        "condottiere": _("Condottiere"),
        "engineer": _("Engineer"),
        "traitor": _("Traitor"),
        "sign_of_god": _("Sign of God"),
        "retreat": _("Retreat"),
        "raiders": _("Raiders"),
        "ambassador": _("Ambassador"),
        "marriage": _("Marriage"),
        "ride": _("Ride"),
        "artist_banker": _("Artist or Banker"),
    }


def panel_words() -> dict:
    """The battle panel: who fights where, the cards, the dice, the defence, the outcome."""
    return {
        "seat_and_nation": _("{seat} ({nation})"),
        "label_battle": _("Battle"),
        "label_result": _("Battle result"),
        "title_from": _("{attacker} attacks {to} from {from}"),
        "title_ride": _("{attacker} rides on {to}"),
        "kind_road": _("An attack along a road"),
        "kind_landing": _("A landing: the defence gets +1"),
        "kind_ride": _("A Ride: no terrain or landing bonus"),
        "close": _("Close"),
        "attack": _("Attack"),
        "defence": _("Defence"),
        "not_committed": _("Choosing its cards…"),
        "no_cards": _("No cards: the fortification and the die defend"),
        "your_cards_face_down": _("Your cards, face down"),
        "cards_revealed": _("Cards played"),
        "condottiere_unrolled": _("die to roll"),
        "value_doubled": _("{value} × 2 = {total}"),
        "lost_to_traitor": _("The defender's Traitor took its strongest troop: {card}"),
        "countered": _("Countered: the attacker's {card} has no effect"),
        "treason_pending": _("A Condottiere turns traitor: {seat} may buy it for a ducat"),
        "fortification": _("Fortification"),
        "fort_garrison": _("Garrison"),
        "fort_rampart": _("Rampart"),
        "fort_fortress": _("Fortress"),
        "bonus_terrain": _("Terrain"),
        "bonus_terrain_landing": _("Terrain and landing"),
        "bonus_landing": _("Landing"),
        "terrain_mountain": _("Mountain"),
        "terrain_marsh": _("Marsh"),
        "engineer_bonus": _("Engineer"),
        "swiss_bonus": _("Swiss power"),
        "die": _("Die"),
        "die_value": _("Die: {value}"),
        "total": _("Total"),
        "total_so_far": _("Total so far"),
        "status_attack": _("{seat} lays its cards face down."),
        "status_defend": _("{seat} lays its card face down."),
        "status_counter": _("{seat} may counter the {card}."),
        "status_treason": _("A Condottiere of {owner} turns traitor: {seat} may buy it."),
        "status_sign": _("{seat} may play a Sign of God."),
        "status_retreat": _("{seat} may save troops with a Retreat."),
        "winner": _("{seat} wins, {attack} against {defence}"),
        "captured": _("{seat} takes {city}."),
        "kept": _("{seat} keeps {city}."),
        "tie_kept": _("A tie: {seat} keeps {city}, and both sides lose their cards."),
        "saved": _("Saved by Retreat ({seat}): {cards}"),
        "retreat_before_end": _("The losers may still save troops with a Retreat."),
    }


def commit_words() -> dict:
    """The face-down commitment of the attacker and of the defender."""
    return {
        "commit_attack_title": _("Attack {city}: your cards"),
        "commit_defend_title": _("Defend {city} against {seat}"),
        "commit_attack_intro": _(
            "Lay two troops face down (blue cards or Condottieri) and, if you like, one red card."
        ),
        "commit_defend_intro": _(
            "Lay one troop face down (you must while you hold one) and, if you like, one red card."
        ),
        "defend_without_troops": _(
            "You hold no troop: your fortification and the die defend; you may add a red card."
        ),
        "troops_legend_one": _("Your troop"),
        "condottiere_die_range": _("4–6, rout or treason"),
        # [ruling] R55: Milan's Condottiere card beyond those in its hand.
        "free_condottiere_copy": _("Milan's free card"),
        "red_legend": _("Red card (face down)"),
        "no_red_card": _("No red card"),
        "red_effect_engineer_attack": _("lowers the city's fortification one level"),
        "red_effect_traitor_attack": _("the city's fortification counts 0"),
        "red_effect_condottiere_attack": _("a third troop, rolled on the Condottiere die"),
        "red_effect_engineer_defence": _("+2 to your defence"),
        "red_effect_traitor_defence": _("the attacker loses its strongest troop"),
        "red_effect_condottiere_defence": _("a second troop, rolled on the Condottiere die"),
        "cost_none": _("These cards cost nothing."),
        "sums_label": _("What you can count on"),
        "sum_attack": _("Your attack: troops {points}, plus your die (1–6)."),
        "sum_defence_known": _(
            "The city's defence: fortification {fort} + bonus {bonus} = {total}, plus the "
            "defender's troop (3 to 7, if it holds one), its red card and its die (1–6)."
        ),
        "sum_counter_risk": _("The defender may counter your {card} with the same card."),
        "sum_defence": _(
            "Your defence: troop {points} + fortification {fort} + bonus {bonus} = {total}, "
            "plus your die (1–6)."
        ),
        "sum_engineer_defence": _("Your Engineer adds {points} unless the attacker plays one."),
        "sum_traitor_defence": _(
            "Your Traitor takes the attacker's strongest troop unless it plays one too."
        ),
        "sum_fort_risk": _("An attacking Engineer or Traitor may lower your fortification."),
        "choose_one_troop": _("Choose one troop."),
        "choice_impossible": _("These cards cannot go together (cards or ducats short)."),
        "commit_attack": _("Attack with these cards"),
        "commit_defend": _("Defend with these cards"),
        "sent": _("Sent. Waiting for the table…"),
    }


def decision_words() -> dict:
    """Counter, the traitor's purchase, Sign of God and Retreat."""
    return {
        "standing": _("So far: attack {attack}, defence {defence}."),
        "counter_title": _("Counter the {card}?"),
        "counter_intro": _("{seat} played a {card}: {effect}."),
        "counter_effect_engineer": _("your fortification drops one level"),
        "counter_effect_traitor": _("your fortification counts 0"),
        "counter_play": _("Counter with your {card}"),
        "counter_play_explain": _("Both cards are discarded and neither has any effect."),
        "counter_pass": _("Do not counter"),
        "treason_title": _("A Condottiere turns traitor"),
        "treason_intro": _("A Condottiere of {seat} offers to change sides for a ducat."),
        "treason_buy": _("Buy it for 1 ducat"),
        "treason_buy_explain": _("It fights for you: its die is rolled again."),
        "treason_pass": _("Do not buy it"),
        "treason_pass_explain": _("It stays with {seat}: its die is rolled again."),
        "sign_title": _("Sign of God"),
        "sign_intro": _("Play a Sign of God to double one of your troops, or pass."),
        "sign_play": _("Double {card} ({value} → {total})"),
        "sign_play_explain": _("Plays your Sign of God card."),
        "sign_pass": _("Pass"),
        "sign_pass_explain": _("No Sign of God in this battle."),
        "retreat_title": _("Retreat"),
        "retreat_intro": _(
            "You lost this battle: your troops go to the discard unless a Retreat saves them."
        ),
        "retreat_saved": _("Saved already: {cards}"),
        "retreat_play": _("Save {card}"),
        "retreat_play_explain": _("Plays a Retreat card: the troop goes back to your hand."),
        "retreat_free": _("Save {card} with your nation's free Retreat"),
        "retreat_free_explain": _("Naples's power, once a turn: no card needed."),
        "retreat_pass": _("Save nothing"),
        "retreat_stop": _("Save no more"),
        "retreat_pass_explain": _("The troops not saved are discarded."),
    }


def diplomacy_words() -> dict:
    return {
        "diplomacy_title": _("Diplomacy"),
        "dip_queued": _("Your last move is still on its way: this is sent as soon as it lands."),
        "dip_not_sent": _("Not sent: the table changed meanwhile. Look again and choose."),
        "offers_to_you": _("Offers to you"),
        "your_offers": _("Your offers"),
        "offer_exchange_theirs": _("{seat} offers {give} for your {take}."),
        "offer_exchange_mine": _("You offer {give} to {seat} for {take}."),
        "offer_sale_theirs": _("{seat} offers you a Condottiere for 1 ducat."),
        "offer_sale_mine": _("You offer {seat} a Condottiere for 1 ducat."),
        "offer_arrived": _("New offer: {offer}"),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "withdraw": _("Withdraw"),
        "cannot_accept": _("You cannot accept it now."),
        "make_offer": _("Make an offer"),
        "promises_bind_nobody": _("Talk freely in the chat: no promise binds anybody."),
        "to_seat": _("To"),
        "gift_title": _("Give ducats"),
        "amount": _("Ducats (1 to {most})"),
        "give": _("Give"),
        "gift_out_of_range": _("Choose from 1 to {most} ducats."),
        "sale_title": _("Sell a Condottiere"),
        "sale_explain": _("One of your Condottieri for 1 ducat, if the other accepts."),
        "offer_sale": _("Offer the sale"),
        "exchange_title": _("Exchange cities"),
        "exchange_explain": _(
            "Two cities of the same fortification, with their palaces and artists."
        ),
        "your_city": _("Your city"),
        "their_city": _("Their city"),
        "propose": _("Propose the exchange"),
    }


def plural_labels() -> dict:
    """Sentences with a number: "one" and "other" forms (English, French and Italian)."""
    forms = {
        "face_down": lambda n: ngettext("{count} card face down", "{count} cards face down", n),
        "condottiere_routed": lambda n: ngettext(
            "{count} Condottiere routed: it fled", "{count} Condottieri routed: they fled", n
        ),
        "condottiere_turned": lambda n: ngettext(
            "{count} Condottiere turned traitor and went over to {seat}",
            "{count} Condottieri turned traitor and went over to {seat}",
            n,
        ),
        "choose_troops": lambda n: ngettext("Choose {count} troop.", "Choose {count} troops.", n),
        "troops_legend": lambda n: ngettext("Your troop", "Your {count} troops", n),
        "sum_condottieri": lambda n: ngettext(
            "Plus {count} Condottiere: 4 to 6 on its die, or it flees or turns traitor.",
            "Plus {count} Condottieri: 4 to 6 each on its die, or it flees or turns traitor.",
            n,
        ),
        "sum_attacker_hidden": lambda n: ngettext(
            "The attacker laid {count} card face down, plus its die.",
            "The attacker laid {count} cards face down, plus its die.",
            n,
        ),
        "cost_condottieri": lambda n: ngettext(
            "{count} Condottiere, paid at the reveal: {cost} ducats to pay (bought ones are "
            "paid already); you have {ducats}.",
            "{count} Condottieri, paid at the reveal: {cost} ducats to pay (bought ones are "
            "paid already); you have {ducats}.",
            n,
        ),
        "ducats_held": lambda n: ngettext("You have {count} ducat.", "You have {count} ducats.", n),
        "offers_waiting": lambda n: ngettext(
            "{count} offer waits for you", "{count} offers wait for you", n
        ),
    }
    return plural_forms(forms)
