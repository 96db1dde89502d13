"""The embedded default's SQLite settings (docs/operations.md, "The embedded default's database"),
checked on that profile in a process of its own, whatever profile this test run is in.

A transaction that reads and then writes, while another connection writes, is what once failed a
match's next game: SQLite refuses a deferred transaction's late write at once ("database is
locked"), whatever the busy timeout. With IMMEDIATE transactions it waits for the lock instead.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from condottiere_site.env import SQLITE_OPTIONS, database_config
from tests.web.embedded_site import ROOT, embedded_env


def run_on_the_embedded_default(*argv: str) -> str:
    with tempfile.TemporaryDirectory(prefix="condottiere-sqlite-") as folder:
        env = embedded_env(Path(folder) / "db.sqlite3")
        done = subprocess.run(
            [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_transaction_that_reads_then_writes_waits_for_another_writer_instead_of_failing():
    outcome = json.loads(run_on_the_embedded_default("-m", "tests.web.sqlite_read_then_write"))
    assert outcome == {"error": None, "total": 2}


def test_the_embedded_default_connects_with_wal_and_immediate_transactions():
    script = (
        "import django, json; django.setup();"
        "from django.db import connection;"
        "cursor = connection.cursor();"
        "print(json.dumps([cursor.execute('PRAGMA journal_mode').fetchone()[0],"
        " cursor.execute('PRAGMA synchronous').fetchone()[0],"
        " connection.transaction_mode, connection.settings_dict['OPTIONS']]))"
    )
    journal, synchronous, mode, options = json.loads(run_on_the_embedded_default("-c", script))
    assert (journal, synchronous, mode) == ("wal", 1, "IMMEDIATE")  # 1: NORMAL
    assert options == SQLITE_OPTIONS


def test_a_sqlite_database_url_gets_the_same_options():
    """`DATABASE_URL=sqlite:///...` (a worker beside a SQLite test database) behaves the same."""
    assert database_config("sqlite:///site.sqlite3")["OPTIONS"] == SQLITE_OPTIONS
