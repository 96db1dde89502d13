"""The job "analysis": a game's decisions searched a slice at a time, each from its seat's view.

Bounded: a fixed iteration budget per decision (`Analysis.iterations`) and at most
`ANALYSIS_MAX_DECISIONS` decisions. Behind live play: one run of the job searches for about
`ANALYSIS_SLICE_SECONDS`, saves what it found and announces itself again, so it goes to the back
of the background queue, behind the analyses announced meanwhile; no worker thread is held for
the length of a whole game's analysis. Bots never wait for it: the job is on the background
queue, whose workers (or, in the embedded profile, threads) play no bot turn
(games/jobs/__init__.py).

Idempotent: a slice saves only if the analysis is still where the slice began (a conditional
UPDATE on `progress`); a duplicate run of the same slice (a job delivered twice, or announced
again by a second request) finds its work saved and stops. The search is reproducible (no
clock, a fixed seed), so either copy would have saved the same values.
"""

import logging
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import F
from django.utils import timezone

from ai.analysis import analyse_view
from games import jobs
from games.analysis.decisions import Decision, game_decisions
from games.analysis.limits import (
    DEFAULT_ITERATIONS,
    DEFAULT_MAX_DECISIONS,
    DEFAULT_SLICE_SECONDS,
    SEED,
)
from games.analysis.marks import drop_points, mark_for, stake_points
from games.analysis.models import Analysis

log = logging.getLogger(__name__)

JOB = "analysis"
ACTIVE = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)


def budget_iterations() -> int:
    return int(getattr(settings, "ANALYSIS_ITERATIONS", DEFAULT_ITERATIONS))


def max_decisions() -> int:
    return int(getattr(settings, "ANALYSIS_MAX_DECISIONS", DEFAULT_MAX_DECISIONS))


def slice_seconds() -> float:
    return float(getattr(settings, "ANALYSIS_SLICE_SECONDS", DEFAULT_SLICE_SECONDS))


def analyse_decision(decision: Decision, iterations: int) -> dict:
    """One decision's entry in the results (docs/protocol.md, section 13)."""
    values = analyse_view(decision.view, iterations=iterations, seed=SEED)
    before = values.best_value
    after = values.value_of(decision.action)
    drop = drop_points(before, after)
    stake = stake_points(before, min(values.values.values(), default=None))
    return {
        "seq": decision.seq,
        "seat": decision.seat,
        "played": decision.action,
        "best": values.best,
        "before": round(before, 4),
        "after": None if after is None else round(after, 4),
        "drop": None if drop is None else round(drop, 2),
        "stake": None if stake is None else round(stake, 2),
        "mark": mark_for(drop, stake),
        "options": len(decision.view["legal_actions"]),
    }


def run_slice(analysis_id: int) -> str:
    """One slice of the job; returns what became of the analysis."""
    analysis = Analysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None or analysis.status not in ACTIVE:
        return "nothing to do"
    Analysis.objects.filter(pk=analysis.pk, status=Analysis.Status.QUEUED).update(
        status=Analysis.Status.RUNNING, updated_at=timezone.now()
    )
    try:
        return search_slice(analysis)
    except (OperationalError, InterfaceError):
        raise  # the job port retries the job: nothing was saved
    except Exception as error:
        log.exception("analysis %s of game %s failed", analysis.pk, analysis.game_id)
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.FAILED, error=str(error)[:500], updated_at=timezone.now()
        )
        return "failed"


def search_slice(analysis: Analysis) -> str:
    found, truncated = game_decisions(analysis.game, max_decisions())
    start = analysis.progress
    entries = list((analysis.results or {}).get("decisions", []))[:start]
    began = time.perf_counter()
    index = start
    while index < len(found):
        entries.append(analyse_decision(found[index], analysis.iterations))
        index += 1
        if time.perf_counter() - began >= slice_seconds():
            break
    finished = index >= len(found)
    now = timezone.now()
    saved = Analysis.objects.filter(pk=analysis.pk, progress=start, status__in=ACTIVE).update(
        progress=index,
        total=len(found),
        results={"decisions": entries, "truncated": truncated},
        cost_seconds=F("cost_seconds") + (time.perf_counter() - began),
        status=Analysis.Status.DONE if finished else Analysis.Status.RUNNING,
        finished_at=now if finished else None,
        updated_at=now,
    )
    if not saved:
        return "already done by another run"
    if finished:
        return "done"
    jobs.later(JOB, analysis.pk)  # the rest, behind whatever was announced meanwhile
    return "continues"
