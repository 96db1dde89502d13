"""Every ruling of docs/renaissance/rulings.md is cited by a test: a new ruling without a test
fails here. A test cites ruling n as "R<n>" (a whole word, e.g. "[ruling] R14: ..." in its
docstring), anywhere in a file of tests/renaissance other than this one."""

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
RULINGS = TESTS.parents[1] / "docs" / "renaissance" / "rulings.md"


def ruling_numbers():
    """The n of every "**R<n>." heading in rulings.md."""
    return [int(n) for n in re.findall(r"^\*\*R(\d+)\.", RULINGS.read_text("utf-8"), re.M)]


def cited_numbers():
    cited = set()
    for path in TESTS.glob("*.py"):
        if path.name != Path(__file__).name:
            cited.update(int(n) for n in re.findall(r"\bR(\d+)\b", path.read_text("utf-8")))
    return cited


def test_the_rulings_are_numbered_one_to_n_once_each():
    numbers = ruling_numbers()
    assert numbers, "no **R<n>. heading found in rulings.md"
    assert sorted(numbers) == list(range(1, len(numbers) + 1))


def test_every_ruling_is_cited_by_a_test():
    missing = sorted(set(ruling_numbers()) - cited_numbers())
    assert not missing, f"rulings without a test citing them: {[f'R{n}' for n in missing]}"
