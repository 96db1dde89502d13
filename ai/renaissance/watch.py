"""What the balance check counts, from the decisions of one game: battles and yellow cards.

Fed every decision (the acting seat's view and its action), it sees what that seat sees: the
battles' commitments (each side's own action), the revealed troops, dice and Condottiere rolls
whenever someone is asked after the dice (Sign of God, Retreat: most battles), and each result
from the board that the next view shows. Nothing hidden is read.
"""

from .odds import CARD_NAMES

YELLOW = ("raiders", "ambassador", "marriage", "artist", "banker")


class Watch:
    def __init__(self):
        self.battles = []
        self.yellow = []
        self.votes = []  # (turn, war) per vote taken
        self._battle = None
        self._yellow = None
        self._last_war = None
        self.final = None  # the end: who holds each city, each seat's points turn by turn

    def see(self, view: dict, action: dict) -> None:
        public = view["public"]
        self._settle(public, view["phase"])
        phase, kind = view["phase"], action["type"]
        if phase == "purchase" and public["turn"] > 1 and self._last_war != public["turn"]:
            self._last_war = public["turn"]
            self.votes.append((public["turn"], public["war"]))
        if phase == "combat" and kind in ("attack", "ride"):
            self._open_battle(view, action)
        elif phase in ("attack", "defend") and self._battle is not None:
            side = 0 if phase == "attack" else 1
            self._battle["commits"][side] = {"blue": action["blue"], "red": action["red"]}
        elif phase == "treason" and self._battle is not None:
            self._battle["treason"].append(bool(action["buy"]))
        elif phase == "counter" and self._battle is not None:
            self._battle["countered_from_hand"] = bool(action["play"])
        if self._battle is not None and public["battle"] and public["battle"]["dice"]:
            self._battle["revealed"] = public["battle"]
        if phase == "sign_of_god" and kind == "sign_of_god" and self._battle is not None:
            self._battle["signs"][public["battle"]["asked"]] = action["target"]
        if phase in ("corrupt", "neglect") and self._yellow is not None:
            self._yellow["result"] = phase
            self._yellow["choice"] = kind
        if phase == "combat" and kind in YELLOW:
            self._yellow = {"card": kind, "seat": view["seat"], "city": action.get("city")}
            self._yellow["before"] = _snapshot(view, action.get("city"))

    def finish(self, spectator_view: dict) -> None:
        public = spectator_view["public"]
        self._settle(public, spectator_view["phase"])
        self.final = {"owner": public["owner"], "sheet": public["sheet"]}

    def report(self) -> dict:
        return {
            "battles": self.battles,
            "yellow": self.yellow,
            "votes": self.votes,
            "final": self.final,
        }

    # --- internals ----------------------------------------------------------------------

    def _open_battle(self, view, action):
        public = view["public"]
        names = view["cities"]
        target = names.index(action["to"])
        origin = names.index(action["from"]) if action["type"] == "attack" else -1
        self._battle = {
            "a": view["seat"],
            "d": public["owner"][target],
            "to": target,
            "from": origin,
            "ride": action["type"] == "ride",
            "level": public["fort"][target],
            "turn": public["turn"],
            "war": public["war"],
            "defender_cards": public["hand_sizes"][public["owner"][target]],
            "commits": [None, None],
            "revealed": None,
            "signs": [-1, -1],
            "treason": [],
            "countered_from_hand": None,
        }

    def _settle(self, public, phase):
        """Close the battle or yellow card in progress once the board shows its outcome."""
        if self._battle is not None and public["battle"] is None:
            b = self._battle
            b["attacker_won"] = public["owner"][b["to"]] == b["a"]
            if b["revealed"] is not None:
                b["sea"] = b["revealed"]["sea"]
            self.battles.append(b)
            self._battle = None
        if self._yellow is not None and phase not in ("corrupt", "neglect"):
            y = self._yellow
            y["after"] = _snapshot({"public": public, "cities": None}, y["city"], y["seat"])
            self.yellow.append(y)
            self._yellow = None


def _snapshot(view, city_name, seat=None):
    public = view["public"]
    seat = view.get("seat") if seat is None else seat
    city = None
    if city_name is not None and view.get("cities"):
        city = view["cities"].index(city_name)
    return {
        "ducats": public["ducats"][seat],
        "hand": public["hand_sizes"][seat],
        "cities": public["owner"].count(seat),
        "city": city,
        "pillaged": sum(public["pillaged"]),
        "artists": sum(public["artist"]),
        "palaces": sum(public["palace"]),
        "forts": sum(public["fort"]),
    }


__all__ = ["Watch", "CARD_NAMES", "YELLOW"]
