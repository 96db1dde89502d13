"""What the database says: accepted actions counted, the log checked, `verify_games` run.

Plain SQL on the tables `games_game` and `games_action` (no import of the site's code), so that it
reads the database of an older commit of the site as well.
"""

import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from .servers import sql_url, tool


@dataclass
class Verdict:
    ok: bool
    summary: str
    seconds: float
    details: str = ""


class Ledger:
    def __init__(self, url: str):
        self.connection = psycopg.connect(sql_url(url), autocommit=True, connect_timeout=5)

    def close(self) -> None:
        self.connection.close()

    def rows(self, sql: str, *args):
        return self.connection.execute(sql, args).fetchall()

    def now(self):
        return self.rows("SELECT clock_timestamp()")[0][0]

    def action_counts(self) -> dict[str, int]:
        """Accepted actions so far, by who played them (human, bot, standin, timer)."""
        return dict(self.rows("SELECT actor, count(*) FROM games_action GROUP BY actor"))

    def total_actions(self) -> int:
        return self.rows("SELECT count(*) FROM games_action")[0][0]

    def wait_until_still(self, quiet: float = 2.0, limit: float = 60.0) -> bool:
        """Until no action was added for `quiet` seconds (jobs in flight have landed)."""
        deadline = time.monotonic() + limit
        last, since = self.total_actions(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.5)
            count = self.total_actions()
            if count != last:
                last, since = count, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return True
        return False

    def bot_latency_ms(self, since, until) -> tuple[int, list[float]] | None:
        """Bot turns' scheduled-to-submitted time (games_action.latency_ms) in the window."""
        try:
            row = self.rows(
                "SELECT count(*), percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP "
                "(ORDER BY latency_ms) FROM games_action WHERE actor = 'bot' "
                "AND latency_ms IS NOT NULL AND created_at >= %s AND created_at < %s",
                since,
                until,
            )[0]
        except psycopg.Error:  # an older schema without the column
            return None
        return row[0], list(row[1] or [])

    def sessions(self) -> int | None:
        """Connections opened to this database so far (PostgreSQL 14+), e.g. one per request
        when connections are not kept."""
        try:
            return self.rows(
                "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
            )[0][0]
        except psycopg.Error:
            return None

    def game_statuses(self) -> dict[str, int]:
        return dict(self.rows("SELECT status, count(*) FROM games_game GROUP BY status"))

    def game_version(self, game_id: int) -> tuple[int, str]:
        version, status = self.rows(
            "SELECT version, status FROM games_game WHERE id = %s", game_id
        )[0]
        return version, status

    def human_actions(self) -> dict[int, int]:
        return dict(
            self.rows("SELECT game_id, count(*) FROM games_action WHERE actor = 'human' GROUP BY 1")
        )

    def games_with_log_gaps(self) -> list[int]:
        """Started games whose log is not exactly seq 1..version: a lost or doubled action."""
        return [
            row[0]
            for row in self.rows(
                "SELECT g.id FROM games_game g LEFT JOIN games_action a ON a.game_id = g.id "
                "WHERE g.snapshot <> '' GROUP BY g.id, g.version "
                "HAVING count(a.id) <> g.version OR count(DISTINCT a.seq) <> g.version "
                "OR coalesce(max(a.seq), 0) <> g.version"
            )
        ]


def verify_games(root: Path, env: dict, timeout: float = 600) -> Verdict:
    """`manage.py verify_games` on the load database: every stored game replays to its snapshot."""
    started = time.monotonic()
    try:
        result = subprocess.run(
            [tool(root, "python"), "manage.py", "verify_games"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return Verdict(False, f"did not finish in {timeout:.0f} s", time.monotonic() - started)
    seconds = time.monotonic() - started
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    summary = plain(lines[-1]) if lines else plain(result.stderr.strip()[-300:])
    details = "\n".join(plain(line) for line in lines[:-1][:20])
    if result.returncode != 0 and result.stderr.strip() and "differ" not in summary:
        details = plain(result.stderr.strip()[-1500:])
    return Verdict(result.returncode == 0, summary, seconds, details)


def plain(text: str) -> str:
    """Without the terminal colours Django's styles may add."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)
