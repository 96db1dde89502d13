"""The table's layout in Chromium (#14): at the player's decision the hand and every action control
are on screen without scrolling, on a laptop (1280x800, 1366x768) and a phone (375x812), for 2,
4 and 6 players; tap targets on a phone are at least 32 px; text keeps 4.5:1 contrast; Italian
card names fit their faces.

The page is shown real engine positions (found by random play from fixed seeds, so the tests are
deterministic) through a scripted socket, as in test_game_e2e.py: no bot has to move first.
Screenshots go to test-artifacts/layout/.
"""

import pytest

from games.models import Game, Seat
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_game_e2e import ROOT, ScriptedSocket, frame_of, walk_to

SHOTS = ARTIFACTS / "layout"
LAPTOP = (1280, 800)
SMALL_LAPTOP = (1366, 768)
PHONE = (375, 812)
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
BOT_NAMES = ("Colleoni", "Sforza", "Gattamelata", "Malatesta", "Montefeltro")


# --- Positions and the page ---------------------------------------------------------------------


def seated_frame(game, state, log, **extra):
    """A state frame for seat 0 of `game`, with every seat named as the server names them."""
    frame = frame_of(game.pk, state, log, **extra)
    frame["game"]["seats"] = [
        {
            "index": index,
            "colour": COLOURS[index],
            "name": "ottavia" if index == 0 else f"{BOT_NAMES[index - 1]} (random bot)",
            "kind": "human" if index == 0 else "bot",
            "level": None if index == 0 else "random",
            "standin": False,
            "you": index == 0,
        }
        for index in range(state.n)
    ]
    return frame


def busy_battle(players):
    """My turn in a battle where most seats already have cards in their lines."""

    def busy(view):
        lines = [len(player["line"]) for player in view["players"]]
        return (
            view["phase"] == "battle"
            and view["current_player"] == 0
            and sum(length > 0 for length in lines) >= players - 1
            and sum(lines) >= 2 * players
            and len(view["hand"]) >= 5
        )

    return busy


def table_of(players):
    game = Game.objects.create(players=players, status=Game.Status.PLAYING)
    for index in range(players):
        Seat.objects.create(game=game, index=index, bot_level="" if index == 0 else "random")
    return game


def open_table(new_page, server, frame, size):
    page = new_page(*size)
    socket = ScriptedSocket(page, frame)
    page.goto(f"{server}/games/{frame['game']['id']}/")
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    return page, socket


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(100)
    page.screenshot(path=SHOTS / f"{name}.png")


# --- What is on screen ---------------------------------------------------------------------------

# Every card of the hand and every enabled control of the decision: its box, whether it lies in
# the viewport, and whether the point at its centre belongs to it (nothing covers it).
ON_SCREEN = """() => {
  const selectors = ['[data-hand] .card', '[data-prompt] button:not(:disabled)',
                     '.confirm-panel button', '[data-hand-section] .confirm-setting input'];
  const controls = document.querySelectorAll(selectors.join(','));
  return Array.from(controls).map((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {
      what: el.dataset.focusKey || el.dataset.card || el.dataset.confirm || el.className,
      top: Math.round(box.top), bottom: Math.round(box.bottom),
      left: Math.round(box.left), right: Math.round(box.right),
      inside: box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight + 0.5 &&
        box.right <= window.innerWidth + 0.5,
      uncovered: Boolean(hit && (hit === el || el.contains(hit) || hit.contains(el))),
    };
  });
}"""


def controls_on_screen(page):
    assert page.evaluate("() => window.scrollY") == 0
    controls = page.evaluate(ON_SCREEN)
    assert controls, "no control to check"
    return controls


def assert_all_on_screen(page, label):
    controls = controls_on_screen(page)
    hidden = [c for c in controls if not (c["inside"] and c["uncovered"])]
    assert not hidden, f"{label}: off screen or covered: {hidden}"
    return controls


def hand_top(page):
    return page.evaluate(
        "() => Math.round("
        "document.querySelector('[data-hand-section]').getBoundingClientRect().top)"
    )


# --- Tap targets and contrast --------------------------------------------------------------------

# On a phone every control a finger aims at is at least 32 px both ways: the hand's cards, the
# buttons, the sheet's fold button, the header's links, and labels around small checkboxes.
SMALL_TARGETS = """() => {
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const targets = [
    ...document.querySelectorAll(
      '[data-game-root] button, [data-game-root] a, .site-header a, .site-header button'),
    ...Array.from(document.querySelectorAll('[data-game-root] input[type=checkbox]'))
      .map((box) => box.closest('label') || box),
  ];
  return targets.filter(visible).map((el) => {
    const box = el.getBoundingClientRect();
    const what = el.textContent.trim().slice(0, 30) || el.className;
    return { what, width: box.width, height: box.height };
  }).filter((t) => t.width < 32 || t.height < 32);
}"""

# The contrast of every visible piece of text with what lies behind it: the colour (with the
# opacity of its ancestors) against the first opaque background found walking up, or each stop of
# a gradient painted there. Disabled controls and text hidden from sight are left out.
CONTRASTS = """() => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const stops = (image) =>
    (image.match(/rgba?\\([^)]+\\)/g) || []).map(parse).filter((c) => c.a >= 0.5);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const mix = (fg, bg, a) => ({
    r: fg.r * a + bg.r * (1 - a), g: fg.g * a + bg.g * (1 - a), b: fg.b * a + bg.b * (1 - a),
  });
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const backgrounds = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const painted = stops(style.backgroundImage);
      if (painted.length) return painted;
      const colour = parse(style.backgroundColor);
      if (colour && colour.a >= 0.5) return [colour];
    }
    return [{ r: 255, g: 255, b: 255 }];
  };
  const opacity = (el) => {
    let o = 1;
    for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const skipped = 'svg, .visually-hidden, [hidden], :disabled, .card__tip, noscript, script, style';
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode;
    const el = text.parentElement;
    if (!text.textContent.trim() || !el || el.closest(skipped)) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    const colour = parse(style.color);
    const alpha = colour.a * opacity(el);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    for (const bg of backgrounds(el)) {
      const value = ratio(mix(colour, bg, alpha), bg);
      if (value < (large ? 3 : 4.5)) {
        const shown = text.textContent.trim().slice(0, 30);
        found.push({ text: shown, cls: el.className, ratio: Math.round(value * 100) / 100 });
        break;
      }
    }
  }
  return found;
}"""


# --- Tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_hand_and_the_decision_are_on_screen_without_scrolling(server, new_page, players):
    state, log = walk_to(players, busy_battle(players))
    frame = seated_frame(table_of(players), state, log)
    page, _ = open_table(new_page, server, frame, LAPTOP)
    for size in (LAPTOP, SMALL_LAPTOP, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(50)
        print(players, size, "hand top", hand_top(page))
        shoot(page, f"battle-{players}p-{size[0]}")
        assert_all_on_screen(page, f"{players} players at {size}")
        assert page.evaluate(OVERFLOWING) == [], f"a card's words overflow at {size}"
    # On the phone: every strength in the sheet's strip, and targets a finger can hit.
    strip = page.locator("[data-strength-strip] li")
    assert strip.count() == players
    for item in strip.all():
        box = item.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1]
    assert page.evaluate(SMALL_TARGETS) == []


def test_the_sheet_folds_away_and_unfolds(server, new_page):
    state, log = walk_to(4, busy_battle(4))
    page, _ = open_table(new_page, server, seated_frame(table_of(4), state, log), PHONE)
    toggle = page.locator("[data-sheet-toggle]")
    assert toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.locator("[data-hand]").is_hidden()
    assert page.locator("[data-strength-strip] li").count() == 4  # still in sight
    shoot(page, "folded-4p-375")
    toggle.click()
    assert page.locator("[data-hand] .card").first.is_visible()


def with_card(card, also=lambda view: True):
    def holds(view):
        return (
            view["phase"] == "battle"
            and view["current_player"] == 0
            and any(action.get("card") == card for action in view["legal_actions"])
            and also(view)
        )

    return holds


def not_ahead(view):
    strengths = [player["strength"] for player in view["players"]]
    return strengths[0] <= max(strengths[1:])


def several_ways(card, least):
    def ways(view):
        return sum(action.get("card") == card for action in view["legal_actions"]) >= least

    return ways


def many_pope_choices(view):
    return sum(a.get("card") == "bishop" for a in view["legal_actions"]) >= 10


SCARECROW = (with_card("scarecrow", several_ways("scarecrow", 3)), ".hand .card--scarecrow", "take")
BISHOP = (with_card("bishop", many_pope_choices), ".hand .card--bishop", "pope")
SURRENDER = (with_card("surrender", not_ahead), ".hand .card--surrender", None)
SUB_CHOICES = [
    # (what, players, size, position, the card to click, the choices it then offers)
    ("scarecrow", 6, LAPTOP, *SCARECROW),
    ("scarecrow", 6, PHONE, *SCARECROW),
    ("pope", 6, SMALL_LAPTOP, *BISHOP),
    ("pope", 6, PHONE, *BISHOP),
    ("confirm", 6, SMALL_LAPTOP, *SURRENDER),
    ("confirm", 4, PHONE, *SURRENDER),
]


@pytest.mark.parametrize(
    ("what", "players", "size", "position", "click", "offered"),
    SUB_CHOICES,
    ids=[f"{c[0]}-{c[1]}p-{c[2][0]}" for c in SUB_CHOICES],
)
def test_a_card_s_sub_choice_and_the_confirm_panel_are_on_screen(
    server, new_page, what, players, size, position, click, offered
):
    state, log = walk_to(players, position, seeds=range(3000))
    page, _ = open_table(new_page, server, seated_frame(table_of(players), state, log), size)
    page.locator(click).first.click()
    if offered:
        assert page.locator(f"[data-prompt] button[data-focus-key^='{offered}-']").count() > 0
    else:
        page.locator(".confirm-panel").wait_for()
    shoot(page, f"{what}-{players}p-{size[0]}")
    assert_all_on_screen(page, f"{what} with {players} players at {size}")


def test_choosing_a_region_and_keeping_cards_are_on_screen(server, new_page):
    for phase, name in (("choose_region", "region"), ("keep", "keep")):
        state, log = walk_to(
            6,
            lambda view, phase=phase: view["phase"] == phase and view["current_player"] == 0,
            seeds=range(3000),
        )
        page, _ = open_table(new_page, server, seated_frame(table_of(6), state, log), SMALL_LAPTOP)
        for size in (SMALL_LAPTOP, PHONE):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(50)
            shoot(page, f"{name}-6p-{size[0]}")
            assert_all_on_screen(page, f"{name} at {size}")


def test_text_on_the_table_keeps_a_contrast_of_at_least_4_5_to_1(server, new_page):
    state, log = walk_to(6, busy_battle(6))
    frame = seated_frame(table_of(6), state, log)
    page, socket = open_table(new_page, server, frame, LAPTOP)
    for size in (LAPTOP, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(50)
        assert page.evaluate(CONTRASTS) == [], f"low contrast at {size}"
    # Each seat's colour on its own tint: the line of the seat to play is tinted.
    for seat in range(1, 6):
        later = {**frame, "version": frame["version"] + seat}
        later["view"] = {**frame["view"], "current_player": seat, "legal_actions": []}
        socket.push(later)
        page.wait_for_selector(f"{ROOT}[data-version='{later['version']}']")
        assert page.evaluate(CONTRASTS) == [], f"low contrast with seat {seat} to play"


ITALIAN_HAND = ["m1", "m10", "courtesan", "scarecrow", "heroine", "drummer", "surrender", "spring"]
ITALIAN_LINE = ["scarecrow", "courtesan", "drummer", "heroine", "bishop", "winter"]

OVERFLOWING = """() => Array.from(document.querySelectorAll(
    '.card, .card__name, .card__label, .card__effect'))
  .filter((el) => el.getBoundingClientRect().width > 0)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => `${el.className}: ${el.textContent}`)"""


def test_italian_card_names_fit_the_cards(server, new_page):
    state, log = walk_to(4, busy_battle(4))
    frame = seated_frame(table_of(4), state, log)
    frame["view"]["hand"] = ITALIAN_HAND
    for player in frame["view"]["players"][1:]:
        player["line"] = ITALIAN_LINE
    page = new_page(*LAPTOP)
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": server}])
    ScriptedSocket(page, frame)
    page.goto(f"{server}/games/{frame['game']['id']}/")
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    assert "Spaventapasseri" in page.locator("[data-hand]").text_content()
    for size in (LAPTOP, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(50)
        shoot(page, f"italian-{size[0]}")
        assert page.evaluate(OVERFLOWING) == [], f"overflowing at {size}"
