"""Acceptance tests of the Renaissance table in Chromium: a person plays a whole six-player game
against five bots by clicks; a turn by keyboard alone; a turn on a phone.

The whole game is deterministic: the heuristic bot has no randomness (the same view, the same
choice: ai/renaissance/heuristic.py) and the deal comes from the game's seed, so a seed is chosen
by playing the game first on the engine (`plan_game`): the person's moves by a fixed policy
(`person_move`), the bots' by the same bot the server's jobs run. The first seed whose first two
turns give the person every kind of decision (the set-up, a purchase with a build, expansions by
road and by sea, an attack with a commitment, a defence and the vote) is played in the browser:
the person makes exactly the planned moves by clicking, the bots play through the real job path of
a server whose bots answer at once, then the person hands the seat to the stand-in and the game
runs to its end panel.

"On screen" is on screen and on top: the box inside the viewport and `document.elementFromPoint`
at its centre hitting the control (or a descendant), at every decision, for every control.

Screenshots of the game in progress go to test-artifacts/renaissance-game/, or, with
RENAISSANCE_SCREENSHOTS=docs, to docs/screenshots/renaissance-1280x800.png and
renaissance-1366x768.png (the README shows the first).
"""

import json
import os
import time
from pathlib import Path

import pytest
from django.utils import timezone

import ai
from games.board_data import renaissance_shapes
from games.models import Game, Seat
from games.rules_api import RENAISSANCE
from games.services import load_state, start_game, submit_action
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_renaissance_table_e2e import MOVED_ON, ROOT, WAIT_FOR_TURN

DECISION = "[data-rn-decision]"
BATTLE_DECISION = "[data-rn-decision] [data-rn-battle-decision]"
SHOTS = ARTIFACTS / "renaissance-game"
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ROADS = {frozenset(road) for road in renaissance_shapes.board()["roads"]}
BOT_LEVEL = "heuristic"
PHONE_WIDTH = 600
# Every kind of decision the person's first two turns must bring.
GOALS = {"setup", "vote", "build", "buy", "road", "sea", "attack", "defend"}

OTHERS_VOTED = """() => [...document.querySelectorAll('[data-rn-seats] .rn-seat')]
  .filter((seat) => seat.dataset.seat !== '0')
  .every((seat) => seat.querySelector('.rn-seat__vote')?.dataset.vote === 'voted')"""

# On screen and on top, for one element.
ON_TOP = """el => {
  const box = el.getBoundingClientRect();
  const inside = box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth + 0.5;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const owner = el.closest('g.rn-city') || el;
  return inside && Boolean(hit && (hit === el || owner.contains(hit)));
}"""

# Every control of the decision shown now, and every city it asks to pick on the map.
CONTROLS = f"""(withCities) => {{
  const onTop = {ON_TOP};
  const controls = [...document.querySelectorAll(
    '{DECISION} button, {DECISION} select, {DECISION} input, [data-rn-hand] button.is-playable')];
  const cities = withCities ? 'g.rn-city.is-choice, g.rn-city.is-from' : 'none';
  for (const city of document.querySelectorAll(cities)) {{
    controls.push(city.querySelector('.rn-city__spot'));
  }}
  return controls.map((el) => ({{
    what: el.dataset?.testid || el.dataset?.focusKey || el.closest('g.rn-city')?.dataset.city ||
      el.id || el.tagName,
    ok: onTop(el),
  }}));
}}"""

SHEET_CONTROLS = f"""() => {{
  const onTop = {ON_TOP};
  const controls = [...document.querySelectorAll(
    '{DECISION} button, {DECISION} select, {DECISION} input')];
  return controls.filter((el) => {{
    el.scrollIntoView({{block: 'nearest'}});
    return !onTop(el);
  }}).map((el) => el.dataset.testid || el.dataset.focusKey || el.id || el.tagName);
}}"""
# The contrast of an element's text against the first opaque background behind it.
CONTRAST = """el => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const [R, G, B] = [r, g, b].map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  const label = el.querySelector('.rn-choice__label') || el;
  let node = el, background = null;
  while (node && node.nodeType === 1) {
    const value = rgb(getComputedStyle(node).backgroundColor);
    if (value.length === 3 || value[3] > 0.5) { background = value; break; }
    node = node.parentElement;
  }
  const text = luminance(rgb(getComputedStyle(label).color));
  const [a, b] = [text, luminance(background || [255, 255, 255])];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

# --- Planning the game on the engine ---------------------------------------------------------


def by_sea(action) -> bool:
    return frozenset((action["from"], action["to"])) not in ROADS


def person_move(view, done: set) -> tuple[dict, str | None]:
    """The person's move and the goal it serves: a garrison and a rampart at the set-up, war at
    the vote, a build then as many cards as it can buy, a sea then a road expansion, one attack
    with the most troops, a defence with a troop; passing on everything else."""
    legal = view["legal_actions"]
    phase = view["phase"]
    of = {kind: [a for a in legal if a["type"] == kind] for kind in {a["type"] for a in legal}}
    if phase in ("setup_rampart", "setup_garrison") and (of.get("rampart") or of.get("garrison")):
        return (of.get("rampart") or of.get("garrison"))[0], "setup"
    if phase == "vote":
        return {"type": "vote", "war": True}, "vote"
    if phase == "purchase":
        if "build" not in done and of.get("build"):
            return of["build"][0], "build"
        if of.get("buy_cards"):
            return max(of["buy_cards"], key=lambda a: a["count"]), "buy"
        return {"type": "done"}, None
    if phase == "expansion":
        sea = [a for a in of.get("expand", []) if by_sea(a)]
        road = [a for a in of.get("expand", []) if not by_sea(a)]
        if "sea" not in done and sea:
            return sea[0], "sea"
        if road:
            return road[0], "road"
        return (sea or [{"type": "pass"}])[0], None
    if phase == "combat":
        if "attack" not in done and of.get("attack"):
            return of["attack"][0], None
        return {"type": "end_turn"}, None
    if phase == "attack":
        plain = [a for a in of["commit"] if a["red"] is None]
        return max(plain, key=lambda a: len(a["blue"])), "attack"
    if phase == "defend":
        troops = [a for a in of["commit"] if a["red"] is None and a["blue"]]
        return (troops or of["commit"])[0], "defend"
    for answer in ({"type": "pass"}, {"type": "counter", "play": False}):
        if answer in legal:
            return answer, None
    return {"type": "buy_traitor", "buy": False}, None


def simulate(seed: int, players: int = 6, turns: int = 2):
    """The game of `seed` on the engine up to the end of turn `turns`: the person's planned moves
    [(phase, action)] and the goals they reached."""
    state = RENAISSANCE.table_game(players, seed, {})
    bot = ai.make_bot(BOT_LEVEL, seed=0, game="renaissance")
    done, moves = set(), []
    while RENAISSANCE.view_for(state, None)["public"]["turn"] <= turns:
        acting = sorted(RENAISSANCE.acting_seats(state))
        if not acting:
            break
        seat = acting[0]
        view = RENAISSANCE.view_for(state, seat)
        if seat == 0:
            action, goal = person_move(view, done)
            moves.append((view["phase"], action))
            done.add(goal)
        else:
            action = bot.choose(view)
        state = RENAISSANCE.apply_action(state, seat, action)
    return moves, done


def plan_game(players: int = 6) -> tuple[int, list]:
    """The first seed whose first two turns bring the person every goal, and its moves."""
    for seed in range(1, 300):
        moves, done = simulate(seed, players)
        if done >= GOALS:
            return seed, moves
    raise AssertionError("no seed gives the person every kind of decision in two turns")


def bots_table(user, seed: int, players: int = 6) -> Game:
    """A started game: the person at seat 0, heuristic bots at the others, dealt from `seed`."""
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=players, options={}, seed=seed
    )
    Seat.objects.create(game=game, index=0, user=user, joined_at=timezone.now())
    for index in range(1, players):
        Seat.objects.create(game=game, index=index, bot_level=BOT_LEVEL, joined_at=timezone.now())
    start_game(game.pk)
    game.refresh_from_db()
    return game


# --- The page -----------------------------------------------------------------------------------


def record_frames(page) -> list:
    """Every frame the page's sockets receive, parsed."""
    frames = []

    def on_socket(socket):
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def open_game(page, log_in, server, user, game) -> list:
    log_in(page, user)
    frames = record_frames(page)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version]")
    return frames


def wait_for_turn(page, seconds: float = 60) -> tuple[str, str]:
    page.wait_for_function(WAIT_FOR_TURN, timeout=seconds * 1000)
    root = page.locator(ROOT)
    assert root.get_attribute("data-state") == "playing", "the game ended before the test did"
    return root.get_attribute("data-phase"), root.get_attribute("data-version")


def view_of(frames, version: str) -> dict:
    for frame in reversed(frames):
        if frame.get("type") == "state" and str(frame["version"]) == version:
            return frame["view"]
    raise AssertionError(f"no state frame of version {version}")


def on_top(locator, seconds: float = 3) -> bool:
    """On screen and on top once the page settles (a frame may be redrawing the panel)."""
    deadline = time.monotonic() + seconds
    while not locator.evaluate(ON_TOP):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def assert_all_on_screen(page, label: str, cities: bool = True):
    """Every control of the decision and (`cities`) every city it offers on the map."""
    # The map's highlights may follow the decision panel by an animation frame.
    page.wait_for_function(f"c => ({CONTROLS})(c).length > 0", arg=cities, timeout=5_000)
    controls = page.evaluate(CONTROLS, cities)
    hidden = [control["what"] for control in controls if not control["ok"]]
    assert not hidden, f"{label}: off screen or covered: {hidden}"


def assert_decision_on_screen(page, label: str):
    """On a desktop every control and offered city; on a phone the sheet's controls."""
    if page.viewport_size["width"] < PHONE_WIDTH:
        hidden = page.evaluate(SHEET_CONTROLS)
        assert not hidden, f"{label} on a phone: off screen or covered: {hidden}"
    else:
        assert_all_on_screen(page, label)


def city(page, name):
    return page.locator(f'g.rn-city[data-city="{name}"]')


def click_city(page, name, kind="choice"):
    """A person clicks a city's spot, once it is offered (`is-choice` / `is-from`) and on top."""
    group = city(page, name)
    page.wait_for_function(
        '([name, kind]) => document.querySelector(`g.rn-city[data-city="${name}"]`)'
        ".classList.contains(`is-${kind}`)",
        arg=[name, kind],
    )
    spot = group.locator(".rn-city__spot")
    if page.viewport_size["width"] < PHONE_WIDTH:
        # On a phone the map is taller than the screen: scroll the city above the sheet.
        spot.evaluate("el => window.scrollBy(0, el.getBoundingClientRect().top - innerHeight / 4)")
    assert on_top(spot), f"{name} is not on screen and on top"
    box = spot.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def press(page, testid):
    """A two-step move's first button: pressed, and its words still readable (4.5:1)."""
    button = control(page, testid)
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    ratio = button.evaluate(CONTRAST)
    assert ratio >= 4.5, f"{testid}, pressed, has a text contrast of {ratio:.2f}:1"


def control(page, testid):
    button = page.locator(f'{DECISION} [data-testid="{testid}"]')
    assert on_top(button), f"{testid} is not on screen and on top"
    return button


def battle_button(page, key):
    button = page.locator(f'{BATTLE_DECISION} button[data-focus-key="{key}"]')
    assert on_top(button), f"{key} is not on screen and on top"
    return button


def selecting(page, mode):
    page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.selection === '{mode}'")


def commit_by_clicks(page, action):
    """Troops one by one (a second copy is the next button of that name), the red card, Commit."""
    send = page.locator(f"{BATTLE_DECISION} button.rn-commit__send")
    assert send.is_disabled(), "Commit must wait for the cards"
    for name in action["blue"]:
        troop = page.locator(
            f'{BATTLE_DECISION} button.rn-choice[data-card="{name}"][aria-pressed="false"]'
        ).first
        assert on_top(troop), f"the troop {name} is not on screen and on top"
        troop.click()
    if action["red"]:
        page.locator(f"{BATTLE_DECISION} #rn-red-{action['red']}").check()
    assert on_top(send), "Commit is not on screen and on top"
    assert send.is_enabled()
    send.click()


def perform(page, action, shoot=False):
    """The clicks that make `action` (one of the view's legal actions); `shoot`: the screenshots
    of the game in progress, once an expansion's destinations and lanes are drawn."""
    kind = action["type"]
    if kind in ("rampart", "garrison", "return", "start"):
        click_city(page, action["city"])
    elif kind == "pass" and page.locator(f'{DECISION} [data-testid="rn-pass"]').count():
        control(page, "rn-pass").click()
    elif kind == "pass":  # a battle's question: the Sign of God or the Retreat
        phase = page.locator(ROOT).get_attribute("data-phase")
        key = "rn-bd-sign:pass" if phase == "sign_of_god" else "rn-bd-retreat:pass"
        battle_button(page, key).click()
    elif kind == "vote":
        control(page, "rn-vote-war" if action["war"] else "rn-vote-peace").click()
    elif kind == "build":
        press(page, f"rn-build-{action['piece']}")
        selecting(page, "build")
        assert_decision_on_screen(page, f"build a {action['piece']}: its cities")
        click_city(page, action["city"])
    elif kind == "buy_cards":
        control(page, "rn-buy-count").select_option(str(action["count"]))
        control(page, "rn-buy-cards").click()
    elif kind == "done":
        control(page, "rn-done").click()
    elif kind == "expand":
        click_city(page, action["from"], "from")
        selecting(page, "expand")
        assert_decision_on_screen(page, f"expansion from {action['from']}: its destinations")
        lane = "rn-lane--sea" if by_sea(action) else "rn-lane--road"
        assert page.locator(f'.rn-lane.{lane}[data-to="{action["to"]}"]').count() == 1
        if shoot:
            shoot_the_game_in_progress(page)
        click_city(page, action["to"])
    elif kind == "attack":
        press(page, "rn-attack")
        selecting(page, "attack")
        click_city(page, action["from"], "from")
        assert_decision_on_screen(page, f"attack from {action['from']}: its targets")
        click_city(page, action["to"])
    elif kind == "end_turn":
        control(page, "rn-end-turn").click()
    elif kind == "commit":
        commit_by_clicks(page, action)
    elif kind == "counter":
        battle_button(page, "rn-bd-counter:no").click()
    elif kind == "buy_traitor":
        battle_button(page, "rn-bd-treason:no").click()
    else:
        raise AssertionError(f"the test has no clicks for {action}")


SHOWS_VERSION = f"""version => {{
  const root = document.querySelector('{ROOT}');
  return Number(root.dataset.version) >= version || root.dataset.state === 'finished';
}}"""


def act(page, action, shoot=False, frames=None):
    """Make the move and wait for the frame that follows it; focus never falls to the body.
    With the page's `frames`, wait for a frame whose log holds the move itself: while the vote
    is open the bots vote too, and a frame of a bot's vote may come before the person's own."""
    version = page.locator(ROOT).get_attribute("data-version")
    perform(page, action, shoot)
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    if frames is not None:
        wait_for_own_entry(page, frames, int(version))
    assert page.evaluate("() => document.activeElement !== document.body"), (
        f"the keyboard focus was lost after {action}"
    )


def wait_for_own_entry(page, frames, version: int, seat: int = 0, seconds: float = 30):
    """Until a state frame's log shows an entry of `seat` after `version`, and the page shows
    that frame or a later one."""
    deadline = time.monotonic() + seconds
    while (shown := frame_with_entry(frames, version, seat)) is None:
        assert time.monotonic() < deadline, f"no frame showed seat {seat}'s move after {version}"
        page.wait_for_timeout(50)
    page.wait_for_function(SHOWS_VERSION, arg=shown, timeout=30_000)


def frame_with_entry(frames, version: int, seat: int) -> int | None:
    """The version of the first state frame whose log has an entry of `seat` after `version`."""
    for frame in list(frames):
        if frame.get("type") == "state" and any(
            entry.get("seat") == seat and entry.get("seq", 0) > version for entry in frame["log"]
        ):
            return frame["version"]
    return None


def screenshot(page, name: str):
    """Into test-artifacts, or into docs/screenshots with RENAISSANCE_SCREENSHOTS=docs."""
    folder = DOC_SHOTS if os.environ.get("RENAISSANCE_SCREENSHOTS") == "docs" else SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=folder / f"{name}.png")


def shoot_the_game_in_progress(page):
    """The map with its pieces and a decision, at both desktop sizes the issue names."""
    page.mouse.move(2, 2)  # no city's tooltip over the map
    for width, height in ((1366, 768), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        assert_all_on_screen(page, f"the expansion at {width}x{height}")
        screenshot(page, f"renaissance-{width}x{height}")


def check_drawn(page, action):
    """What the move changed is on the map."""
    if action["type"] == "expand":
        assert city(page, action["to"]).get_attribute("data-owner") == "0"
    elif action["type"] == "build":
        target = city(page, action["city"])
        if action["piece"] == "palace":
            assert target.get_attribute("data-palace") == "1"
        else:
            assert target.get_attribute("data-fort") in ("1", "2")


def assert_end_panel(page, frames):
    """The end panel: its title on screen, every seat's final points and the winners marked."""
    result = next(f for f in reversed(frames) if f.get("type") == "state")["game"]["result"]
    end = page.locator("[data-rn-end]")
    end.locator(".rn-end__title").wait_for()
    title = end.locator(".rn-end__title")
    title.scroll_into_view_if_needed()
    assert on_top(title), "the end panel's title is not on screen"
    # Every seat's total and every seat's head on screen, without a sideways scroll.
    cells = end.locator("tr.rn-end__total td, th.rn-end__seat")
    cells.last.scroll_into_view_if_needed()
    end.locator(".rn-end__scroll").evaluate("node => { node.scrollLeft = 0; }")
    hidden = [
        cells.nth(index).inner_text()
        for index in range(cells.count())
        if not cells.nth(index).evaluate(ON_TOP)
    ]
    assert not hidden, f"the end panel hides {hidden}"
    totals = end.locator("tr.rn-end__total td").all_inner_texts()
    assert [int(text) for text in totals] == result["points"]
    marked = end.locator("th.rn-end__seat--winner").evaluate_all(
        "nodes => nodes.map(node => Number(node.dataset.seat))"
    )
    assert marked == sorted(result["winners"]) and marked
    assert end.locator(".rn-end__winners").inner_text().strip()


@pytest.mark.slow
def test_a_person_plays_a_whole_six_player_game_against_five_bots_by_clicks(
    server, new_page, log_in, create_player
):
    seed, moves = plan_game()
    user = create_player("lorenzo")
    game = bots_table(user, seed)
    page = new_page(1280, 800)
    frames = open_game(page, log_in, server, user, game)
    shot = False
    for planned, action in moves:
        phase, version = wait_for_turn(page)
        view = view_of(frames, version)
        assert phase == planned and action in view["legal_actions"], (
            f"the game left its plan (seed {seed}): {phase} now, {planned} {action} planned"
        )
        assert page.evaluate("() => window.scrollY") == 0, f"{phase}: the page scrolled"
        assert_all_on_screen(page, f"{phase} at 1280x800")
        if phase in ("attack", "defend"):  # the tallest decisions: at the shorter screen too
            page.set_viewport_size({"width": 1366, "height": 768})
            assert_all_on_screen(page, f"{phase} at 1366x768")
            page.set_viewport_size({"width": 1280, "height": 800})
        shoot = action["type"] == "expand" and by_sea(action) and not shot
        act(page, action, shoot, frames)
        shot = shot or shoot
        check_drawn(page, action)

    # Two turns played: the stand-in plays the seat to the end.
    if wait_for_turn(page)[0] == "vote":
        # The bots' votes in first: the button is redrawn by every frame, and Playwright's
        # scroll to it fails on a node a frame has just replaced.
        page.wait_for_function(OTHERS_VOTED)
    standin = page.locator('[data-testid="rn-standin"]')
    # It lies under the seats and the hand, in the left column, which scrolls on its own.
    standin.scroll_into_view_if_needed()
    assert on_top(standin), "the stand-in control is not on screen and on top"
    standin.click()
    # The page says a bot plays the seat now (and the button takes it back).
    page.wait_for_function(
        """() => document.querySelector('.rn-standin__note')?.textContent.trim() ||
          document.querySelector('[data-rn-root]').dataset.state === 'finished'"""
    )
    page.wait_for_function(
        f"() => document.querySelector('{ROOT}').dataset.state === 'finished'", timeout=150_000
    )
    assert_end_panel(page, frames)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "end-1280x800.png")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


# --- One turn by keyboard, one on a phone: a game brought to the vote of 1462 -------------------


def people_at_the_second_vote(people: list, seed: int = 1454) -> Game:
    """A game of `people` where every other seat has voted in the vote of the second turn and
    seat 0's vote is awaited, played through the one way in by the heuristic bot for each seat;
    the other seats then handed to their stand-ins (the server's jobs play them)."""
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=len(people), options={}, seed=seed
    )
    for index, user in enumerate(people):
        Seat.objects.create(game=game, index=index, user=user, joined_at=timezone.now())
    start_game(game.pk)
    game.refresh_from_db()
    bot = ai.make_bot(BOT_LEVEL, seed=0, game="renaissance")
    state = load_state(game)
    while True:
        acting = sorted(RENAISSANCE.acting_seats(state))
        if RENAISSANCE.view_for(state, None)["phase"] == "vote" and acting == [0]:
            break
        seat = acting[-1]
        action = bot.choose(RENAISSANCE.view_for(state, seat))
        submit_action(game.pk, seat, action, game.version)
        game.refresh_from_db()
        state = load_state(game)
    Seat.objects.filter(game=game, index__gt=0).update(standin=True)
    return game


def tab_to(page, test: str, limit: int = 200):
    """Tab until the focused element passes `test` (a JS function of the element)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const el = document.activeElement; return ({test})(el); }}"):
            return
    raise AssertionError(f"Tab never reached {test}")


def focus_kept(page, after: str):
    assert page.evaluate(
        "() => document.activeElement && document.activeElement !== document.body"
    ), f"the keyboard focus was lost after {after}"


def key_and_wait(page, key: str, after: str):
    version = page.locator(ROOT).get_attribute("data-version")
    page.keyboard.press(key)
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    focus_kept(page, after)


def by_testid(testid: str) -> str:
    return f"el => el && el.dataset && el.dataset.testid === '{testid}'"


def city_in(kind: str) -> str:
    return f"el => el && el.matches && el.matches('g.rn-city.is-{kind}')"


def test_a_turn_by_keyboard_alone_keeps_the_focus_after_every_move(
    server, new_page, log_in, create_player
):
    people = [create_player(name) for name in ("tastiera", "secondo", "terzo")]
    game = people_at_the_second_vote(people)
    page = new_page(1280, 800)
    frames = open_game(page, log_in, server, people[0], game)

    phase, _ = wait_for_turn(page)
    assert phase == "vote"
    tab_to(page, by_testid("rn-vote-war"))
    key_and_wait(page, "Enter", "the vote")

    phase, version = wait_for_turn(page)
    while phase != "purchase":  # the stand-ins' purchases before mine
        phase, version = wait_for_turn(page)
    view = view_of(frames, version)
    buys = sorted(a["count"] for a in view["legal_actions"] if a["type"] == "buy_cards")
    assert len(buys) >= 2, "a choice of how many cards to buy"
    tab_to(page, by_testid("rn-buy-count"))
    page.keyboard.press("ArrowDown")  # one card more than the first choice
    assert page.locator('[data-testid="rn-buy-count"]').input_value() == str(buys[1])
    tab_to(page, by_testid("rn-buy-cards"))
    key_and_wait(page, "Enter", "buying cards")
    phase, version = wait_for_turn(page)
    view = view_of(frames, version)
    assert len(view["hand"]) >= buys[1]
    builds = [a for a in view["legal_actions"] if a["type"] == "build"]
    if builds:  # a build: the piece by Space, then a highlighted city by Enter
        piece = builds[0]["piece"]
        tab_to(page, by_testid(f"rn-build-{piece}"))
        page.keyboard.press("Space")
        selecting(page, "build")
        focus_kept(page, "choosing the piece")
        tab_to(page, city_in("choice"))
        target = page.evaluate("() => document.activeElement.dataset.city")
        key_and_wait(page, "Enter", "the build")
        check_drawn(page, {"type": "build", "piece": piece, "city": target})
        phase, version = wait_for_turn(page)
    if phase == "purchase":  # ducats left: Done ends the purchases
        tab_to(page, by_testid("rn-done"))
        key_and_wait(page, "Enter", "done buying")
        phase, version = wait_for_turn(page)
    while phase != "expansion":
        phase, version = wait_for_turn(page)
    tab_to(page, city_in("from"))
    origin = page.evaluate("() => document.activeElement.dataset.city")
    page.keyboard.press("Enter")
    selecting(page, "expand")
    focus_kept(page, "choosing where from")
    tab_to(page, city_in("choice"))
    target = page.evaluate("() => document.activeElement.dataset.city")
    key_and_wait(page, "Space", f"the expansion from {origin}")
    assert city(page, target).get_attribute("data-owner") == "0"


def assert_sheet(page, label: str):
    """The decision is a bottom sheet fixed to the screen's foot, unfolded, its controls on top."""
    sheet = page.locator('[data-testid="rn-sheet"]')
    assert sheet.evaluate("node => getComputedStyle(node).position") == "fixed", label
    box = sheet.bounding_box()
    height = page.viewport_size["height"]
    assert abs(box["y"] + box["height"] - height) <= 1, f"{label}: the sheet is not at the foot"
    # A long decision scrolls inside the sheet: each control, scrolled to as a person would,
    # is then on screen and on top.
    hidden = page.evaluate(SHEET_CONTROLS)
    assert not hidden, f"{label} on a phone: off screen or covered: {hidden}"


def zoom_and_pan(page):
    svg = page.locator("[data-rn-board] svg")
    whole = svg.get_attribute("viewBox")
    control_box = page.locator('[data-testid="rn-zoom-in"]')
    control_box.scroll_into_view_if_needed()
    control_box.click()
    zoomed = svg.get_attribute("viewBox")
    assert zoomed != whole, "+ did not zoom"
    frame = svg.bounding_box()
    x, y = frame["x"] + frame["width"] / 2, frame["y"] + min(frame["height"], 300) / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 40, steps=5)
    page.mouse.up()
    assert svg.get_attribute("viewBox") != zoomed, "a drag did not pan the zoomed map"
    page.locator('[data-testid="rn-zoom-reset"]').click()
    assert svg.get_attribute("viewBox") == whole


def test_a_turn_on_a_phone_the_decision_a_bottom_sheet_on_top(
    server, new_page, log_in, create_player
):
    people = [create_player(name) for name in ("telefono", "secondo", "terzo")]
    game = people_at_the_second_vote(people, seed=1462)
    page = new_page(375, 812)
    frames = open_game(page, log_in, server, people[0], game)
    wanted = {"vote", "purchase", "expansion"}
    while wanted:
        phase, version = wait_for_turn(page)
        view = view_of(frames, version)
        assert_sheet(page, phase)
        if phase == "vote":
            zoom_and_pan(page)
            assert_sheet(page, "the vote after zooming")
        action, _ = person_move(view, set())
        if phase == "expansion" and action["type"] == "pass":
            action = next(a for a in view["legal_actions"] if a["type"] == "expand")
        act(page, action, frames=frames)
        check_drawn(page, action)
        wanted.discard(phase)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "phone-375x812.png")
