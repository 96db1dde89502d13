"""Card help in Chromium (#14, understanding): each card's tooltip, the hand's strength preview
checked against the engine, and the confirm panel before a card that would weaken its player.

Positions come from seeded random games of the real engine, sent by a scripted socket (see
test_game_e2e.py); the preview's pure function is imported as an ES module in the page.
"""

import random

from django.utils import translation

from games.board.words import SPECIAL_CARDS, card_help_labels, card_help_texts, card_labels
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


# --- The card's tooltip, as a person sees it ----------------------------------------------------
#
# "Seen" is what a person sees: the element's box inside the viewport and the element (or a part
# of it) on top at its centre. Playwright's is_visible ignores an ancestor's clipping, which hid
# the tooltip inside its card (overflow: hidden) while an older test passed.

SIZES = ((1280, 800), (1366, 768), (375, 812))
SPECIALS = set(SPECIAL_CARDS)

SEEN = """(element) => {
  const box = element.getBoundingClientRect();
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const inside = box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
    && box.right <= width && box.bottom <= height;
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  const hit = inside && document.elementFromPoint(x, y);
  return Boolean(hit) && element.contains(hit);
}"""

OVERLAP = """([a, b]) => {
  const [one, two] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
  return one.left < two.right && two.left < one.right
    && one.top < two.bottom && two.top < one.bottom;
}"""

TIP = "[data-card-tip]"


def a_rich_battle_turn(view):
    """My battle turn, with special cards in my hand and in some line (their help and effects)."""
    lines = {code for player in view["players"] for code in player["line"]}
    return (
        battle_turn(view)
        and len(SPECIALS & set(view["hand"])) >= 2
        and SPECIALS & lines
        and any(a["type"] == "play" and a["card"] not in SPECIALS for a in view["legal_actions"])
    )


def open_table(new_page, server, table, size, *, touch=False):
    state, log = walk_to(3, a_rich_battle_turn)
    frame = frame_of(table.pk, state, log)
    page = new_page(*size, touch=touch)
    socket = scripted.ScriptedSocket(page, frame)
    page.goto(f"{server}/games/{table.pk}/")
    page.wait_for_selector(f"[data-game-root][data-version='{frame['version']}']")
    if not touch:
        page.mouse.move(0, 0)
    return page, socket


def each_size(page, socket):
    """Yields each of SIZES with the page shown at that size as a fresh page shows it.

    One page is resized rather than a new browser context and a new test per size (each cost a
    whole test's set-up and database flush): the reload after the resize leaves nothing of the
    last size's checks (a folded sheet, a focus, an open tooltip); nothing of it is remembered in
    the browser. The first size is the one the page was opened at."""
    for index, size in enumerate(SIZES):
        if index:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.reload()
            page.wait_for_selector(f"[data-game-root][data-version='{socket.frame['version']}']")
            page.mouse.move(0, 0)
        yield size


def seen(page, locator) -> bool:
    return locator.evaluate(SEEN)


def help_of(code) -> str:
    with translation.override("en"):
        return card_help_texts()[code]


def assert_tip_seen_beside(page, card, *, preview: bool, at=None):
    """The tooltip shows this card's help (and the strength preview for a playable hand card),
    seen on screen, beside the card rather than over it; `at` names the screen size."""
    tip = page.locator(TIP)
    page.wait_for_function("(tip) => tip && !tip.hidden", arg=tip.element_handle())
    text = tip.inner_text()
    assert help_of(card.get_attribute("data-card")) in text, at
    assert ("If you play it:" in text) == preview, at
    assert seen(page, tip), f"the tooltip is not on screen, or something covers it at {at}"
    assert not page.evaluate(OVERLAP, [tip.element_handle(), card.element_handle()]), at


def a_playable_hand_card(page):
    """A hand card the player may play now, whose help carries the strength preview."""
    return page.locator(".hand button.card:not(:disabled):not(.card--scarecrow)").first


def a_line_card(page, *, touch=False, nth=0, special=False):
    """A face-up card of a battle line, brought into sight: on a phone the hand's sheet may
    cover the lines, and a person folds it away to look at them."""
    kind = ".card--special" if special else ":not(.card--hidden)"
    card = page.locator(f".line__cards > li.card{kind}").nth(nth)
    card.scroll_into_view_if_needed()
    if not seen(page, card) and page.locator("[data-sheet].is-folded").count() == 0:
        fold = page.locator("[data-sheet] .sheet__toggle")
        fold.tap() if touch else fold.click()
        page.wait_for_selector("[data-sheet].is-folded")
        card.scroll_into_view_if_needed()
    return card


def test_a_cards_help_is_seen_on_hover(server, table, new_page):
    page, socket = open_table(new_page, server, table, SIZES[0])
    for size in each_size(page, socket):
        hand_card = a_playable_hand_card(page)
        hand_card.scroll_into_view_if_needed()
        hand_card.hover()
        assert_tip_seen_beside(page, hand_card, preview=True, at=size)
        line_card = a_line_card(page)
        line_card.hover()
        assert_tip_seen_beside(page, line_card, preview=False, at=size)
        page.mouse.move(0, 0)
        page.wait_for_function("() => document.querySelector('[data-card-tip]').hidden")


def test_a_cards_help_is_seen_on_keyboard_focus(server, table, new_page):
    page, socket = open_table(new_page, server, table, SIZES[0])
    for size in each_size(page, socket):
        hand = page.locator(".hand button.card")
        hand.first.focus()
        page.keyboard.press("Tab")  # the keyboard moves to the hand's second card
        second = hand.nth(1)
        assert second.evaluate("(card) => card === document.activeElement"), size
        assert_tip_seen_beside(page, second, preview=not second.is_disabled(), at=size)
        page.keyboard.press("Escape")  # dismissed without moving the focus
        assert page.locator(TIP).evaluate("(tip) => tip.hidden"), size
        # Backwards through the page to a battle line's card: its help too.
        for _ in range(80):
            page.keyboard.press("Shift+Tab")
            if page.evaluate("() => document.activeElement.matches('.line__cards > li.card')"):
                break
        focused = page.locator(".line__cards > li.card:focus")
        assert focused.count() == 1, f"the keyboard never reached a battle line's card at {size}"
        assert_tip_seen_beside(page, focused, preview=False, at=size)


def touch_press(page, locator, milliseconds):
    """A finger held on the element's centre for `milliseconds` (a tap when short)."""
    box = locator.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(milliseconds)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_a_long_press_or_a_tap_on_a_line_card_shows_the_help(server, table, new_page):
    page, socket = open_table(new_page, server, table, (375, 812), touch=True)
    tip = page.locator(TIP)
    # The page restored a focus to the hand: on a phone that shows no tooltip over the table.
    assert tip.count() == 0 or tip.evaluate("(tip) => tip.hidden")
    card = a_playable_hand_card(page)
    card.scroll_into_view_if_needed()
    touch_press(page, card, 700)
    assert_tip_seen_beside(page, card, preview=True)
    page.wait_for_timeout(300)
    assert socket.sent == [] and page.locator(".confirm-panel").count() == 0  # nothing played
    page.locator(".game__status").tap()  # a tap elsewhere puts it away
    assert tip.evaluate("(tip) => tip.hidden")
    line_card = a_line_card(page, touch=True)
    line_card.tap()
    assert_tip_seen_beside(page, line_card, preview=False)


def test_small_cards_show_each_special_cards_effect_in_short(server, table, new_page):
    """On a laptop the hand's cards share a row and the lines' cards are compact: each special
    card still says what it does, in words seen on the card (its line, or a short one)."""
    page, socket = open_table(new_page, server, table, SIZES[0])
    with translation.override("en"):
        labels = card_labels()
    for size in each_size(page, socket):
        hand = page.locator(".hand .card--special")
        assert hand.count() >= 2, size
        for index in range(hand.count()):
            assert_effect_seen(page, hand.nth(index), labels, at=size)
        lines = page.locator(".line__cards > .card--special")
        assert lines.count() >= 1, size
        for index in range(lines.count()):
            card = a_line_card(page, nth=index, special=True)
            assert_effect_seen(page, card, labels, at=size)


def assert_effect_seen(page, card, labels, *, at):
    card.scroll_into_view_if_needed()
    code = card.get_attribute("data-card")
    words = card.locator(".card__effect, .card__short").filter(visible=True)
    assert words.count() >= 1, f"{code} shows no effect at {at}"
    effect = words.first
    assert effect.inner_text().strip() in (labels[code]["effect"], labels[code]["short"])
    assert seen(page, effect), f"{code}'s effect is not seen at {at}"
    # Inside the card's face, not cut off by it.
    assert effect.evaluate(
        """(effect) => {
          const inner = effect.getBoundingClientRect();
          const outer = effect.closest('.card').getBoundingClientRect();
          return inner.left >= outer.left && inner.right <= outer.right
            && inner.top >= outer.top && inner.bottom <= outer.bottom
            && effect.scrollWidth <= effect.clientWidth + 1;
        }"""
    ), f"{code}'s effect does not fit its card at {at}"


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


# --- The confirm panel's words: what the card does to you and to each other player -------------

CONFIRMED = ("spring", "winter", "bishop", "surrender")
COLOURS = ("Red", "Blue", "Green")


def hurting_plays(per_card=4):
    """(view, card, announced strengths before, after) from seeded random games, where the engine
    says the play lowers seat 0's margin over the strongest rival (a Surrender: ends a battle it
    is not ahead in), so the page asks first."""
    found = {card: [] for card in CONFIRMED}
    for seed in range(600):
        rng = random.Random(seed)
        state = new_game(3, seed=seed, first=seed % 3)
        while legal_actions(state):
            view = view_for(state, ME)
            plays = {a["card"]: a for a in view["legal_actions"] if a.get("card") in CONFIRMED}
            for card, action in plays.items() if battle_turn(view) else ():
                before = strengths(view)
                if card == "surrender":
                    if margin(before) <= 0 and len(found[card]) < per_card:
                        found[card].append((view, card, before, before))
                    continue
                after_view = view_for(apply_action(state, action), ME)
                after = strengths(after_view)
                if (
                    after_view["phase"] == view["phase"]
                    and margin(after) < margin(before)
                    and len(found[card]) < per_card
                ):
                    found[card].append((view, card, before, after))
            state = apply_action(state, rng.choice(legal_actions(state)))
        if all(len(cases) >= per_card for cases in found.values()):
            break
    return [case for cases in found.values() for case in cases]


def expected_confirm(card, before, after):
    """The panel's sentence, from the rule: why it asks, then your change, then each rival's."""
    with translation.override("en"):
        words = card_help_labels()
        title = card_labels()[card]["name"]
    if card == "surrender":
        listed = " · ".join(f"{COLOURS[seat]} {strength}" for seat, strength in enumerate(after))
        return words["confirm_surrender"].format(card=title, strengths=listed)
    if after[ME] == before[ME]:
        changes = [words["confirm_you_stay"].format(strength=after[ME])]
    else:
        changes = [words["confirm_you_change"].format(before=before[ME], after=after[ME])]
    changes += [
        words["confirm_other_change"].format(player=COLOURS[seat], before=was, after=now)
        for seat, (was, now) in enumerate(zip(before, after, strict=True))
        if seat != ME and was != now
    ]
    mine = after[ME] - before[ME]
    key = "confirm_weakens" if mine < 0 else "confirm_helps_rival" if mine == 0 else None
    key = key or "confirm_helps_rival_more"
    return words[key].format(card=title, changes=", ".join(changes))


def test_the_confirm_panel_says_what_the_card_does_to_you_and_to_the_others(
    server, table, new_page
):
    cases = hurting_plays()
    assert {card for _, card, _, _ in cases} == set(CONFIRMED)
    state, log = walk_to(3, battle_turn)
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    texts = page.evaluate(
        """async ([cases, seatNames]) => {
          const { makeTranslator } = await import("/static/js/game/i18n.js");
          const { hurtsMe, playEffect } = await import("/static/js/game/preview.js");
          const { hurtText } = await import("/static/js/game/confirm.js");
          const t = makeTranslator(JSON.parse(document.getElementById("game-labels").textContent));
          const text = (view, card) => hurtText({ t, card, seatNames, ...playEffect(view, card) });
          return cases.map(([view, card]) => (hurtsMe(view, card) ? text(view, card) : null));
        }""",
        [[[view, card] for view, card, _, _ in cases], list(COLOURS)],
    )
    expected = [expected_confirm(card, before, after) for _, card, before, after in cases]
    assert texts == expected
    assert not any(
        "weakens you" in text
        for text, (_, _, b, a) in zip(texts, cases, strict=True)
        if a[ME] >= b[ME]
    )


def a_spring_that_only_helps_a_rival(view):
    """Spring on my battle turn, leaving my announced strength as it is while a rival's rises."""
    if not battle_turn(view) or "spring" not in view["hand"]:
        return False
    lines = [player["line"] for player in view["players"]]
    top = max([int(code[1:]) for line in lines for code in line if code.startswith("m")], default=0)
    mine = any(code == f"m{top}" for code in lines[ME])
    others = any(code == f"m{top}" for line in lines[1:] for code in line)
    return top > 0 and not mine and others and "winter" not in sum(lines, [])


def test_a_spring_that_only_helps_a_rival_says_so_in_the_panel(server, table, new_page):
    state, log = walk_to(3, a_spring_that_only_helps_a_rival)
    frame = frame_of(table.pk, state, log)
    page, _ = open_scripted(new_page, server, table, frame)
    page.locator(".hand button.card--spring").first.click()
    text = page.locator(".confirm-panel__text").inner_text()
    before = strengths(frame["view"])
    after = strengths(view_for(apply_action(state, {"type": "play", "card": "spring"}), ME))
    assert after[ME] == before[ME] and after != before
    assert text == expected_confirm("spring", before, after)
    assert "weaken" not in text and f"you stay at {before[ME]}" in text


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
