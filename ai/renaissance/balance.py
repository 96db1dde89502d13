"""The balance check (docs/renaissance/balance.md): one bot level in every seat, nations rotated.

    .venv/bin/python -m ai.renaissance.balance --games 1200 --players 6 --workers 2 \
        --bot heuristic --json docs/arena/renaissance-balance-6p.json

`--bot` takes any level `make_bot` knows (ai/renaissance/levels.py), or an arena token
(`hard:1`: hard's own rules of thumb, never searched), so a stronger bot is measured with the
same command. Prints, as Markdown: each nation's win rate (95% Wilson
interval), mean Renaissance Points, cities and provinces held at the end, and its points turn by
turn (why a nation wins: an early province scores every turn after); the votes;
the battles (attacker's wins by fortification, terrain, landing, Ride, red cards); the
Condottiere die as rolled in play (rout, treason, values); how often each card kind decided a
battle (the result would flip without it). Everything is counted from the bots' own views.
"""

import argparse
import os
import platform
import time
from collections import Counter, defaultdict

import games.renaissance as renaissance
from games.renaissance import board

from ..arena import run, write_json
from ..ratings import wilson_interval
from .arena import format_table, make_arena_bot, play_game, schedule, summarise
from .odds import CARD_NAMES

CONDOTTIERE = CARD_NAMES.index("condottiere")


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m ai.renaissance.balance")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--bot",
        default="heuristic",
        help="the bot in every seat: a level, or an arena token (hard:1, the level's own rules "
        "of thumb without search)",
    )
    parser.add_argument("--json", default=None)
    return parser.parse_args(argv)


def rate(wins, games):
    if not games:
        return "–"
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.3f} [{low:.2f}, {high:.2f}] (n={games})"


def totals(battle):
    """(attack, defence) from the revealed battle and the Signs of God played after it."""
    b = battle["revealed"]
    signs = [
        b["signs"][side] if b["signs"][side] >= 0 else battle["signs"][side] for side in (0, 1)
    ]
    result = []
    for side in (0, 1):
        troops = b["troops"][side]
        total = sum(value for _, value in troops) + b["dice"][side]
        if signs[side] >= 0:
            total += troops[signs[side]][1]
        if side == 1:
            total += b["fort"] + b["bonus"] + b["engineer"]
        result.append(total)
    return result, signs


def province_cities(players: int) -> list[tuple[int, ...]]:
    """The provinces open in a game of `players` (closed ones score for nobody), each as the
    indices of its cities in a view's `owner` list."""
    view = renaissance.view_for(renaissance.new_game(players, seed=0), None)
    closed = view["public"]["closed"]
    # The view names the cities in the order of its lists.
    index = {name: number for number, name in enumerate(view["cities"])}
    provinces = [tuple(index[name] for name in cities) for cities in board.PROVINCES.values()]
    return [cities for cities in provinces if not closed[cities[0]]]


def provinces_held(owner: list[int], provinces: list[list[int]], seat: int) -> int:
    return sum(all(owner[city] == seat for city in cities) for cities in provinces)


def nation_figures(games: list[dict]) -> dict:
    """Per nation: mean cities and provinces held at the end, and mean points scored each turn."""
    provinces = province_cities(len(games[0]["nations"])) if games else []
    rows = defaultdict(lambda: {"games": 0, "cities": 0, "provinces": 0, "turns": []})
    for game in games:
        for seat, nation in enumerate(game["nations"]):
            row = rows[nation]
            row["games"] += 1
            row["cities"] += game["cities"][seat]
            final = game["watch"]["final"]
            row["provinces"] += provinces_held(final["owner"], provinces, seat)
            sheet = final["sheet"][seat]
            row["turns"] += [0] * (len(sheet) - len(row["turns"]))
            row["turns"] = [a + b for a, b in zip(row["turns"], sheet, strict=False)]
    return {
        nation: {
            "mean_cities": row["cities"] / row["games"],
            "mean_provinces": row["provinces"] / row["games"],
            "points_by_turn": [points / row["games"] for points in row["turns"]],
        }
        for nation, row in rows.items()
    }


def nations_table(summary: dict, figures: dict) -> list[str]:
    lines = [
        "| nation | games | wins | win rate [95% Wilson] | mean RP | cities | provinces "
        "| RP by turn |",
        "|---|---|---|---|---|---|---|---|",
    ]
    rows = sorted(summary["nations"].items(), key=lambda kv: -kv[1]["win_rate"])
    for nation, row in rows:
        low, high = row["ci95"]
        extra = figures[nation]
        turns = " ".join(f"{points:.1f}" for points in extra["points_by_turn"])
        lines.append(
            f"| {nation} | {row['games']} | {row['wins']:g} | {row['win_rate']:.3f} "
            f"[{low:.3f}, {high:.3f}] | {row['mean_points']:.1f} | {extra['mean_cities']:.1f} "
            f"| {extra['mean_provinces']:.1f} | {turns} |"
        )
    return lines


def battle_figures(battles):
    out = {}
    out["battles"] = len(battles)
    out["attacker_won"] = sum(b["attacker_won"] for b in battles)
    by = defaultdict(lambda: [0, 0])

    def count(key, battle):
        by[key][0] += battle["attacker_won"]
        by[key][1] += 1

    for b in battles:
        count(("level", b["level"]), b)
        how = "ride" if b["ride"] else ("sea" if b.get("sea") else "road")
        count(("how", how), b)
        count(("war", b["war"]), b)
        attack, defence = b["commits"]
        count(("attacker red", (attack or {}).get("red") or "none"), b)
        count(("defender red", (defence or {}).get("red") or "none"), b)
        count(("defender cards", min(b["defender_cards"], 4)), b)
    out["by"] = {f"{k[0]}={k[1]}": v for k, v in sorted(by.items(), key=str)}
    return out


def condottiere_figures(battles):
    committed = routed = offers = bought = 0
    faces = Counter()
    for b in battles:
        offers += len(b["treason"])
        bought += sum(b["treason"])
        if not settled(b):
            continue
        sent = sum(
            (commit or {}).get("blue", []).count("condottiere")
            + ((commit or {}).get("red") == "condottiere")
            for commit in b["commits"]
        )
        standing = [
            v for side in (0, 1) for k, v in b["revealed"]["troops"][side] if k == CONDOTTIERE
        ]
        committed += sent
        routed += sent - len(standing)
        faces.update(standing)
    return {
        "committed_seen": committed,
        "routed": routed,
        "treason_offers": offers,
        "treason_bought": bought,
        "values": dict(sorted(faces.items())),
    }


def settled(battle) -> bool:
    """The battle was seen after every Condottiere's roll (not mid-treason)."""
    revealed = battle["revealed"]
    return revealed is not None and all(
        value >= 0 for side in (0, 1) for _, value in revealed["troops"][side]
    )


def decisive_figures(battles):
    """Per card kind (and fortification, dice): how often it stood on the winning side, and how
    often the result would have flipped without it (a tie goes to the defender)."""
    played, decisive = Counter(), Counter()
    checked = consistent = 0
    for b in battles:
        if not settled(b):
            continue
        (attack, defence), signs = totals(b)
        checked += 1
        consistent += (attack > defence) == b["attacker_won"]
        won = 0 if attack > defence else 1
        margin = attack - defence if won == 0 else defence - attack  # > 0, or >= 0 for defence

        def flips(value, margin=margin, won=won):
            return margin - value < (1 if won == 0 else 0)

        rb = b["revealed"]
        for index, (kind, value) in enumerate(rb["troops"][won]):
            worth = value * (2 if signs[won] == index else 1)
            name = CARD_NAMES[kind]
            played[name] += 1
            decisive[name] += flips(worth)
            if signs[won] == index:
                played["sign_of_god"] += 1
                decisive["sign_of_god"] += flips(value)
        if won == 1:
            for name, value in (("fortification", rb["fort"]), ("terrain/landing", rb["bonus"])):
                if value:
                    played[name] += 1
                    decisive[name] += flips(value)
            if rb["engineer"]:
                played["engineer (defence)"] += 1
                decisive["engineer (defence)"] += flips(rb["engineer"])
        played["die"] += 1
        decisive["die"] += flips(rb["dice"][won])
    return {
        "checked": checked,
        "consistent": consistent,
        "kinds": {k: [decisive[k], played[k]] for k in sorted(played, key=lambda k: -played[k])},
    }


def yellow_figures(games):
    out = defaultdict(Counter)
    for game in games:
        for y in game["watch"]["yellow"]:
            before, after = y["before"], y["after"]
            card = y["card"]
            out[card]["played"] += 1
            if card == "raiders":
                out[card]["pillaged"] += after["pillaged"] > before["pillaged"]
            elif card == "artist":
                out[card]["artist placed"] += after["artists"] > before["artists"]
                out[card]["Savonarola"] += after["palaces"] < before["palaces"]
            elif card == "ambassador":
                result = y.get("result") or (
                    "two cards" if after["hand"] > before["hand"] else "no target"
                )
                out[card][result] += 1
                if result == "corrupt":
                    out[card]["corrupt: city won"] += after["cities"] > before["cities"]
    return {card: dict(counter) for card, counter in out.items()}


def votes_figures(games):
    war = Counter()
    turns = Counter()
    for game in games:
        for turn, is_war in game["watch"]["votes"]:
            turns[turn] += 1
            war[turn] += is_war
    return {turn: [war[turn], turns[turn]] for turn in sorted(turns)}


def markdown(report):
    lines = ["```", format_table(report["summary"]), "```", ""]
    lines += nations_table(report["summary"], report["nations"]) + [""]
    b = report["battles"]
    lines.append(
        f"Battles: {b['battles']} ({b['battles'] / report['games']:.1f} a game), "
        f"attacker won {rate(b['attacker_won'], b['battles'])}"
    )
    lines += ["", "| battles | attacker won |", "|---|---|"]
    lines += [f"| {key} | {rate(w, n)} |" for key, (w, n) in b["by"].items()]
    c = report["condottiere"]
    lines += ["", f"Condottiere die: {c}"]
    d = report["decisive"]
    lines += [
        "",
        f"Decisive (checked {d['checked']} battles, totals consistent {d['consistent']}):",
        "",
        "| on the winning side | played | decisive |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {n} | {w / n:.2f} |" for k, (w, n) in d["kinds"].items()]
    lines += [
        "",
        f"Votes (war, votes) by turn: {report['votes']}",
        "",
        f"Yellow: {report['yellow']}",
    ]
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    try:
        make_arena_bot(args.bot, seed=0)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    specs = schedule([args.bot], args.players, args.games, args.seed)
    for spec in specs:
        spec["watch"] = True
    load = os.getloadavg()
    started = time.perf_counter()
    games = run(specs, args.workers, progress=False, play=play_game)
    seconds = time.perf_counter() - started
    battles = [b for game in games for b in game["watch"]["battles"]]
    report = {
        "command": "python -m ai.renaissance.balance "
        + " ".join(f"--{k} {v}" for k, v in vars(args).items() if v is not None and k != "json"),
        "games": len(games),
        "game_seeds": [min(s["game_seed"] for s in specs), max(s["game_seed"] for s in specs)],
        "seconds": seconds,
        "load_before": load,
        "load_after": os.getloadavg(),
        "python": platform.python_version(),
        "summary": summarise(games),
        "nations": nation_figures(games),
        "battles": battle_figures(battles),
        "condottiere": condottiere_figures(battles),
        "decisive": decisive_figures(battles),
        "yellow": yellow_figures(games),
        "votes": votes_figures(games),
        "unfinished": sum(not g["finished"] for g in games),
    }
    print(markdown(report))
    print(f"\n{len(games)} games in {seconds:.0f} s, load {load} -> {report['load_after']}")
    if args.json:
        # Each game without what the summary already holds: the watch's counts and, for a
        # search level, every decision's thinking time (several MB over 1,200 games).
        dropped = ("watch", "think_ms")
        slim = {
            **report,
            "results": [{k: v for k, v in g.items() if k not in dropped} for g in games],
        }
        write_json(args.json, slim)
    return report


if __name__ == "__main__":
    main()
