"""The turn cue in Chromium (issue 14): the tab's title and favicon mark the player's decision
and nothing else; the optional sound and notification for a hidden tab are off by default,
remembered per player, and only then used; stale "passed" badges are gone between battles.

A real game against a bot on a Daphne whose bots answer at once, and scripted frames (real
engine states sent by a socket Playwright answers) for the hidden-tab alerts. The browser's
Notification, AudioContext and visibility are replaced by recording fakes before the page
loads: the page itself exposes nothing for the tests.
"""

import re
import time

import pytest

from games.engine import view_for
from games.models import Game, Seat
from tests.e2e import test_game_e2e as played

ROOT = played.ROOT
MARKER = "● Your turn — "
TURN_ICON = re.compile(r"/img/favicon-turn(\.[0-9a-f]+)?\.svg$")
NORMAL_ICON = re.compile(r"/img/favicon(\.[0-9a-f]+)?\.svg$")


def icon_href(page):
    return page.locator('link[rel="icon"]').get_attribute("href")


# Records, after each render (a new data-version), the title and icon the page shows.
RECORD_RENDERS = """() => {
  window.renders = [];
  new MutationObserver(() => {
    const root = document.querySelector('[data-game-root]');
    if (!root || !root.dataset.version) return;
    const icon = document.querySelector('link[rel="icon"]').getAttribute('href');
    window.renders.push({ version: Number(root.dataset.version), title: document.title, icon });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'] });
}"""


def start_game_against_a_bot(page, server):
    page.goto(f"{server}/play/")
    page.select_option("#id_bots", "1")
    page.select_option("#id_level", "random")
    page.locator("[data-testid=start-bots-game]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector(f"{ROOT}[data-version]")
    return int(re.search(r"/games/(\d+)/$", page.url).group(1))


def decides(view):
    return (
        view["seat"] is not None
        and view["current_player"] == view["seat"]
        and bool(view["legal_actions"])
    )


def states_by_version(page, frames, versions, timeout=5.0):
    """{version: view} of the state frames recorded, once they cover `versions`. Playwright
    hands a frame to Python's listener after the page may have rendered it (the bot's last move
    can be rendered before its event is dispatched), so wait for the listener to catch up."""
    deadline = time.monotonic() + timeout
    while True:
        views = {f["version"]: f["view"] for f in frames if f.get("type") == "state"}
        if versions <= views.keys() or time.monotonic() > deadline:
            return views
        page.wait_for_timeout(50)  # lets the driver dispatch pending events


def test_the_title_and_favicon_mark_exactly_the_players_decisions(
    server, new_page, django_user_model
):
    player = new_page(1280, 800)
    player.add_init_script(script=f"({RECORD_RENDERS})()")
    played.log_in(player, django_user_model.objects.create_user(username="ottavia"), server)
    frames = played.record_frames(player)
    game_id = start_game_against_a_bot(player, server)
    normal_title = f"Game #{game_id} · Condottiere online"

    spectator = new_page(1280, 800)
    played.log_in(spectator, django_user_model.objects.create_user(username="watcher"), server)
    spectator.goto(f"{server}/games/{game_id}/")
    spectator.wait_for_selector(f"{ROOT}[data-version]")

    decisions = 0
    deadline = time.monotonic() + 60
    while decisions < 8 and time.monotonic() < deadline:
        player.wait_for_function(played.WAIT_FOR_TURN, timeout=30_000)
        root = player.locator(ROOT)
        if root.get_attribute("data-state") == "finished":
            break
        assert player.title() == MARKER + normal_title
        assert TURN_ICON.search(icon_href(player))
        version = root.get_attribute("data-version")
        played.take_one_decision(player)
        decisions += 1
        player.wait_for_function(played.MOVED_ON, arg=version, timeout=30_000)
    assert decisions >= 3

    # Every render of the player's page, against what its frame said: the mark exactly at the
    # seat's own decision.
    renders = player.evaluate("() => window.renders")
    views = states_by_version(player, frames, {render["version"] for render in renders})
    assert len(renders) > decisions
    for render in renders:
        mine = decides(views[render["version"]])
        assert render["title"] == (MARKER + normal_title if mine else normal_title), render
        assert (TURN_ICON if mine else NORMAL_ICON).search(render["icon"]), render
    # Whether a render at the bot's turn is seen depends on timing (its move may land in the same
    # frame as the player's), so the case of no decision is checked for certain on the spectator.
    assert any(decides(views[render["version"]]) for render in renders)

    # A spectator's tab never carries the mark, nor shows the switches.
    assert spectator.title() == normal_title
    assert NORMAL_ICON.search(icon_href(spectator))
    assert spectator.locator("[data-turn-cue]").is_hidden()


# --- Hidden-tab alerts, against scripted frames --------------------------------------------------

# Fakes of the browser's APIs, recording what the page asks of them. The permission survives a
# reload the way a browser remembers it (here in sessionStorage).
FAKE_BROWSER = """() => {
  window.calls = { permissionAsked: 0, notifications: [], tones: 0 };
  window.tabHidden = false;
  Object.defineProperty(document, 'visibilityState', {
    get: () => (window.tabHidden ? 'hidden' : 'visible'),
  });
  class FakeNotification {
    static get permission() { return sessionStorage.getItem('permission') || 'default'; }
    static async requestPermission() {
      window.calls.permissionAsked += 1;
      sessionStorage.setItem('permission', 'granted');
      return 'granted';
    }
    constructor(title, options) {
      window.calls.notifications.push({ title, body: options.body });
    }
    addEventListener() {}
    close() {}
  }
  window.Notification = FakeNotification;
  class FakeAudioContext {
    constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createGain() {
      const param = { setValueAtTime() {}, linearRampToValueAtTime() {},
                      exponentialRampToValueAtTime() {} };
      return { gain: param, connect: (next) => next };
    }
    createOscillator() {
      return { frequency: {}, connect: (next) => next,
               start: () => { window.calls.tones += 1; }, stop() {} };
    }
  }
  window.AudioContext = FakeAudioContext;
}"""


def battle_turn_of(seat):
    return lambda view: view["phase"] == "battle" and view["current_player"] == seat


@pytest.fixture
def scripted_states():
    mine, log = played.walk_to(3, battle_turn_of(played.ME))
    others, other_log = played.walk_to(3, battle_turn_of(1))
    return {"mine": (mine, log), "others": (others, other_log)}


def pusher(socket, game_id, states):
    version = iter(range(100, 10_000))

    def push(which, page):
        state, log = states[which]
        frame = played.frame_of(game_id, state, log, version=next(version))
        socket.push(frame)
        page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")

    return push


def calls(page):
    return page.evaluate("() => window.calls")


def test_hidden_tab_alerts_are_off_by_default_and_remembered_per_player(
    server, table, new_page, django_user_model, scripted_states
):
    page = new_page(1280, 800)
    page.add_init_script(script=f"({FAKE_BROWSER})()")
    played.log_in(page, django_user_model.objects.create_user(username="ottavia"), server)
    state, log = scripted_states["others"]
    page, socket = open_scripted_on(page, server, table, played.frame_of(table.pk, state, log))
    push = pusher(socket, table.pk, scripted_states)
    sound = page.get_by_label("with a sound")
    notify = page.get_by_label("with a notification")
    assert sound.is_visible() and notify.is_visible()
    assert not sound.is_checked() and not notify.is_checked()

    # Off: the turn arriving in a hidden tab changes the title only.
    page.evaluate("() => { window.tabHidden = true; }")
    push("mine", page)
    assert page.title().startswith(MARKER)
    assert calls(page) == {"permissionAsked": 0, "notifications": [], "tones": 0}

    # Switched on (by keyboard): permission is asked then, and the tone is heard once as a sample.
    push("others", page)
    sound.focus()
    page.keyboard.press("Space")
    notify.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => window.calls.permissionAsked === 1")
    assert notify.is_checked() and sound.is_checked()
    assert calls(page)["tones"] == 1
    played.screenshot(page, "turn-cue-switches-1280")
    page.set_viewport_size({"width": 375, "height": 812})
    played.screenshot(page, "turn-cue-switches-375")
    page.set_viewport_size({"width": 1280, "height": 800})

    push("mine", page)
    after = calls(page)
    assert after["tones"] == 2
    assert after["notifications"] == [
        {"title": "Your turn", "body": f"Game #{table.pk} is waiting for your decision."}
    ]

    # A visible tab needs no alert.
    page.evaluate("() => { window.tabHidden = false; }")
    push("others", page)
    push("mine", page)
    assert calls(page)["tones"] == 2 and len(calls(page)["notifications"]) == 1

    # Remembered across a reload, for this player only.
    page.reload()
    page.wait_for_selector(f"{ROOT}[data-version]")
    assert page.get_by_label("with a sound").is_checked()
    assert page.get_by_label("with a notification").is_checked()
    # Another player in the same browser: their seat, as the frames name it, has other settings.
    played.log_in(page, django_user_model.objects.create_user(username="bruno"), server)
    socket.frame["game"]["seats"][played.ME]["name"] = "bruno"
    page.reload()
    page.wait_for_selector(f"{ROOT}[data-version]")
    assert not page.get_by_label("with a sound").is_checked()
    assert not page.get_by_label("with a notification").is_checked()


def open_scripted_on(page, server, game, frame):
    socket = played.ScriptedSocket(page, frame)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    return page, socket


@pytest.fixture
def table(server):
    """A started 3-player table, you against two bots (its cards come from the script)."""
    game = Game.objects.create(players=3, status=Game.Status.PLAYING)
    for index in range(3):
        Seat.objects.create(game=game, index=index, bot_level="" if index == 0 else "random")
    return game


# --- Stale "passed" badges -----------------------------------------------------------------------


def asked_after_a_battle_with_passes(view):
    """The hand-discard question before a new battle, after a battle in which someone passed."""
    return (
        view["phase"] == "discard_hand"
        and view["last_battle"] is not None
        and view["region"] is not None
    )


def test_no_passed_badge_is_carried_into_the_next_battle(server, table, new_page):
    state, log = played.walk_to(3, asked_after_a_battle_with_passes, seeds=range(2000))
    assert state.passed, "the engine still remembers the last battle's passes"
    assert view_for(state, played.ME)["region"]
    page, _ = played.open_scripted(new_page, server, table, played.frame_of(table.pk, state, log))
    assert page.locator(".line").count() == 3
    assert page.locator(".badge--passed").count() == 0
    assert page.locator(".line.is-passed").count() == 0
