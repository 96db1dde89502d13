"""docs/protocol.md against the code, where that is cheap: an outside developer plays a whole
Renaissance game from the document alone, so every action the engine accepts, every key of the
view a socket receives and of the public log it reads, the table options and the record format
must be named in its Renaissance section; and its Contents must lead to its sections."""

import random
import re
from pathlib import Path

import pytest

from games.forms.tables import CreateTableForm
from games.renaissance import diplomacy
from games.renaissance import record as renaissance_record
from games.rules_api import RENAISSANCE

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
ENGINE_DOC = (ROOT / "docs" / "renaissance" / "engine.md").read_text(encoding="utf-8")

# Games that between them reach every phase of the rules: each player count, the nations'
# powers (the Swiss announcement, Spain's raiders, Florence's lure, Naples's retreat), the
# scenarios' set-up (a chosen start, 1515's palaces) and the game of 1454's garrisons.
GAMES = (
    (3, {}),
    (4, {"remove": "milan", "powers": True}),
    (5, {"scenario": "1494", "powers": True}),
    (6, {"scenario": "1515", "powers": True}),
    (6, {"powers": True}),
)
DIPLOMACY_SHARE = 0.05


def section(text: str, title: str, level: str = "##") -> str:
    """The text under the heading `title` (numbered or not) up to the next heading of its
    level."""
    heading = re.compile(rf"^{level} (?:\d+\. )?{re.escape(title)}$", re.MULTILINE)
    found = heading.search(text)
    assert found, f"no section {title!r}"
    following = re.compile(rf"^{level} ", re.MULTILINE).search(text, found.end())
    return text[found.end() : following.start() if following else len(text)]


RENAISSANCE_SECTION = section(PROTOCOL, "Renaissance")


def named(word: str, text: str = RENAISSANCE_SECTION) -> bool:
    """Whether the document names `word` as code: `word` or "word" (a JSON key or value)."""
    return re.search(rf"[`\"]{re.escape(word)}[`\"]", text) is not None


def unnamed(words) -> list[str]:
    return sorted(word for word in set(words) if not named(word))


def random_games():
    """Each game of GAMES played to its end by random legal moves and, now and then, a random
    action of diplomacy by a random seat: yields (state before, seat, action, state after)."""
    for number, (players, options) in enumerate(GAMES):
        rng = random.Random(number)
        state = RENAISSANCE.new_game(players, seed=number, options=options)
        while not RENAISSANCE.is_terminal(state):
            seat, action = random_action(state, players, rng)
            after = RENAISSANCE.apply_action(state, seat, action)
            yield state, seat, action, after
            state = after


def random_action(state, players: int, rng: random.Random):
    if rng.random() < DIPLOMACY_SHARE:
        seat = rng.randrange(players)
        offered = RENAISSANCE.side_actions(state, seat)
        if offered:
            return seat, rng.choice(offered)
    seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
    return seat, rng.choice(RENAISSANCE.legal_actions(state, seat))


@pytest.fixture(scope="module")
def played():
    """What the random games showed: every action listed to a seat (legal or diplomacy), a
    view of every phase (the acting seat's, with a battle's face-down cards when there is one),
    and every public log entry."""
    listed, views, entries = [], {}, []
    for before, seat, action, after in random_games():
        listed += RENAISSANCE.legal_actions(before, seat) + RENAISSANCE.side_actions(before, seat)
        view = RENAISSANCE.view_for(before, seat)
        views.setdefault(view["phase"], view)
        entry = RENAISSANCE.public_record(action, seat, before, after)
        if entry is not None:
            entries.append(entry)
    return listed, views, entries


def test_every_action_of_the_engines_table_is_named():
    actions = section(ENGINE_DOC, "Actions")
    types = set(re.findall(r'"type": "(\w+)"', actions))
    types |= set(re.findall(r"`(\w+_(?:exchange|condottiere))`", actions))
    assert len(types) > 30, "the engine's table of actions was not read"
    assert unnamed(types) == []


def test_every_action_seen_in_random_games_is_named_with_its_fields(played):
    listed, _, _ = played
    assert unnamed(action["type"] for action in listed) == []
    assert unnamed(key for action in listed for key in action) == []


def test_every_kind_of_diplomacy_is_named():
    assert unnamed(diplomacy.TYPES) == []


def test_every_phase_reached_is_named(played):
    _, views, _ = played
    assert {"vote", "purchase", "combat", "defend"} <= set(views)
    assert unnamed(views) == []


def test_every_key_of_a_real_view_and_of_its_public_dict_is_named(played):
    _, views, _ = played
    battles = [view["public"]["battle"] for view in views.values() if view["public"]["battle"]]
    assert battles, "no battle was fought"
    assert unnamed(key for view in views.values() for key in view) == []
    assert unnamed(key for view in views.values() for key in view["public"]) == []
    assert unnamed(key for battle in battles for key in battle) == []


def test_a_face_down_commitment_is_shown_as_the_document_says(played):
    """The defender sees how many cards the attacker committed, never which."""
    _, views, _ = played
    attacker_cards = views["defend"]["public"]["battle"]["commits"][0]
    assert set(attacker_cards) == {"hidden", "count"}
    assert named("hidden") and named("count")


def test_every_key_of_a_public_log_entry_is_named(played):
    _, _, entries = played
    battles = [entry.get("battle") or entry.get("fight") for entry in entries]
    battles = [battle for battle in battles if battle]
    assert battles, "no battle was logged"
    assert unnamed(key for entry in entries for key in entry) == []
    assert unnamed(key for battle in battles for key in battle) == []


def test_the_record_format_and_its_version_are_named():
    format_and_version = rf"`{renaissance_record.FORMAT}`,\s+version {renaissance_record.VERSION}"
    assert re.search(format_and_version, RENAISSANCE_SECTION)


def test_the_renaissance_table_fields_and_their_values_are_named():
    fields = CreateTableForm().fields
    assert named("game") and named(RENAISSANCE.name)
    for name in ("scenario", "powers", "remove"):
        assert named(name), name
    values = [value for name in ("scenario", "remove") for value, _ in fields[name].choices]
    assert unnamed(value for value in values if value) == []


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def test_the_contents_list_every_numbered_section_in_order():
    contents = re.findall(r"^\d+\. \[(.+)\]\(#(.+)\)$", section(PROTOCOL, "Contents"), re.M)
    numbered = re.findall(r"^## (\d+\. .+)$", PROTOCOL, re.MULTILINE)
    assert [f"{number + 1}. {title}" for number, (title, _) in enumerate(contents)] == numbered
    assert [target for _, target in contents] == [anchor(heading) for heading in numbered]


def test_every_link_inside_the_document_leads_to_a_heading():
    targets = set(re.findall(r"\]\(#([^)]+)\)", PROTOCOL))
    assert sorted(targets - anchors(PROTOCOL)) == []
