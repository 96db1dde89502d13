"""The table's aids in Chromium (#14, understanding and closing the loop): the victory meter per
seat, each chain of adjacent regions outlined on the map, the discard pile's viewer, and the
winners' regions at the end.

Positions come from seeded random games of the real engine, sent by a scripted socket (see
test_game_e2e.py); what the page shows is checked against the rules, not against the view's own
numbers alone: targets from the player count, chains recomputed from the engine's adjacency.
"""

from games.engine import ADJACENCY
from tests.e2e import test_game_e2e as scripted
from tests.e2e.test_game_e2e import frame_of, open_scripted, screenshot, walk_to

# The scripted-socket page's fixtures: a Daphne with fast bots and a started 3-player table.
table = scripted.table


def owned_by(view, seat):
    return {region for region, owner in view["owners"].items() if owner == seat}


def chains(regions):
    """The connected groups of `regions` by the engine's adjacency (a plain search)."""
    groups, left = [], set(regions)
    while left:
        group, frontier = set(), [left.pop()]
        while frontier:
            region = frontier.pop()
            group.add(region)
            frontier += [other for other in ADJACENCY[region] & left]
            left -= ADJACENCY[region]
        groups.append(group)
    return groups


def largest_chain(regions):
    return max(chains(regions), key=len, default=set())


def is_a_largest_chain(shown, regions):
    """Of two equal groups either is the seat's longest chain."""
    return any(
        len(group) == len(largest_chain(regions)) and group == shown for group in chains(regions)
    )


def has_a_chain_of_two(view):
    return any(len(largest_chain(owned_by(view, seat))) >= 2 for seat in range(3))


def test_the_victory_meter_counts_regions_and_the_longest_chain_against_the_targets(
    server, table, new_page
):
    state, log = walk_to(3, has_a_chain_of_two)
    frame = frame_of(table.pk, state, log)
    view = frame["view"]
    page, _ = open_scripted(new_page, server, table, frame)
    rows = page.locator("[data-victory] .victory__seat")
    assert rows.count() == 3
    for seat in range(3):
        row = page.locator(f"[data-victory] .victory__seat[data-seat='{seat}']")
        regions = row.locator(".victory__gauge--regions")
        adjacent = row.locator(".victory__gauge--adjacent")
        # [rules] 2-3 players: 6 regions or 4 adjacent.
        assert regions.get_attribute("data-target") == "6"
        assert adjacent.get_attribute("data-target") == "4"
        assert regions.get_attribute("data-count") == str(len(owned_by(view, seat)))
        chain = largest_chain(owned_by(view, seat))
        assert adjacent.get_attribute("data-count") == str(len(chain))
        assert f"{len(chain)}/4" in adjacent.inner_text()

    # Every chain of two or more is outlined on the map in its seat's colour.
    for seat in range(3):
        chain = largest_chain(owned_by(view, seat))
        marked = page.locator(f"g.board-tokens .chain-outline.seat-{seat}")
        assert marked.count() == (len(chain) if len(chain) >= 2 else 0)
        drawn = {
            region
            for region in view["owners"]
            if page.locator(f"g.region[data-region='{region}'].in-chain").count()
            and view["owners"][region] == seat
        }
        if len(chain) >= 2:
            assert is_a_largest_chain(drawn, owned_by(view, seat))
        else:
            assert drawn == set()
    screenshot(page, "victory-meter-1280")


def test_focusing_a_seat_in_the_meter_brings_its_chain_forward(server, table, new_page):
    state, log = walk_to(3, has_a_chain_of_two)
    frame = frame_of(table.pk, state, log)
    view = frame["view"]
    seat = next(s for s in range(3) if len(largest_chain(owned_by(view, s))) >= 2)
    page, _ = open_scripted(new_page, server, table, frame)
    page.locator(f"[data-victory] .victory__seat[data-seat='{seat}']").focus()
    spotlit = page.locator("g.region.is-spotlit").evaluate_all(
        "groups => groups.map(g => g.dataset.region)"
    )
    assert is_a_largest_chain(set(spotlit), owned_by(view, seat))
    page.locator("[data-victory] .victory__seat").first.blur()
    page.locator("h1").click()
    assert page.locator("g.region.is-spotlit").count() == 0


def has_face_up_discards(view):
    return len(view["discards"]) >= 3 and view["discard_pile_size"] > len(view["discards"])


def test_the_discard_pile_shows_the_face_up_cards_and_counts_the_face_down_ones(
    server, table, new_page
):
    state, log = walk_to(3, has_face_up_discards)
    view = frame_of(table.pk, state, log)["view"]
    page, socket = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    summary = page.locator("[data-discards] summary")
    assert f"({view['discard_pile_size']})" in summary.inner_text()
    summary.focus()
    page.keyboard.press("Enter")  # a disclosure: opens from the keyboard
    shown = page.locator("[data-discards] .discards__card").evaluate_all(
        """items => items.map(item => [item.querySelector('[data-card]').dataset.card,
                                       Number(item.querySelector('.discards__times')
                                                  .textContent.slice(1))])"""
    )
    expected = {code: view["discards"].count(code) for code in set(view["discards"])}
    assert dict(shown) == expected
    face_down = view["discard_pile_size"] - len(view["discards"])
    assert f"{face_down} more" in page.locator("[data-discards] .discards__hidden").inner_text()
    screenshot(page, "discard-pile-1280")
    # A new frame keeps the viewer open (it is refreshed, not rebuilt).
    socket.push({**socket.frame, "version": socket.frame["version"] + 1})
    page.wait_for_selector(f"[data-game-root][data-version='{socket.frame['version']}']")
    assert page.locator("[data-discards] details").get_attribute("open") is not None


def test_at_the_end_the_winners_regions_are_highlighted(server, table, new_page):
    state, log = walk_to(3, lambda view: view["phase"] == "over" and len(view["winners"]) == 1)
    view = frame_of(table.pk, state, log)["view"]
    result = {
        "winners": view["winners"],
        "regions": [player["regions"] for player in view["players"]],
        "reason": view["victory"],
    }
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log, result=result))
    winning = page.locator("g.region.is-winning").evaluate_all(
        "groups => groups.map(g => g.dataset.region)"
    )
    assert set(winning) == owned_by(view, view["winners"][0])
    assert page.locator("g.board-tokens .winning-outline").count() == len(winning)
    row = page.locator(f"[data-victory] .victory__seat[data-seat='{view['winners'][0]}']")
    assert "is-winner" in row.get_attribute("class")
    screenshot(page, "winning-regions-1280")


def test_a_spectator_sees_the_meter_and_the_pile_too(server, table, new_page):
    state, log = walk_to(3, has_face_up_discards)
    frame = frame_of(table.pk, state, log, seat=None)
    page, _ = open_scripted(new_page, server, table, frame)
    assert page.locator("[data-victory] .victory__seat").count() == 3
    assert page.locator("[data-discards] summary").is_visible()
    assert page.locator("[data-hand-section]").is_hidden()


def has_a_line_of_three(view):
    return any(len(player["line"]) >= 3 for player in view["players"])


def test_each_line_is_one_tab_stop_and_the_arrows_walk_its_cards(server, table, new_page):
    state, log = walk_to(3, has_a_line_of_three)
    page, _ = open_scripted(new_page, server, table, frame_of(table.pk, state, log))
    lines = page.locator("[data-lines] .line__cards")
    stops = lines.evaluate_all(
        "lists => lists.map(l => [...l.children].filter(c => c.tabIndex === 0).length)"
    )
    assert all(
        count == (1 if size else 0)
        for count, size in zip(
            stops, lines.evaluate_all("lists => lists.map(l => l.children.length)"), strict=True
        )
    )
    long_line = page.locator("[data-lines] .line__cards", has=page.locator("li:nth-child(3)"))
    cards = long_line.first.locator(":scope > li")
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    assert cards.nth(1).evaluate("card => card === document.activeElement")
    # The card's help shows on keyboard focus, as on hover.
    tip = page.locator("[data-card-tip]")  # the page's one tooltip (card_tip.js)
    assert not tip.evaluate("tip => tip.hidden")
    assert tip.get_attribute("data-card") == cards.nth(1).get_attribute("data-card")
    page.keyboard.press("End")
    assert cards.last.evaluate("card => card === document.activeElement")
    assert cards.last.get_attribute("tabindex") == "0"
    assert cards.first.get_attribute("tabindex") == "-1"
