"""The Renaissance table in Chromium: a person at a table with three bots (played through the real
job path, on a server whose bots answer at once) plays by clicks: the set-up, a purchase with a
build, an expansion and the vote; at each of these decisions every control of the decision and
a legal city are on screen and on top, at 1280x800 and at 1366x768, and text keeps its contrast.
On a 375x812 phone the decision is a bottom sheet, the map zooms and pans, and a legal city is
reached and tapped.

Selectors are the page's stable ones (docs/renaissance/table.md). Screenshots go to
test-artifacts/renaissance/.
"""

import json
import time

from games.lobby import tables as lobby
from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_table_layout_e2e import CONTRASTS

SHOTS = ARTIFACTS / "renaissance"
ROOT = "[data-rn-root]"
GAME_SECONDS = 180
BATTLE_PHASES = {"attack", "defend", "counter", "treason", "sign_of_god", "retreat"}

WAIT_FOR_TURN = f"""() => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.state !== 'playing' && root.dataset.state !== 'connecting' ||
    (root.classList.contains('is-my-turn') && root.dataset.busy === 'false');
}}"""

MOVED_ON = f"""version => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.version !== version || root.dataset.state !== 'playing';
}}"""

# Each control of the decision, and the first legal city: its box inside the window and the
# element at its centre the control itself (or inside it).
ON_SCREEN = """() => {
  const controls = [...document.querySelectorAll(
    '[data-rn-decision] button, [data-rn-decision] select, [data-rn-decision] input')];
  const city = document.querySelector('g.rn-city.is-choice, g.rn-city.is-from');
  if (city) controls.push(city.querySelector('.rn-city__spot'));
  return controls.map((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const owner = el.closest('g.rn-city') || el;
    return {
      what: el.dataset?.testid || el.dataset?.focusKey || owner.dataset?.city || el.tagName,
      inside: box.width > 0 && box.top >= 0 && box.left >= 0 &&
        box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth + 0.5,
      uncovered: Boolean(hit && (hit === el || owner.contains(hit))),
    };
  });
}"""


def screenshot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png")


def record_frames(page) -> list:
    frames = []

    def on_socket(socket):
        def keep(payload):
            frame = json.loads(payload)
            if frame.get("type") == "state":
                frames.append(frame)

        socket.on("framereceived", keep)

    page.on("websocket", on_socket)
    return frames


def open_table(new_page, log_in, server, user, size):
    page = new_page(*size)
    log_in(page, user)
    frames = record_frames(page)
    game = lobby.play_against_bots(user, 3, "random", {}, game="renaissance")
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version]")
    return page, frames, game


def wait_for_turn(page, deadline):
    page.wait_for_function(WAIT_FOR_TURN, timeout=max(1, deadline - time.monotonic()) * 1000)
    root = page.locator(ROOT)
    assert root.get_attribute("data-state") == "playing", "the game ended before the test did"
    return root.get_attribute("data-phase"), root.get_attribute("data-version")


def latest_view(frames, version):
    """The view of the newest state frame the page rendered (the one of `version`)."""
    for frame in reversed(frames):
        if str(frame["version"]) == version:
            return frame["view"]
    raise AssertionError(f"no frame of version {version} was received")


def assert_on_screen(page, label):
    assert page.evaluate("() => window.scrollY") == 0, f"{label}: the page scrolled"
    controls = page.evaluate(ON_SCREEN)
    assert controls, f"{label}: no control"
    hidden = [control for control in controls if not (control["inside"] and control["uncovered"])]
    assert not hidden, f"{label}: off screen or covered: {hidden}"


def city(page, name):
    return page.locator(f'g.rn-city[data-city="{name}"]')


def click_city(page, name):
    """Click a city on its spot, where a person aims."""
    box = city(page, name).locator(".rn-city__spot").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def marked(page, kind) -> set:
    return set(
        page.eval_on_selector_all(f"g.rn-city.is-{kind}", "nodes => nodes.map(n => n.dataset.city)")
    )


def move_and_wait(page, version, act):
    act()
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)


def default_move(page):
    """Anything the test does not look at: the first legal city, else end the turn, finish
    buying, pass; a battle's decision: the first troops it asks for, then its first button."""
    phase = page.locator(ROOT).get_attribute("data-phase")
    decision = page.locator("[data-rn-decision]")
    if phase in BATTLE_PHASES:
        send = decision.locator(".rn-commit__send")
        if send.count():
            troops = decision.locator('[data-focus-key^="rn-troop:"]')
            for index in range(troops.count()):
                if send.is_enabled():
                    break
                troops.nth(index).click()
            send.click()
            return
        decision.locator("button:not([disabled])").first.click()
        return
    choice = page.locator("g.rn-city.is-choice")
    if choice.count():
        click_city(page, choice.first.get_attribute("data-city"))
        return
    for testid in ("rn-end-turn", "rn-done", "rn-pass", "rn-vote-peace"):
        button = decision.locator(f'[data-testid="{testid}"]')
        if button.count():
            button.click()
            return
    decision.locator("button:not([disabled])").first.click()


def build_something(page, view):
    """A purchase with a build: the piece first, then one of the highlighted cities, exactly
    the cities of the legal builds of that piece."""
    builds = [action for action in view["legal_actions"] if action["type"] == "build"]
    assert builds, "no build is affordable at this purchase"
    piece = builds[0]["piece"]
    page.locator(f'[data-testid="rn-build-{piece}"]').click()
    expected = {action["city"] for action in builds if action["piece"] == piece}
    assert marked(page, "choice") == expected
    # Only a legal city is a button: the others are not in the tab order.
    focusable = "nodes => nodes.map((node) => node.dataset.city)"
    assert set(page.eval_on_selector_all("g.rn-city[tabindex]", focusable)) == expected
    target = sorted(expected)[0]
    before = (
        city(page, target).get_attribute("data-fort"),
        city(page, target).get_attribute("data-palace"),
    )
    version = page.locator(ROOT).get_attribute("data-version")
    move_and_wait(page, version, lambda: click_city(page, target))
    after = (
        city(page, target).get_attribute("data-fort"),
        city(page, target).get_attribute("data-palace"),
    )
    assert after != before, f"the {piece} in {target} is not drawn"
    # Focus stays in the decision: the next control, never the page's body.
    assert page.evaluate("() => document.activeElement !== document.body")


def expand_somewhere(page, view):
    """An expansion: one of my cities, then one of its highlighted destinations, with its lanes."""
    moves = [action for action in view["legal_actions"] if action["type"] == "expand"]
    origins = {action["from"] for action in moves}
    assert marked(page, "from") == origins
    origin = sorted(origins)[0]
    click_city(page, origin)
    destinations = {action["to"] for action in moves if action["from"] == origin}
    page.wait_for_function(
        "() => document.querySelector('[data-rn-root]').dataset.selection === 'expand'"
    )
    assert marked(page, "choice") == destinations
    assert page.locator(".rn-lane").count() == len(destinations)
    target = sorted(destinations)[0]
    version = page.locator(ROOT).get_attribute("data-version")
    move_and_wait(page, version, lambda: click_city(page, target))
    assert city(page, target).get_attribute("data-owner") == "0"


def vote_for_war(page):
    assert page.title().startswith("●"), "the turn cue did not mark the tab for the vote"
    version = page.locator(ROOT).get_attribute("data-version")
    move_and_wait(page, version, lambda: page.locator('[data-testid="rn-vote-war"]').click())
    # Mine is known to me alone until the reveal; after it, every seat's vote is shown.
    page.wait_for_function(
        """() => document.querySelector('[data-rn-root]').dataset.phase !== 'vote' ||
          document.querySelector('[data-testid="rn-vote-cast"]')"""
    )
    if page.locator(ROOT).get_attribute("data-phase") == "vote":
        assert "War" in page.locator('[data-testid="rn-vote-cast"]').inner_text()
    page.wait_for_function(
        "() => document.querySelector('[data-rn-root]').dataset.phase !== 'vote'"
    )
    votes = page.locator('[data-rn-seats] .rn-seat[data-seat="0"] .rn-seat__vote')
    votes.wait_for()
    assert votes.get_attribute("data-vote") == "war"


def test_a_person_plays_the_set_up_a_purchase_an_expansion_and_the_vote_by_clicks(
    server, new_page, log_in, create_player
):
    user = create_player("ottavia")
    page, frames, game = open_table(new_page, log_in, server, user, (1280, 800))
    deadline = time.monotonic() + GAME_SECONDS
    done = set()
    while done != {"purchase", "expansion", "vote"}:
        phase, version = wait_for_turn(page, deadline)
        view = latest_view(frames, version)
        if (
            phase == "purchase"
            and "purchase" not in done
            and any(action["type"] == "build" for action in view["legal_actions"])
        ):
            assert_on_screen(page, "purchase at 1280x800")
            assert page.evaluate(CONTRASTS) == []  # every text at 4.5:1 (3:1 when large)
            screenshot(page, "purchase-1280")
            build_something(page, view)
            done.add("purchase")
            continue
        if (
            phase == "expansion"
            and "expansion" not in done
            and any(action["type"] == "expand" for action in view["legal_actions"])
        ):
            page.set_viewport_size({"width": 1366, "height": 768})
            page.wait_for_timeout(200)
            assert_on_screen(page, "expansion at 1366x768")
            expand_somewhere(page, view)
            screenshot(page, "expansion-1366")
            done.add("expansion")
            continue
        if phase == "vote":
            for size in ((1280, 800), (1366, 768)):
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.wait_for_timeout(200)
                assert_on_screen(page, f"vote at {size[0]}x{size[1]}")
            screenshot(page, "vote-1366")
            vote_for_war(page)
            done.add("vote")
            continue
        if phase in ("setup_rampart", "setup_garrison"):
            assert_on_screen(page, f"{phase} at 1280x800")
        move_and_wait(page, version, lambda: default_move(page))
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_on_a_phone_the_decision_is_a_sheet_and_a_legal_city_is_reached(
    server, new_page, log_in, create_player
):
    user = create_player("bianca")
    page, _frames, _game = open_table(new_page, log_in, server, user, (375, 812))
    deadline = time.monotonic() + GAME_SECONDS
    phase, version = wait_for_turn(page, deadline)
    assert phase == "setup_rampart"  # the first decision of the game of 1454
    sheet = page.locator('[data-testid="rn-sheet"]')
    assert sheet.evaluate("node => getComputedStyle(node).position") == "fixed"
    box = sheet.bounding_box()
    assert box["y"] + box["height"] <= 812 + 0.5 and box["y"] >= 812 / 3
    assert_sheet_on_top = """() => {
      const node = document.querySelector('[data-rn-decision] .rn-decision__prompt');
      const box = node.getBoundingClientRect();
      return node.contains(document.elementFromPoint(box.left + 4, box.top + box.height / 2));
    }"""
    assert page.evaluate(assert_sheet_on_top)

    svg = page.locator("[data-rn-board] svg")
    whole = svg.get_attribute("viewBox")
    page.locator('[data-testid="rn-zoom-in"]').click()
    zoomed = svg.get_attribute("viewBox")
    assert zoomed != whole
    # A drag pans the zoomed map.
    frame = svg.bounding_box()
    page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.mouse.down()
    page.mouse.move(
        frame["x"] + frame["width"] / 2 - 60, frame["y"] + frame["height"] / 2 - 40, steps=5
    )
    page.mouse.up()
    assert svg.get_attribute("viewBox") != zoomed
    page.locator('[data-testid="rn-zoom-reset"]').click()
    assert svg.get_attribute("viewBox") == whole
    screenshot(page, "phone-rampart")
    assert page.evaluate(CONTRASTS) == []

    # A legal city, scrolled above the sheet, is on top and takes a tap.
    name = page.locator("g.rn-city.is-choice").first.get_attribute("data-city")
    spot = city(page, name).locator(".rn-city__spot")
    spot.scroll_into_view_if_needed()
    page.evaluate(
        """([name]) => {
          const spot = document.querySelector(`g.rn-city[data-city="${name}"] .rn-city__spot`);
          window.scrollBy(0, spot.getBoundingClientRect().top - window.innerHeight / 4);
        }""",
        [name],
    )
    reachable = page.evaluate(
        """([name]) => {
          const group = document.querySelector(`g.rn-city[data-city="${name}"]`);
          const box = group.querySelector('.rn-city__spot').getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return box.top >= 0 && box.bottom <= innerHeight && group.contains(hit);
        }""",
        [name],
    )
    assert reachable, f"{name} is not on screen and on top"
    move_and_wait(page, version, lambda: click_city(page, name))
    assert city(page, name).get_attribute("data-fort") == "1"


def test_the_keyboard_alone_plays_the_set_up(server, new_page, log_in, create_player):
    """At a decision on the map the focus waits on its first legal city; Enter picks it, and the
    focus moves on to the next decision's first control, never to the page's body."""
    user = create_player("chiara")
    page, _frames, _game = open_table(new_page, log_in, server, user, (1280, 800))
    deadline = time.monotonic() + GAME_SECONDS
    for expected in ("setup_rampart", "setup_garrison"):
        phase, version = wait_for_turn(page, deadline)
        assert phase == expected
        focused = page.evaluate(
            """() => {
              const node = document.activeElement;
              return node.matches('g.rn-city.is-choice[tabindex="0"][role="button"]') &&
                node.dataset.city;
            }"""
        )
        assert focused, f"{phase}: the focus is not on a legal city"
        tooltip = page.locator('[data-testid="rn-tooltip"]')
        assert tooltip.is_visible() and tooltip.get_attribute("data-city") == focused
        move_and_wait(page, version, lambda: page.keyboard.press("Enter"))
        if expected == "setup_rampart":
            assert city(page, focused).get_attribute("data-fort") == "1"
        else:
            assert city(page, focused).get_attribute("data-owner") == "0"
        assert page.evaluate("() => document.activeElement !== document.body")
