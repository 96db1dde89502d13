"""What a Renaissance page never learns, in Chromium: two people at one table (Alice at seat
0, Bruno at seat 1; Carla at seat 2 plays through the services) and a spectator. Bruno attacks
Alice, each commits face down by clicking, the second vote of the game is cast by clicking, and
Bruno offers Carla an exchange. Neither person's page, in its DOM or in any frame its socket
received, holds the other's hand, the other's commitment before the reveal, the other's vote
before the reveal, or an offer between the other person and a third seat; the spectator's holds
none of them. Each secret is seen by its owner's own page (the check could fail), and by everyone
once revealed.

The game is brought to Bruno's attack by a plan played first on the engine (the heuristic bot
for every seat, Bruno attacking Alice when he can), then through the one way in
(`submit_action`).
"""

import json
import time

import ai
import games.renaissance as renaissance
from games.rules_api import RENAISSANCE
from games.services import load_state, submit_action
from tests.e2e.test_renaissance_game_e2e import (
    BATTLE_DECISION,
    ROOT,
    commit_by_clicks,
    control,
)
from tests.web.renaissance_games import people_table

PANEL = "[data-rn-battle]"
TROOPS = {"pikemen", "arquebusiers", "knights", "cannon", "swiss"}
BOT = ai.make_bot("heuristic", seed=0, game="renaissance")


# --- The game, planned on the engine ------------------------------------------------------------


def phase(state) -> str:
    return RENAISSANCE.view_for(state, None)["phase"]


def planned_move(state, seat: int) -> dict:
    """The heuristic bot's move, except in combat: Bruno attacks Alice, nobody else attacks."""
    view = RENAISSANCE.view_for(state, seat)
    if view["phase"] != "combat":
        return BOT.choose(view)
    owner = view["public"]["owner"]
    on_alice = [
        action
        for action in view["legal_actions"]
        if action["type"] == "attack" and owner[view["cities"].index(action["to"])] == 0
    ]
    return on_alice[0] if seat == 1 and on_alice else {"type": "end_turn"}


def bruno_attacks_alice(state) -> bool:
    view = RENAISSANCE.view_for(state, 0)
    battle = view["public"]["battle"]
    return (
        view["phase"] == "attack"
        and battle["a"] == 1
        and battle["d"] == 0
        and bool(TROOPS & set(view["hand"]))  # Alice will be asked to defend with a troop
    )


def plan() -> tuple[int, list]:
    for seed in range(1, 300):
        state = RENAISSANCE.table_game(3, seed, {})
        moves = []
        while RENAISSANCE.view_for(state, None)["public"]["turn"] <= 1:
            if bruno_attacks_alice(state):
                return seed, moves
            seat = sorted(RENAISSANCE.acting_seats(state))[0]
            action = planned_move(state, seat)
            moves.append((seat, action))
            state = RENAISSANCE.apply_action(state, seat, action)
    raise AssertionError("no seed brings Bruno to attack Alice in the first turn")


def current_state(game):
    game.refresh_from_db()
    return load_state(game)


def wait_until(game, done, seconds: float = 20) -> None:
    """Until the game's stored state passes `done` (a move sent from a page has arrived)."""
    deadline = time.monotonic() + seconds
    while not done(current_state(game)):
        assert time.monotonic() < deadline, "the page's move never arrived"
        time.sleep(0.1)


def play(game, seat: int, action: dict) -> None:
    game.refresh_from_db()
    submit_action(game.pk, seat, action, game.version)
    game.refresh_from_db()


def play_until(game, done, seats=(0, 1, 2)) -> None:
    """The heuristic bot's moves for `seats`, through the services, until `done(state)`."""
    for _ in range(500):
        state = current_state(game)
        if done(state):
            return
        acting = [seat for seat in sorted(RENAISSANCE.acting_seats(state)) if seat in seats]
        assert acting, f"nobody of {seats} acts in {phase(state)}"
        play(game, acting[0], planned_move(state, acting[0]))
    raise AssertionError("the game never got there")


# --- What a page received -------------------------------------------------------------------


def record_frames(page) -> list:
    frames = []
    page.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda text: frames.append(json.loads(text))),
    )
    return frames


def open_page(new_page, log_in, server, user, game) -> tuple:
    page = new_page(1280, 900)
    log_in(page, user)
    frames = record_frames(page)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version]")
    return page, frames


def keys_anywhere(value, path=()):
    """Every (path, key) of the nested frame."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield path, key
            yield from keys_anywhere(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from keys_anywhere(inner, (*path, index))


def assert_frames_keep_secrets(frames, seat):
    """Every frame a page of `seat` (None: a spectator) received: no hand but its own, no
    face-down card of another side, no vote but its own before the reveal, no offer it is not a
    party to."""
    assert frames, "the page received no frame"
    for frame in frames:
        hands = [path for path, key in keys_anywhere(frame) if key in ("hand", "hands")]
        assert hands in ([], [("view",)]), f"a hand outside view.hand: {hands}"
        if frame.get("type") != "state":
            continue
        view = frame["view"]
        public = view["public"]
        assert view["seat"] == seat
        if seat is None:
            assert view["hand"] is None and view["vote"] is None
            assert view["legal_actions"] == [] and view["diplomacy_actions"] == []
            assert view["diplomacy_forms"] == {"give_ducats": None, "offer_exchange": []}
        for offer in public["offers"]:
            assert seat in (offer[1], offer[2]), f"seat {seat} sees the offer {offer}"
        battle = public["battle"]
        if battle and not battle["revealed"]:
            for side, commit in enumerate(battle["commits"]):
                mine = seat is not None and seat == (battle["a"], battle["d"])[side]
                if commit is not None and not mine:
                    assert set(commit) == {"hidden", "count"}, f"side {side} seen: {commit}"
        if view["phase"] == "vote":
            assert public["last_votes"] == [], "a vote shown before the reveal"
            for entry in frame.get("log", []):
                if entry.get("type") == "vote":  # who voted, never how, until the last vote
                    assert "votes" not in entry and "war" not in entry, entry


def own_commit_seen(frames, side) -> bool:
    """Whether a page saw its own side's face-down cards before the reveal (it must)."""
    for frame in frames:
        battle = frame.get("type") == "state" and frame["view"]["public"]["battle"]
        if battle and not battle["revealed"] and (battle["commits"][side] or {}).get("blue"):
            return True
    return False


def offers_seen(frames) -> list:
    return [
        offer
        for frame in frames
        if frame.get("type") == "state"
        for offer in frame["view"]["public"]["offers"]
    ]


def hand_on_page(page) -> list:
    return sorted(
        page.locator("[data-rn-hand] .rn-card").evaluate_all(
            "nodes => nodes.map(node => node.dataset.card)"
        )
    )


def cards_shown_for(page, seat) -> list:
    """The cards a page shows beside a seat (what the table knows of its hand)."""
    return sorted(
        page.locator(f'[data-rn-seats] .rn-seat[data-seat="{seat}"] .rn-card').evaluate_all(
            "nodes => nodes.map(node => node.dataset.card)"
        )
    )


def vote_shown(page, seat) -> str:
    return page.locator(
        f'[data-rn-seats] .rn-seat[data-seat="{seat}"] .rn-seat__vote'
    ).get_attribute("data-vote")


def wait_version(page, version: int):
    page.wait_for_function(
        f"v => Number(document.querySelector('{ROOT}').dataset.version) >= v", arg=version
    )


# --- The test -------------------------------------------------------------------------------------


def face_down(page, side) -> tuple[int, str]:
    """How many face-down cards the battle panel shows for a side, and the cards it names."""
    column = page.locator(f'{PANEL} .rn-bp__side[data-side="{side}"]')
    column.locator("[data-hidden]").wait_for()
    names = column.locator(".rn-card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    return int(column.locator("[data-hidden]").get_attribute("data-hidden")), names


def test_neither_person_nor_a_spectator_learns_a_hand_a_commitment_a_vote_or_an_offer(
    server, new_page, log_in, create_player
):
    alice, bruno, carla, dino = (create_player(n) for n in ("alice", "bruno", "carla", "dino"))
    seed, moves = plan()
    game = people_table([alice, bruno, carla], seed=seed)
    for seat, action in moves:
        play(game, seat, action)
    a_page, a_frames = open_page(new_page, log_in, server, alice, game)
    b_page, b_frames = open_page(new_page, log_in, server, bruno, game)
    s_page, s_frames = open_page(new_page, log_in, server, dino, game)

    # Bruno's commitment, face down: Alice and the spectator see how many cards, never which.
    options = RENAISSANCE.view_for(current_state(game), 1)["legal_actions"]
    attack = max(
        [a for a in options if "condottiere" not in a["blue"]] or options,
        key=lambda a: (a["red"] is not None, len(a["blue"])),
    )
    b_page.wait_for_selector(BATTLE_DECISION)
    commit_by_clicks(b_page, attack)
    hidden = len(attack["blue"]) + (attack["red"] is not None)
    a_page.wait_for_selector(BATTLE_DECISION)
    assert face_down(a_page, 0) == (hidden, [])
    assert face_down(s_page, 0) == (hidden, [])
    assert s_page.locator(BATTLE_DECISION).count() == 0

    # Alice's defence, face down too: Bruno sees how many until the reveal.
    defences = RENAISSANCE.view_for(current_state(game), 0)["legal_actions"]
    defence = next(a for a in defences if a["red"] is None and TROOPS & set(a["blue"]))
    commit_by_clicks(a_page, defence)
    wait_until(game, lambda state: phase(state) != "defend")
    play_until(game, lambda state: RENAISSANCE.view_for(state, None)["public"]["battle"] is None)

    # The vote of 1462: Alice and Bruno click, Carla votes last; nobody sees a vote before.
    play_until(game, lambda state: phase(state) == "vote")
    for page in (a_page, b_page, s_page):
        wait_version(page, game.version)
    a_page.wait_for_selector('[data-testid="rn-vote-war"]')
    control(a_page, "rn-vote-war").click()
    a_page.wait_for_selector('[data-testid="rn-vote-cast"]')
    game.refresh_from_db()
    for page in (b_page, s_page):
        wait_version(page, game.version)
        assert vote_shown(page, 0) == "voted", "Alice's vote shown before the reveal"
    control(b_page, "rn-vote-peace").click()
    b_page.wait_for_selector('[data-testid="rn-vote-cast"]')
    game.refresh_from_db()
    for page in (a_page, s_page):
        wait_version(page, game.version)
        assert vote_shown(page, 1) == "voted", "Bruno's vote shown before the reveal"
    play(game, 2, {"type": "vote", "war": False})
    for page in (a_page, b_page, s_page):  # revealed: everyone sees both
        wait_version(page, game.version)
        assert (vote_shown(page, 0), vote_shown(page, 1)) == ("war", "peace")

    # Bruno offers Carla an exchange: only Bruno's page hears of it.
    offers = renaissance.all_diplomacy(RENAISSANCE.view_for(current_state(game), 1))
    offer = next(
        a for a in offers if a["type"] in ("offer_exchange", "offer_condottiere") and a["to"] == 2
    )
    play(game, 1, offer)
    b_page.wait_for_selector("[data-rn-diplomacy] .rn-dip__offer")
    for page in (a_page, s_page):
        wait_version(page, game.version)
        page.wait_for_timeout(300)
        assert page.locator("[data-rn-diplomacy] .rn-dip__offer").count() == 0

    # The hands: each page shows its own and, of the other's, only what the table knows.
    state = current_state(game)
    for page, seat, other in ((a_page, 0, 1), (b_page, 1, 0)):
        view = RENAISSANCE.view_for(state, seat)
        assert hand_on_page(page) == sorted(view["hand"])
        assert cards_shown_for(page, other) == sorted(
            view["known"][other] + view["exposed_cards"][other]
        )
    assert s_page.locator("[data-rn-hand] .rn-card").count() == 0

    # Every frame each socket received keeps the others' secrets...
    assert_frames_keep_secrets(a_frames, 0)
    assert_frames_keep_secrets(b_frames, 1)
    assert_frames_keep_secrets(s_frames, None)
    # ...while each person's own were there (so the checks above could fail).
    # (Alice's defence, the last commitment, turned both up at once: Bruno never had a frame
    # with it face down.)
    assert own_commit_seen(b_frames, 0)
    assert any(offer[2] == 2 for offer in offers_seen(b_frames))
    assert offers_seen(a_frames) == [] and offers_seen(s_frames) == []
