"""The load harness: `python -m tests.load.loadtest SCENARIO` (see docs/operations.md, "Load test").

It talks to the site only over HTTP and websockets, and reads the database only to count and
check actions (plain SQL on `games_game` and `games_action`, and `manage.py verify_games`), so the
same harness can measure an older commit of the site (`--root`).
"""
