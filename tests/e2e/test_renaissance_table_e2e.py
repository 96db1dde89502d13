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

import ai
import games.renaissance as renaissance
from games.lobby import tables as lobby
from games.models import Game
from games.rules_api import RENAISSANCE
from games.services import load_state, submit_action
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_table_layout_e2e import CONTRASTS
from tests.web.renaissance_games import people_table, play_to_the_end

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


def open_table(new_page, log_in, server, user, size, touch=False):
    page = new_page(*size, touch=touch)
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


def test_a_finger_leaves_no_tooltip_over_the_map_from_one_city_to_the_next(
    server, new_page, log_in, create_player
):
    """A tap picks a city; a finger has no hover to end, so no tooltip may stay open over the
    map, neither on the tapped city nor on the city the focus moves to for the next decision."""
    user = create_player("benedetta")
    page, _frames, _game = open_table(new_page, log_in, server, user, (375, 812), touch=True)
    deadline = time.monotonic() + GAME_SECONDS
    tooltip = page.locator('[data-testid="rn-tooltip"]')
    for expected in ("setup_rampart", "setup_garrison"):
        phase, version = wait_for_turn(page, deadline)
        assert phase == expected
        page.wait_for_timeout(300)  # the decision drawn and the focus moved to its first city
        assert tooltip.is_hidden(), f"{expected}: a tooltip is open over the map"
        name = page.locator("g.rn-city.is-choice").first.get_attribute("data-city")
        spot = city(page, name).locator(".rn-city__spot")
        spot.scroll_into_view_if_needed()
        move_and_wait(page, version, lambda spot=spot: spot.tap())
        assert tooltip.is_hidden(), f"{expected}: a tooltip stayed open after the tap"


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


# --- Cues, diplomacy beside a decision, the table's rules, the map's words, the end ------------

TURN_ICON = "favicon-turn.svg"
DIPLOMACY = "[data-rn-diplomacy]"

# One element seen by a person: its box inside the window, and on top at its centre.
SEEN = """el => {
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5 &&
    Boolean(hit && (hit === el || el.contains(hit)));
}"""


def seen(locator) -> bool:
    return locator.count() > 0 and all(
        locator.nth(index).evaluate(SEEN) for index in range(locator.count())
    )


def cue_on(page) -> bool:
    """The turn cue: the tab's title marked and the favicon changed."""
    icon = page.evaluate("() => document.querySelector('link[rel=icon]')?.getAttribute('href')")
    marked = page.title().startswith("●")
    assert marked == bool(icon and icon.endswith(TURN_ICON)), "title and favicon disagree"
    return marked


def people_at_the_vote(people):
    """A game of `people` (a heuristic bot choosing every seat's moves) brought to the first
    vote, nobody having voted yet."""
    game = people_table(people)
    bot = ai.make_bot("heuristic", seed=0, game="renaissance")
    while True:
        game.refresh_from_db()
        state = load_state(game)
        if RENAISSANCE.view_for(state, None)["phase"] == "vote":
            return game
        seat = sorted(RENAISSANCE.acting_seats(state))[0]
        submit_action(game.pk, seat, bot.choose(RENAISSANCE.view_for(state, seat)), game.version)


def engine_view(game, seat):
    game.refresh_from_db()
    return RENAISSANCE.view_for(load_state(game), seat)


def act(game, seat, action):
    game.refresh_from_db()
    submit_action(game.pk, seat, action, game.version)


def offer_to_seat_0(game):
    """Seat 1 makes seat 0 an offer (a city exchange or a Condottiere for a ducat); returns it."""
    offers = [
        action
        for action in renaissance.all_diplomacy(engine_view(game, 1))
        if action["type"] in ("offer_exchange", "offer_condottiere") and action["to"] == 0
    ]
    assert offers, "seat 1 has no offer to make to seat 0"
    act(game, 1, offers[0])
    return offers[0]


def withdrawal(offer):
    """The offerer's withdrawal of `offer` (the same fields, docs/protocol.md section 17)."""
    return {**offer, "type": offer["type"].replace("offer_", "withdraw_")}


def test_the_vote_and_an_offer_cue_the_tab_and_diplomacy_stays_usable_beside_the_decision(
    server, new_page, log_in, create_player
):
    """The cue marks the tab while this person must vote though others vote too, and while an
    offer waits for them, and only then. An offer's answers are on screen and on top beside the
    pending vote; a click held while another seat's vote arrives still votes; a diplomacy click
    made while the last move is on its way is said, then sent."""
    people = [create_player(name) for name in ("uno", "due", "tre")]
    game = people_at_the_vote(people)
    page = new_page(1280, 800)
    log_in(page, people[0])
    page.goto(f"{server}/games/{game.pk}/")
    wait_for_turn(page, time.monotonic() + 30)
    assert page.locator(ROOT).get_attribute("data-phase") == "vote"
    assert set(engine_view(game, 0)["acting_seats"]) == {0, 1, 2}  # everyone votes at once
    assert cue_on(page), "the vote does not mark the tab"

    # An offer arrives while the vote waits: its answers and the vote are both usable.
    offer = offer_to_seat_0(game)
    incoming = page.locator(f"{DIPLOMACY} .rn-dip__offers--incoming button")
    incoming.first.wait_for()
    for size in ((1280, 800), (1280, 900), (1366, 768)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(200)
        assert seen(incoming), f"the offer's answers are hidden at {size}"
        for testid in ("rn-vote-peace", "rn-vote-war"):
            assert seen(page.locator(f'[data-testid="{testid}"]')), f"{testid} hidden at {size}"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)

    # A click held down while another seat's vote arrives is not lost.
    war = page.locator('[data-testid="rn-vote-war"]').bounding_box()
    page.mouse.move(war["x"] + war["width"] / 2, war["y"] + war["height"] / 2)
    page.mouse.down()
    act(game, 2, {"type": "vote", "war": False})
    page.wait_for_function(
        '() => document.querySelector(\'[data-rn-seats] .rn-seat[data-seat="2"] '
        ".rn-seat__vote[data-vote=voted]')"
    )
    page.mouse.up()
    page.locator('[data-testid="rn-vote-cast"]').wait_for()
    assert engine_view(game, 0)["vote"] is True
    # Voted, seat 1 still to vote: the offer alone keeps the cue.
    assert cue_on(page), "the waiting offer does not mark the tab"

    # Decline, and at once a gift while the decline is on its way: the page says it waits,
    # then sends the gift.
    ducats = engine_view(game, 1)["public"]["ducats"][1]
    said = page.evaluate(
        """() => {
          const dip = document.querySelector('[data-rn-diplomacy]');
          dip.querySelector('button[data-focus-key^="rn-dip-decline"]').click();
          dip.querySelector('details.rn-dip__make').open = true;
          dip.querySelector('form[data-form="gift"]').requestSubmit();
          const note = dip.querySelector('[data-testid="rn-dip-note"]');
          return note && !note.hidden && note.checkVisibility() ? note.textContent : '';
        }"""
    )
    assert said.strip(), "the click made while the decline was on its way is not said"
    deadline = time.monotonic() + 10
    while engine_view(game, 1)["public"]["ducats"][1] != ducats + 1:
        assert time.monotonic() < deadline, "the gift clicked while busy was never sent"
        time.sleep(0.1)
    assert engine_view(game, 0)["public"]["offers"] == []  # declined
    page.wait_for_function("() => !document.title.startsWith('●')")
    assert not cue_on(page)  # voted, no offer: nothing waits for this person
    assert 1 in engine_view(game, 0)["acting_seats"]  # while seat 1 still votes

    # A new offer marks the tab again; withdrawn, the mark goes.
    offer = offer_to_seat_0(game)
    page.wait_for_function("() => document.title.startsWith('●')")
    assert cue_on(page)
    act(game, 1, withdrawal(offer))
    page.wait_for_function("() => !document.title.startsWith('●')")
    assert not cue_on(page)


NAME_PIXELS = """() => [...document.querySelectorAll('[data-rn-board] text.rn-city__name')].map(
  (node) => parseFloat(getComputedStyle(node).fontSize) * node.getScreenCTM().a)"""

# Per held city on a mountain or in a marsh: its terrain badge seen beside the garrison disc.
TERRAIN_BADGES = """() => [...document.querySelectorAll(
    'g.rn-city[data-terrain=mountain], g.rn-city[data-terrain=marsh]')]
  .filter((city) => city.querySelector('.rn-garrison'))
  .map((city) => {
    const badge = city.querySelector('.rn-terrain-badge');
    if (!badge) return { city: city.dataset.city, seen: false, clear: false };
    const box = badge.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    const disc = city.querySelector('.rn-garrison').getBoundingClientRect();
    const far = Math.hypot(x - (disc.left + disc.width / 2), y - (disc.top + disc.height / 2));
    return {
      city: city.dataset.city,
      seen: box.top >= 0 && box.bottom <= innerHeight &&
        Boolean(hit && badge.parentNode.contains(hit)),
      clear: far > disc.width / 2,
    };
  })"""


def test_the_tables_rules_each_nations_power_the_hand_and_the_maps_words_are_readable(
    server, new_page, log_in, create_player
):
    user = create_player("ludovica")
    page = new_page(1280, 800)
    log_in(page, user)
    frames = record_frames(page)
    options = {"scenario": "1494", "powers": True}
    game = lobby.play_against_bots(user, 5, "random", options, game="renaissance")
    page.goto(f"{server}/games/{game.pk}/")
    deadline = time.monotonic() + GAME_SECONDS
    # The first decision holding cards (the purchase): the hand is then worth seeing.
    while True:
        _phase, version = wait_for_turn(page, deadline)
        view = latest_view(frames, version)
        if view["hand"]:
            break
        move_and_wait(page, version, lambda: default_move(page))
    nation = view["public"]["nations"][0]
    labels = json.loads(page.locator("#rn-labels").text_content())
    for size in ((1280, 800), (1366, 768)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(300)
        where = f"at {size[0]}x{size[1]}"
        assert page.evaluate("() => window.scrollY") == 0
        # The hand beside a decision of a six-seat game, without scrolling the page.
        assert seen(page.locator("[data-rn-hand] .rn-card").first), f"the hand is hidden {where}"
        assert seen(page.locator("[data-rn-rules] .rule-chip")), f"the rules are hidden {where}"
        link = page.locator('[data-testid="rn-rules-link"]')
        assert seen(link) and link.get_attribute("href") == "/rules/renaissance/"
        smallest = min(page.evaluate(NAME_PIXELS))
        assert smallest >= 8, f"city names of {smallest:.1f} px {where}"
        badges = page.evaluate(TERRAIN_BADGES)
        assert badges, "no held city on a mountain or in a marsh to look at"
        assert all(badge["seen"] and badge["clear"] for badge in badges), badges
    chips = page.locator("[data-rn-rules] .rule-chip").all_inner_texts()
    assert chips == ["Renaissance", "Scenario 1494", "Nations' powers", "No timer"]

    # My nation's power in a short line; its full text a click away, kept across frames.
    power = page.locator('[data-rn-seats] .rn-seat[data-seat="0"] [data-fact="power"]')
    assert labels["powers"][nation]["short"] in power.locator("summary").inner_text()
    assert page.locator('[data-rn-seats] [data-fact="power"]').count() == 6
    power.locator("summary").click()
    assert power.locator("p").inner_text() == labels["powers"][nation]["full"]
    version = page.locator(ROOT).get_attribute("data-version")
    move_and_wait(page, version, lambda: default_move(page))
    assert power.evaluate("node => node.open"), "a new frame closed the power's text"
    screenshot(page, "powers-1280")


def test_the_end_panel_is_styled_on_the_live_page_and_shows_six_seats(
    server, new_page, log_in, create_player
):
    names = ("prima", "seconda", "terza", "quarta", "quinta", "sesta")
    people = [create_player(name) for name in names]
    game = play_to_the_end(people_table(people, seed=21), seed=21)
    page = new_page(1280, 800)
    log_in(page, people[0])
    page.goto(f"{server}/games/{game.pk}/")
    panel = page.locator("[data-rn-end] .rn-end__panel")
    panel.wait_for()
    assert seen(panel.locator(".rn-end__title"))
    style = panel.evaluate(
        """node => {
          const cell = node.querySelector('.rn-end__table td');
          const total = node.querySelector('.rn-end__total td');
          return {
            border: parseFloat(getComputedStyle(node).borderTopWidth),
            padding: parseFloat(getComputedStyle(cell).paddingLeft),
            total: getComputedStyle(total).fontWeight,
            controls: getComputedStyle(node.querySelector('.rn-end__controls')).display,
          };
        }"""
    )
    assert style["border"] > 0 and style["padding"] > 0
    assert int(style["total"]) >= 700 and style["controls"] == "flex"
    # Six seats: every seat's head and total on screen, without a sideways scroll.
    cells = panel.locator("th.rn-end__seat, tr.rn-end__total td")
    assert cells.count() == 12
    assert seen(cells), "a seat's column of the score table is hidden"
    clipped = cells.evaluate_all(
        """cells => cells.filter((cell) => {
          const box = cell.getBoundingClientRect();
          const frame = cell.closest('.rn-end__scroll, .rn-end__panel').getBoundingClientRect();
          return box.right > frame.right + 0.5 || box.left < frame.left - 0.5;
        }).map((cell) => cell.textContent)"""
    )
    assert not clipped, f"cut off at the panel's edge: {clipped}"
    screenshot(page, "end-1280")
