"""Renaissance bot games with diplomacy: do the bots' offers help or hurt the bot that makes them?

`python -m ai.renaissance.diplomacy_arena --games 300 --bots heuristic+offers,heuristic,...`
plays seat-rotated games as the arena does (ai/renaissance/arena.py: its schedule and its
summary), with diplomacy played the way the site plays it: before each of its decisions a bot
whose token ends in `+offers` may make an offer (`make_offer`), and every bot answers at once
each offer made to it (`answer_offer`), its turn or not. It reports per bot the arena's table
and how many offers were made and accepted.
"""

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import games.renaissance as renaissance

from . import make_bot
from .arena import format_table, schedule, summarise

OFFERING = "+offers"
# A game is about 500 decisions for 6 players; offers and answers add a few dozen.
MAX_STEPS = 10_000
COUNTS = (
    "made",
    "offer_exchange",
    "offer_condottiere",
    "accepted",
    "accepted_exchange",
    "accepted_condottiere",
    "declined",
    "declined_exchange",
    "declined_condottiere",
)


def level_of(token: str) -> str:
    return token.removesuffix(OFFERING)


def answer_all(state, bots, counts):
    """Every bot answers the offers waiting for it (each answer removes one offer)."""
    for seat, bot in enumerate(bots):
        while True:
            answer = bot.answer_offer(renaissance.view_for(state, seat))
            if answer is None:
                break
            state = renaissance.apply_action(state, seat, answer)
            verdict = "accepted" if answer["type"].startswith("accept") else "declined"
            counts[verdict] += 1
            counts[f"{verdict}_{answer['type'].partition('_')[2]}"] += 1
    return state


def play_game(spec: dict) -> dict:
    """One game of `spec` (arena.schedule's) with diplomacy; the arena's result, and `offers`:
    the offers made and their answers over the game (COUNTS, by kind), and `made_by`: offers
    made per seat."""
    players = len(spec["bots"])
    state = renaissance.new_game(
        players, seed=spec["game_seed"], options={"nations": spec["nations"]}
    )
    bots = [
        make_bot(level_of(token), seed=spec["game_seed"] * 31 + seat)
        for seat, token in enumerate(spec["bots"])
    ]
    offering = [token.endswith(OFFERING) for token in spec["bots"]]
    counts = dict.fromkeys(COUNTS, 0)
    made_by = [0] * players
    think, decisions, steps = [0.0] * players, [0] * players, 0
    started = time.perf_counter()
    while not renaissance.is_terminal(state) and steps < MAX_STEPS:
        for seat in sorted(renaissance.acting_seats(state)):
            steps += 1
            view = renaissance.view_for(state, seat)
            tick = time.perf_counter()
            offer = bots[seat].make_offer(view) if offering[seat] else None
            if offer is not None:
                state = renaissance.apply_action(state, seat, offer)
                counts["made"] += 1
                counts[offer["type"]] += 1
                made_by[seat] += 1
                state = answer_all(state, bots, counts)
                if seat not in renaissance.acting_seats(state):
                    break  # an exchange accepted may end the seat's part (the site's move: stale)
                view = renaissance.view_for(state, seat)
            action = bots[seat].choose(view)
            think[seat] += time.perf_counter() - tick
            decisions[seat] += 1
            state = renaissance.apply_action(state, seat, action)
            if renaissance.is_terminal(state) or view["phase"] != "vote":
                break
    won = renaissance.winners(state)
    return {
        **spec,
        "winners": list(won),
        "shares": [1.0 / len(won) if seat in won else 0.0 for seat in range(players)],
        "points": renaissance.final_scores(state),
        "finished": renaissance.is_terminal(state),
        "decisions": decisions,
        "think_seconds": think,
        "seconds": time.perf_counter() - started,
        "offers": counts,
        "made_by": made_by,
    }


def offer_totals(results: list[dict]) -> dict:
    totals = dict.fromkeys(COUNTS, 0)
    for game in results:
        for key in totals:
            totals[key] += game["offers"][key]
    totals["games"] = len(results)
    totals["unfinished"] = sum(1 for game in results if not game["finished"])
    return totals


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument(
        "--bots", default="heuristic+offers,heuristic", help="comma-separated bot tokens"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="write the report here")
    args = parser.parse_args(argv)
    specs = schedule(args.bots.split(","), args.players, args.games, args.seed)
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play_game, specs, chunksize=4))
    summary, totals = summarise(results), offer_totals(results)
    print(format_table(summary))
    print("offers:", json.dumps(totals))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            report = {"args": vars(args), "summary": summary, "offers": totals, "games": results}
            json.dump(report, handle, indent=1)


if __name__ == "__main__":
    main()
