"""The `heuristic` and `easy` levels: a good player's rules of thumb, read from the view alone."""

from .battle_play import Style, choose_battle_action
from .cards import hand_value
from .seeding import decision_rng
from .situation import Situation

# A hand without Mercenaries is worth keeping only if it can still swing battles.
KEEP_HAND_THRESHOLD = 12.0
SCRAP_HAND = 2


def choose_region(view: dict, sit: Situation, rng=None, noise=0.0) -> dict:
    """Fight where we gain most and rivals least; with a weak hand, prefer a region that
    nobody badly needs, so that losing it costs little."""
    hand_strength = hand_value(view["hand"])
    rival_cards = [p["hand_size"] for p in view["players"] if p["seat"] != sit.seat]
    expected_rival = 4.5 * (max(rival_cards) if rival_cards else 0)
    confidence = min(1.5, hand_strength / max(1.0, expected_rival))

    def score(action):
        region = action["region"]
        mine = sit.value_of_winning(sit.seat, region)
        worst_rival = max(-sit.value_of_winning(s, region) for s in sit.rivals())
        value = confidence * mine - (1.2 - 0.5 * confidence) * worst_rival
        return value + (rng.gauss(0.0, noise * 10.0) if noise else 0.0)

    return max(view["legal_actions"], key=score)


def choose_discard(view: dict) -> dict:
    """[rules] With no Mercenary in hand a player may discard it: keep it only if it still
    holds battle-winners (a Heroine, or a Courtesan with a Surrender or enough special cards:
    a hand with no card that adds strength can never win a battle) and is not a scrap
    of one or two cards facing a rival's big hand: discarding that brings the end of the round
    nearer, when every hand is dealt afresh, which favours the poorer hand (and a scrap that is
    never played would keep the round going for ever). [ruling] Every seat with cards is asked;
    a seat holding a Mercenary has declining as its one legal action, which `choose` returns
    before this is called."""
    hand = view["hand"]
    richest_rival = max(p["hand_size"] for p in view["players"] if p["seat"] != view["seat"])
    can_win = "heroine" in hand or "courtesan" in hand
    worth_keeping = can_win and (
        "heroine" in hand or "surrender" in hand or hand_value(hand) >= KEEP_HAND_THRESHOLD
    )
    scrap = len(hand) <= SCRAP_HAND and richest_rival >= 2 * SCRAP_HAND + 1
    keep = worth_keeping and not scrap
    return _pick(view, lambda a: a["discard"] is not keep)


def choose_keep(view: dict) -> dict:
    """[rules] End of round: keep the (at most two) cards most useful in the next round."""
    return max(view["legal_actions"], key=lambda a: (hand_value(a["cards"]), len(a["cards"])))


def choose_draw(view: dict) -> dict:
    """Draw After Battle: more cards are never a burden under the hand limit."""
    return max(view["legal_actions"], key=lambda a: a["count"])


def _pick(view: dict, wanted) -> dict:
    actions = view["legal_actions"]
    return next((a for a in actions if wanted(a)), actions[0])


class HeuristicBot:
    """Rules of thumb; `mistakes` > 0 adds noise and the odd random move (the `easy` level)."""

    def __init__(self, seed=None, *, mistakes: float = 0.0, style: Style | None = None):
        self.seed = seed
        self.mistakes = mistakes
        self.style = style or Style()
        self.level = "easy" if mistakes else "heuristic"

    def choose(self, view: dict) -> dict:
        actions = view["legal_actions"]
        if not actions:
            raise ValueError("this seat has nothing to decide in this view")
        if len(actions) == 1:
            return actions[0]
        rng = decision_rng(self.seed, view)
        if self.mistakes and rng.random() < self.mistakes / 2:
            return rng.choice(actions)
        return choose_by_phase(view, self.style, rng, noise=self.mistakes)


def choose_by_phase(view: dict, style: Style, rng=None, noise: float = 0.0) -> dict:
    sit = Situation.from_view(view)
    kind = view["legal_actions"][0]["type"]
    if kind == "choose_region":
        return choose_region(view, sit, rng, noise)
    if kind == "discard_hand":
        return choose_discard(view)
    if kind == "keep":
        return choose_keep(view)
    if kind == "draw":
        return choose_draw(view)
    return choose_battle_action(view, sit, style, rng, noise)


__all__ = ["HeuristicBot", "choose_by_phase"]
