"""The documentation says what the project is, and a reader can find and follow all of it.

- No tracked file names a numbered work period: a comment cites a result by its row in
  docs/ai.md's results table or by a commit, which mean something outside the team.
- Every page under docs/ is reachable from the index, docs/README.md, by following links.
- Every relative link of the docs and of the README leads to a file or folder that exists.
"""

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"
WORK_PERIOD = r"sessions? [0-9]+"

FENCED_BLOCK = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the target may carry a "title" after a space.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...
# Paths of one machine, which mean nothing in a clone.
MACHINE_PATH = re.compile(r"^/(work|tmp|home|root|Users)/")


def tracked_files_matching(pattern: str) -> list[str]:
    """`git grep` lines (path:line:text) of tracked text files matching the pattern."""
    try:
        found = subprocess.run(
            ["git", "grep", "-nIiE", pattern, "--", "."],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        pytest.fail("git is needed to list the tracked files")
    if found.returncode not in (0, 1):  # 1: no match
        pytest.fail(f"git grep failed: {found.stderr.strip()}")
    return found.stdout.splitlines()


def markdown_links(page: Path) -> list[str]:
    """The link targets of a Markdown page, outside code blocks and code spans."""
    text = FENCED_BLOCK.sub("", page.read_text(encoding="utf-8"))
    text = INLINE_CODE.sub("", text)
    return LINK.findall(text)


def local_target(page: Path, target: str) -> Path | None:
    """The file a relative link of `page` points to; None for a web address, an anchor of the
    page itself or a path of the site (`/games/...`)."""
    if EXTERNAL.match(target) or target.startswith("#"):
        return None
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if path.startswith("/"):
        return None
    return (page.parent / path).resolve()


def doc_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def test_no_tracked_file_names_a_numbered_work_period():
    found = tracked_files_matching(WORK_PERIOD)
    assert not found, (
        "cite a row of docs/ai.md's results table or a commit, not a work period:\n"
        + "\n".join(found)
    )


def test_the_work_period_pattern_finds_what_it_must():
    # Numbers put in at run time, so that this file holds no such line itself.
    sample = [f"see session {25}", f"Sessions {33} to 34", "a login session", "the sessions list"]
    assert [bool(re.search(WORK_PERIOD, line, re.IGNORECASE)) for line in sample] == [
        True,
        True,
        False,
        False,
    ]


def test_every_doc_is_reachable_from_the_index():
    reached, waiting = set(), [INDEX.resolve()]
    while waiting:
        page = waiting.pop()
        if page in reached or not page.is_file():
            continue
        reached.add(page)
        for target in markdown_links(page):
            path = local_target(page, target)
            if path is not None and path.suffix == ".md" and DOCS in path.parents:
                waiting.append(path)
    unreached = [p.relative_to(ROOT).as_posix() for p in doc_pages() if p.resolve() not in reached]
    assert not unreached, f"not linked from docs/README.md, directly or not: {unreached}"


@pytest.mark.parametrize(
    "page",
    [ROOT / "README.md", *doc_pages()],
    ids=lambda page: page.relative_to(ROOT).as_posix(),
)
def test_every_relative_link_leads_to_a_file_that_exists(page):
    broken = []
    for target in markdown_links(page):
        if MACHINE_PATH.match(target):
            broken.append(f"{target} (a path of one machine, not of the repository)")
            continue
        path = local_target(page, target)
        if path is not None and not path.exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links to nothing: {broken}"


def test_links_in_code_are_not_links():
    page_text = "A [real](a.md) link.\n```\n[not](b.md)\n```\nand `[nor](c.md)`."
    text = INLINE_CODE.sub("", FENCED_BLOCK.sub("", page_text))
    assert LINK.findall(text) == ["a.md"]
