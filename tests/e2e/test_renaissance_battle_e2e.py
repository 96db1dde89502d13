"""The Renaissance table's battles and diplomacy in Chromium (static/js/renaissance/battle.js,
commit.js, battle_decision.js, diplomacy.js), on real games served by the live server.

A game is brought to the moment wanted through the one way in (`submit_action`), every seat a
person's: a plan played first on the engine (`plan`) picks, from a seed, moves that lead there.
Then the other seats are handed to their stand-in bots, which play through the real jobs of the
server. The person then decides by clicking: the battle panel must show the reveal, the dice, the
totals and the outcome the log's `battle` entry gives; a spectator sees the face-down cards only
as a number and never an offer made between two seats.

"Visible" is on screen and on top: the box inside the viewport and `document.elementFromPoint` at
its centre hitting it (or a descendant).
"""

import contextlib
import random
import re
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

import games.renaissance as renaissance
from games.models import Action, Seat
from games.rules_api import RENAISSANCE
from games.services import load_state, submit_action
from tests.e2e.test_game_e2e import log_in, record_frames
from tests.web.renaissance_games import people_table

PANEL = "[data-rn-battle]"
DECISION = "[data-rn-decision] [data-rn-battle-decision]"
DIPLOMACY = "[data-rn-diplomacy]"
# The answers that let a battle go on without playing a card.
PASSES = ("rn-bd-sign:pass", "rn-bd-retreat:pass", "rn-bd-treason:no", "rn-bd-counter:no")
TROOPS = ("pikemen", "arquebusiers", "knights", "cannon", "swiss")
# Moments of seat 0's own attack: its commitment, or a card to play once the cards are up.
AFTER_THE_REVEAL = ("sign_of_god", "retreat")
ATTACKER_GOALS = ("attack", "free_condottiere", *AFTER_THE_REVEAL)
# Moments of another seat's attack on seat 0: its commitment, a counter, a traitor to buy.
DEFENDER_GOALS = ("defend", "counter", "treason")
BATTLE_ASKS = ("counter", "treason", *AFTER_THE_REVEAL)

# The first of `keys` offered as a pass button that answers now, or null.
PASS_OFFERED = f"""keys => keys.find(key => {{
  const button = document.querySelector(`{DECISION} button[data-focus-key="${{key}}"]`);
  return button && button.getAttribute('aria-disabled') !== 'true';
}}) ?? null"""

ON_SCREEN = """el => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const inside = box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 &&
    box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth + 0.5;
  const hit = inside ? document.elementFromPoint(x, y) : null;
  return inside && Boolean(hit && (hit === el || el.contains(hit)));
}"""


# Counts the animations the page starts on a die (an init script: no inline script runs).
COUNT_ROLLS = """window.rnDiceRolls = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.classList.contains('rn-die')) window.rnDiceRolls += 1;
  return animate.apply(this, args);
};"""


def visible(locator) -> bool:
    """On screen and on top, once scrolled into view as a person would."""
    locator.scroll_into_view_if_needed()
    return locator.evaluate(ON_SCREEN)


# --- Planning a game to a moment, on the engine -----------------------------------------------


def spectator_view(state):
    return RENAISSANCE.view_for(state, None)


def owner_of(state, city: str) -> int:
    seen = spectator_view(state)
    return seen["public"]["owner"][seen["cities"].index(city)]


def choose(state, seat: int, me: int, goal: str, rng):
    """A move of `seat` towards `goal`: peace at every vote, the person buying all the cards it
    may, expansions at random, only the attacks the goal needs, face-down cards without red."""
    legal = RENAISSANCE.legal_actions(state, seat)
    types = {action["type"] for action in legal}
    phase = spectator_view(state)["phase"]
    if phase == "vote":  # peace: one attack a turn, so a bot's battle is the only one
        return {"type": "vote", "war": False}
    if phase == "purchase":
        buys = [action for action in legal if action["type"] == "buy_cards"]
        if seat == me and buys and goal == "free_condottiere":
            # Cards, but ducats left to pay two Condottieri at the reveal.
            ducats = spectator_view(state)["public"]["ducats"][me]
            affordable = [a for a in buys if 2 * a["count"] <= ducats - 2] or buys
            return max(affordable, key=lambda action: action["count"])
        if seat == me and buys:
            return max(buys, key=lambda action: action["count"])
        return {"type": "done"} if "done" in types else rng.choice(legal)
    if phase == "expansion":
        expansions = [action for action in legal if action["type"] == "expand"]
        return rng.choice(expansions or legal)
    if phase == "combat":
        attacks = [action for action in legal if action["type"] == "attack"]
        if goal in ATTACKER_GOALS and seat == me and attacks:
            return attacks[0]
        if goal in DEFENDER_GOALS and seat != me:
            on_me = [action for action in attacks if owner_of(state, action["to"]) == me]
            if on_me:
                return on_me[0]
        return {"type": "end_turn"} if "end_turn" in types else rng.choice(legal)
    if phase == "attack" and seat != me:
        return attacker_commit(legal, goal, rng)
    if phase in ("attack", "defend") and (seat != me or goal not in ("attack", "defend")):
        plain = [action for action in legal if action["type"] == "commit" and not action["red"]]
        return rng.choice(plain or legal)
    if phase in BATTLE_ASKS and seat != me:
        return legal[0]  # pass, do not counter, do not buy the traitor
    return rng.choice(legal)


def attacker_commit(legal, goal: str, rng):
    """Another seat's face-down cards against seat 0: a red Engineer or Traitor when the goal is
    a counter, a Condottiere when it is treason, else troops without a red card."""
    commits = [action for action in legal if action["type"] == "commit"]
    wanted = {
        "counter": [a for a in commits if a["red"] in ("engineer", "traitor")],
        "treason": [a for a in commits if "condottiere" in a["blue"] or a["red"] == "condottiere"],
    }.get(goal, [])
    plain = [action for action in commits if not action["red"]]
    return rng.choice(wanted or plain or legal)


def reached(state, me: int, goal: str) -> bool:
    view = RENAISSANCE.view_for(state, me)
    if goal == "sale":
        wanted = {"type": "offer_condottiere", "to": 1}
        return view["public"]["turn"] >= 1 and wanted in view["diplomacy_actions"]
    if goal == "free_condottiere":
        # [ruling] R55: Milan attacks holding one Condottiere, and may commit two.
        return (
            view["phase"] == "attack"
            and me in view["acting_seats"]
            and view["hand"].count("condottiere") == 1
            and any(
                action.get("free") and action["blue"].count("condottiere") == 2
                for action in view["legal_actions"]
            )
        )
    if goal in BATTLE_ASKS and view["phase"] == goal and me in view["acting_seats"]:
        return len(view["legal_actions"]) > 1  # a card to play, not only "pass"
    if goal == "defend" and view["phase"] == "defend" and me in view["acting_seats"]:
        # A troop to defend with: the panel's blue choice is then compulsory.
        return any(card in TROOPS for card in view["hand"])
    return view["phase"] == goal and me in view["acting_seats"]


def plan(goal: str, me: int = 0, players: int = 3, options=None) -> tuple[int, list]:
    """A seed and the moves (seat, action) from its deal to the moment `goal` asks of seat `me`:
    "attack" (it commits as the attacker), "defend" (as the defender, holding a troop),
    "sign_of_god" or "retreat" (in its own attack, holding that card), "counter" or "treason"
    (as the defender: the same card as the attacker's Engineer or Traitor in hand; an attacking
    Condottiere's die said treason), "sale" (turn 1 or later, it may offer seat 1 a
    Condottiere) or "free_condottiere" (Milan attacking, with the powers, one Condottiere in
    hand and two allowed)."""
    for seed in range(1, 200):
        rng = random.Random(seed)
        state = RENAISSANCE.table_game(players, seed, dict(options or {}))
        moves = []
        while spectator_view(state)["public"]["turn"] <= 2 and len(moves) < 400:
            if reached(state, me, goal):
                return seed, moves
            acting = sorted(RENAISSANCE.acting_seats(state))
            if not acting:
                break
            seat = acting[0]
            action = choose(state, seat, me, goal, rng)
            moves.append((seat, action))
            state = RENAISSANCE.apply_action(state, seat, action)
    raise AssertionError(f"no seed leads to {goal!r}")


def game_at(goal: str, people: list, options=None):
    """A game of `people` brought to `goal` for seat 0 through submit_action."""
    seed, moves = plan(goal, players=len(people), options=options)
    game = people_table(people, seed=seed, options=options)
    for seat, action in moves:
        submit_action(game.pk, seat, action, game.version)
        game.refresh_from_db()
    return game


def hand_to_bots(game, seats) -> None:
    """The server's jobs play these seats from now on (their stand-in bots). The seat left to a
    person who is not at the table holds the game still after the battle, so that no second
    battle replaces the one under test."""
    Seat.objects.filter(game=game, index__in=list(seats)).update(standin=True)


def seat_view(game, seat):
    game.refresh_from_db()
    return RENAISSANCE.view_for(load_state(game), seat)


def battle_at(goal: str, create_player):
    """alice, bruno and carla at a battle brought to `goal`: alice (seat 0), the game, her view
    and the battle in it."""
    people = [create_player(name) for name in ("alice", "bruno", "carla")]
    game = game_at(goal, people)
    view = seat_view(game, 0)
    return people[0], game, view, view["public"]["battle"]


# --- The page -----------------------------------------------------------------------------------


def open_table(page, user, server, game):
    log_in(page, user, server)
    page.add_init_script(COUNT_ROLLS)
    frames = record_frames(page)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector("[data-rn-root][data-version]")
    return frames


def latest_state(frames) -> dict:
    states = [frame for frame in frames if frame.get("type") == "state"]
    assert states, "no state frame received"
    return states[-1]


def click_commit(page, blue: list, red):
    """Picks the troops one by one (a second copy of a card is its next button) and the red card,
    then commits; the Commit button must be off until the choice is a legal one."""
    commit = page.locator(f"{DECISION} button.rn-commit__send")
    assert commit.is_disabled(), "Commit must wait for the cards"
    for name in blue:
        page.locator(
            f'{DECISION} button.rn-choice[data-card="{name}"][aria-pressed="false"]'
        ).first.click()
    if red:
        page.locator(f"{DECISION} #rn-red-{red}").check()
    assert visible(commit)
    assert commit.is_enabled()
    commit.click()


def play_on_until_the_result(page, seconds: float = 60):
    """Answers every further battle question by passing, until the panel shows the result. A
    question may go while it is being answered (the frame moved on): the loop looks again."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator(f'{PANEL}[data-stage="result"]').count():
            return
        key = page.evaluate(PASS_OFFERED, list(PASSES))
        if key:
            with contextlib.suppress(PlaywrightError):
                page.locator(f'{DECISION} button[data-focus-key="{key}"]').click(timeout=2000)
        page.wait_for_timeout(200)
    raise AssertionError("the battle's result never showed")


def battle_entry(frames, attacker: int, to: str) -> dict:
    """The log's outcome of the battle `attacker` fought over `to`: its latest, the one under
    test (a plan may have the same seat attack the same city in an earlier turn)."""
    for entry in reversed(latest_state(frames)["log"]):
        battle = entry.get("battle")
        if battle and battle["attacker"] == attacker and battle["to"] == to:
            return battle
    raise AssertionError(f"no battle of seat {attacker} over {to} in the log")


def assert_result_shown(page, battle: dict):
    """The panel shows the log's outcome: both dice as faces with their values, the totals, the
    winner and whether the city changed hands."""
    panel = page.locator(PANEL)
    assert visible(panel.locator(".rn-bp__title"))
    assert panel.get_attribute("data-winner") == str(battle["winner"])
    dice = panel.locator("svg.rn-die")
    assert dice.count() == 2
    assert [int(dice.nth(i).get_attribute("data-value")) for i in range(2)] == battle["dice"]
    assert visible(dice.first)
    totals = panel.locator(".rn-bp__total dd")
    assert [int(totals.nth(i).inner_text()) for i in range(2)] == battle["totals"]
    change = panel.locator(".rn-bp__change")
    assert change.get_attribute("data-captured") == ("1" if battle["captured"] else "0")
    assert battle["to"] in change.inner_text()
    # Both sides' cards, face up: every card committed is named in its side's column.
    for side, cards in enumerate(battle["cards"]):
        column = panel.locator(f'.rn-bp__side[data-side="{side}"]')
        shown = column.locator(".rn-card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        fighting = [name for name, _ in battle["troops"][side]]
        assert sorted(shown) == sorted(
            fighting + ([cards["red"]] if cards["red"] and cards["red"] != "condottiere" else [])
        )


def at_decision(new_page, user, server, game):
    """A 1280 x 900 page of the table, logged in as `user`, once its decision is drawn; and the
    frames it receives."""
    page = new_page(1280, 900)
    frames = open_table(page, user, server, game)
    page.wait_for_selector(DECISION)
    return page, frames


# --- Tests --------------------------------------------------------------------------------------


def test_a_person_attacks_by_clicking_and_sees_the_reveal_and_the_result(
    server, new_page, create_player
):
    alice, game, view, battle = battle_at("attack", create_player)
    target = view["cities"][battle["to"]]
    hand_to_bots(game, [battle["d"]])
    # Plain troops first (a Condottiere's die would make the totals a matter of luck: fine too).
    options = [a for a in view["legal_actions"] if a["type"] == "commit" and a["red"] is None]
    options.sort(key=lambda a: sum(card == "condottiere" for card in a["blue"]))
    chosen = options[0]

    page, frames = at_decision(new_page, alice, server, game)
    panel = page.locator(PANEL)
    assert visible(panel.locator(".rn-bp__title"))
    assert target in panel.locator(".rn-bp__title").inner_text()
    assert panel.get_attribute("data-stage") == "committing"
    assert visible(page.locator(f"{DECISION} .rn-commit__title"))

    click_commit(page, chosen["blue"], chosen["red"])
    play_on_until_the_result(page)
    outcome = battle_entry(frames, 0, target)
    assert outcome["defender"] == battle["d"]
    assert sorted(outcome["cards"][0]["blue"]) == sorted(chosen["blue"])
    assert_result_shown(page, outcome)
    # The dice were rolled while the page watched: they tumbled, once.
    assert page.evaluate("window.rnDiceRolls") == 2

    # Closed, it stays closed; the close button is reachable from the keyboard.
    close = panel.locator(".rn-bp__close")
    close.focus()
    page.keyboard.press("Enter")
    assert panel.is_hidden()


def test_milan_commits_its_free_condottiere_card_beside_the_one_it_holds(
    server, new_page, create_player
):
    """[ruling] R55: Milan may use a Condottiere card it does not hold, once a turn. Holding one,
    it picks two: the panel offers the second, says it is Milan's free card, and sends the
    commitment marked "free" (both still cost a ducat at the reveal)."""
    people = [create_player(name) for name in ("alice", "bruno", "carla", "dario")]
    game = game_at("free_condottiere", people, options={"powers": True})
    view = seat_view(game, 0)
    assert view["public"]["nations"][0] == "milan"
    assert view["hand"].count("condottiere") == 1
    hand_to_bots(game, [view["public"]["battle"]["d"]])

    page, _frames = at_decision(new_page, people[0], server, game)
    condottieri = page.locator(f'{DECISION} button.rn-choice[data-card="condottiere"]')
    assert condottieri.count() == 2
    assert all(visible(condottieri.nth(i)) for i in range(2))
    assert "Milan's free card" in condottieri.nth(1).inner_text()
    assert "Milan's free card" not in condottieri.nth(0).inner_text()
    commit = page.locator(f"{DECISION} button.rn-commit__send")
    for _ in range(2):
        page.locator(
            f'{DECISION} button.rn-choice[data-card="condottiere"][aria-pressed="false"]'
        ).first.click()
    # Both are paid at the reveal, the free one too (less any bought from a player, prepaid).
    to_pay = max(0, 2 - view["public"]["prepaid"][0])
    cost = page.locator(f"{DECISION} .rn-commit__cost").inner_text()
    assert f"2 Condottieri, paid at the reveal: {to_pay} ducats to pay" in cost
    assert visible(commit) and commit.is_enabled()
    commit.click()

    wait_for_the_commit = time.monotonic() + 20
    while (sent := last_action_of(game, 0))["type"] != "commit":
        assert time.monotonic() < wait_for_the_commit, "the commitment was not taken"
        time.sleep(0.2)
    assert sent["blue"] == ["condottiere", "condottiere"] and sent.get("free") is True


def last_action_of(game, seat: int) -> dict:
    latest = Action.objects.filter(game=game, seat=seat).order_by("-seq").first()
    return latest.action if latest else {"type": None}


def test_a_person_defends_while_a_spectator_sees_only_how_many_cards_lie_face_down(
    server, new_page, create_player
):
    alice, bob, carol, dino = (create_player(n) for n in ("alice", "bruno", "carla", "dino"))
    game = game_at("defend", [alice, bob, carol])
    view = seat_view(game, 0)
    hidden = view["public"]["battle"]["commits"][0]["hidden"]
    attacker = view["public"]["battle"]["a"]
    target = view["cities"][view["public"]["battle"]["to"]]
    hand_to_bots(game, [attacker])
    secret = load_state(game).battle["blue"][0]  # the attacker's face-down kinds

    watcher = new_page(1280, 900)
    open_table(watcher, dino, server, game)
    spectator_panel = watcher.locator(PANEL)
    watcher.wait_for_selector(f'{PANEL} .rn-bp__side[data-side="0"] [data-hidden]')
    assert visible(spectator_panel.locator(".rn-bp__title"))
    attack_side = spectator_panel.locator('.rn-bp__side[data-side="0"]')
    assert attack_side.locator("[data-hidden]").get_attribute("data-hidden") == str(hidden)
    assert attack_side.locator(".rn-card").count() == 0
    assert watcher.locator(DECISION).count() == 0
    assert secret, "the attacker committed cards"

    page = new_page(1280, 900)
    page.emulate_media(reduced_motion="reduce")
    frames = open_table(page, alice, server, game)
    page.wait_for_selector(DECISION)
    own_panel = page.locator(PANEL)
    assert own_panel.locator('.rn-bp__side[data-side="0"] [data-hidden]').get_attribute(
        "data-hidden"
    ) == str(hidden)
    defence = [
        a for a in view["legal_actions"] if a["type"] == "commit" and a["red"] is None and a["blue"]
    ]
    defence.sort(key=lambda a: a["blue"][0] == "condottiere")
    # One troop in defence: choosing a second replaces the first; choosing it again takes it back.
    troops = page.locator(f"{DECISION} button.rn-choice")
    pressed = page.locator(f'{DECISION} button.rn-choice[aria-pressed="true"]')
    if troops.count() >= 2:
        troops.nth(0).click()
        troops.nth(1).click()
        assert pressed.count() == 1
        assert troops.nth(1).get_attribute("aria-pressed") == "true"
        troops.nth(1).click()
        assert pressed.count() == 0
    click_commit(page, defence[0]["blue"], None)
    play_on_until_the_result(page)
    outcome = battle_entry(frames, attacker, target)
    assert outcome["defender"] == 0
    assert outcome["cards"][1]["blue"] == defence[0]["blue"]
    assert_result_shown(page, outcome)
    # Rolled while the page watched, but this person asked for less motion: nothing moved.
    assert page.locator(f'{PANEL} svg.rn-die[data-rolled="1"]').count() == 2
    assert page.evaluate("window.rnDiceRolls") == 0
    # The spectator sees the same result, and the cards once revealed.
    watcher.wait_for_selector(f'{PANEL}[data-stage="result"]')
    assert_result_shown(watcher, outcome)


def test_an_offer_waits_for_the_other_person_who_accepts_it_and_a_spectator_never_sees_it(
    server, new_page, create_player
):
    alice, bob, carol, dino = (create_player(n) for n in ("alice", "bruno", "carla", "dino"))
    game = game_at("sale", [alice, bob, carol])
    hand_to_bots(game, [2])
    bob_ducats = seat_view(game, 1)["public"]["ducats"][1]
    assert bob_ducats >= 1, "the buyer can pay"

    seller = new_page(1280, 900)
    open_table(seller, alice, server, game)
    buyer = new_page(1280, 900)
    open_table(buyer, bob, server, game)
    watcher = new_page(1280, 900)
    open_table(watcher, dino, server, game)

    diplomacy = seller.locator(DIPLOMACY)
    summary = diplomacy.locator(".rn-dip__make summary")
    assert visible(summary)
    summary.click()
    sale = diplomacy.locator('form[data-form="sale"]')
    sale.locator("select").select_option("1")
    sale.locator("button[type=submit]").click()
    seller.wait_for_selector(f"{DIPLOMACY} .rn-dip__offers--mine .rn-dip__offer")

    # The buyer's cue: a badge and a spoken message; the offer with Accept and Decline.
    buyer.wait_for_selector(f"{DIPLOMACY} .rn-dip__badge")
    badge = buyer.locator(f"{DIPLOMACY} .rn-dip__badge")
    assert visible(badge)
    assert buyer.locator(f"{DIPLOMACY} [aria-live]").inner_text() != ""
    accept = buyer.locator(
        f'{DIPLOMACY} .rn-dip__offers--incoming button[data-focus-key^="rn-dip-accept"]'
    )
    assert visible(accept)

    # The spectator: no offer, no diplomacy at all.
    watcher.wait_for_timeout(500)
    assert watcher.locator(f"{DIPLOMACY} .rn-dip__offer").count() == 0
    assert watcher.locator(f"{DIPLOMACY} .rn-dip__badge").count() == 0

    accept.click()
    buyer.wait_for_function(
        "sel => !document.querySelector(sel)", arg=f"{DIPLOMACY} .rn-dip__badge"
    )
    seller.wait_for_function(
        "sel => !document.querySelector(sel)",
        arg=f"{DIPLOMACY} .rn-dip__offers--mine .rn-dip__offer",
    )
    after = seat_view(game, 1)
    assert after["public"]["ducats"][1] == bob_ducats - 1
    assert "condottiere" in after["hand"]
    assert after["public"]["prepaid"][1] == 1
    assert not re.search(r"offer", watcher.locator(DIPLOMACY).inner_text(), re.I)

    # An exchange: only the pairs the view's forms describe; proposed, seen by the other,
    # withdrawn, gone for both.
    listed = {
        (a["give"], a["take"])
        for a in renaissance.all_diplomacy(seat_view(game, 0))
        if a["type"] == "offer_exchange" and a["to"] == 1
    }
    exchange = seller.locator(f'{DIPLOMACY} form[data-form="exchange"]')
    exchange.locator("#rn-dip-ex-to").select_option("1")
    give = exchange.locator("#rn-dip-ex-give").input_value()
    takes = exchange.locator("#rn-dip-ex-take option").evaluate_all("os => os.map(o => o.value)")
    assert {(give, take) for take in takes} == {pair for pair in listed if pair[0] == give}
    take = exchange.locator("#rn-dip-ex-take").input_value()
    exchange.locator("button[type=submit]").click()
    incoming = buyer.locator(f"{DIPLOMACY} .rn-dip__offers--incoming .rn-dip__offer")
    incoming.wait_for()
    assert give in incoming.inner_text() and take in incoming.inner_text()
    assert watcher.locator(f"{DIPLOMACY} .rn-dip__offer").count() == 0
    # The offer waiting, the form no longer proposes the same pair.
    gives = exchange.locator("#rn-dip-ex-give option").evaluate_all("os => os.map(o => o.value)")
    if give in gives:
        exchange.locator("#rn-dip-ex-give").select_option(give)
        again = exchange.locator("#rn-dip-ex-take option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        assert take not in again and set(again) == set(takes) - {take}
    else:
        assert takes == [take]
    withdraw = seller.locator(f'{DIPLOMACY} button[data-focus-key^="rn-dip-withdraw"]')
    withdraw.click()
    incoming.wait_for(state="detached")

    # A gift: the amount is bounded by the seller's ducats; past it nothing is sent.
    gift = seller.locator(f'{DIPLOMACY} form[data-form="gift"]')
    gift.locator("select").select_option("1")
    amount = gift.locator("input[type=number]")
    held = seat_view(game, 0)["public"]["ducats"][0]
    assert int(amount.get_attribute("max")) == held
    amount.fill(str(held + 1))
    gift.locator("button[type=submit]").click()
    seller.wait_for_timeout(500)
    assert seat_view(game, 1)["public"]["ducats"][1] == bob_ducats - 1
    amount.fill("2")
    gift.locator("button[type=submit]").click()
    deadline = time.monotonic() + 10
    while seat_view(game, 1)["public"]["ducats"][1] != bob_ducats + 1:
        assert time.monotonic() < deadline, "the gift did not arrive"
        time.sleep(0.1)


def test_a_person_doubles_a_troop_with_a_sign_of_god_and_the_panel_counts_it(
    server, new_page, create_player
):
    alice, game, view, battle = battle_at("sign_of_god", create_player)
    target = view["cities"][battle["to"]]
    hand_to_bots(game, [battle["d"]])
    signs = [action for action in view["legal_actions"] if action["type"] == "sign_of_god"]
    chosen = max(signs, key=lambda action: battle["troops"][0][action["target"]][1])
    kind, value = battle["troops"][0][chosen["target"]]

    page, frames = at_decision(new_page, alice, server, game)
    # Before the choice the panel shows the dice already and the standing so far.
    panel = page.locator(PANEL)
    assert panel.get_attribute("data-stage") == "fought"
    assert panel.locator("svg.rn-die").count() == 2
    button = page.locator(f'{DECISION} button[data-focus-key="rn-bd-sign:{chosen["target"]}"]')
    assert visible(button)
    assert f"{value} → {value * 2}" in button.inner_text()
    pass_button = page.locator(f'{DECISION} button[data-focus-key="rn-bd-sign:pass"]')
    assert visible(pass_button)
    button.click()
    play_on_until_the_result(page)
    outcome = battle_entry(frames, 0, target)
    assert outcome["signs"][0] == chosen["target"]
    assert_result_shown(page, outcome)
    doubled = panel.locator('.rn-bp__side[data-side="0"] .rn-card--doubled')
    assert doubled.count() == 1
    assert "× 2" in doubled.inner_text()


def test_a_losing_person_saves_a_troop_by_retreat_and_the_result_says_so(
    server, new_page, create_player
):
    alice, game, view, battle = battle_at("retreat", create_player)
    target = view["cities"][battle["to"]]
    hand_to_bots(game, [battle["d"]])
    saves = [action for action in view["legal_actions"] if action["type"] == "retreat"]
    chosen = saves[0]

    page, frames = at_decision(new_page, alice, server, game)
    assert page.locator(PANEL).get_attribute("data-stage") == "counted"
    button = page.locator(f'{DECISION} button[data-focus-key^="rn-bd-retreat:{chosen["card"]}:"]')
    assert visible(button.first)
    button.first.click()
    play_on_until_the_result(page)
    outcome = battle_entry(frames, 0, target)
    assert chosen["card"] in outcome["saved"][0]
    assert_result_shown(page, outcome)
    saved = page.locator(f"{PANEL} .rn-bp__saved")
    assert visible(saved)
    assert outcome["winner"] == battle["d"]


def test_a_person_counters_the_attackers_red_card_and_the_panel_says_so(
    server, new_page, create_player
):
    alice, game, view, battle = battle_at("counter", create_player)
    attacker, target = battle["a"], view["cities"][battle["to"]]
    red = ("engineer", "traitor")[battle["commits"][0]["red"] - 6]
    hand_to_bots(game, [attacker])

    page, frames = at_decision(new_page, alice, server, game)
    counter = page.locator(f'{DECISION} button[data-focus-key="rn-bd-counter:yes"]')
    assert visible(counter)
    assert visible(page.locator(f'{DECISION} button[data-focus-key="rn-bd-counter:no"]'))
    # The attacker's red card is face up by now, in the panel as in the question.
    assert page.locator(f'{PANEL} .rn-bp__side[data-side="0"] [data-card="{red}"]').count() == 1
    counter.click()
    play_on_until_the_result(page)
    outcome = battle_entry(frames, attacker, target)
    assert outcome["countered"] is True
    assert outcome["cards"][0]["red"] == red
    assert_result_shown(page, outcome)
    assert visible(page.locator(f'{PANEL} .rn-bp__side[data-side="1"] .rn-bp__notes'))


def test_a_person_buys_a_traitorous_condottiere_for_a_ducat(server, new_page, create_player):
    alice, game, view, battle = battle_at("treason", create_player)
    attacker, target = battle["a"], view["cities"][battle["to"]]
    hand_to_bots(game, [attacker])

    page, frames = at_decision(new_page, alice, server, game)
    status = page.locator(f"{PANEL} .rn-bp__status")
    assert "traitor" in status.inner_text()
    buy = page.locator(f'{DECISION} button[data-focus-key="rn-bd-treason:yes"]')
    assert visible(buy)
    buy.click()
    play_on_until_the_result(page)
    outcome = battle_entry(frames, attacker, target)
    assert_result_shown(page, outcome)
    # The ducat is paid; the Condottiere fights for the defender unless its new die routed it.
    bought_by_me = [
        entry
        for entry in latest_state(frames)["log"]
        if entry["type"] == "buy_traitor" and entry["seat"] == 0 and entry.get("buy")
    ]
    assert bought_by_me and bought_by_me[0]["ducats"][0] == -1
    bought = [name for name, _ in outcome["troops"][1]].count("condottiere")
    committed = outcome["cards"][1]["blue"].count("condottiere")
    if bought > committed:
        notes = page.locator(f'{PANEL} .rn-bp__side[data-side="0"] .rn-bp__notes')
        assert visible(notes)


# --- The words ------------------------------------------------------------------------------------

MODULES = Path(__file__).resolve().parents[2] / "static" / "js" / "renaissance"
BATTLE_MODULES = ("battle.js", "commit.js", "battle_decision.js", "diplomacy.js")
# The keys the modules build from a value (`terrain_${terrain}`...), every value spelled out.
BUILT_KEYS = {
    "terrain_mountain",
    "terrain_marsh",
    "counter_effect_engineer",
    "counter_effect_traitor",
    "retreat_play_explain",
    "retreat_free_explain",
    "fort_garrison",
    "fort_rampart",
    "fort_fortress",
    *(
        f"red_effect_{card}_{side}"
        for card in ("engineer", "traitor", "condottiere")
        for side in ("attack", "defence")
    ),
}


def test_every_word_the_battle_modules_show_is_a_translated_label():
    """A key missing from battle_labels() would show as the bare key: each word the modules
    ask for (its first argument's string literals) and each built key is there."""
    from games.board.renaissance_battle_words import battle_labels
    from games.renaissance.cards import NAMES as CARD_NAMES

    labels = battle_labels()
    known = set(labels["words"]) | set(labels["plurals"])
    asked = set()
    for name in BATTLE_MODULES:
        source = (MODULES / name).read_text(encoding="utf-8")
        for first in re.findall(r"words\.[wn]\(([^,)]*)", source):
            asked.update(re.findall(r'"([a-z_]+)"', first))
    assert len(asked) > 100
    assert asked - known == set()
    assert BUILT_KEYS - known == set()
    # Every card of the engine's deck has its name, and no label names a card it does not have.
    assert set(labels["cards"]) == set(CARD_NAMES)
