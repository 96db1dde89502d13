"""How settled a search's choices are at a budget: the same positions searched with two seeds.

    python -m ai.stability --positions 30 --iterations 10000 --determinizations 250,10000 \\
        --smaller 1000

The positions come from seeded games between heuristic bots: every ninth decision the search
levels would search (the others are answered at once), with three legal actions or more. Each
is searched at `hard`'s settings with the given iterations, once per size of the pool of
determinizations and seed. For each pool size it prints how often the two seeds chose the same
move (a choice that changes with the seed is still noise), how often the search overruled the
heuristic's move, and the CPU seconds per search. Then how often the heuristic's move, and the
same search at `--smaller` iterations, match the larger searches' choices: what more thinking
changes. docs/ai.md ("Tried and dropped", a fresh determinization every iteration) reports a
run.
"""

import argparse
import time

from games.engine import apply_action, current_player, is_terminal, new_game, view_for

from .factory import make_bot
from .search.bot import answer_without_search
from .seeding import decision_rng

SEEDS = (11, 22)


def searched_positions(count: int, players: int = 2, seed: int = 5150, every: int = 9) -> list:
    """`count` views at which a search level would search, from seeded heuristic games."""
    found = []
    game = 0
    while len(found) < count:
        state = new_game(players, seed=seed + game)
        bots = [make_bot("heuristic", seed=seed + game * players + s) for s in range(players)]
        searched = 0
        while not is_terminal(state) and len(found) < count:
            view = view_for(state, current_player(state))
            if answer_without_search(view) is None:
                searched += 1
                if searched % every == every // 2 and len(view["legal_actions"]) >= 3:
                    found.append(view)
            state = apply_action(state, bots[view["seat"]].choose(view))
        game += 1
    return found


def search_choice(view: dict, seed: int, iterations: int, determinizations: int) -> dict:
    """The move `hard`'s search chooses at this budget, the heuristic's move, and the CPU time."""
    bot = make_bot("hard", seed=seed, iterations=iterations)
    bot.determinizations = determinizations
    started = time.process_time()
    _search, advice, chosen = bot.searched_move(view, decision_rng(seed, view))
    return {"chosen": chosen, "advice": advice, "cpu": time.process_time() - started}


def pool_summary(choices: list[list[dict]]) -> dict:
    """`choices[position]` holds one search_choice per seed."""
    searches = [choice for row in choices for choice in row]
    return {
        "positions": len(choices),
        "seeds_agree": sum(len({c["chosen"] for c in row}) == 1 for row in choices),
        "overrules": sum(c["chosen"] != c["advice"] for c in searches),
        "searches": len(searches),
        "cpu_per_search": sum(c["cpu"] for c in searches) / max(1, len(searches)),
    }


def match_rate(moves: list, references: list[list]) -> float:
    """The mean share of each position's reference choices that equal its move."""
    shares = [
        sum(move == ref for ref in refs) / len(refs)
        for move, refs in zip(moves, references, strict=True)
    ]
    return sum(shares) / max(1, len(shares))


def measure(views: list, iterations: int, pools: list[int], smaller: int | None = None) -> dict:
    """Per pool size, pool_summary of its searches; then how often the heuristic's move, and
    the search at `smaller` iterations (with the first pool size), match every pool's choices."""
    by_pool = {
        pool: [[search_choice(view, s, iterations, pool) for s in SEEDS] for view in views]
        for pool in pools
    }
    references = [
        [c["chosen"] for pool in pools for c in by_pool[pool][index]] for index in range(len(views))
    ]
    report = {pool: pool_summary(rows) for pool, rows in by_pool.items()}
    advice = [by_pool[pools[0]][index][0]["advice"] for index in range(len(views))]
    report["heuristic_matches"] = match_rate(advice, references)
    if smaller:
        small = [[search_choice(view, s, smaller, pools[0]) for s in SEEDS] for view in views]
        report["smaller_matches"] = sum(
            match_rate([row[k]["chosen"] for row in small], references) for k in range(len(SEEDS))
        ) / len(SEEDS)
    return report


def print_report(report: dict, args) -> None:
    for pool in args.determinizations:
        row = report[pool]
        print(
            f"{args.iterations} iterations, {pool} determinizations: the two seeds agree on "
            f"{row['seeds_agree']} of "
            f"{row['positions']} positions; the heuristic's move overruled in "
            f"{row['overrules']} of {row['searches']} searches; "
            f"{row['cpu_per_search']:.2f} s of CPU per search"
        )
    print(f"the heuristic's move matches those choices {report['heuristic_matches']:.0%}")
    if "smaller_matches" in report:
        print(f"{args.smaller} iterations match them {report['smaller_matches']:.0%}")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument(
        "--determinizations",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[250],
        help="pool sizes to compare, comma-separated",
    )
    parser.add_argument("--smaller", type=int, help="also match a search with this budget")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    views = searched_positions(args.positions, args.players)
    report = measure(views, args.iterations, args.determinizations, args.smaller)
    print_report(report, args)
    return report


if __name__ == "__main__":
    main()
