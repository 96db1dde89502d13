"""The replay of a finished Renaissance game in Chromium (docs/renaissance/replay.md): stepped
through with the buttons, the keys and the slider, the board changing with the steps, every seat's
hand shown at a step after the deal, and the log's words (static/js/renaissance/log.js) for every
entry of a real random game: a non-empty sentence, without "undefined" or a placeholder left in
braces. Screenshots in test-artifacts/renaissance-replay/."""

import json
import random
from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from games.history.replay import replay_payload
from games.models import Game, Seat
from games.rules_api import RENAISSANCE
from games.services import load_state, start_game, submit_action
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_replay_e2e import step_of, wait_step  # both replays: data-replay-root

SHOTS = ARTIFACTS / "renaissance-replay"
ROOT = "[data-rn-replay]"
# How often a seat gives, offers or answers instead of the move awaited: gifts and accepted
# exchanges and sales are public log entries too.
DIPLOMACY_RATE = 0.08

VISIBLE = """(el) => {
  el.scrollIntoView({block: "center"});
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const inside = box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth + 0.5;
  return inside && Boolean(hit && (hit === el || el.contains(hit)));
}"""

# Every step's words, read in the page by moving the slider to each step in turn.
EVERY_STEP_WORDS = """() => {
  const slider = document.querySelector("[data-slider]");
  const words = [];
  for (let step = 0; step <= Number(slider.max); step += 1) {
    slider.value = String(step);
    slider.dispatchEvent(new Event("input", {bubbles: true}));
    words.push(document.querySelector("[data-words]").textContent);
  }
  return words;
}"""


# Every entry type of games/renaissance/public_log.py.
ENTRY_TYPES = {
    "start", "rampart", "palace", "garrison", "pass", "return", "vote", "buy_cards", "build",
    "done", "announce", "expand", "attack", "ride", "raiders", "ambassador", "marriage", "artist",
    "banker", "lure", "end_turn", "commit", "counter", "buy_traitor", "sign_of_god", "retreat",
    "corrupt", "neglect", "give_ducats", "accept_exchange", "accept_condottiere",
}  # fmt: skip
# Rare in a random game (a seat wiped off the board; a Condottiere offered and bought): entries
# as the log writes them (docs/protocol.md section 17, "The log").
RARE_ENTRIES = [
    {"type": "return", "phase": "return", "city": "Roma", "cities": {"Roma": {"owner": 1}}},
    {"type": "accept_condottiere", "from": 0, "ducats": [1, 0, -1], "cards": [-1, 0, 1]},
]
# The games of the rules alone whose log the page phrases, in turn, until every entry type has
# come: each seat count, the scenarios and the powers.
RULES_GAMES = [
    (3, {}),
    (4, {"powers": True}),
    (5, {"powers": True, "scenario": "1494"}),
    (6, {"powers": True, "scenario": "1515"}),
]
MOST_RULES_GAMES = 16
RULES_DIPLOMACY_RATE = 0.3

# The words log.js gives each entry, phrased in the page with the page's labels.
PHRASE_ENTRIES = """async (entries) => {
  const { phraseEntry } = await import("/static/js/renaissance/log.js");
  const labels = JSON.parse(document.getElementById("rn-log-labels").textContent);
  const ctx = { logLabels: labels, seatName: (seat) => `Seat ${seat + 1}` };
  return entries.map((entry) => phraseEntry(entry, ctx).map((line) => line.text).join(" "));
}"""


def rules_game_log(players: int, seed: int, options: dict) -> list[dict]:
    """The public log of a random game played with the rules alone, with much diplomacy (an
    exchange is accepted only when a random answer follows a random offer)."""
    rng = random.Random(seed)
    state = RENAISSANCE.new_game(players, seed=seed, options=options)
    entries = []
    while not RENAISSANCE.is_terminal(state):
        seat, action = None, None
        if rng.random() < RULES_DIPLOMACY_RATE:
            seat = rng.randrange(players)
            offers = RENAISSANCE.side_actions(state, seat)
            action = rng.choice(offers) if offers else None
        if action is None:
            seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
            action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        after = RENAISSANCE.apply_action(state, seat, action)
        entry = RENAISSANCE.public_record(action, seat, state, after)
        if entry is not None:
            entries.append({**entry, "seq": len(entries) + 1, "seat": seat})
        state = after
    return entries


def finished_game(players: int, seed: int, options: dict) -> Game:
    """Played through the services in a thread of its own: Playwright's event loop runs in the
    test's thread, and the services' after-commit notices may not run inside it."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(play_new_game, players, seed, options).result()


def play_new_game(players: int, seed: int, options: dict) -> Game:
    users = [get_user_model().objects.create_user(f"rn-replayer{seat}") for seat in range(players)]
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=players, seed=seed, options=options
    )
    for seat, user in enumerate(users):
        Seat.objects.create(game=game, index=seat, user=user, joined_at=timezone.now())
    try:
        return play_out(game, random.Random(seed))
    finally:
        connections.close_all()


def play_out(game: Game, rng: random.Random) -> Game:
    """Random moves, and now and then a seat's random diplomacy, until the game is over."""
    start_game(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        seat, action = None, None
        if rng.random() < DIPLOMACY_RATE:
            seat = rng.randrange(game.players)
            offers = RENAISSANCE.side_actions(state, seat)
            action = rng.choice(offers) if offers else None
        if action is None:
            seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
            action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        submit_action(game.pk, seat, action, game.version)
        game.refresh_from_db()
    return game


def board_picture(page) -> str:
    return page.locator("[data-rn-board] svg").inner_html()


def go_to(page, step: int) -> None:
    page.evaluate(
        """(step) => {
          const slider = document.querySelector("[data-slider]");
          slider.value = String(step);
          slider.dispatchEvent(new Event("input", {bubbles: true}));
        }""",
        step,
    )
    wait_step(page, step)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def sound(text: str) -> bool:
    return bool(text.strip()) and not any(bad in text for bad in ("undefined", "{", "}", "NaN"))


def test_step_through_the_board_the_hands_and_the_keys(live_url, new_page):
    game = finished_game(3, 1470, {})
    last = game.version
    payload = replay_payload(game)
    steps = payload["steps"]
    page = new_page(1280, 900)
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')

    assert page.locator(ROOT).get_attribute("data-board") == "drawn"
    assert step_of(page) == 0
    assert page.locator(ROOT).get_attribute("data-total") == str(last)
    assert page.locator('[data-go="back"]').is_disabled()
    start = board_picture(page)

    page.click('[data-go="forward"]')
    wait_step(page, 1)
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 1)
    page.click('[data-go="back"]')
    wait_step(page, 0)
    page.keyboard.press("End")
    wait_step(page, last)
    assert page.locator("[data-slider]").input_value() == str(last)
    assert board_picture(page) != start, "the board shows the pieces of the end, not the start"
    assert page.locator("[data-rn-log] .rn-log__entry").count() == len(payload["log"])
    assert page.locator("[data-rn-end] .rn-end__table").is_visible()
    assert page.locator("[data-rn-end] a[data-focus-key='replay']").count() == 1
    shoot(page, "end-1280")
    page.keyboard.press("Home")
    wait_step(page, 0)
    assert board_picture(page) == start

    # A step where every seat holds cards: each hand is on screen, card by card.
    dealt = next(index for index, step in enumerate(steps) if all(step["hands"]))
    go_to(page, dealt)
    for seat, hand in enumerate(steps[dealt]["hands"]):
        cards = page.locator(f'.rn-replay__seat[data-seat="{seat}"] .rn-replay__card[data-card]')
        assert cards.count() == len(hand)
        assert [cards.nth(i).get_attribute("data-card") for i in range(len(hand))] == hand
        assert cards.first.evaluate(VISIBLE), f"seat {seat}'s hand is not on screen"
    shoot(page, "hands-1280")

    # The slider, focused, moves with the arrows and the words follow.
    page.locator("[data-slider]").focus()
    page.keyboard.press("ArrowRight")
    wait_step(page, dealt + 1)
    assert sound(page.locator("[data-words]").inner_text())


def test_every_log_entry_and_every_step_reads_as_a_sentence(live_url, new_page):
    game = finished_game(4, 1486, {"powers": True})
    payload = replay_payload(game)
    entries = payload["log"]
    page = new_page(1280, 900)
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')

    words = page.evaluate(EVERY_STEP_WORDS)
    assert len(words) == len(payload["steps"])
    bad = [(index, text) for index, text in enumerate(words) if not sound(text)]
    assert not bad, bad[:5]

    wait_step(page, game.version)
    rendered = page.eval_on_selector_all(
        "[data-rn-log] .rn-log__entry",
        "(items) => items.map((item) => [Number(item.dataset.seq), item.textContent])",
    )
    assert sorted(seq for seq, _ in rendered) == [entry["seq"] for entry in entries]
    bad = [(seq, text) for seq, text in rendered if not sound(text)]
    assert not bad, bad[:5]
    # Newest first: the end of the game heads the log.
    assert rendered[0][0] == entries[-1]["seq"]
    types = {entry["type"] for entry in entries}
    assert {"vote", "buy_cards", "expand", "attack", "commit", "end_turn"} <= types

    # More games, of every seat count, scenario and power: every entry type reads as a sentence.
    more = [{**entry, "seq": 1, "seat": 2} for entry in RARE_ENTRIES]
    for seed in range(MOST_RULES_GAMES):
        if {entry["type"] for entry in more} == ENTRY_TYPES:
            break
        players, options = RULES_GAMES[seed % len(RULES_GAMES)]
        more += rules_game_log(players, seed, options)
    assert {entry["type"] for entry in more} == ENTRY_TYPES
    phrased = page.evaluate(PHRASE_ENTRIES, json.loads(json.dumps(more)))
    bad = [(entry, text) for entry, text in zip(more, phrased, strict=True) if not sound(text)]
    assert not bad, bad[:5]


def test_on_a_phone_nothing_sticks_out_sideways(live_url, new_page):
    game = finished_game(3, 1454, {})
    page = new_page(375, 800)
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')
    page.keyboard.press("End")
    wait_step(page, game.version)
    shoot(page, "end-375")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.locator('[data-go="forward"]').evaluate(VISIBLE)
