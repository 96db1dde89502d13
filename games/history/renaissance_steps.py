"""One short sentence per replayed Renaissance action, in the request's language: the labels of
a finished Renaissance game's replay steps (games/history/replay.py builds the steps).

The game is over, so a label may name what was secret at the time (the cards committed face
down, an offer between two seats), as Condottiere's replay names a face-down card. A vote is the
exception: the replay shows the vote as the table lived it, so a vote says only that the seat
voted until the last one, whose public log entry reveals every seat's vote; its label says them.
Actions are those of docs/renaissance/engine.md, "Actions"; cities keep the board's names.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import SEAT_COLOUR_LABELS

# The cards by the engine's names (games.renaissance.CARD_NAMES).
CARD_WORDS = {
    "pikemen": gettext_lazy("Pikemen"),
    "arquebusiers": gettext_lazy("Arquebusiers"),
    "knights": gettext_lazy("Knights"),
    "cannon": gettext_lazy("Cannon"),
    "swiss": gettext_lazy("Swiss"),
    "condottiere": gettext_lazy("Condottiere"),
    "engineer": gettext_lazy("Engineer"),
    "traitor": gettext_lazy("Traitor"),
    "sign_of_god": gettext_lazy("Sign of God"),
    "retreat": gettext_lazy("Retreat"),
    "raiders": gettext_lazy("Raiders"),
    "ambassador": gettext_lazy("Ambassador"),
    "marriage": gettext_lazy("Marriage"),
    "ride": gettext_lazy("Ride"),
    "artist_banker": gettext_lazy("Artist / Banker"),
}


class RenaissanceStepLabels:
    """The labels of one game's steps; `seats` as the replay's game info lists them."""

    def __init__(self, seats: list[dict]):
        self.names = [str(SEAT_COLOUR_LABELS[seat["colour"]]) for seat in seats]

    def seat(self, seat) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return str(seat)

    def card(self, name) -> str:
        return str(CARD_WORDS.get(name, name))

    def start(self) -> str:
        return _("The board is set up")

    def action(self, seat: int, action: dict, public: dict | None = None) -> str:
        """The sentence for `action` by `seat`; `public` is its public log entry (None when a
        spectator learnt nothing of it)."""
        words = {"player": self.seat(seat)}
        words.update((key, value) for key, value in action.items() if key in ("city", "from", "to"))
        kind = action.get("type")
        if kind == "vote":
            return self.vote(words, public)
        for family in (self.set_up, self.purchase, self.combat, self.battle, self.diplomacy):
            label = family(kind, action, words)
            if label is not None:
                return label
        return _("%(player)s: %(action)s") % {**words, "action": kind}

    def vote(self, words: dict, public: dict | None) -> str:
        """Who voted, never how, until the last vote reveals them all."""
        votes = (public or {}).get("votes")
        if not votes:
            return _("%(player)s votes") % words
        war = sum(1 for vote in votes if vote)
        return _("%(player)s votes last: %(war)s for war, %(peace)s for peace") % {
            **words,
            "war": war,
            "peace": len(votes) - war,
        }

    def set_up(self, kind: str, action: dict, words: dict) -> str | None:
        sentences = {
            "start": _("%(player)s starts from %(city)s"),
            "rampart": _("%(player)s puts a rampart on %(city)s"),
            "palace": _("%(player)s puts a palace in %(city)s"),
            "garrison": _("%(player)s adds a garrison to %(city)s"),
            "return": _("%(player)s returns to %(city)s"),
        }
        if kind == "pass":
            return _("%(player)s passes") % words
        return sentences[kind] % words if kind in sentences else None

    def purchase(self, kind: str, action: dict, words: dict) -> str | None:
        if kind == "buy_cards":
            count = action.get("count", 0)
            return ngettext(
                "%(player)s buys %(count)s card", "%(player)s buys %(count)s cards", count
            ) % {**words, "count": count}
        if kind == "build":
            pieces = {
                "palace": _("%(player)s builds a palace in %(city)s"),
                "rampart": _("%(player)s builds a rampart in %(city)s"),
                "castle": _("%(player)s builds a castle in %(city)s: a fortress"),
                "fortress": _("%(player)s builds a fortress in %(city)s"),
            }
            sentence = pieces.get(action.get("piece"), _("%(player)s builds in %(city)s"))
            return sentence % words
        if kind == "done":
            return _("%(player)s is done buying") % words
        if kind == "announce":
            if action.get("bonus") == "attack":
                return _("%(player)s announces the Swiss in attack") % words
            return _("%(player)s announces the Swiss in defence") % words
        if kind == "expand":
            return _("%(player)s expands from %(from)s to %(to)s") % words
        return None

    def combat(self, kind: str, action: dict, words: dict) -> str | None:
        sentences = {
            "attack": _("%(player)s attacks %(to)s from %(from)s"),
            "ride": _("%(player)s rides to %(to)s"),
            "raiders": _("%(player)s sends Raiders to %(city)s"),
            "ambassador": _("%(player)s sends an Ambassador"),
            "marriage": _("%(player)s marries into %(city)s"),
            "artist": _("%(player)s calls an artist to %(city)s"),
            "banker": _("%(player)s calls the Banker to %(city)s"),
            "lure": _("%(player)s tries to lure the artist of %(from)s to %(to)s"),
            "corrupt": _("%(player)s tries to corrupt %(city)s"),
            "neglect": _("%(player)s has the walls of %(city)s neglected"),
            "end_turn": _("%(player)s ends their turn"),
        }
        return sentences[kind] % words if kind in sentences else None

    def battle(self, kind: str, action: dict, words: dict) -> str | None:
        if kind == "commit":
            cards = [*action.get("blue", []), *([action["red"]] if action.get("red") else [])]
            if not cards:
                return _("%(player)s commits no card") % words
            named = ", ".join(self.card(card) for card in cards)
            return _("%(player)s commits %(cards)s") % {**words, "cards": named}
        if kind == "counter":
            if action.get("play"):
                return _("%(player)s counters") % words
            return _("%(player)s does not counter") % words
        if kind == "buy_traitor":
            if action.get("buy"):
                return _("%(player)s buys the traitor") % words
            return _("%(player)s does not buy the traitor") % words
        if kind == "sign_of_god":
            return _("%(player)s plays the Sign of God") % words
        if kind == "retreat":
            card = self.card(action.get("card"))
            return _("%(player)s retreats, saving %(card)s") % {**words, "card": card}
        return None

    def diplomacy(self, kind: str, action: dict, words: dict) -> str | None:
        """Offers between two seats: the game is over, they are named in full."""
        words = {
            **words,
            "other": self.seat(action.get("to", action.get("from"))),
            "give": action.get("give"),
            "take": action.get("take"),
        }
        if kind == "give_ducats":
            amount = action.get("amount", 0)
            return ngettext(
                "%(player)s gives %(amount)s ducat to %(other)s",
                "%(player)s gives %(amount)s ducats to %(other)s",
                amount,
            ) % {**words, "amount": amount}
        sentences = {
            "offer_exchange": _("%(player)s offers %(other)s %(give)s for %(take)s"),
            "accept_exchange": _("%(player)s accepts %(other)s's offer of %(give)s for %(take)s"),
            "decline_exchange": _("%(player)s declines %(other)s's offer of %(give)s for %(take)s"),
            "withdraw_exchange": _("%(player)s withdraws the offer to %(other)s"),
            "offer_condottiere": _("%(player)s offers %(other)s a Condottiere for a ducat"),
            "accept_condottiere": _("%(player)s buys %(other)s's Condottiere for a ducat"),
            "decline_condottiere": _("%(player)s declines %(other)s's Condottiere"),
            "withdraw_condottiere": _("%(player)s withdraws the Condottiere offered to %(other)s"),
        }
        return sentences[kind] % words if kind in sentences else None
