"""English, French and Italian throughout: complete catalogues, pages in each language, card names
as each rulebook prints them, the language switcher, the rules page, and refusals in the player's
language (over HTTP and over the game socket)."""

import functools
import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.board.words import game_labels
from games.engine import IllegalAction, apply_action, current_player, legal_actions, new_game
from games.models import Game, Seat
from games.services import load_state, start_game
from games.sockets.language import language_of
from games.words.refusals import player_message
from tests.web.conftest import next_frame

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("fr", "it")

# The card names of each rulebook (condottiere-3rd-edition-fr.txt and -it.txt).
CARD_NAMES = {
    "en": {
        "winter": "Winter",
        "spring": "Spring",
        "bishop": "Bishop",
        "courtesan": "Courtesan",
        "drummer": "Drummer",
        "heroine": "Heroine",
        "scarecrow": "Scarecrow",
        "surrender": "Surrender",
        "mercenary": "Mercenar",  # Mercenary, Mercenaries
    },
    "fr": {
        "winter": "Hiver",
        "spring": "Printemps",
        "bishop": "Évêque",
        "courtesan": "Courtisan",
        "drummer": "Tambour",
        "heroine": "Héroïne",
        "scarecrow": "Épouvantail",
        "surrender": "Reddition",
        "mercenary": "Mercenaire",
    },
    "it": {
        "winter": "Inverno",
        "spring": "Primavera",
        "bishop": "Vescovo",
        "courtesan": "Cortigiana",
        "drummer": "Tamburino",
        "heroine": "Eroina",
        "scarecrow": "Spaventapasseri",
        "surrender": "Resa",
        "mercenary": "Mercenari",  # Mercenario, Mercenari
    },
}
# The optional rules as the rulebooks name them, and Playing for Points.
OPTIONAL_RULES = {
    "en": ("Draw After Battle", "Bigger Kingdoms", "Capturing Regions", "Hidden Cards",
           "Playing for Points"),
    "fr": ("Piocher après la bataille", "Des royaumes plus grands", "Capturer des régions",
           "Cartes cachées", "Jouer pour des points"),
    "it": ("Pescare carte dopo le battaglie", "Regni più grandi", "Catturare le regioni",
           "Carte nascoste", "Gioco a punti"),
}  # fmt: skip
RULES_WORD = {"en": "Rules", "fr": "Règles", "it": "Regole"}


def text_of(response) -> str:
    """The page's visible words, roughly: tags dropped, spaces (also non-breaking) folded."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"[\s\u00a0\u202f]+", " ", re.sub(r"<[^>]+>", " ", html))


def in_language(client, language: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def statistics(po: Path) -> str:
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stderr.strip()


def untranslated_entries(po: Path) -> list[str]:
    """msgids whose msgstr is empty or that are marked fuzzy: a tiny .po reader."""
    problems = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#~")]
        if not any(line.startswith("msgid ") for line in lines):
            continue
        msgid = "".join(re.findall(r'^(?:msgid |")(".*"|.*)$', lines[0]) or [""])
        text = "\n".join(lines)
        header = re.search(r'^msgid ""\nmsgstr ""', text, re.M) and "msgctxt" not in text
        if any(line.startswith("#,") and "fuzzy" in line for line in lines) and not header:
            problems.append(f"fuzzy: {text}")
        for msgstr in re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', text + "\n", re.M):
            if not header and not "".join(re.findall(r'"(.*)"', msgstr)):
                problems.append(f"empty: {msgid} {text}")
    return problems


# --- The catalogues ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_catalogue_is_translated(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert untranslated_entries(po) == []
    stats = statistics(po)
    assert re.fullmatch(r"\d+ translated messages\.", stats), stats


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_its_source(language, tmp_path):
    folder = LOCALE / language / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    # What compilemessages runs.
    subprocess.run(
        ["msgfmt", "--check-format", "-o", str(fresh), str(folder / "django.po")], check=True
    )
    assert (folder / "django.mo").read_bytes() == fresh.read_bytes(), (
        "django.mo is older than django.po: run `make messages`"
    )


# What `make messages` extracts from: the project's source, without tests and build output.
SOURCES = ("manage.py", "condottiere_site", "games", "ai", "templates", "static", "locale")


def copy_of_the_project(target: Path) -> Path:
    target.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for name in SOURCES:
        source = Path(settings.BASE_DIR) / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    return target


def test_no_marked_string_is_missing_from_the_catalogues(tmp_path):
    """`make messages` on a copy of the project: every string marked in the code is in the
    catalogues and translated (a new string someone added without translating it fails here).

    A copy of the whole source, not only of the catalogues: makemessages writes each file's
    strings to the `locale` folder found beside it, so run on the real tree it would update the
    real catalogues and leave any copy untouched.
    """
    project = copy_of_the_project(tmp_path / "project")
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "fr",
            "-l",
            "it",
            "--add-location",
            "file",
            "--no-obsolete",
            "--verbosity",
            "0",
        ],
        cwd=project,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        check=True,
    )
    for language in LANGUAGES:
        po = project / "locale" / language / "LC_MESSAGES" / "django.po"
        assert untranslated_entries(po) == [], f"{language}: run `make messages` and translate"


# A string marked for translation can still reach a page in English: a `%` applied to a lazy
# string at import time (a form field's help text, a module's constant) fixes its words in the
# language active then. The catalogues cannot tell; the pages can.
MIN_WORDS = 3  # shorter strings ("Bot", "Games") may well be the same words in another language
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\w+\}")


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """{English: translation} of the compiled catalogue, plain messages only (no context, no
    plural forms), read with the standard library's own .mo reader."""
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as mo:
        messages = gettext.GNUTranslations(mo)._catalog
    return {
        msgid: msgstr
        for msgid, msgstr in messages.items()
        if isinstance(msgid, str) and msgid and "\x04" not in msgid
    }


@functools.cache
def english_pattern(msgid: str) -> re.Pattern:
    """The message as it reads on a page, its placeholders filled with anything."""
    words = re.sub(r"[\s\u00a0\u202f]+", " ", msgid).strip()
    parts = [re.escape(part) for part in PLACEHOLDER.split(words)[::2]]
    return re.compile(".{1,80}?".join(parts))


def untranslated_on(text: str, language: str) -> list[str]:
    """The catalogue's messages that this page, asked for in `language`, shows in English."""
    found = []
    for msgid, msgstr in catalogue(language).items():
        stripped = PLACEHOLDER.sub("", msgid)
        if msgstr == msgid or len(stripped.split()) < MIN_WORDS:
            continue
        if english_pattern(msgid).search(text):
            found.append(msgid)
    return found


def pages_to_read(make_user, make_table):
    """(URL, the account to log in as or None) of the pages a newcomer meets, each with the
    forms and panels that need one: the lobby's "Play now", a table, a game, the bots' forms."""
    from games.botapi import accounts as bot_accounts

    alice = make_user()
    bot_accounts.create_bot_account(alice, "pagebot")
    waiting = make_table(3, people={0: alice})
    game = make_table(2, people={0: make_user()}, bots={1: "random"})
    start_game(game.pk)
    public = ["home", "login", "signup", "rules", "history", "leaderboard", "password_reset"]
    pages = [(reverse(name), None) for name in public]
    pages += [(reverse("leaderboard") + "?game=renaissance", None)]
    pages += [(reverse(name), alice) for name in ("lobby", "play", "profile")]
    pages += [(reverse("table_detail", args=[waiting.pk]), alice)]
    pages += [(reverse("game", args=[game.pk]), None), (reverse("player", args=["pagebot"]), alice)]
    return pages


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_translated_string_in_english(client, make_user, make_table, language):
    missing = {}
    for url, account in pages_to_read(make_user, make_table):
        client.logout()
        if account is not None:
            client.force_login(account)
        response = in_language(client, language).get(url)
        assert response.status_code == 200, url
        found = untranslated_on(text_of(response), language)
        if found:
            missing[url] = found
    assert missing == {}


def test_the_page_check_finds_a_string_fixed_in_english():
    """The check itself: a help text interpolated at import time, as it reads on a page."""
    english = "Fill empty seats. After 30 seconds of waiting. Level of those bots"
    assert "After %(seconds)d seconds of waiting." in untranslated_on(english, "fr")
    with translation.override("fr"):
        french = translation.gettext("After %(seconds)d seconds of waiting.") % {"seconds": 30}
    assert untranslated_on(french, "fr") == []


# The table's JavaScript writes no English: it asks the labels the server rendered for a key
# (static/js/game/i18n.js). A key missing from them would show as the bare key.
TABLE_SCRIPT = Path(settings.BASE_DIR) / "static" / "js" / "game.js"
LABEL_CALLS = {"ui": "ui", "log": "log", "count": "plurals"}  # t.<call>("key") -> labels[...]


def modules_of(entry: Path) -> set[Path]:
    """The script and every module it imports, directly or not (relative imports)."""
    found, waiting = set(), [entry.resolve()]
    while waiting:
        module = waiting.pop()
        if module in found or not module.exists():
            continue
        found.add(module)
        imports = re.findall(r"""\bfrom\s+["'](\.[^"']+)["']""", module.read_text())
        waiting += [(module.parent / name).resolve() for name in imports]
    return found


def test_every_label_key_the_table_script_asks_for_exists():
    modules = modules_of(TABLE_SCRIPT)
    assert len(modules) > 10  # the table's modules were found
    labels = game_labels()
    missing = [
        f"{module.name}: t.{call}({key!r})"
        for module in sorted(modules)
        for call, key in re.findall(r'\bt\.(ui|log|count)\(\s*"(\w+)"', module.read_text())
        if key not in labels[LABEL_CALLS[call]]
    ]
    assert missing == []


# --- Card and region names --------------------------------------------------------------------


@pytest.mark.parametrize("language", ("en", "fr", "it"))
def test_the_game_labels_name_the_cards_as_the_rulebook_of_the_language(language):
    with translation.override(language):
        labels = game_labels()
    names = CARD_NAMES[language]
    for code in ("winter", "spring", "bishop", "courtesan", "drummer", "heroine", "scarecrow"):
        assert labels["cards"][code]["name"] == names[code]
    assert labels["cards"]["surrender"]["name"] == names["surrender"]
    assert labels["cards"]["m10"]["title"].startswith(names["mercenary"])
    assert "10" in labels["cards"]["m10"]["title"]
    # Both rulebooks keep the board's Italian region names ("Parma, Venezia, et Siena").
    assert labels["regions"] == {name: name for name in labels["regions"]}
    assert len(labels["regions"]) == 17


def test_labels_in_french_and_italian_differ_from_english_where_they_should():
    by_language = {}
    for language in ("en", "fr", "it"):
        with translation.override(language):
            by_language[language] = game_labels()
    assert by_language["fr"]["ui"]["your_turn"] == "À vous de jouer"
    assert by_language["it"]["ui"]["your_turn"] == "Tocca a te"
    assert by_language["fr"]["plurals"]["cards_in_hand"]["other"] == "{count} cartes en main"
    assert by_language["it"]["phases"]["battle"] == "Battaglia"
    # Placeholders survive translation: the client fills them.
    for language in ("fr", "it"):
        for key, template in by_language["en"]["log"].items():
            wanted = set(re.findall(r"\{\w+\}", template))
            assert set(re.findall(r"\{\w+\}", by_language[language]["log"][key])) == wanted


# --- Pages in each language -------------------------------------------------------------------

PAGE_WORDS = {
    # page: {language: words that must be on it}
    "home": {"fr": ["Jouer contre des bots", "Règles"], "it": ["Gioca contro i bot", "Regole"]},
    "login": {"fr": ["Connexion", "Nom d’utilisateur"], "it": ["Accedi", "Nome utente"]},
    "signup": {"fr": ["S'inscrire"], "it": ["Registrati"]},
    "rules": {"fr": ["Comment jouer à Condottiere"], "it": ["Come si gioca a Condottiere"]},
    "history": {"fr": ["Historique"], "it": ["Storico"]},
}
PAGES_FOR_MEMBERS = {
    "lobby": {"fr": ["Trouver une partie", "Salon"], "it": ["Trova una partita", "Sala"]},
    "play": {"fr": ["Lancer la partie", "Variantes"], "it": ["Inizia la partita"]},
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", sorted(PAGE_WORDS))
def test_public_pages_speak_the_chosen_language(client, page, language):
    response = in_language(client, language).get(reverse(page))
    assert response.status_code == 200
    assert f'<html lang="{language}"' in response.content.decode()
    text = text_of(response)
    for words in PAGE_WORDS[page][language]:
        assert words in text, f"{words!r} missing from {page} in {language}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", sorted(PAGES_FOR_MEMBERS))
def test_member_pages_speak_the_chosen_language(client, make_user, page, language):
    client.force_login(make_user())
    text = text_of(in_language(client, language).get(reverse(page)))
    for words in PAGES_FOR_MEMBERS[page][language]:
        assert words in text, f"{words!r} missing from {page} in {language}"


@pytest.mark.django_db
def test_a_game_page_carries_italian_card_names(client, make_user):
    alice = make_user()
    game = Game.objects.create(players=2, created_by=alice)
    Seat.objects.create(game=game, index=0, user=alice)
    Seat.objects.create(game=game, index=1, bot_level="random")
    start_game(game.pk)
    html = in_language(client, "it").get(reverse("game", args=[game.pk])).content.decode()
    labels = re.search(r'<script id="game-labels" type="application/json">(.*?)</script>', html)
    assert '"Inverno"' in labels.group(1)
    assert '"Spaventapasseri"' in labels.group(1)
    assert "Cronaca della partita" in html  # the log's heading


@pytest.mark.django_db
def test_the_language_switcher_sets_the_language(client):
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/rules/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert "Comment jouer à Condottiere" in text_of(client.get(reverse("rules")))
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert "Come si gioca a Condottiere" in text_of(client.get(reverse("rules")))


@pytest.mark.django_db
def test_the_header_links_to_the_rules_in_every_language(client):
    for language, word in RULES_WORD.items():
        html = in_language(client, language).get(reverse("home")).content.decode()
        assert re.search(rf'<a href="/rules/"[^>]*>{word}</a>', html), language


# --- The rules page ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ("en", "fr", "it"))
def test_the_rules_page_explains_every_card_and_optional_rule(client, language):
    response = in_language(client, language).get(reverse("rules"))
    assert response.status_code == 200
    text = text_of(response)
    for code, name in CARD_NAMES[language].items():
        assert name in text, f"{code} ({name}) missing from the {language} rules"
    for rule in OPTIONAL_RULES[language]:
        assert rule in text, f"{rule} missing from the {language} rules"
    # The deck's make-up and the win targets are on the page.
    for number in ("110", "58", "52", "17"):
        assert number in text
    assert re.search(r"\b10\b", text) and re.search(r"\b6\b", text)
    assert "<title>" + RULES_WORD[language] in response.content.decode()


@pytest.mark.django_db
def test_an_unknown_language_gets_the_english_rules(client):
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="de")
    assert "How to play Condottiere" in text_of(response)


# --- Refusals in the player's language --------------------------------------------------------


def refusal(state, action) -> str:
    with pytest.raises(IllegalAction) as raised:
        apply_action(state, action)
    return str(raised.value)


def test_the_engines_refusals_a_player_can_meet_are_translated():
    state = new_game(2, seed=7)
    region_choice = legal_actions(state)[0]
    assert region_choice["type"] == "choose_region"
    wrong_kind = refusal(state, {"type": "pass"})
    state = apply_action(state, region_choice)
    # A special card the player to move does not hold.
    codes = ("winter", "spring", "bishop", "courtesan", "drummer", "heroine", "surrender")
    playable = {a.get("card") for a in legal_actions(state) if a["type"] == "play"}
    missing = next(code for code in codes if code not in playable)
    not_held = refusal(state, {"type": "play", "card": missing})
    no_hidden = refusal(state, {"type": "pass", "reveal": True})

    with translation.override("fr"):
        assert player_message(wrong_kind) == "La partie n'attend pas ce genre de coup."
        french = player_message(not_held)
        assert CARD_NAMES["fr"][missing] in french and french.startswith("Vous n'avez pas")
        assert player_message(no_hidden) == "Vous n'avez pas de carte cachée à retourner."
    with translation.override("it"):
        italian = player_message(not_held)
        assert CARD_NAMES["it"][missing] in italian and italian.startswith("Non hai")
    with translation.override("en"):
        assert player_message(not_held).startswith("You have no ")
    # A protocol error from a broken client stays as the engine wrote it.
    assert player_message("unknown action type 'fly'") == "unknown action type 'fly'"


def test_a_socket_takes_the_language_of_its_page():
    def scope(cookie=None, accept=None):
        headers = [(b"accept-language", accept.encode())] if accept else []
        cookies = {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {}
        return {"cookies": cookies, "headers": headers}

    assert language_of(scope(cookie="it", accept="fr")) == "it"
    assert language_of(scope(accept="de-DE,fr;q=0.8,en;q=0.5")) == "fr"
    assert language_of(scope(accept="it-IT")) == "it"
    assert language_of(scope(cookie="xx", accept="de")) == settings.LANGUAGE_CODE
    assert language_of({}) == settings.LANGUAGE_CODE


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_the_game_socket_refuses_in_french(make_user, make_table):
    from channels.testing import WebsocketCommunicator
    from django.test import Client

    from condottiere_site.asgi import application

    def build():
        alice, bruno = make_user(), make_user()
        game = make_table(2, people={0: alice, 1: bruno})
        start_game(game.pk)
        state = load_state(Game.objects.get(pk=game.pk))
        waiting = [alice, bruno][1 - current_player(state)]
        client = Client()
        client.force_login(waiting)
        cookie = f"sessionid={client.cookies['sessionid'].value}; django_language=fr"
        return game, legal_actions(state)[0], cookie

    game, action, cookie = await database_sync_to_async(build)()
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    socket = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    await next_frame(socket, "state")
    await socket.send_json_to({"type": "action", "action": action, "expected_version": 0})
    error = await next_frame(socket, "error")
    assert error["code"] == "not_your_turn"
    assert error["message"] == "Ce n'est pas votre tour."
    await socket.send_to(text_data="not json")
    assert (await next_frame(socket, "error"))["message"] == "Le message n'est pas du JSON."
    await socket.disconnect()
