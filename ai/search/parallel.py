"""The `expert` level: root-parallel ISMCTS. Each worker process grows its own tree from its own
determinizations; their root statistics are summed and the single-process rule picks the move
(Chaslot, Winands & van den Herik 2008 found root parallelism the simplest scheme that scales)."""

import multiprocessing
import random
import threading
import time
from collections import defaultdict

from games.engine import determinize

from ..seeding import decision_rng
from .bot import HEURISTIC_TRUST, SearchBot, answer_without_search
from .tree import Node, choose_root_move

# The SearchBot settings each worker's search copies from the expert bot.
WORKER_SETTINGS = (
    "exploration",
    "inference",
    "coalition",
    "battles",
    "value",
    "opponents",
    "determinizations",
)


def _worker_visits(args) -> dict:
    view, history, seed, iterations, deadline, settings = args
    # The deadline is absolute, so the time a worker took to start counts against the budget.
    time_limit = None if deadline is None else max(0.05, deadline - time.time())
    bot = SearchBot(seed, iterations=iterations, time_limit=time_limit, **settings)
    search = bot.run(view, random.Random(seed), history)
    return {
        move: (child.visits, child.reward, child.squares)
        for move, child in search.root.children.items()
    }


def can_fork() -> bool:
    """Daemonic processes (e.g. a Celery prefork worker) may not have children."""
    return not multiprocessing.current_process().daemon


def process_context():
    """Fork is fastest, but forking a process that runs other threads (a web server's bot
    thread pool) can copy a lock some other thread holds; there, start fresh interpreters."""
    method = "fork" if threading.active_count() == 1 else "spawn"
    return multiprocessing.get_context(method)


class RootParallelBot(SearchBot):
    """SearchBot whose budget is spread over `workers` processes."""

    def __init__(self, seed=None, *, workers=2, **kwargs):
        super().__init__(seed, **kwargs)
        self.workers = workers

    def choose(self, view: dict, history: list | None = None) -> dict:
        answer = answer_without_search(view)
        if answer is not None:
            return answer
        rng = decision_rng(self.seed, view)
        seeds = [rng.getrandbits(64) for _ in range(self.workers)]
        share = None if self.iterations is None else max(1, self.iterations // self.workers)
        deadline = None if self.time_limit is None else time.time() + self.time_limit
        settings = {name: getattr(self, name) for name in WORKER_SETTINGS}
        jobs = [(view, history, seed, share, deadline, settings) for seed in seeds]
        if self.workers > 1 and can_fork():
            with process_context().Pool(self.workers) as pool:
                results = pool.map(_worker_visits, jobs)
        else:
            results = [_worker_visits(job) for job in jobs]
        merged = defaultdict(lambda: Node(view["seat"]))
        for result in results:
            for move, (visits, reward, squares) in result.items():
                node = merged[move]
                node.visits += visits
                node.reward += reward
                node.squares += squares
        advice = self.advice_move(view, determinize(view, rng))
        best = choose_root_move(dict(merged), advice, HEURISTIC_TRUST, self.confidence)
        return self.action_for(view, best, rng)
