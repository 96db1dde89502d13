"""Feedback and accessibility of the table in Chromium (issue #14), in a game against a random bot
that answers at once: the last move is highlighted and the highlight moves with the next move;
a card arriving in a line moves briefly, and not at all under `prefers-reduced-motion: reduce`;
after a move made by keyboard the focus is on a control of the game, not the page's body; the
seat markers on the map and beside the lines carry the seat's initial besides its colour."""

import re
import time

from tests.e2e.test_game_e2e import (
    ROOT,
    SEAT_COLOURS,
    WAIT_FOR_TURN,
    log_in,
    record_frames,
    screenshot,
    take_one_decision,
)

BOT = 1
LAST = ".is-last-move"

MOVED_ON = f"""version => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.version !== version || root.dataset.state === 'finished';
}}"""

# What the page's focus is on: a usable control of the game, or where else it fell.
ACTIVE_CONTROL = f"""() => {{
  const active = document.activeElement;
  const root = document.querySelector('{ROOT}');
  if (!active || active === document.body) return 'body';
  if (!root.contains(active)) return 'outside';
  const control = active.matches('button:not([disabled]), g.region.is-choosable');
  return control ? 'control' : active.tagName;
}}"""


def start_game_against_a_bot(page, server, user):
    log_in(page, user, server)
    frames = record_frames(page)
    page.goto(f"{server}/play/")
    page.select_option("#id_bots", "1")
    page.select_option("#id_level", "random")
    page.locator("[data-testid=start-bots-game]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector(f"{ROOT}[data-version]")
    return frames


def shown_frame(page, frames) -> dict:
    version = int(page.locator(ROOT).get_attribute("data-version"))
    states = [f for f in frames if f.get("type") == "state" and f["version"] == version]
    assert states, f"no frame of version {version} was received"
    return states[-1]


class GameEnded(AssertionError):
    """The game ended where the test waited for the player's turn."""


def wait_for_my_turn(page):
    page.wait_for_function(WAIT_FOR_TURN, timeout=30_000)
    if page.locator(ROOT).get_attribute("data-state") == "finished":
        raise GameEnded("the game is over: no turn of the player's comes")


def bot_card_just_played(frame):
    """The index in the bot's line of the card its last move played, or None."""
    entry = frame["log"][-1] if frame["log"] else None
    if not entry or entry["seat"] != BOT or entry["type"] != "play":
        return None
    line = frame["view"]["players"][BOT]["line"]
    if entry["card"] not in line:  # gone with the battle it ended, or a Bishop's own discard
        return None
    return len(line) - 1 - line[::-1].index(entry["card"])


def my_last_mercenary(page):
    """The last playable Mercenary of the hand: playing it removes its focus key from the page."""
    cards = page.locator(".hand button.card:not([disabled])")
    keys = [cards.nth(i).get_attribute("data-focus-key") for i in range(cards.count())]
    mercenaries = [i for i, key in enumerate(keys) if re.fullmatch(r"hand-\d+-m\d+", key or "")]
    return cards.nth(mercenaries[-1]) if mercenaries else None


def take_a_plain_decision(page):
    """A region, the cards to keep, a Mercenary, or else the prompt's first button (Pass).

    Special cards are never played: their sub-choices and confirmations are other tests' business.
    """
    if page.locator("g.region.is-choosable").count() or page.locator("[data-phase='keep']").count():
        take_one_decision(page)
    elif card := my_last_mercenary(page):
        card.click()
    else:
        page.locator("[data-prompt] button:not([disabled])").first.click()


def play_until(page, frames, ready, seconds=120):
    """Take decisions (by clicking) until `ready(frame)` holds at the player's turn."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        wait_for_my_turn(page)
        frame = shown_frame(page, frames)
        if ready(frame):
            return frame
        version = page.locator(ROOT).get_attribute("data-version")
        take_a_plain_decision(page)
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    raise AssertionError("the game never reached the expected moment")


def reach_a_bot_play(page, server, user, games=3):
    """Play until the bot has just played a card and the player holds a Mercenary to answer. The
    deal is random: a game may end before that moment (a short one against a random bot), and
    then the next game is tried."""
    for _ in range(games - 1):
        try:
            return reach_a_bot_play_in_one_game(page, server, user)
        except GameEnded:
            continue
    return reach_a_bot_play_in_one_game(page, server, user)


def reach_a_bot_play_in_one_game(page, server, user):
    frames = start_game_against_a_bot(page, server, user)

    def bot_played_and_i_hold_a_mercenary(frame):
        # Not on the page's first frame: the first drawing animates nothing (the fast bot may
        # have played before the page connected).
        first = next(f for f in frames if f.get("type") == "state")
        return (
            frame["version"] != first["version"]
            and bot_card_just_played(frame) is not None
            and my_last_mercenary(page) is not None
        )

    frame = play_until(page, frames, bot_played_and_i_hold_a_mercenary)
    index = bot_card_just_played(frame)
    return frames, index, page.locator(f".line[data-seat='{BOT}'] .line__cards > li").nth(index)


def assert_highlight_follows_the_log(page, frames, after_version):
    entry = shown_frame(page, frames)["log"][-1]
    assert int(entry["seq"]) > int(after_version)
    assert page.locator(LAST).count() == 1
    if entry["type"] == "choose_region":
        assert page.locator(f"g.region{LAST}").get_attribute("data-region") == entry["region"]
    else:
        marked_line = page.locator(f".line:has({LAST}), .line{LAST}")
        assert marked_line.get_attribute("data-seat") == str(entry["seat"])


def test_the_bots_card_is_highlighted_until_the_next_move(server, new_page, django_user_model):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("ada")
    frames, index, bot_card = reach_a_bot_play(page, server, user)

    # The bot's card is the one highlighted, and described for screen readers.
    assert "is-last-move" in bot_card.get_attribute("class")
    assert page.locator(LAST).count() == 1
    note_id = bot_card.get_attribute("aria-describedby")
    assert note_id
    note = page.locator(f"#{note_id}").text_content()
    assert note.startswith(f"Last move: {SEAT_COLOURS[BOT]} plays"), note
    screenshot(page, "feedback-last-move-1280")

    # The next move (mine) takes the highlight: off the bot's card, onto the newest entry's.
    version = page.locator(ROOT).get_attribute("data-version")
    my_last_mercenary(page).click()
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    wait_for_my_turn(page)
    old_card = page.locator(f".line[data-seat='{BOT}'] .line__cards > li").nth(index)
    if old_card.count():
        assert "is-last-move" not in (old_card.get_attribute("class") or "")
    assert_highlight_follows_the_log(page, frames, version)


def test_a_card_arrives_with_a_short_motion_and_none_when_less_is_asked(
    server, new_page, django_user_model
):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("bianca")
    _, _, bot_card = reach_a_bot_play(page, server, user)

    animation = "el => getComputedStyle(el).animationName"
    assert bot_card.evaluate(animation) != "none"
    page.emulate_media(reduced_motion="reduce")
    assert bot_card.evaluate(animation) == "none"


def test_after_a_keyboard_move_the_focus_is_on_a_control(server, new_page, django_user_model):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("carla")
    reach_a_bot_play(page, server, user)

    # The card played leaves the hand (its focus key with it): focus must not fall to the body.
    version = page.locator(ROOT).get_attribute("data-version")
    my_last_mercenary(page).focus()
    page.keyboard.press("Enter")
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    assert page.evaluate(ACTIVE_CONTROL) != "body"
    # Back at my decision, the focus is on one of its controls, ready for the keyboard. (That
    # move may have ended the game, the random bot's next one too: then no decision comes back,
    # and the focus must still not have fallen to the body.)
    page.wait_for_function(WAIT_FOR_TURN, timeout=30_000)
    if page.locator(ROOT).get_attribute("data-state") == "finished":
        assert page.evaluate("() => document.activeElement !== document.body")
        return
    assert page.evaluate(ACTIVE_CONTROL) == "control"


def test_seat_markers_carry_the_seat_initial(server, new_page, django_user_model):
    page = new_page(1280, 800)
    frames = start_game_against_a_bot(page, server, django_user_model.objects.create_user("bea"))
    frame = play_until(page, frames, lambda frame: len(frame["view"]["owners"]) > 0)
    markers = page.locator(".control-marker")
    assert markers.count() == len(frame["view"]["owners"])
    for marker in markers.all():
        seat = int(re.search(r"seat-(\d)", marker.get_attribute("class")).group(1))
        assert marker.locator("text").text_content() == SEAT_COLOURS[seat][0]
    # Beside each line too, where the colour's name follows in words.
    for seat in (0, BOT):
        swatch = page.locator(f".line[data-seat='{seat}'] .line__swatch")
        assert swatch.inner_text() == SEAT_COLOURS[seat][0]
    screenshot(page, "feedback-initials-1280")
