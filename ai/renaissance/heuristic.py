"""The `heuristic` level for Renaissance: a fair player's rules of thumb, one per phase.

It sees only its own seat's view (its hand, the board, hand sizes, the battle as far as it is
revealed) and picks among `view["legal_actions"]`. No search, no randomness: the same view
always gives the same choice. The rules: vote war when stronger than the average; buy a palace
for an Artist in hand, walls for exposed valuable cities, then cards for the turn; expand toward
whole provinces and ports; attack when the odds (cards, dice, walls) favour it and the city is
worth it; defend with the card that best keeps a valuable city; play yellow cards when useful.
In diplomacy it answers the offers made to it (`answer_offer`) and makes a few of its own
(`make_offer`), both judged by the seat's standing (offers.py, evaluation.py).

With `mistakes` > 0 (the `easy` bot) it plays that share of its decisions, answers included, at
random among the same legal actions: the seeded generator of the decision (ai/seeding.py).
"""

from dataclasses import dataclass
from functools import partial

from ..seeding import decision_rng
from .odds import (
    ENGINEER_DEFENCE,
    EXPECTED_ATTACK_PAIR,
    EXPECTED_RED,
    FORTIFICATION,
    expected_defence_card,
    p_beats,
    troop_value,
)
from .offers import chosen_offer, evaluated_answer, offer_answers, offer_key
from .situation import Situation

# An attack is made when it wins at least this often and is worth this much (in RP to come).
ATTACK_ODDS = 0.55
ATTACK_WORTH = 1.0
# What a card spent costs, per PC of its value (cards go back to the box at the turn's end, so
# they are worth only the battles still to come this turn).
CARD_COST_PER_PC = 0.012
RED_CARD_COST = 0.04
# Hand sizes worth buying up to, in peace and in war.
HAND_TARGET = (5, 7)
CARD_PRICE, PALACE_PRICE, WALL_PRICE = 2, 3, 4
# [rules] line 285: no more than 12 battle cards in hand at the end of the purchases.
HAND_LIMIT = 12
# A defending Traitor discards the attacker's strongest blue card: about this much.
TRAITOR_DEFENCE = 5.5


@dataclass(frozen=True)
class Style:
    """The numbers a heuristic bot plays by where two bots may differ: the hand sizes it buys up
    to, in peace and in war."""

    hand_target: tuple[int, int] = HAND_TARGET


# The hand a style buys up to in peace; the styles differ at war only (docs/ai.md, Renaissance's
# purchases: self-play against five `heuristic` bots, six players, seats rotated, 1,200 games a
# style: a war hand of 7 wins par, 9 about 34%, 12 about 57%; a peace hand above 5 did no
# better, nor did any other rule tried: the attack odds and worth, the vote, the defence's card
# costs, walls before cards).
PEACE_HAND = HAND_TARGET[0]
# The `heuristic` level's rules of thumb: a war hand of 7.
MODEST = Style()
# `medium`'s own rules of thumb: a war hand of 9.
READY = Style(hand_target=(PEACE_HAND, 9))
# `hard`'s own rules of thumb: at war, buy up to the hand limit ([rules] line 285: 12 cards
# after the purchases).
ARMED = Style(hand_target=(PEACE_HAND, HAND_LIMIT))


class HeuristicBot:
    """Chooses by the rules of thumb above; `seed` only seeds the mistakes of the `easy` bot;
    `style` says the numbers that differ between levels (MODEST, the `heuristic` level's, by
    default)."""

    def __init__(self, seed: int | None = None, *, mistakes: float = 0.0, style: Style = MODEST):
        self.seed = seed
        self.mistakes = mistakes
        self.style = style
        self.level = "easy" if mistakes else "heuristic"
        self._offers_made = {}  # turn -> the offers this bot returned in it
        self._decisions = {
            **DECISIONS,
            "purchase": partial(purchase, hand_target=style.hand_target),
        }

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("this seat has nothing to decide in this view")
        if len(legal) == 1:
            return legal[0]
        slip = self._slip(view, legal)
        if slip is not None:
            return slip
        decide = self._decisions.get(view["phase"])
        choice = decide(Situation(view), legal) if decide else None
        # A rule of thumb may build an action the rules do not offer right now (an option's
        # step comes first, e.g. the Swiss announce before buying): only a listed one is played.
        return choice if choice in legal else _fallback(legal)

    def answer_offer(self, view: dict) -> dict | None:
        """The answer to an offer made to this seat, or None when none waits. From this seat's
        view only: accept the exchange or Condottiere sale that raises the seat's standing most
        (evaluation.py: its worth in Renaissance Points to come less the others' average), if
        it does by more than a margin (offers.ACCEPT_MARGIN); else decline the first offer
        waiting. An answer the engine does not list now is not given (no exchange mid-battle)."""
        answers = offer_answers(view)
        if not answers:
            return None
        slip = self._slip(view, answers)
        return slip if slip is not None else evaluated_answer(view, answers)

    def make_offer(self, view: dict, made=()) -> dict | None:
        """An offer to make now, before this seat's action, or None (offers.chosen_offer: a
        city exchange or a Condottiere sale that raises both parties' standing as this view
        tells, at most offers.OFFERS_PER_TURN a turn, in its own decisions outside a battle).
        `made`: the offers this seat made this turn, or a function that returns them, called
        only when an offer is considered (a caller that makes a new bot for each decision, as
        the site does, reads them from the game's log); the bot also remembers the ones it
        returned itself, so none is made twice in a turn, declined or not."""
        turn = view["public"]["turn"]
        remembered = self._offers_made.setdefault(turn, [])

        def made_this_turn():
            told = list(made() if callable(made) else made)
            known = {offer_key(action) for action in told}
            return told + [a for a in remembered if offer_key(a) not in known]

        offer = chosen_offer(view, made_this_turn)
        if offer is not None:
            remembered.append(offer)
        return offer

    def _slip(self, view, actions):
        """The `easy` bot's random action for this decision, when it errs on it."""
        if not self.mistakes:
            return None
        rng = decision_rng(self.seed, view)
        return rng.choice(actions) if rng.random() < self.mistakes else None


def _fallback(legal):
    for kind in ("pass", "done", "end_turn"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def _of_type(legal, *kinds):
    return [action for action in legal if action["type"] in kinds]


def _best(actions, score):
    """The highest-scoring action (the first of equals: the engine's order breaks ties)."""
    return max(actions, key=score) if actions else None


# --- set-up, return, vote -------------------------------------------------------------------


def setup_rampart(s, legal):
    return _best(legal, lambda a: s.threat(s.city(a["city"])) + s.loss(s.city(a["city"])))


def setup_garrison(s, legal):
    return expansion(s, legal)


def return_home(s, legal):
    def score(action):
        city = s.city(action["city"])
        return (s.owner[city] < 0, -s.enemy_neighbours(city))

    return _best(legal, score)


def vote(s, legal):
    """War when I hold at least the average number of cities and a weak enemy city is near."""
    cities = [s.owner.count(seat) for seat in range(s.n)]
    others = [cities[seat] for seat in range(s.n) if seat != s.me]
    strong = cities[s.me] >= sum(others) / len(others)
    prey = any(
        s.owner[c] not in (-1, s.me) and s.fort[c] == 0
        for mine in s.mine()
        for c in s.geo.neighbours[mine]
    )
    return {"type": "vote", "war": bool(strong and prey)}


# --- purchases ------------------------------------------------------------------------------


def purchase(s, legal, hand_target=HAND_TARGET):
    """A palace for an Artist in hand; else a wall for the most exposed valuable city when the
    ducats also pay for the cards wanted; else cards up to `hand_target` (peace, war), keeping a
    ducat for each Condottiere in hand."""
    ducats = s.ducats[s.me]
    condottieri = s.hand.count("condottiere")
    palace = _palace_for_artist(s, legal)
    if palace:
        return palace
    cards_wanted = max(0, hand_target[s.war] - len(s.hand))
    buys = _of_type(legal, "buy_cards")
    card_money = min(cards_wanted, len(buys)) * CARD_PRICE
    walls = _of_type(legal, "build")
    walls = [a for a in walls if a["piece"] in ("rampart", "castle")]
    if walls and s.turns_left >= 2 and ducats - WALL_PRICE >= card_money + condottieri:
        return _best(walls, lambda a: s.loss(s.city(a["city"])) * (1 + s.threat(s.city(a["city"]))))
    if buys:
        affordable = (ducats - condottieri) // CARD_PRICE
        count = min(cards_wanted, affordable, len(buys))
        if count > 0:
            return {"type": "buy_cards", "count": count}
    return {"type": "done"}


def _palace_for_artist(s, legal):
    """A palace where an Artist in hand can go (and no palace already waits for one)."""
    if "artist_banker" not in s.hand:
        return None
    if any(s.palace[c] and not s.artist[c] for c in s.mine()):
        return None
    palaces = [a for a in _of_type(legal, "build") if a["piece"] == "palace"]
    return _best(palaces, lambda a: (s.fort[s.city(a["city"])], -s.threat(s.city(a["city"]))))


# --- expansions -----------------------------------------------------------------------------


def expansion(s, legal):
    moves = [a for a in legal if a["type"] in ("expand", "garrison")]

    def score(action):
        city = s.city(action["to"] if action["type"] == "expand" else action["city"])
        friends = sum(1 for c in s.geo.neighbours[city] if s.owner[c] == s.me)
        return (
            s.gain(city) + 0.3 * friends + 0.3 * s.geo.rough[city] - 0.3 * s.enemy_neighbours(city)
        )

    return _best(moves, score)


# --- the combat phase -----------------------------------------------------------------------


def combat(s, legal):
    artist = _of_type(legal, "artist")
    if artist:
        return _best(artist, lambda a: s.fort[s.city(a["city"])])
    banker = _of_type(legal, "banker")
    if banker:
        return banker[0]
    ambassador = _of_type(legal, "ambassador")
    if ambassador:
        return ambassador[0]
    attack = _best_attack(s, legal)
    if attack:
        return attack
    raid = _best_raid(s, legal)
    if raid:
        return raid
    marriage = _best(_of_type(legal, "marriage"), lambda a: s.gain(s.city(a["city"])))
    if marriage and s.gain(s.city(marriage["city"])) >= 2.0:
        return marriage
    return {"type": "end_turn"}


def attack_strength(s, level: int) -> float:
    """My best face-down commitment against a city of that fortification level: two troops and
    the red card that helps most (a Traitor cancels the walls, an Engineer lowers them)."""
    ducats = s.ducats[s.me]
    troops = sorted((troop_value(card) for card in s.hand if troop_value(card) > 0), reverse=True)
    condottieri = s.hand.count("condottiere")
    if condottieri > ducats:  # each Condottiere costs a ducat: drop the unpaid ones (the last)
        troops = troops[: len(troops) - (condottieri - ducats)]
    strength = sum(troops[:2])
    red = 0.0
    if "traitor" in s.hand:
        red = FORTIFICATION[level]
    if "engineer" in s.hand:
        red = max(red, FORTIFICATION[level] - (0, 2, 4)[level])
    if len(troops) > 2 and "condottiere" in s.hand and ducats > condottieri:
        red = max(red, 3.0)
    return strength + red if len(troops) >= 2 else 0.0


def _attack_odds(s, action):
    city = s.city(action["to"])
    ride = action["type"] == "ride"
    sea = not ride and city not in s.geo.neighbours[s.city(action["from"])]
    defence = s.defence_base(city, ride=ride, sea=sea)
    defence += expected_defence_card(s.hand_sizes[s.owner[city]])
    return p_beats(attack_strength(s, s.fort[city]), defence)


def _best_attack(s, legal):
    attacks = _of_type(legal, "attack", "ride")
    if not attacks:
        return None
    scored = []
    for action in attacks:
        odds = _attack_odds(s, action)
        worth = odds * s.gain(s.city(action["to"])) - (1 - odds)
        # A Ride is kept for where no road or ship leads.
        if action["type"] == "ride":
            worth -= 0.5
        scored.append((worth, odds, action))
    worth, odds, action = max(scored, key=lambda item: (item[0], item[1]))
    return action if odds >= ATTACK_ODDS and worth >= ATTACK_WORTH else None


def _best_raid(s, legal):
    raids = _of_type(legal, "raiders")
    if not raids:
        return None
    leader = s.leader()

    def score(action):
        city = s.city(action["city"])
        owner = s.owner[city]
        level = 0 if owner < 0 else FORTIFICATION[s.fort[city]]
        odds = max(0, 6 - level) / 6
        harm = 0 if owner < 0 else (1 + s.fort[city]) * (1.5 if owner == leader else 1.0)
        return odds * ((1, 2)[min(s.fort[city], 1)] + harm)

    return _best(raids, score)


# --- a battle -------------------------------------------------------------------------------


def _battle_city(s):
    return s.battle["to"]


def _red_effect(red, level):
    if red == "traitor":
        return FORTIFICATION[level]
    if red == "engineer":
        return FORTIFICATION[level] - (0, 2, 4)[level]
    if red == "condottiere":
        return 3.0
    return 0.0


def attack_commit(s, legal):
    b = s.battle
    city = b["to"]
    defence = s.defence_base(city, ride=bool(b["ride"]), sea=bool(b["sea"]))
    defence += expected_defence_card(s.hand_sizes[b["d"]])
    level = s.fort[city]

    def score(action):
        strength = sum(troop_value(card) for card in action["blue"])
        strength += _red_effect(action["red"], level)
        cost = CARD_COST_PER_PC * sum(troop_value(card) for card in action["blue"])
        cost += RED_CARD_COST * (action["red"] is not None)
        return p_beats(strength, defence) - cost

    return _best(_of_type(legal, "commit"), score)


def defend_commit(s, legal):
    b = s.battle
    city = b["to"]
    base = s.defence_base(city, ride=bool(b["ride"]), sea=bool(b["sea"]))
    attacker = b["commits"][0] or {}
    attack = EXPECTED_ATTACK_PAIR + (EXPECTED_RED if attacker.get("count", 2) > 2 else 0.0)
    worth = s.loss(city) + 1.0

    def score(action):
        defence = base + sum(troop_value(card) for card in action["blue"])
        red = action["red"]
        if red == "engineer":
            defence += ENGINEER_DEFENCE
        elif red == "traitor":
            defence += TRAITOR_DEFENCE
        elif red == "condottiere":
            defence += 3.0
        hold = 1 - p_beats(attack, defence)
        cost = 0.15 * sum(troop_value(card) for card in action["blue"]) + 0.5 * (red is not None)
        return hold * worth - cost

    return _best(_of_type(legal, "commit"), score)


def counter(s, legal):
    return {"type": "counter", "play": True} if {"type": "counter", "play": True} in legal else None


def buy_traitor(s, legal):
    return {"type": "buy_traitor", "buy": True}


def _totals(b):
    totals = []
    for side in (0, 1):
        troops = b["troops"][side]
        total = sum(max(value, 0) for _, value in troops) + b["dice"][side]
        if b["signs"][side] >= 0:
            total += troops[b["signs"][side]][1]
        if side == 1:
            total += b["fort"] + b["bonus"] + b["engineer"]
        totals.append(total)
    return totals


def sign_of_god(s, legal):
    """Double my best troop when that turns the battle (or keeps a thin lead as attacker)."""
    signs = _of_type(legal, "sign_of_god")
    if not signs:
        return None
    b = s.battle
    side = b["asked"]
    attack, defence = _totals(b)
    troops = b["troops"][side]
    best = max(signs, key=lambda a: troops[a["target"]][1])
    boost = troops[best["target"]][1]
    if side == 0:
        rival_best = max((value for _, value in b["troops"][1]), default=0)
        losing = attack <= defence
        thin = attack - defence <= rival_best and s.hand_sizes[b["d"]] > 0
        if (losing and attack + boost > defence) or (not losing and thin):
            return best
        return {"type": "pass"}
    if defence < attack <= defence + boost:
        return best
    return {"type": "pass"}


def retreat(s, legal):
    saves = _of_type(legal, "retreat")
    return _best(saves, lambda a: troop_value(a["card"])) or {"type": "pass"}


def corrupt(s, legal):
    def score(action):
        city = s.city(action["city"])
        odds = max(0, 6 - FORTIFICATION[s.fort[city]]) / 6
        return odds * s.gain(city)

    choice = _best(_of_type(legal, "corrupt"), score)
    return choice or {"type": "pass"}


def neglect(s, legal):
    """An enemy's wall, the leader's first and near my cities; never mine."""
    leader = s.leader()

    def score(action):
        city = s.city(action["city"])
        near = sum(1 for c in s.geo.neighbours[city] if s.owner[c] == s.me)
        return (s.owner[city] == leader) * 2 + near + s.fort[city]

    enemy = [a for a in _of_type(legal, "neglect") if s.owner[s.city(a["city"])] != s.me]
    return _best(enemy, score) or {"type": "pass"}


DECISIONS = {
    "setup_rampart": setup_rampart,
    "setup_garrison": setup_garrison,
    "return": return_home,
    "vote": vote,
    "purchase": purchase,
    "expansion": expansion,
    "combat": combat,
    "attack": attack_commit,
    "defend": defend_commit,
    "counter": counter,
    "treason": buy_traitor,
    "sign_of_god": sign_of_god,
    "retreat": retreat,
    "corrupt": corrupt,
    "neglect": neglect,
}
