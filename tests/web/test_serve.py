"""`python -m condottiere_site.serve`, the launcher `make run`, the load harness and the fault
tests start Daphne with: Daphne's loop is uvloop's, which only holds if the policy is set before
`daphne.server` is first imported (it makes its loop at import)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_the_launcher_runs_daphne_on_uvloops_event_loop():
    result = run_python("-m", "condottiere_site.serve", "--help")

    assert result.returncode == 0, result.stderr
    assert "Daphne's event loop: uvloop.Loop" in result.stderr
    assert "usage:" in result.stdout and "--port" in result.stdout  # Daphne's own command line


def test_daphne_imported_before_the_policy_keeps_asyncios_loop():
    # Why the launcher imports Daphne only after use_uvloop(): the loop is made at import.
    code = (
        "import daphne.server\n"
        "from condottiere_site.serve import use_uvloop, loop_name\n"
        "use_uvloop()\n"
        "print(loop_name(daphne.server.twisted_loop))\n"
    )
    result = run_python("-c", code)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("asyncio.")
