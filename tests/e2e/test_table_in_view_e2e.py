"""What stays in view at Condottiere's table, in Chromium at 1280x800, 1366x768 and 375x812:

- the battle-result panel covers no control (the decision, the hand, the sheet's button, the
  regions to choose on the map), and at the end of a game the game's result and its links are on
  top, the panel closed, live and after a reload;
- the victory meter is on screen through a game against bots, and opening the discard pile does
  not push the lines away;
- on a phone the whole map of Italy fits the screen's width, and the header and the status strip
  take at most a fifth of its height.

"Visible" is on screen and on top: the element's box inside the viewport and the point at its
centre belongs to it (document.elementFromPoint). Positions come from seeded random games of the
real engine through a scripted socket (test_game_e2e.py), except the game against bots, which is
played by clicking. Screenshots go to test-artifacts/in-view/.
"""

import re

import pytest

from games.engine import view_for
from games.models import Game, Seat
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_game_e2e import (
    MOVED_ON,
    ROOT,
    WAIT_FOR_TURN,
    ScriptedSocket,
    log_in,
    take_one_decision,
    walk_to,
)
from tests.e2e.test_table_layout_e2e import (
    LAPTOP,
    PHONE,
    SMALL_LAPTOP,
    open_table,
    seated_frame,
    table_of,
)

SHOTS = ARTIFACTS / "in-view"
SIZES = (LAPTOP, SMALL_LAPTOP, PHONE)
PANEL = "[data-battle-panel]"
METER = "[data-victory] .victory__seat"

# The player's controls: the hand's cards, the decision's buttons, the sheet's fold button, the
# game's end links and the confirm panel's buttons.
CONTROLS = (
    "[data-hand] .card, [data-prompt] button:not(:disabled), [data-sheet-toggle], "
    "[data-game-over] a, [data-game-over] button, .confirm-panel button"
)

# For each element matching `selector` and drawn: its box, whether it lies inside the viewport,
# and whether the point at its centre belongs to it (nothing covers it); `hit` names what does.
VISIBILITY = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter((el) => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0; })
  .map((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {
      what: (el.dataset.focusKey || el.dataset.card || el.dataset.seat || el.className)
        + ' ' + el.textContent.trim().slice(0, 25),
      top: Math.round(box.top), bottom: Math.round(box.bottom),
      inside: box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight + 0.5 &&
        box.right <= window.innerWidth + 0.5,
      onTop: Boolean(hit && (hit === el || el.contains(hit))),
      hit: hit ? (hit.className.baseVal ?? hit.className) + ' ' + hit.tagName : null,
    };
  })"""

# Each region to choose on the map: whether the point at the centre of its name belongs to the
# region (a click there chooses it), and what is there instead.
REGIONS_UNCOVERED = """() => Array.from(document.querySelectorAll('g.region.is-choosable'))
  .map((region) => {
    const name = region.querySelector('text').getBoundingClientRect();
    const hit = document.elementFromPoint(name.left + name.width / 2, name.top + name.height / 2);
    return { region: region.dataset.region, onTop: Boolean(hit && region.contains(hit)),
             hit: hit ? String(hit.className.baseVal ?? hit.className) : null };
  })"""


# Resolves after two frames: the last change is painted (rather than a fixed pause).
PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate(PAINTED)
    page.screenshot(path=SHOTS / f"{name}.png")


def visibility(page, selector):
    return page.evaluate(VISIBILITY, selector)


def assert_visible(page, selector, label):
    found = visibility(page, selector)
    assert found, f"{label}: nothing matches {selector}"
    hidden = [item for item in found if not (item["inside"] and item["onTop"])]
    assert not hidden, f"{label}: off screen or covered: {hidden}"
    return found


# Resolves once the boxes of everything matching the selector are the same in two frames in a
# row (at most 60 frames): the column and the battle panel are placed from measured boxes
# (ResizeObserver and resize handlers), and a hand card may still be easing out of its lift.
SETTLED = """async (selector) => {
  const boxes = () => JSON.stringify(Array.from(document.querySelectorAll(selector), (el) => {
    const box = el.getBoundingClientRect();
    return [box.left, box.top, box.width, box.height];
  }));
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  let last = null;
  for (let count = 0; count < 60; count += 1) {
    await frame();
    const now = boxes();
    if (now === last) return true;
    last = now;
  }
  return false;
}"""


def resize(page, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.evaluate("() => window.scrollTo(0, 0)")
    # Rather than a fixed pause: until the checked boxes stop moving.
    assert page.evaluate(SETTLED, f"{PANEL}, {METER}, {CONTROLS}, [data-lines]"), (
        f"the table kept moving at {size}"
    )


# --- The battle-result panel -------------------------------------------------------------------


def choosing_after_a_battle(players):
    """My turn to choose the next region, the last battle's result in the view, most seats
    holding regions (a map with markers)."""

    def holds(view):
        return (
            view["phase"] == "choose_region"
            and view["current_player"] == 0
            and view.get("last_battle")
            and sum(player["regions"] for player in view["players"]) >= players
        )

    return holds


@pytest.mark.parametrize("players", [3, 6])
def test_the_battle_panel_covers_no_control(server, new_page, players):
    state, log = walk_to(players, choosing_after_a_battle(players), seeds=range(3000))
    frame = seated_frame(table_of(players), state, log)
    page, _ = open_table(new_page, server, frame, LAPTOP)
    for size in SIZES:
        resize(page, size)
        shoot(page, f"battle-panel-{players}p-{size[0]}")
        label = f"{players} players at {size}"
        assert_visible(page, PANEL, label)
        assert_visible(page, CONTROLS, label)
        assert_visible(page, METER, label)
        if size != PHONE:
            # The map's regions are the decision too: each one's name answers a click.
            covered = [r for r in page.evaluate(REGIONS_UNCOVERED) if not r["onTop"]]
            assert not covered, f"{label}: regions covered: {covered}"
    # On a phone the result is a strip: a small part of the screen.
    assert page.locator(PANEL).bounding_box()["height"] <= 0.15 * PHONE[1]


def finished_with_a_last_battle(view):
    return view["phase"] == "over" and view.get("last_battle") is not None


def finished_frame(players):
    state, log = walk_to(players, finished_with_a_last_battle, seeds=range(3000))
    view = view_for(state, 0)
    game = Game.objects.create(players=players, status=Game.Status.FINISHED)
    for index in range(players):
        Seat.objects.create(game=game, index=index, bot_level="" if index == 0 else "random")
    result = {
        "winners": view["winners"],
        "regions": [player["regions"] for player in view["players"]],
        "reason": view["victory"],
    }
    frame = seated_frame(game, state, log)
    frame["game"]["status"] = "finished"
    frame["game"]["deadline"] = None
    frame["game"]["result"] = result
    return frame


def assert_the_result_is_on_top(page, label):
    assert page.locator(PANEL).is_hidden(), f"{label}: the battle panel is open at the end"
    assert_visible(page, "[data-result]", label)
    assert_visible(page, "[data-game-over] a[data-focus-key='replay']", label)
    assert_visible(page, ".game__replay-link a", label)


@pytest.mark.parametrize("players", [3, 6])
def test_at_the_end_the_game_s_result_and_its_links_are_on_top(server, new_page, players):
    frame = finished_frame(players)
    page = new_page(*LAPTOP)
    socket = ScriptedSocket(page, frame)
    # Live: the last frame of play shows the last battle's result, then the game ends.
    playing = {**frame, "version": frame["version"] - 1, "game": {**frame["game"]}}
    playing["game"].update(status="playing", result=None)
    playing["view"] = {**frame["view"], "phase": "choose_region", "current_player": 1}
    socket.frame = playing
    page.goto(f"{server}/games/{frame['game']['id']}/")
    page.wait_for_selector(f"{ROOT}[data-version='{playing['version']}']")
    assert page.locator(PANEL).is_visible()
    socket.push(frame)
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    for size in SIZES:
        resize(page, size)
        shoot(page, f"end-live-{players}p-{size[0]}")
        assert_the_result_is_on_top(page, f"live end, {players} players at {size}")
    # A reload of the finished game: the same, from the first frame.
    page.reload()
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    for size in SIZES:
        resize(page, size)
        shoot(page, f"end-reload-{players}p-{size[0]}")
        assert_the_result_is_on_top(page, f"reload, {players} players at {size}")


# --- The victory meter and the discard pile through a game against bots ------------------------

LINES_TOP = "() => document.querySelector('[data-lines]').getBoundingClientRect().top"


def start_a_game_against_bots(page, server, bots):
    page.goto(f"{server}/play/")
    page.select_option("#id_bots", str(bots))
    page.select_option("#id_level", "random")
    page.locator("[data-testid=start-bots-game]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector(f"{ROOT}[data-version]")


def open_and_close_the_discard_pile(page, label):
    """The pile opens over the lines (it is on top and the lines do not move), and closes."""
    before = page.evaluate(LINES_TOP)
    page.locator("[data-discards] summary").click()
    assert_visible(page, "[data-discards] .discards__title", label)
    assert page.evaluate(LINES_TOP) == before, f"{label}: opening the pile moved the lines"
    assert_visible(page, CONTROLS, f"{label}, the pile open")
    page.keyboard.press("Escape")
    assert page.locator("[data-discards] details").get_attribute("open") is None


def fold_the_sheet(page):
    """On a phone the decision's sheet lies over the map: to click a region there, a person
    folds it away first (the random bots decide whether a region is chosen at that size)."""
    page.locator("[data-sheet-toggle]").click()
    page.wait_for_selector("[data-sheet].is-folded")


def unfold_the_sheet(page):
    """A sheet folded for the map is unfolded again, as the person would to see the next
    decision, should it still be folded (a new turn unfolds it by itself)."""
    if page.locator("[data-sheet].is-folded").count():
        page.locator("[data-sheet-toggle]").click()
        page.wait_for_selector("[data-sheet]:not(.is-folded)")


def test_the_victory_meter_stays_in_view_through_a_game_against_bots(
    server, new_page, django_user_model
):
    user = django_user_model.objects.create_user(username="gattamelata")
    page = new_page(*LAPTOP)
    log_in(page, user, server)
    start_a_game_against_bots(page, server, bots=5)
    sizes = [size for size in SIZES for _ in range(4)]  # four decisions at each size
    for decision, size in enumerate(sizes):
        page.wait_for_function(WAIT_FOR_TURN, timeout=60_000)
        if page.locator(ROOT).get_attribute("data-state") == "finished":
            break
        resize(page, size)
        unfold_the_sheet(page)
        page.mouse.move(1, 1)  # the last click's card keeps no tooltip open over the decision
        label = f"decision {decision + 1} at {size}"
        found = assert_visible(page, METER, label)
        assert len(found) == 6
        assert_visible(page, CONTROLS, label)
        if decision % 4 == 0:
            shoot(page, f"meter-decision-{decision + 1}-{size[0]}")
            open_and_close_the_discard_pile(page, label)
        version = page.locator(ROOT).get_attribute("data-version")
        if size == PHONE and page.locator("g.region.is-choosable").count():
            fold_the_sheet(page)
        take_one_decision(page)
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    else:
        return
    raise AssertionError(f"the game ended after {decision} decisions: too few to check")


# --- The phone: the whole map, a small header and status ---------------------------------------

# The boxes of the map's regions: the leftmost left edge and the rightmost right edge, with the
# names of the regions there.
REGIONS_SPAN = """() => {
  const boxes = Array.from(document.querySelectorAll('[data-board] g.region')).map((region) => {
    const box = region.querySelector('.region-shape').getBoundingClientRect();
    return { region: region.dataset.region, left: box.left, right: box.right };
  });
  const leftmost = boxes.reduce((a, b) => (b.left < a.left ? b : a));
  const rightmost = boxes.reduce((a, b) => (b.right > a.right ? b : a));
  return { leftmost, rightmost, width: window.innerWidth };
}"""

# Whether a region's name lies on screen and the point at its centre belongs to the region.
REGION_ANSWERS = """(name) => {
  const region = document.querySelector(`[data-board] g.region[data-region='${name}']`);
  const box = region.querySelector('text').getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { region: name, inside: box.top >= 0 && box.left >= 0 &&
             box.bottom <= window.innerHeight && box.right <= window.innerWidth,
           onTop: Boolean(hit && region.contains(hit)) };
}"""

TOP_BAND = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const status = document.querySelector('.game__status-line').getBoundingClientRect();
  return { header: header.height, status: status.height };
}"""


def test_on_a_phone_the_whole_map_fits_and_the_header_and_status_are_small(server, new_page):
    state, log = walk_to(4, choosing_after_a_battle(4), seeds=range(3000))
    page, _ = open_table(new_page, server, seated_frame(table_of(4), state, log), PHONE)
    band = page.evaluate(TOP_BAND)
    assert band["header"] + band["status"] <= 0.2 * PHONE[1], f"header and status take {band}"
    span = page.evaluate(REGIONS_SPAN)
    assert span["leftmost"]["left"] >= 0, span
    assert span["rightmost"]["right"] <= span["width"], span
    # The sheet folded away and the page scrolled to the map, the two outermost regions answer
    # at their names, below the meter stuck at the top.
    page.locator("[data-sheet-toggle]").click()
    page.locator("[data-board]").scroll_into_view_if_needed()
    page.evaluate(
        "() => window.scrollBy(0, document.querySelector('[data-board]')"
        ".getBoundingClientRect().top - window.innerHeight / 3)"
    )
    page.wait_for_timeout(100)
    for region in (span["leftmost"]["region"], span["rightmost"]["region"]):
        answer = page.evaluate(REGION_ANSWERS, region)
        assert answer["inside"] and answer["onTop"], answer
    assert_visible(page, METER, "the map scrolled into view")
    shoot(page, "phone-map")
