"""The game page in Chromium: a whole game played by clicking, watched by a spectator; and the
page's decisions (Bishop's Pope, Scarecrow, keep two, ...) checked against a scripted socket.

The played game runs on a Daphne of its own, started with BOT_MOVE_DELAY = 0 and bot turns in
the server process, so that two random bots answer at once whatever the profile (the Celery path
of bot turns is the services' tests' business). Screenshots go to test-artifacts/game/.
"""

import json
import random
import re
import time

import pytest
from django.conf import settings
from django.test import Client

from games.engine import Options, apply_action, current_player, legal_actions, new_game, view_for
from games.engine.public_log import public_record
from games.models import Game, Seat
from tests.e2e.conftest import ARTIFACTS

SHOTS = ARTIFACTS / "game"
GAME_SECONDS = 240
ROOT = "[data-game-root]"
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


def log_in(page, user, base_url):
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]
    )


def screenshot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(150)  # let a resized page repaint its scrolling boxes
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


# --- Playing by clicking ------------------------------------------------------------------------

WAIT_FOR_TURN = f"""() => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.state === 'finished' ||
    (root.classList.contains('is-my-turn') && root.dataset.busy === 'false');
}}"""

MOVED_ON = f"""version => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.version !== version || root.dataset.state === 'finished';
}}"""


def first_visible(page, selector):
    locator = page.locator(selector)
    return locator.first if locator.count() else None


def click_region(region):
    """Click a region where a person would: on its name, which lies inside its shape.

    The centre of a region's bounding box can lie outside the region (Genova is a thin arc
    around the sea), so a plain click there would land on the sea.
    """
    outer = region.bounding_box()
    label = region.locator("text").first.bounding_box()
    region.click(
        position={
            "x": label["x"] + label["width"] / 2 - outer["x"],
            "y": label["y"] + label["height"] / 2 - outer["y"],
        }
    )


def take_one_decision(page):
    """Click the first enabled legal choice: a region, a sub-choice, a card, or a button."""
    if region := first_visible(page, "g.region.is-choosable"):
        click_region(region)
        return
    if page.locator("[data-phase='keep']").count():
        cards = page.locator(".hand button.card:not([disabled])")
        if cards.count():
            cards.first.click()
        page.locator("[data-prompt] button[data-focus-key='keep']").click()
        return
    if card := first_visible(page, ".hand button.card:not([disabled])"):
        card.click()
        # A card that would weaken the player asks first (card help, #14): this player plays it.
        if confirm := first_visible(page, ".confirm-panel button[data-confirm='play']"):
            confirm.click()
        # Scarecrow and Bishop ask which way: take the first offered.
        if sub := first_visible(
            page,
            "[data-prompt] button[data-focus-key^='take-'], "
            "[data-prompt] button[data-focus-key='pope-place']",
        ):
            sub.click()
        return
    page.locator("[data-prompt] button:not([disabled])").first.click()


def play_until_over(page, deadline):
    decisions = 0
    while time.monotonic() < deadline:
        page.wait_for_function(WAIT_FOR_TURN, timeout=max(1, deadline - time.monotonic()) * 1000)
        root = page.locator(ROOT)
        if root.get_attribute("data-state") == "finished":
            return decisions
        version = root.get_attribute("data-version")
        take_one_decision(page)
        decisions += 1
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
        if decisions == 3:
            screenshot(page, "play-1280-early")
    raise AssertionError(f"the game did not end within {GAME_SECONDS} s ({decisions} decisions)")


def record_frames(page):
    frames = []

    def on_socket(socket):
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def test_a_player_beats_or_loses_to_two_bots_by_clicking_and_a_spectator_watches(
    server, new_page, django_user_model
):
    player = new_page(1280, 900)
    # Sign up through the real form, then start a game from "Play against bots".
    player.goto(f"{server}/accounts/signup/")
    player.fill("#id_username", "ottavia")
    player.fill("#id_password1", "Mercenary-Captain-1494")
    player.fill("#id_password2", "Mercenary-Captain-1494")
    player.locator("main form button[type=submit]").click()
    player.wait_for_url(f"{server}/**")
    player.goto(f"{server}/play/")
    player.select_option("#id_bots", "2")
    player.select_option("#id_level", "random")
    player.locator("[data-testid=start-bots-game]").click()
    player.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", player.url).group(1))
    player.wait_for_selector(f"{ROOT}[data-version]")

    spectator = new_page(375, 812)
    watcher = django_user_model.objects.create_user(username="watcher")
    log_in(spectator, watcher, server)
    spectator_frames = record_frames(spectator)
    spectator.goto(f"{server}/games/{game_id}/")
    spectator.wait_for_selector(f"{ROOT}[data-version]")
    first_seen = int(spectator.locator(ROOT).get_attribute("data-version"))
    assert spectator.locator("[data-hand-section]").is_hidden()

    decisions = play_until_over(player, time.monotonic() + GAME_SECONDS)
    assert decisions > 0

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    winners = game.result["winners"]
    assert winners
    result = player.locator("[data-result]")
    result.wait_for()
    for seat in winners:
        assert SEAT_COLOURS[seat] in result.inner_text()
    screenshot(player, "end-1280")

    # The spectator saw the board move on and the same result, and never a hand.
    spectator.locator("[data-result]").wait_for(timeout=20_000)
    assert int(spectator.locator(ROOT).get_attribute("data-version")) > first_seen
    assert spectator.locator("[data-result]").inner_text() == result.inner_text()
    assert spectator.locator("[data-hand-section]").is_hidden()
    assert spectator.locator(".control-marker").count() == sum(game.result["regions"])
    states = [frame for frame in spectator_frames if frame.get("type") == "state"]
    assert states
    for frame in states:
        assert frame["view"]["hand"] is None
        assert frame["view"]["seat"] is None
        assert frame["view"]["legal_actions"] == []
    screenshot(spectator, "end-375-spectator")


# --- The page's decisions, against a scripted socket --------------------------------------------
#
# Real engine states (found by random play from fixed seeds), sent as `state` frames by a socket
# that Playwright answers in place of the server. Each test checks that the page offers exactly
# the legal choices and sends the one clicked, with the frame's version.

ME = 0
NAMES = ("ottavia", "Bot (Random)", "Bot (Random)", "Bot (Random)")


def walk_to(players, predicate, *, options=None, seeds=range(400)):
    """The first state, in random games from fixed seeds, where `predicate(view of seat 0)`
    holds; with the public log of the actions that led there."""
    options = Options(**(options or {}))
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, seed=seed, options=options, first=seed % players)
        log = []
        while True:
            if predicate(view_for(state, ME)):
                return state, log
            if not legal_actions(state):
                break
            action = rng.choice(legal_actions(state))
            seat = current_player(state)
            before = view_for(state, None)
            state = apply_action(state, action)
            record = public_record(action, seat, before, view_for(state, None))
            if record is not None:
                log.append({**record, "seq": len(log) + 1, "seat": seat})
    raise AssertionError("no random game reached the situation")


def game_dict(game_id, players, options, *, result=None, deadline_in=45, you=ME):
    return {
        "id": game_id,
        "status": "finished" if result else "playing",
        "players": players,
        "options": options.to_dict() if hasattr(options, "to_dict") else options,
        "turn_seconds": 60,
        "deadline": None if result else int((time.time() + deadline_in) * 1000),
        "seats": [
            {
                "index": index,
                "colour": colour,
                "name": NAMES[min(index, 3)],
                "kind": "human" if index == 0 else "bot",
                "level": None if index == 0 else "random",
                "standin": False,
                "you": index == you,
            }
            for index, colour in enumerate(("red", "blue", "green", "yellow")[:players])
        ],
        "result": result,
    }


def frame_of(game_id, state, log, *, seat=ME, version=None, result=None):
    view = view_for(state, seat)
    return {
        "type": "state",
        "protocol": 1,
        "version": version if version is not None else len(log) + 7,
        "game": game_dict(game_id, state.n, view["options"], result=result, you=seat),
        "view": view,
        "log": log[-100:],
    }


class ScriptedSocket:
    """Answers the page's websocket: sends the frame, records what the page sends."""

    def __init__(self, page, frame):
        self.frame = frame
        self.sent = []
        page.route_web_socket(re.compile(r"/ws/games/\d+/$"), self.accept)

    def accept(self, socket):
        self.socket = socket
        socket.on_message(self.receive)
        socket.send(json.dumps(self.frame))

    def receive(self, message):
        data = json.loads(message)
        self.sent.append(data)
        if data.get("type") == "sync":
            self.socket.send(json.dumps(self.frame))

    def push(self, frame):
        self.frame = frame
        self.socket.send(json.dumps(frame))

    def wait_for_sent(self, page, count=1, seconds=5):
        for _ in range(int(seconds * 40)):
            if len(self.sent) >= count:
                return self.sent[count - 1]
            page.wait_for_timeout(25)
        raise AssertionError("the page sent nothing")


@pytest.fixture
def table(server):
    """A started 3-player table for the page to show (its cards come from the script)."""
    game = Game.objects.create(players=3, status=Game.Status.PLAYING)
    for index in range(3):
        Seat.objects.create(game=game, index=index, bot_level="" if index == 0 else "random")
    return game


def open_scripted(new_page, server, game, frame, width=1280, height=900):
    page = new_page(width, height)
    socket = ScriptedSocket(page, frame)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version']}']")
    return page, socket


def my_turn(phase):
    return lambda view: view["current_player"] == ME and view["phase"] == phase


def test_choosing_a_region_on_the_map_with_the_keyboard(server, table, new_page):
    state, log = walk_to(
        3, lambda view: my_turn("choose_region")(view) and len(view["owners"]) >= 4
    )
    frame = frame_of(table.pk, state, log)
    legal = {action["region"] for action in frame["view"]["legal_actions"]}
    page, socket = open_scripted(new_page, server, table, frame)
    choosable = page.locator("g.region.is-choosable")
    assert sorted(choosable.evaluate_all("els => els.map(e => e.dataset.region)")) == sorted(legal)
    # Controlled regions and the Pope's region are not offered, and show their markers.
    assert page.locator(".control-marker").count() == len(frame["view"]["owners"])
    screenshot(page, "choose-region-1280")
    region = choosable.nth(1)
    name = region.get_attribute("data-region")
    region.focus()
    page.keyboard.press("Enter")
    sent = socket.wait_for_sent(page)
    assert sent == {
        "type": "action",
        "action": {"type": "choose_region", "region": name},
        "expected_version": frame["version"],
    }
    page.set_viewport_size({"width": 375, "height": 812})
    screenshot(page, "choose-region-375")


def has_pope_choice(view):
    return (
        my_turn("battle")(view)
        and any(
            action.get("card") == "bishop" and action.get("pope")
            for action in view["legal_actions"]
        )
        and sum(bool(player["line"]) for player in view["players"]) >= 3
        and view["owners"]
    )


def test_bishop_asks_where_the_pope_goes_on_the_map_or_off_the_board(server, table, new_page):
    state, log = walk_to(3, has_pope_choice)
    frame = frame_of(table.pk, state, log)
    bishops = [a for a in frame["view"]["legal_actions"] if a.get("card") == "bishop"]
    page, socket = open_scripted(new_page, server, table, frame)
    screenshot(page, "battle-1280")
    page.set_viewport_size({"width": 375, "height": 812})
    screenshot(page, "battle-375")
    page.set_viewport_size({"width": 1280, "height": 900})

    page.locator(".hand button.card--bishop").first.click()
    # Every region the Pope may go to, on the map and in one short list, not a button each.
    regions = sorted(a["pope"] for a in bishops if a["pope"])
    listed = page.locator("[data-prompt] select[data-focus-key='pope-select'] option")
    assert sorted(listed.evaluate_all("options => options.map(o => o.value)")) == regions
    assert page.locator("[data-prompt] button").count() <= 3  # place, off the board, cancel
    on_map = page.locator("g.region.is-choosable")
    assert sorted(on_map.evaluate_all("gs => gs.map(g => g.dataset.region)")) == regions
    screenshot(page, "pope-choice-1280")
    target = on_map.first.get_attribute("data-region")
    click_region(on_map.first)
    sent = socket.wait_for_sent(page)
    assert sent["action"] == {"type": "play", "card": "bishop", "pope": target}
    assert sent["expected_version"] == frame["version"]


def test_bishop_can_send_the_pope_off_the_board(server, table, new_page):
    state, log = walk_to(3, has_pope_choice)
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    page.locator(".hand button.card--bishop").first.click()
    page.set_viewport_size({"width": 375, "height": 812})
    screenshot(page, "pope-choice-375")
    page.locator("[data-prompt] button[data-focus-key='pope-off']").click()
    assert socket.wait_for_sent(page)["action"] == {"type": "play", "card": "bishop", "pope": None}


def test_the_popes_list_places_him_where_the_keyboard_chose(server, table, new_page):
    state, log = walk_to(3, has_pope_choice)
    frame = frame_of(table.pk, state, log)
    page, socket = open_scripted(new_page, server, table, frame)
    page.locator(".hand button.card--bishop").first.click()
    listed = page.locator("[data-prompt] select[data-focus-key='pope-select']")
    last = listed.locator("option").last.get_attribute("value")
    listed.select_option(last)
    page.locator("[data-prompt] button[data-focus-key='pope-place']").focus()
    page.keyboard.press("Enter")
    assert socket.wait_for_sent(page)["action"] == {"type": "play", "card": "bishop", "pope": last}


def test_scarecrow_asks_which_mercenary_to_take_back(server, table, new_page):
    state, log = walk_to(
        3,
        lambda view: (
            my_turn("battle")(view)
            and any(a.get("card") == "scarecrow" and a.get("take") for a in view["legal_actions"])
        ),
    )
    frame = frame_of(table.pk, state, log)
    takes = {a["take"] for a in frame["view"]["legal_actions"] if a.get("card") == "scarecrow"}
    page, socket = open_scripted(new_page, server, table, frame)
    page.locator(".hand button.card--scarecrow").first.click()
    offered = page.locator("[data-prompt] button[data-focus-key^='take-']")
    assert offered.count() == len(takes)  # each Mercenary once, and "take nothing"
    # Cancel goes back to the hand without sending anything.
    page.locator("[data-prompt] button[data-focus-key='cancel']").click()
    assert page.locator("[data-prompt] button[data-focus-key^='take-']").count() == 0
    page.locator(".hand button.card--scarecrow").first.click()
    choice = offered.first.get_attribute("data-focus-key").removeprefix("take-")
    offered.first.click()
    sent = socket.wait_for_sent(page)
    assert sent["action"] == {
        "type": "play",
        "card": "scarecrow",
        "take": None if choice == "none" else choice,
    }
    assert socket.sent.count(sent) == 1


def test_keeping_two_cards_at_the_end_of_a_round(server, table, new_page):
    state, log = walk_to(
        3, lambda view: my_turn("keep")(view) and len(view["hand"]) >= 3, seeds=range(2000)
    )
    frame = frame_of(table.pk, state, log)
    page, socket = open_scripted(new_page, server, table, frame)
    cards = page.locator(".hand button.card")
    cards.nth(0).click()
    cards.nth(1).click()
    # A third card cannot be chosen: at most two are kept.
    assert cards.nth(2).is_disabled()
    chosen = [cards.nth(i).get_attribute("data-card") for i in (0, 1)]
    page.locator("[data-prompt] button[data-focus-key='keep']").click()
    sent = socket.wait_for_sent(page)
    assert sent["action"]["type"] == "keep"
    assert sorted(sent["action"]["cards"]) == sorted(chosen)
    assert sent["action"] in frame["view"]["legal_actions"]


def asked_to_discard(mercenary: bool):
    """Seat 0 asked in the hand-discard step, holding a Mercenary or not."""

    def asked(view):
        holds = any(card in ("m1", "m2", "m3", "m4", "m5", "m6", "m10") for card in view["hand"])
        return my_turn("discard_hand")(view) and holds == mercenary

    return asked


def test_a_player_without_mercenaries_may_keep_or_discard_the_hand(server, table, new_page):
    state, log = walk_to(3, asked_to_discard(False), seeds=range(2000))
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    prompt = page.locator("[data-prompt]")
    assert "Keep my hand" in prompt.inner_text() and "Discard my hand" in prompt.inner_text()
    prompt.locator("button[data-focus-key='discard-yes']").click()
    assert socket.wait_for_sent(page)["action"] == {"type": "discard_hand", "discard": True}


def test_a_player_holding_a_mercenary_is_asked_and_can_only_keep_the_hand(server, table, new_page):
    """Asked like everybody, answered by hand: no automatic answer, whose speed would tell the
    others that this hand holds a Mercenary."""
    state, log = walk_to(3, asked_to_discard(True), seeds=range(2000))
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    prompt = page.locator("[data-prompt]")
    assert "You hold a Mercenary" in prompt.inner_text()
    assert prompt.locator("button[data-focus-key='discard-yes']").count() == 0
    page.wait_for_timeout(300)
    assert not [message for message in socket.sent if "action" in message], "answered alone"
    prompt.locator("button[data-focus-key='discard-no']").click()
    for _ in range(200):
        answers = [message["action"] for message in socket.sent if "action" in message]
        if answers:
            break
        page.wait_for_timeout(25)
    assert answers == [{"type": "discard_hand", "discard": False}]


def test_the_others_see_who_is_asked_whether_to_discard(server, table, new_page):
    state, log = walk_to(
        3,
        lambda view: view["phase"] == "discard_hand" and view["current_player"] not in (None, ME),
        seeds=range(2000),
    )
    asked = view_for(state, ME)["current_player"]
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    turn = page.locator("[data-turn]").inner_text()
    assert "decides whether to discard their hand" in turn
    assert page.locator(".line.is-current").count() == 1
    assert page.locator("[data-prompt] button").count() == 0
    assert asked != ME


def test_drawing_after_a_battle_offers_each_legal_count(server, table, new_page):
    state, log = walk_to(3, my_turn("draw"), options={"draw_after_battle": True})
    frame = frame_of(table.pk, state, log)
    counts = sorted(a["count"] for a in frame["view"]["legal_actions"])
    page, socket = open_scripted(new_page, server, table, frame)
    buttons = page.locator("[data-prompt] button[data-focus-key^='draw-']")
    assert [
        int(k.removeprefix("draw-"))
        for k in buttons.evaluate_all("els => els.map(e => e.dataset.focusKey)")
    ] == counts
    buttons.last.click()
    assert socket.wait_for_sent(page)["action"] == {"type": "draw", "count": counts[-1]}


def test_hidden_cards_pass_may_keep_the_card_hidden_or_turn_it_up(server, table, new_page):
    state, log = walk_to(
        3,
        lambda view: (
            my_turn("battle")(view) and any(a.get("reveal") for a in view["legal_actions"])
        ),
        options={"hidden_cards": True},
    )
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    assert page.locator(".line.is-you .card.is-face-down").count() == 1
    page.locator("[data-prompt] button[data-focus-key='pass-reveal']").click()
    assert socket.wait_for_sent(page)["action"] == {"type": "pass", "reveal": True}


def test_a_refused_action_shows_the_message_and_the_fresh_state(server, table, new_page):
    state, log = walk_to(3, my_turn("battle"))
    frame = frame_of(table.pk, state, log)
    page, socket = open_scripted(new_page, server, table, frame)
    page.locator("[data-prompt] button[data-focus-key='pass']").click()
    socket.wait_for_sent(page)
    assert page.locator(ROOT).get_attribute("data-busy") == "true"
    socket.socket.send(json.dumps({
        "type": "error", "code": "stale", "message": "The game moved on.",
        "version": frame["version"] + 1,
    }))  # fmt: skip
    socket.push({**frame, "version": frame["version"] + 1})
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version'] + 1}'][data-busy='false']")
    assert "The game moved on." in page.locator("[data-error]").inner_text()


def test_handing_the_seat_to_a_bot_and_taking_it_back(server, table, new_page):
    state, log = walk_to(3, my_turn("battle"))
    frame = frame_of(table.pk, state, log)
    page, socket = open_scripted(new_page, server, table, frame)
    page.locator("[data-standin] button").click()
    assert socket.wait_for_sent(page) == {"type": "standin", "on": True}
    seats = [dict(seat, standin=seat["you"]) for seat in frame["game"]["seats"]]
    socket.push({**frame, "game": {**frame["game"], "seats": seats}})
    page.wait_for_selector("[data-standin] .standin__note:not(:empty)")
    page.locator("[data-standin] button").click()
    assert socket.wait_for_sent(page, 2) == {"type": "standin", "on": False}


def test_the_end_of_the_game_names_the_winner_and_why(server, table, new_page):
    state, log = walk_to(3, lambda view: view["phase"] == "over" or bool(view["winners"]))
    view = view_for(state, ME)
    result = {
        "winners": view["winners"],
        "regions": [player["regions"] for player in view["players"]],
        "reason": view["victory"],
    }
    frame = frame_of(table.pk, state, log, result=result)
    page, _ = open_scripted(new_page, server, table, frame)
    headline = page.locator("[data-result]").inner_text()
    for seat in result["winners"]:
        assert SEAT_COLOURS[seat] in headline
    assert result["reason"] not in headline  # the reason is phrased, not the engine's code
    screenshot(page, "end-scripted-1280")
    page.set_viewport_size({"width": 375, "height": 812})
    screenshot(page, "end-scripted-375")


def test_after_a_dropped_connection_the_page_reconnects_and_asks_for_the_state(
    server, table, new_page
):
    state, log = walk_to(3, my_turn("battle"))
    frame = frame_of(table.pk, state, log)
    page, socket = open_scripted(new_page, server, table, frame)
    assert page.locator("[data-timer]").is_visible()  # the turn's deadline counts down
    first = socket.socket
    first.close()
    assert socket.wait_for_sent(page) == {"type": "sync"}
    assert socket.socket is not first
    # A state several versions ahead is simply drawn: frames are whole views.
    socket.push({**frame, "version": frame["version"] + 5})
    page.wait_for_selector(f"{ROOT}[data-version='{frame['version'] + 5}']")
    assert page.locator(ROOT).get_attribute("data-socket") == "open"
    assert page.locator(".game__connection").inner_text() == ""


def test_a_game_that_no_longer_exists_stops_the_reconnecting(server, table, new_page):
    """Close code 4004 (no such game): reconnecting cannot help, so the page says so and stops."""
    state, log = walk_to(3, my_turn("battle"))
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    first = socket.socket
    first.close(code=4004, reason="no such game")
    page.wait_for_selector(f"{ROOT}[data-socket='gone']")
    assert page.locator(".game__connection").inner_text() == "This game no longer exists."
    page.wait_for_timeout(1500)  # longer than the first reconnect's delay (at most 0.5 s)
    assert socket.socket is first


def test_an_action_left_unanswered_makes_the_page_ask_for_the_state(server, table, new_page):
    state, log = walk_to(3, my_turn("battle"))
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    page.locator("[data-prompt] button[data-focus-key='pass']").click()
    assert socket.wait_for_sent(page)["action"] == {"type": "pass"}
    # The server's answer is lost: the page asks again rather than wait forever.
    assert socket.wait_for_sent(page, 2, seconds=8) == {"type": "sync"}
    page.wait_for_selector(f"{ROOT}[data-busy='false']")
