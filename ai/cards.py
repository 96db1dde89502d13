"""Card facts a player reasons with: printed values, what a card is worth kept in hand, and the
effect of playing it on the visible battle lines (to score a play before making it)."""

MERCENARY_VALUES = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}

# What a card in hand is worth for later battles, in strength points. Specials are valued by
# how often they swing a battle: Surrender and Bishop win or save battles, Heroine is a sure 10.
HAND_VALUE = {
    **MERCENARY_VALUES,
    "heroine": 10.0,
    "surrender": 6.0,
    "bishop": 5.0,
    "drummer": 4.0,
    "winter": 3.0,
    "spring": 3.0,
    "scarecrow": 2.0,
    "courtesan": 1.5,
}

HIDDEN = "hidden"
# A face-down card of another seat counts as an average Mercenary when estimating its line.
HIDDEN_CARD_ESTIMATE = 4


def is_mercenary(card: str) -> bool:
    return card in MERCENARY_VALUES


def hand_value(cards) -> float:
    return sum(HAND_VALUE.get(card, 0.0) for card in cards)


def top_mercenary(lines) -> int:
    """Highest printed Mercenary value lying face up in any line (0 if none)."""
    return max(
        (MERCENARY_VALUES[c] for line in lines for c in line if c in MERCENARY_VALUES), default=0
    )


def lines_after_play(lines: list[list[str]], seat: int, action: dict) -> list[list[str]]:
    """The visible lines after `seat` plays `action` ([rules] effects of each card)."""
    card = action["card"]
    new = [list(line) for line in lines]
    if card == "bishop":
        # [rules] Bishop discards every face-up Mercenary tied for the highest printed value.
        top = top_mercenary(new)
        if top:
            new = [[c for c in line if MERCENARY_VALUES.get(c) != top] for line in new]
    elif card == "scarecrow":
        taken = action.get("take")
        if taken:
            new[seat].remove(taken)
    elif card in ("winter", "spring"):
        # [rules] A season discards every card of the other season kind.
        other = "spring" if card == "winter" else "winter"
        new = [[c for c in line if c != other] for line in new]
        new[seat].append(card)
    elif card != "surrender":
        new[seat].append(card)
    return new
