"""The learned model of `hard`'s battle choices (ai/search/imitation.py) and its training."""

import json
import random

import pytest

from ai.battle_play import BattleReader, Style, choose_battle_action
from ai.cards import lines_after_play
from ai.heuristic import choose_by_phase
from ai.search import imitation, train_imitation
from ai.search.bot import SearchBot
from ai.search.imitation import FEATURES, ImitationModel, battle_features, is_battle_decision
from ai.search.value_model import win_chances
from ai.situation import Situation
from ai.stability import searched_positions


@pytest.fixture(scope="module")
def battle_views():
    return [view for view in searched_positions(40, every=2) if is_battle_decision(view)]


def column(name):
    return FEATURES.index(name)


def test_each_legal_action_gets_a_row_that_says_what_it_does(battle_views):
    for view in battle_views:
        rows = battle_features(view)
        actions = view["legal_actions"]
        assert len(rows) == len(actions)
        assert all(len(row) == len(FEATURES) for row in rows)
        heuristic = choose_battle_action(view, Situation.from_view(view), Style())
        for action, row in zip(actions, rows, strict=True):
            assert row[column("heuristic_choice")] == float(action == heuristic)
            assert row[column("pass")] == float(action["type"] == "pass")
            # The heuristic's best-scored action has no gap; every other one is at most level.
            assert row[column("score_gap")] <= 0.0
            card = action.get("card")
            if card in imitation.SPECIAL_CARDS:
                assert row[column(card)] == 1.0
        assert max(row[column("score_gap")] for row in rows) == 0.0
        gaps = [row[column("score_gap")] for row in rows]
        for place, name in ((1, "heuristic_second"), (2, "heuristic_third")):
            flagged = [i for i, row in enumerate(rows) if row[column(name)] == 1.0]
            # One action holds each place when there are enough: no more than `place` others
            # score above it, and at least `place` others score as well (ties keep the order).
            assert len(flagged) == (1 if len(rows) > place else 0)
            for index in flagged:
                assert sum(gap > gaps[index] for gap in gaps) <= place
                others = (gap for i, gap in enumerate(gaps) if i != index)
                assert sum(gap >= gaps[index] for gap in others) >= place


def test_the_margin_after_a_play_is_the_same_whether_or_not_the_play_was_scored(battle_views):
    """The features read each play's margin from the reader's scoring cache: it must be the margin
    of the lines with that card on them, as if worked out afresh."""
    plays = 0
    for view in battle_views:
        sit = Situation.from_view(view)
        scored, fresh = BattleReader(view, sit, Style()), BattleReader(view, sit, Style())
        for action in view["legal_actions"]:
            scored.score(action)
        for action in view["legal_actions"]:
            if action["type"] != "play":
                continue
            plays += 1
            expected = fresh.margin(lines_after_play(fresh.lines, fresh.me, action))
            assert scored.margin_after(action) == expected
            assert fresh.margin_after(action) == expected
    assert plays > 50


def test_the_fit_recovers_the_weights_that_made_the_choices(battle_views):
    """Choices drawn from a known logit over real positions' features: the fitted weights come
    back near the true ones."""
    truth = [0.0] * len(FEATURES)
    truth[column("heuristic_choice")] = 1.5
    truth[column("pass")] = -1.0
    truth[column("leading_after")] = 1.0
    rng = random.Random(3)
    samples = []
    for _ in range(12):
        for view in battle_views:
            rows = battle_features(view)
            chances = win_chances(truth, rows)
            chosen = rng.choices(range(len(rows)), weights=chances)[0]
            samples.append((rows, [float(i == chosen) for i in range(len(rows))]))
    fitted = train_imitation.fit(samples)
    for name in ("heuristic_choice", "pass", "leading_after"):
        assert fitted[column(name)] == pytest.approx(truth[column(name)], abs=0.8), name


def test_the_shipped_model_mostly_plays_the_heuristics_move_and_often_another(battle_views):
    """`hard` departs from the heuristic in about 45% of its battle decisions: the model fitted
    to it leans on the heuristic's move yet draws others, always legal ones."""
    model = ImitationModel()
    rng = random.Random(8)
    same = other = 0
    for view in battle_views:
        heuristic = choose_battle_action(view, Situation.from_view(view), Style())
        for _ in range(20):
            action = model.choose(view, rng)
            assert action in view["legal_actions"]
            same += action == heuristic
            other += action != heuristic
    assert same > other > same / 10, (same, other)


def test_other_decisions_are_the_heuristics():
    view = next(v for v in searched_positions(40, every=2) if not is_battle_decision(v))
    assert ImitationModel().choose(view, random.Random(1)) == choose_by_phase(view, Style())


def test_a_model_of_other_features_is_refused(tmp_path):
    path = tmp_path / "model.json"
    shipped = json.loads(imitation.DATA_FILE.read_text())
    assert shipped["features"] == list(FEATURES)
    shipped["features"] = shipped["features"][:-1]
    path.write_text(json.dumps(shipped))
    with pytest.raises(ValueError, match="retrain"):
        imitation.load_weights(path)


def test_a_search_with_the_imitation_model_chooses_a_legal_action(battle_views):
    view = battle_views[0]
    bot = SearchBot(5, iterations=60, opponents="imitation", battles=2)
    assert bot.choose(view) in view["legal_actions"]


def test_the_training_command_writes_a_model_the_search_can_load(tmp_path, capsys, monkeypatch):
    out = tmp_path / "model.json"
    cache = tmp_path / "decisions.json"
    argv = ["--games", "4", "--iterations", "20", "--workers", "1"]
    train_imitation.main([*argv, "--cache", str(cache), "--out", str(out)])
    first = json.loads(out.read_text())
    assert first["features"] == list(FEATURES)
    assert first["training_games"] == 3
    assert first["held_out"]["decisions"] > 0
    assert 0.0 <= first["held_out"]["heuristic_matches"] <= 1.0
    assert "held out" in capsys.readouterr().out
    assert len(imitation.load_weights(out)) == len(FEATURES)
    # Refitting from the cache gives the same model without replaying the games.
    monkeypatch.setattr(train_imitation, "collect", None)
    train_imitation.main([*argv, "--cache", str(cache), "--out", str(out)])
    assert json.loads(out.read_text())["weights"] == first["weights"]
