"""The analysis job's default bounds (settings may override each; see games/analysis/runner.py).
Free of Django, so that `make bench` can measure the job's cost at these defaults."""

# Search iterations per decision (ANALYSIS_ITERATIONS): the arena's reproducible budget for
# `hard`, whose search the analysis runs; about 0.5 s for a four-player decision.
DEFAULT_ITERATIONS = 1000
# Decisions analysed per game at most (ANALYSIS_MAX_DECISIONS); longer games are cut.
DEFAULT_MAX_DECISIONS = 400
# Seconds of search per run of the job before it saves and queues the rest
# (ANALYSIS_SLICE_SECONDS).
DEFAULT_SLICE_SECONDS = 2.0
# The search's seed for every decision (with the view's digest, ai/seeding.py): never the game's.
SEED = 0
