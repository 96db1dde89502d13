"""Card help in Chromium (#14, understanding): each card's tooltip, the hand's strength preview
checked against the engine, and the confirm panel before a card that would weaken its player.

Positions come from seeded random games of the real engine, sent by a scripted socket (see
test_game_e2e.py); the preview's pure function is imported as an ES module in the page.
"""

import random

from django.utils import translation

from games.board.words import card_help_texts
from games.engine import Options, apply_action, legal_actions, new_game, view_for
from tests.e2e import test_game_e2e as scripted
from tests.e2e.test_game_e2e import ME, frame_of, open_scripted, walk_to

# The scripted-socket page's fixtures: a Daphne with fast bots and a started 3-player table.
table = scripted.table

PREVIEW = "/static/js/game/preview.js"


def battle_turn(view):
    return view["current_player"] == ME and view["phase"] in ("battle", "final_battle")


def margin(view_strengths):
    others = [s for seat, s in enumerate(view_strengths) if seat != ME]
    return view_strengths[ME] - max([0, *others])


def strengths(view):
    return [player["strength"] for player in view["players"]]


def test_a_hand_card_shows_its_help_on_keyboard_focus(server, table, new_page):
    state, log = walk_to(3, battle_turn)
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    card = page.locator(".hand button.card").first
    code = card.get_attribute("data-card")
    tip = card.locator(".card__tip")
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement?.blur()")  # the page may restore a focus
    assert not tip.is_visible()
    card.focus()
    assert tip.is_visible()
    with translation.override("en"):
        assert card_help_texts()[code] in tip.inner_text()


PREVIEWED = ("m1", "m10", "winter", "spring", "bishop", "drummer", "heroine", "courtesan")


def engine_previews(per_kind=3):
    """(view before, card, announced strengths after the play) from seeded random games: a few
    plays of each kind of card, with and without Hidden Cards (face-down plays add nothing)."""
    found = {}
    for seed in range(300):
        rng = random.Random(seed)
        hidden = seed % 2 == 1
        state = new_game(3, seed=seed, options=Options(hidden_cards=hidden), first=seed % 3)
        while legal_actions(state):
            view = view_for(state, ME)
            for action in view["legal_actions"] if battle_turn(view) else []:
                key = (action.get("card"), hidden)
                if action["type"] != "play" or len(found.setdefault(key, [])) >= per_kind:
                    continue
                after = view_for(apply_action(state, action), ME)
                if after["phase"] == view["phase"]:  # the battle goes on: strengths are comparable
                    found[key].append((view, action["card"], strengths(after)))
            state = apply_action(state, rng.choice(legal_actions(state)))
        if all(len(found.get((card, h), [])) >= per_kind for card in PREVIEWED for h in (0, 1)):
            break
    return [case for (card, _), cases in found.items() if card in PREVIEWED for case in cases]


def test_the_preview_equals_the_engines_strengths_after_the_play(server, table, new_page):
    cases = engine_previews()
    state, log = walk_to(3, battle_turn)
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    computed = page.evaluate(
        """async ([url, cases]) => {
          const preview = await import(url);
          return cases.map(([view, card]) => preview.previewStrengths(view, card));
        }""",
        [PREVIEW, [[view, card] for view, card, _ in cases]],
    )
    assert computed == [expected for _, _, expected in cases]
    assert len(cases) >= 20
    assert {card for _, card, _ in cases} == set(PREVIEWED)  # seasons, Mercenaries, specials


def find_hurting_bishop():
    """A battle turn of seat 0 where the engine says a Bishop lowers its margin over the leader."""
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(3, seed=seed, first=seed % 3)
        while legal_actions(state):
            view = view_for(state, ME)
            bishops = [a for a in view["legal_actions"] if a.get("card") == "bishop"]
            if battle_turn(view) and bishops:
                after = view_for(apply_action(state, bishops[0]), ME)
                if margin(strengths(after)) < margin(strengths(view)):
                    return state
            state = apply_action(state, rng.choice(legal_actions(state)))
    raise AssertionError("no hurting Bishop found")


def test_a_bishop_that_hurts_asks_to_confirm_and_cancel_changes_nothing(server, table, new_page):
    frame = frame_of(table.pk, find_hurting_bishop(), [])
    page, socket = open_scripted(new_page, server, table, frame)
    bishop = page.locator(".hand button.card--bishop").first
    bishop.click()
    panel = page.locator(".confirm-panel")
    assert panel.is_visible()
    assert "Bishop" in panel.inner_text()
    page.keyboard.press("Enter")  # the focus is on Cancel: a habitual Enter plays nothing
    assert panel.count() == 0
    page.wait_for_timeout(200)
    assert socket.sent == []
    assert page.locator("[data-prompt] button[data-focus-key^='pope-']").count() == 0

    bishop.click()
    page.locator(".confirm-panel button[data-confirm='play']").click()
    # Confirmed: the Bishop is played (its Pope choice opens, or it is sent in a final battle).
    page.wait_for_function(
        """() => document.querySelector("[data-prompt] button[data-focus-key^='pope-']") !== null"""
    ) if frame["view"]["phase"] == "battle" else socket.wait_for_sent(page)


def test_with_the_setting_off_a_hurting_bishop_plays_at_once(server, table, new_page):
    frame = frame_of(table.pk, find_hurting_bishop(), [])
    page, socket = open_scripted(new_page, server, table, frame)
    page.locator("input[data-confirm-setting]").uncheck()
    page.locator(".hand button.card--bishop").first.click()
    assert page.locator(".confirm-panel").count() == 0
    if frame["view"]["phase"] == "battle":
        assert page.locator("[data-prompt] button[data-focus-key^='pope-']").count() > 0
    else:
        assert socket.wait_for_sent(page)["action"]["card"] == "bishop"
    # Remembered for this player: a fresh page does not ask either.
    page.reload()
    page.wait_for_selector("[data-game-root][data-version]")
    assert not page.locator("input[data-confirm-setting]").is_checked()


def test_the_pope_is_explained_on_his_token_and_his_region(server, table, new_page):
    state, log = walk_to(3, lambda view: battle_turn(view) and view["pope"])
    frame = frame_of(table.pk, state, log)
    pope = frame["view"]["pope"]
    page, _ = open_scripted(new_page, server, table, frame)
    token_help = page.locator(".token--pope > title").text_content()
    assert "no battle may be fought in" in token_help and pope in token_help
    region_help = page.locator(f"g.region[data-region='{pope}'] > title.pope-help")
    assert region_help.text_content() == token_help
    assert page.locator("title.pope-help").count() == 2  # only where the Pope stands
