"""The table's words about who did what, in Chromium: the log says "your" only to the seat that
played the card (static/js/game/log.js), and a bot's chat message and its line in the players'
panel name the bot with its level once (static/js/game.js, lines.js), as the newcomer reads them."""

import time

import pytest
from django.utils import translation

from games.board.words import SPECIAL_CARDS, card_labels
from games.models import Seat
from tests.e2e import test_game_e2e as scripted
from tests.e2e.test_game_e2e import ME, frame_of, open_scripted, walk_to

pytestmark = pytest.mark.e2e

# The scripted-socket page's fixtures: a Daphne with fast bots and a started 3-player table.
table = scripted.table


PHRASED = """async ([entries, you]) => {
  const { makeTranslator } = await import("/static/js/game/i18n.js");
  const { phraseEntry } = await import("/static/js/game/log.js");
  const t = makeTranslator(JSON.parse(document.getElementById("game-labels").textContent));
  const colours = ["red", "blue", "green"];
  const game = { seats: colours.map((colour, index) => ({ index, colour, you: index === you })) };
  return entries.map((entry) => phraseEntry(entry, t, game)[0].text);
}"""


def test_the_log_says_your_only_to_the_seat_that_played_the_card(server, table, new_page):
    state, log = walk_to(3, lambda view: view["phase"] == "battle")
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    entries = [
        {"type": "play", "card": card, "seat": seat, "seq": 1}
        for card in SPECIAL_CARDS
        for seat in range(3)
        if card not in ("scarecrow", "bishop")  # these are phrased with what they took or moved
    ]
    for you in (ME, None):  # a player of the table, and a spectator
        texts = page.evaluate(PHRASED, [entries, you])
        for entry, text in zip(entries, texts, strict=True):
            says_your = " your " in f" {text} "
            assert says_your == (entry["seat"] == you and entry["card"] == "drummer"), text
    with translation.override("en"):
        drummer = card_labels()["drummer"]
    theirs = page.evaluate(PHRASED, [[{"type": "play", "card": "drummer", "seat": 1}], ME])[0]
    assert theirs == f"Blue plays Drummer: {drummer['effect_theirs']}"


def test_a_bots_chat_message_and_line_name_the_bot_with_its_level_once(server, table, new_page):
    state, log = walk_to(3, lambda view: view["phase"] == "battle")
    frame = frame_of(table.pk, state, log)
    seats = list(Seat.objects.filter(game=table).order_by("index"))
    with translation.override("en"):
        names = [seat.occupant_name() for seat in seats]
    for entry, seat, name in zip(frame["game"]["seats"], seats, names, strict=True):
        entry["name"] = name  # the names the site gives: "Colleoni (random bot)"
        if seat.bot_level:  # as games.services.frames.seat_entry says of a bot seat
            entry.update(kind="bot", level=seat.bot_level)
    page, socket = open_scripted(new_page, server, table, frame)
    page.wait_for_selector("[data-chat]")
    socket.socket.send(
        scripted.json.dumps(
            {
                "type": "chat",
                "message": {
                    "id": 1,
                    "room": "players",
                    "seat": 1,
                    "name": "",
                    "text": "Good game",
                    "phrase": "good_game",
                    "at": int(time.time() * 1000),
                },
            }
        )
    )
    author = page.locator("[data-chat-list] .chat__author").first
    author.wait_for()
    assert author.inner_text() == f"Blue — {names[1]}"
    assert author.inner_text().count("bot") == 1
    # The bot's line in the players' panel says "bot" once too: its name, no second badge.
    head = page.locator('li.line[data-seat="1"] .line__head')
    assert names[1] in head.inner_text()
    assert head.inner_text().count("bot") == 1
