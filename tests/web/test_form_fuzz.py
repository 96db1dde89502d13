"""Hostile submissions to every form of the site: never a 500, and nothing changed but what a
valid submission does.

A fixed seed draws 1,400 submissions (200 a form) for the sign-up, log-in, table creation, "play
against bots", joining, history filter and record import forms: huge fields, invalid UTF-8, NUL
bytes, unknown fields, wrong types (several values, numbers for words, words for numbers), more
fields than Django accepts, and valid submissions with one field made hostile. After each, the
database is compared with before: a change is allowed only when the answer is the form's
success and the change is what that form makes (one account; one table and its seats; a seat
taken; one imported game with its seats and moves).
"""

import json
import random
import string
import time
from collections import Counter
from dataclasses import dataclass

import pytest
from django.db import connection
from django.template.base import Template
from django.test import Client
from django.urls import reverse

from games.lobby import tables as lobby
from games.lobby.tables import SeatPlan
from games.models import Action, Game, Seat, User
from tests.web.test_replay import play_out

SEED = 1494
PASSWORD = "Mercenary-Captain-1494"
SUBMISSIONS_PER_FORM = 200

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


# --- Hostile values ----------------------------------------------------------------------------

FIXED_HOSTILE = [
    "",
    " ",
    "\x00",
    "admin\x00",
    "a\x00b",
    "\r\n\r\nSet-Cookie: x=1",
    "A" * 100_000,
    "é" * 20_000,
    "😀" * 5_000,
    "\u202eevil",
    "\u0301\u0301\u0301",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "%(name)s",
    "../../etc/passwd",
    "-1",
    "0",
    "1.5",
    "1e309",
    "9" * 5_000,
    "NaN",
    "Infinity",
    "true",
    "null",
    "[]",
    "{}",
    "²",
    "٣",
    "on",
    "off",
]


def hostile(rng: random.Random):
    """One hostile value: a fixed nasty one, random characters, or several values at once."""
    roll = rng.random()
    if roll < 0.55:
        return rng.choice(FIXED_HOSTILE)
    if roll < 0.85:
        alphabet = string.printable + "\x00éß😀\u202e\ufeff"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
    return [rng.choice(FIXED_HOSTILE) for _ in range(rng.randint(2, 5))]  # a list: wrong type


def mutate(rng: random.Random, valid: dict) -> dict:
    """A valid submission with some fields made hostile, dropped or added."""
    data = dict(valid)
    for name in rng.sample(list(data), k=rng.randint(1, len(data))):
        choice = rng.random()
        if choice < 0.7:
            data[name] = hostile(rng)
        elif choice < 0.85:
            del data[name]
    for _ in range(rng.choice([0, 0, 1, 3])):
        data[rng.choice(UNKNOWN_FIELDS)] = hostile(rng)
    return data


UNKNOWN_FIELDS = ["unknown", "\x00", "seat_9_kind", "players[]", "x" * 300, "is_staff", "user_id"]
INVALID_UTF8 = [b"%C3%28", b"%FF%FE", b"%ED%A0%80", b"\xff\xfe", b"%F0%28%8C%BC", b"%C0%AF"]


def raw_body(rng: random.Random, names: list[str]) -> bytes:
    """A urlencoded body with invalid UTF-8 in names and values."""
    parts = []
    for name in names:
        value = rng.choice(INVALID_UTF8) + rng.choice([b"", b"abc", b"%00"])
        parts.append(name.encode() + b"=" + value)
    parts.append(rng.choice(INVALID_UTF8) + b"=x")
    return b"&".join(parts)


def too_many_fields() -> dict:
    # Django refuses more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) with a 400.
    return {f"field{index}": "x" for index in range(1_500)}


# --- The database, before and after ------------------------------------------------------------


def state() -> Counter:
    # One query, not five: it runs before and after each of the thousands of submissions.
    users, games, seats = (model._meta.db_table for model in (User, Game, Seat))
    actions, seat_user = Action._meta.db_table, Seat._meta.get_field("user").column
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT count(*) FROM {users}), (SELECT count(*) FROM {games}),"
            f" (SELECT count(*) FROM {seats}),"
            f" (SELECT count(*) FROM {seats} WHERE {seat_user} IS NOT NULL),"
            f" (SELECT count(*) FROM {actions})"
        )
        counts = cursor.fetchone()
    return Counter(dict(zip(("users", "games", "seats", "taken", "actions"), counts, strict=True)))


def change(before: Counter, after: Counter) -> dict:
    return {key: after[key] - before[key] for key in after if after[key] != before[key]}


@dataclass
class Form:
    """One form of the site: how to send it, a valid submission, and what a success changes."""

    name: str
    url: str
    method: str
    valid: dict
    allowed: object  # (response, change) -> bool: may this change follow this answer?
    field_names: list


def is_redirect(response) -> bool:
    return response.status_code == 302


def sign_up_made_one_account(response, delta) -> bool:
    return is_redirect(response) and delta == {"users": 1}


def made_one_table(response, delta) -> bool:
    # The creator's own seat and any invited ones are taken; bots are not users.
    return (
        is_redirect(response)
        and delta.get("games") == 1
        and 2 <= delta.get("seats", 0) <= 6
        and set(delta) <= {"games", "seats", "taken"}
    )


def took_one_seat(response, delta) -> bool:
    return is_redirect(response) and delta == {"taken": 1}


def imported_one_game(response, delta) -> bool:
    return (
        is_redirect(response)
        and delta.get("games") == 1
        and 2 <= delta.get("seats", 0) <= 6
        and set(delta) <= {"games", "seats", "actions"}
    )


def nothing(response, delta) -> bool:
    return False


# --- The run -----------------------------------------------------------------------------------


@pytest.fixture
def plain_template_rendering(monkeypatch):
    """Template rendering without Django's test instrumentation, which copies every context for
    a `template_rendered` signal: this fuzz never asks which templates rendered, and the copies
    were a large part of its time (thousands of pages)."""
    monkeypatch.setattr(
        Template, "_render", lambda template, context: template.nodelist.render(context)
    )


@pytest.fixture
def site(settings, make_user, make_table, announced, plain_template_rendering):
    """The forms, a player to send the logged-in ones, open tables to join, a valid record.

    `announced` keeps every job (bot turns, autofill) from running: only the request may change
    the database between the two looks at it.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User.objects.create_user(username="colleoni", password=PASSWORD)
    player = make_user("fuzzer")
    hosts = [make_user(f"host{index}") for index in range(4)]
    tables = [
        lobby.create_table(host, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("open")])
        for host in hosts
    ]
    finished = play_out(make_table(2, people={0: hosts[0], 1: hosts[1]}), 5)
    record = Client()
    record.force_login(player)
    record_text = record.get(reverse("game_record", args=[finished.pk])).content.decode()
    json.loads(record_text)  # a valid record, to mutate

    forms = [
        Form(
            "sign-up",
            reverse("signup"),
            "post",
            {
                "username": "recruit",
                "display_name": "R",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            sign_up_made_one_account,
            ["username", "display_name", "password1", "password2"],
        ),
        Form(
            "log-in",
            reverse("login"),
            "post",
            {"username": "colleoni", "password": PASSWORD, "next": "/lobby/"},
            nothing,
            ["username", "password", "next"],
        ),
        Form(
            "table creation",
            reverse("table_new"),
            "post",
            {
                "players": "3",
                "turn_seconds": "60",
                "seat_0_kind": "me",
                "seat_1_kind": "bot",
                "seat_1_level": "easy",
                "seat_2_kind": "open",
                "hidden_cards": "on",
            },
            made_one_table,
            ["players", "turn_seconds", "seat_0_kind", "seat_1_kind", "seat_1_level"],
        ),
        Form(
            "play against bots",
            reverse("play"),
            "post",
            {"bots": "2", "level": "easy", "turn_seconds": "", "capturing_regions": "on"},
            made_one_table,
            ["bots", "level", "turn_seconds"],
        ),
        Form(
            "join",
            reverse("table_join", args=[tables[0].pk]),
            "post",
            {"seat": "1"},
            took_one_seat,
            ["seat"],
        ),
        Form(
            "history filters",
            reverse("history"),
            "get",
            {
                "player": "host0",
                "bots": "with",
                "players": "3",
                "source": "all",
                "hidden_cards": "on",
                "page": "2",
            },
            nothing,
            ["player", "bots", "players", "source", "page"],
        ),
        Form(
            "record import",
            reverse("import_record"),
            "post",
            {"text": record_text},
            imported_one_game,
            ["text"],
        ),
    ]
    return forms, player, tables, record_text


def hostile_record(rng: random.Random, record_text: str) -> str:
    """The valid record with one value somewhere inside made hostile."""
    record = json.loads(record_text)

    def spoil(value):
        if isinstance(value, dict) and value:
            key = rng.choice(list(value))
            value[key] = spoil(value[key]) if rng.random() < 0.6 else hostile_json(rng)
        elif isinstance(value, list) and value:
            index = rng.randrange(len(value))
            value[index] = spoil(value[index]) if rng.random() < 0.6 else hostile_json(rng)
        else:
            return hostile_json(rng)
        return value

    return json.dumps(spoil(record))


def hostile_json(rng: random.Random):
    return rng.choice(
        [
            None,
            True,
            -1,
            0,
            10**30,
            1.5,
            "",
            "\x00",
            "a\x00b",
            "😀" * 500,
            [],
            {},
            [[[]]],
            {"\x00": 1},
            "x" * 10_000,
            -(10**18),
            2**63,
            "9" * 40,
        ]
    )


def submissions(rng: random.Random, form: Form, record_text: str):
    """What to send: (kind, payload) pairs, about SUBMISSIONS_PER_FORM of them."""
    for _ in range(SUBMISSIONS_PER_FORM):
        roll = rng.random()
        if roll < 0.08:
            yield "raw", raw_body(rng, form.field_names)
        elif roll < 0.10:
            yield "data", too_many_fields()
        elif roll < 0.15:
            yield "data", {name: hostile(rng) for name in form.field_names}
        elif form.name == "record import" and roll < 0.6:
            yield "data", {"text": hostile_record(rng, record_text)}
        else:
            yield "data", mutate(rng, form.valid)


def send(client: Client, form: Form, kind: str, payload):
    if kind == "raw":
        if form.method == "get":
            return client.get(f"{form.url}?{payload.decode('latin-1')}")
        return client.post(form.url, payload, content_type="application/x-www-form-urlencoded")
    if form.method == "get":
        return client.get(form.url, payload)
    return client.post(form.url, payload)


def client_for(form: Form, rng: random.Random, player) -> Client:
    # A new address each time: the throttles would otherwise answer most log-ins and sign-ups
    # before their forms are even read (they are tested in test_http_limits.py).
    client = Client(
        REMOTE_ADDR=f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
    )
    if form.name not in ("sign-up", "log-in"):
        client.force_login(player)
    return client


def test_hostile_submissions_to_every_form_never_fail_and_change_nothing_they_should_not(site):
    forms, player, _tables, record_text = site
    rng = random.Random(SEED)
    sent, statuses, successes, seconds = 0, Counter(), Counter(), Counter()
    clients = {}
    for form in forms:
        started = time.perf_counter()
        for kind, payload in submissions(rng, form, record_text):
            if form.name in ("sign-up", "log-in") or form.name not in clients:
                clients[form.name] = client_for(form, rng, player)
            before = state()
            response = send(clients[form.name], form, kind, payload)
            delta = change(before, state())
            sent += 1
            statuses[response.status_code] += 1
            assert response.status_code < 500, (form.name, kind, repr(payload)[:300])
            if delta:
                assert form.allowed(response, delta), (form.name, delta, repr(payload)[:300])
                successes[form.name] += 1
        seconds[form.name] = round(time.perf_counter() - started, 1)
    print(f"{sent} hostile submissions: answers {dict(statuses)}, changes {dict(successes)}")
    print(f"seconds per form: {dict(seconds)}")
    assert sent == SUBMISSIONS_PER_FORM * len(forms)
    # The mutations leave some submissions valid: the oracle above was exercised both ways.
    assert successes["sign-up"] and successes["table creation"]


def test_a_record_with_a_nul_character_is_refused_with_a_message(site, client):
    """Found by the run above on PostgreSQL: "\\u0000" is valid JSON, and a seat name holding it
    reached the database, which refused it with a 500. Now the import form says so."""
    _forms, player, _tables, record_text = site
    record = json.loads(record_text)
    record["seats"][0]["name"] = "Bar\x00tolomeo"
    client.force_login(player)
    before = state()

    response = client.post(reverse("import_record"), {"text": json.dumps(record)})

    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    assert state() == before
