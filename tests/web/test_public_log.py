"""The public record of an action (games.engine.public_log), checked against the rules on random
games: the Bishop's victims, the Condottiere token changing hands, the end of a round and the new
deal. Each expectation is computed from the rules and the full state, the record only from the
spectator's views, so a match shows both that it is right and that it needs nothing secret."""

import random
from collections import Counter

from games.engine import Options, apply_action, current_player, legal_actions, new_game, view_for
from games.engine.public_log import MERCENARIES, public_record

SEEDS = range(30)


def transitions(players: int, options: Options):
    """(action, seat, state before, state after) for every move of random games."""
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_game(players, seed=seed, options=options, first=seed % players)
        while legal_actions(state):
            action = rng.choice(legal_actions(state))
            seat = current_player(state)
            after = apply_action(state, action)
            yield action, seat, state, after
            state = after


def record_of(action, seat, state, after) -> dict:
    return public_record(action, seat, view_for(state, None), view_for(after, None))


def expected_bishop_victims(seat: int, state) -> list[dict]:
    """[rules] The Bishop discards every face-up Mercenary of the highest value from all lines;
    its play first turns up its player's own face-down card (seen in that player's view)."""
    lines = [player["line"] for player in view_for(state, None)["players"]]
    lines[seat] = view_for(state, seat)["players"][seat]["line"]
    values = [card for line in lines for card in line if card in MERCENARIES]
    if not values:
        return []
    top = max(values, key=MERCENARIES.index)
    return [
        {"seat": other, "card": top}
        for other, line in enumerate(lines)
        for _ in range(line.count(top))
    ]


def test_a_bishop_play_logs_every_victim_with_the_line_it_came_from():
    seen = Counter()
    for players, options in ((3, Options()), (4, Options(hidden_cards=True))):
        for action, seat, state, after in transitions(players, options):
            if action["type"] != "play" or action["card"] != "bishop":
                continue
            record = record_of(action, seat, state, after)
            assert record["bishop"] == expected_bishop_victims(seat, state)
            seen["with victims" if record["bishop"] else "without"] += 1
            seen["several seats"] += len({victim["seat"] for victim in record["bishop"]}) > 1
    assert seen["with victims"] and seen["without"] and seen["several seats"]


def test_a_battle_that_moves_the_token_logs_its_new_holder():
    """[rules] The token goes to the battle's winner, on a tie left of its holder; a strict
    Courtesan leader takes it instead."""
    seen = Counter()
    for action, seat, state, after in transitions(3, Options()):
        record = record_of(action, seat, state, after)
        if after.token != state.token:
            if "battle" in record:
                assert record["token"] == after.token
                seen["moved"] += 1
        elif "battle" in record:
            assert "token" not in record
            seen["kept"] += 1
        if "token" not in record:
            continue
        courtesans = [
            line.count("courtesan")
            for line in (p["line"] for p in view_for(after, None)["players"])
        ]
        if max(courtesans) and courtesans.count(max(courtesans)) == 1:
            assert record["token"] == courtesans.index(max(courtesans))
            seen["courtesan"] += record["token"] != record["battle"]["winner"]
    assert seen["moved"] and seen["kept"] and seen["courtesan"]


def test_the_end_of_a_round_and_the_new_deal_are_logged_with_the_cards_dealt():
    """[rules] A round ends when one seat or none still holds cards: the last one keeps up to 2,
    then every seat is dealt up to 10 plus one per region it controls."""
    seen = Counter()
    for action, seat, state, after in transitions(3, Options()):
        record = record_of(action, seat, state, after)
        holders = [other for other in range(3) if sum(after.hands[other])]
        if view_for(after, None)["phase"] == "keep" and view_for(state, None)["phase"] != "keep":
            assert record["round_end"] is True and record["keeper"] == holders[0]
            assert "dealt" not in record
            seen["keep"] += 1
        elif after.shuffles != state.shuffles:  # without Draw After Battle: a new deal
            assert view_for(after, None)["phase"] in ("battle", "final_battle")
            kept = len(action["cards"]) if action["type"] == "keep" else 0
            dealt_to = after.final_players or range(3)
            expected = [10 + after.counts[other] if other in dealt_to else 0 for other in range(3)]
            expected[seat] -= kept
            assert record["dealt"] == expected
            new_round = view_for(after, None)["phase"] == "battle" and action["type"] != "keep"
            assert record.get("round_end") is (True if new_round else None)
            seen["after " + action["type"]] += 1
        else:
            assert "round_end" not in record and "dealt" not in record
    assert seen["keep"] and seen["after keep"] and seen["after choose_region"], seen


def test_a_record_names_no_card_the_spectator_has_not_seen():
    """Hidden Cards: the victims and the deal come from public views only; every card a record
    names is face up in the spectator's views around the action."""
    for action, seat, state, after in transitions(3, Options(hidden_cards=True)):
        record = record_of(action, seat, state, after)
        before_view, after_view = view_for(state, None), view_for(after, None)
        public_cards = set(after_view["discards"]) | {
            card
            for view in (before_view, after_view)
            for p in view["players"]
            for card in p["line"]
        }
        for victim in record.get("bishop", []):
            assert victim["card"] in public_cards
        assert set(record) <= {
            "type",
            "region",
            "card",
            "take",
            "pope",
            "reveal",
            "discard",
            "count",
            "battle",
            "bishop",
            "token",
            "round_end",
            "keeper",
            "dealt",
        }
