"""Renaissance games between bots, for `python -m ai.arena --game renaissance` (ai/arena.py).

Seat rotation: each deal (a game seed) is replayed once per rotation, the bots moving one seat
on each time, as in Condottiere's arena; a deal keeps its nations per seat, so every bot plays
every nation of the deal. With one bot level only (a balance run), rotating identical bots
would replay the same game, so the nations rotate over the seats instead: each nation then
plays from every seat of the deal (the turn order is drawn by seat).
"""

import time
from collections import defaultdict

import games.renaissance as renaissance

from ..ratings import wilson_interval
from . import LEVELS, SEARCH_LEVELS, make_bot
from .watch import Watch

# A safety net: a game is about 500 decisions for 6 players and always ends after six turns.
MAX_DECISIONS = 5_000


def parse_token(token: str) -> tuple[str, int | None]:
    """A bot token: a level of LEVELS, or `level:N` for a search level at N rounds a decision
    and no clock (a run whose command replays the very same games on any machine, whatever the
    load); the token is the bot's label in the summary."""
    level, _, rounds = token.partition(":")
    if not rounds:
        return level, None
    if level not in SEARCH_LEVELS or not rounds.isdigit() or int(rounds) < 1:
        raise ValueError(f"bad Renaissance bot token {token!r}: N rounds only for a search level")
    return level, int(rounds)


def check_levels(bots: list[str]) -> None:
    unknown = sorted({token for token in bots if parse_token(token)[0] not in LEVELS})
    if unknown:
        raise ValueError(f"unknown Renaissance bots {unknown}; choose among {', '.join(LEVELS)}")


def make_arena_bot(token: str, seed: int):
    level, rounds = parse_token(token)
    return make_bot(level, seed=seed, rounds=rounds)


def deal_nations(players: int, game_seed: int) -> list[str]:
    """The nations a deal's seed draws for its seats (the engine's own draw)."""
    state = renaissance.new_game(players, seed=game_seed)
    return list(renaissance.view_for(state, None)["public"]["nations"])


def schedule(bots, players, games, seed) -> list[dict]:
    """`games` game specs (rounded up to whole rotations): deal d, rotation r."""
    lineup = [bots[seat % len(bots)] for seat in range(players)]
    mirror = len(set(lineup)) == 1
    deals = -(-games // players)
    specs = []
    for deal in range(deals):
        game_seed = seed * 1_000_003 + deal
        nations = deal_nations(players, game_seed)
        for rotation in range(players):
            if mirror:
                seats = list(lineup)
                order = [nations[(seat + rotation) % players] for seat in range(players)]
            else:
                seats = [lineup[(seat + rotation) % players] for seat in range(players)]
                order = list(nations)
            specs.append(
                {
                    "game": "renaissance",
                    "deal": deal,
                    "rotation": rotation,
                    "bots": seats,
                    "nations": order,
                    "game_seed": game_seed,
                }
            )
    return specs


def play_game(spec: dict) -> dict:
    """Play one game; who sat where with which nation, the winners, points, decision times.
    With `spec["watch"]`, also the battles and yellow cards seen (watch.py)."""
    players = len(spec["bots"])
    state = renaissance.new_game(
        players, seed=spec["game_seed"], options={"nations": spec["nations"]}
    )
    bots = [
        make_arena_bot(token, seed=spec["game_seed"] * 31 + seat)
        for seat, token in enumerate(spec["bots"])
    ]
    watch = Watch() if spec.get("watch") else None
    think = [0.0] * players
    decisions = [0] * players
    # Every decision's thinking time, in ms, for the p95 of the table (search bots only: the
    # others take well under a millisecond).
    times = [[] if parse_token(token)[0] in SEARCH_LEVELS else None for token in spec["bots"]]
    started = time.perf_counter()
    while not renaissance.is_terminal(state) and sum(decisions) < MAX_DECISIONS:
        # In the secret vote every seat acts: each decides on its own view, in seat order
        # (a vote shows nobody how another voted, so the order changes nothing).
        for seat in sorted(renaissance.acting_seats(state)):
            view = renaissance.view_for(state, seat)
            tick = time.perf_counter()
            action = bots[seat].choose(view)
            thought = time.perf_counter() - tick
            think[seat] += thought
            decisions[seat] += 1
            if times[seat] is not None:
                times[seat].append(round(1000 * thought, 1))
            if watch:
                watch.see(view, action)
            state = renaissance.apply_action(state, seat, action)
            if renaissance.is_terminal(state) or view["phase"] != "vote":
                break
    won = renaissance.winners(state)
    final = renaissance.view_for(state, None)
    result = {
        **spec,
        "winners": list(won),
        "shares": [1.0 / len(won) if seat in won else 0.0 for seat in range(players)],
        "points": renaissance.final_scores(state),
        "cities": [final["public"]["owner"].count(seat) for seat in range(players)],
        "finished": renaissance.is_terminal(state),
        "decisions": decisions,
        "think_seconds": think,
        "think_ms": times,
        "seconds": time.perf_counter() - started,
    }
    if watch:
        watch.finish(final)
        result["watch"] = watch.report()
    return result


def _rows(results, key_of):
    rows = defaultdict(
        lambda: {"games": 0, "wins": 0.0, "points": 0, "decisions": 0, "think": 0.0, "times": []}
    )
    for game in results:
        for seat in range(len(game["bots"])):
            row = rows[key_of(game, seat)]
            row["times"] += (game.get("think_ms") or [None] * len(game["bots"]))[seat] or []
            row["games"] += 1
            row["wins"] += game["shares"][seat]
            row["points"] += game["points"][seat]
            row["decisions"] += game["decisions"][seat]
            row["think"] += game["think_seconds"][seat]
    summary = {}
    for key, row in rows.items():
        low, high = wilson_interval(row["wins"], row["games"])
        summary[key] = {
            "games": row["games"],
            "wins": round(row["wins"], 3),
            "win_rate": row["wins"] / row["games"],
            "ci95": [low, high],
            "mean_points": row["points"] / row["games"],
            "ms_per_decision": 1000 * row["think"] / max(1, row["decisions"]),
            "p95_ms": percentile(row["times"], 0.95),
        }
    return summary


def percentile(values: list, share: float) -> float | None:
    """The `share` quantile of `values` (nearest rank), None without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarise(results: list[dict]) -> dict:
    """Per bot and per nation: seat-games, wins (shared victories as 1/k), win rate with a 95%
    Wilson interval, mean Renaissance Points, thinking time per decision (mean; p95 for the
    search bots)."""
    return {
        "bots": _rows(results, lambda game, seat: game["bots"][seat]),
        "nations": _rows(results, lambda game, seat: game["nations"][seat]),
    }


def format_table(summary: dict) -> str:
    lines = []
    for title, rows in (("bot", summary["bots"]), ("nation", summary["nations"])):
        lines.append(
            f"{title:<12}{'games':>7}{'wins':>9}{'win rate':>10}{'95% CI':>17}"
            f"{'points':>8}{'ms/dec':>8}{'p95 ms':>8}"
        )
        for key, row in sorted(rows.items(), key=lambda kv: -kv[1]["win_rate"]):
            low, high = row["ci95"]
            lines.append(
                f"{key:<12}{row['games']:>7}{row['wins']:>9.2f}{row['win_rate']:>10.3f}"
                f"{f'[{low:.3f}, {high:.3f}]':>17}{row['mean_points']:>8.2f}"
                f"{row['ms_per_decision']:>8.3f}"
                + (f"{row['p95_ms']:>8.0f}" if row.get("p95_ms") is not None else f"{'-':>8}")
            )
        lines.append("")
    return "\n".join(lines).rstrip()
