"""The architecture's boundaries, held by a test rather than by care (docs/architecture.md).

Read from the source by tests/import_graph.py: every import counts, at module level or inside a
function.
"""

import sys

import pytest

from tests.import_graph import cycles, project_graph

WEB_FRAMEWORKS = {"django", "channels", "celery", "daphne", "asgiref", "redis", "channels_redis"}
STANDARD_LIBRARY = frozenset(sys.stdlib_module_names)
# Modules that run or know a job runner: the services must announce work through games.jobs.
RUNNERS = {
    "games.tasks",
    "games.jobs.sweep",
    "games.lobby.tables",
    "games.sockets.game",
    "games.sockets.lobby",
}
# Where an import inside a function is the framework's own way (Django loads the named jobs
# when the app is ready) — and nowhere else.
LATE_IMPORTS_ALLOWED = {
    ("games.apps", "games.tasks"),
    ("games.apps", "games.accounts.sockets"),
    ("games.botapi.apps", "games.botapi.deletion"),
}


@pytest.fixture(scope="module")
def graph():
    return project_graph()


def modules_under(graph, package: str) -> list:
    return [m for name, m in graph.items() if name == package or name.startswith(package + ".")]


def test_the_graph_is_read_from_the_project(graph):
    """A guard for the guards: a graph that found nothing would pass every test below."""
    expected = {"games.engine", "games.renaissance", "games.rules_api", "games.services"}
    assert expected | {"games.jobs", "ai", "games.tasks", "games.history.records"} <= set(graph)
    assert {"games.engine", "games.renaissance"} <= graph["games.rules_api"].imports
    assert "games.rules_api" in graph["games.services.actions"].imports
    assert "django" in graph["games.models"].external


def test_the_engine_is_pure(graph):
    """The rules import only the standard library and themselves."""
    for module in modules_under(graph, "games.engine"):
        outside = {name for name in module.imports if not name.startswith("games.engine")}
        assert not outside, f"{module.name} imports {sorted(outside)}"
        assert not module.external & (WEB_FRAMEWORKS | {"openskill"}), (
            f"{module.name} imports {sorted(module.external & WEB_FRAMEWORKS)}"
        )


def test_renaissance_is_pure(graph):
    """The second game's rules and board import only the standard library and themselves."""
    modules = modules_under(graph, "games.renaissance")
    assert modules, "games.renaissance was not found"
    for module in modules:
        outside = {name for name in module.imports if not name.startswith("games.renaissance")}
        assert not outside, f"{module.name} imports {sorted(outside)}"
        assert not module.external & (WEB_FRAMEWORKS | {"openskill"}), (
            f"{module.name} imports {sorted(module.external & WEB_FRAMEWORKS)}"
        )


# What games.rules_api may see of the engines: their public faces, each game's record and public
# log (what the site stores of a game), and Renaissance's diplomacy (the actions any seat may
# take at any moment).
RULES_INTERFACE_SEES = {
    "games.engine",
    "games.engine.record",
    "games.engine.public_log",
    "games.renaissance",
    "games.renaissance.record",
    "games.renaissance.public_log",
    "games.renaissance.diplomacy",
}


def test_the_rules_interface_knows_only_the_two_engines(graph):
    """games.rules_api (one shape for both games) imports the engines' faces listed above and the
    standard library, so the web and the bots may use it without pulling anything else in."""
    module = graph["games.rules_api"]
    assert {"games.engine", "games.renaissance"} <= module.imports, sorted(module.imports)
    assert module.imports <= RULES_INTERFACE_SEES, sorted(module.imports - RULES_INTERFACE_SEES)
    assert not module.external - STANDARD_LIBRARY, sorted(module.external - STANDARD_LIBRARY)


ENGINES = ("games.engine", "games.renaissance")
# The only parts that may import an engine: the engines themselves, the one interface over them,
# the bots (which see the engines' public faces, below) and the data migrations (frozen in time;
# tests/import_graph.py does not read them).
ENGINE_DOORS = (*ENGINES, "games.rules_api", "ai", "games.migrations")


def is_within(name: str, packages) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def test_only_the_engines_interface_imports_an_engine(graph):
    """Outside the engines, games.rules_api, the bots and the migrations, every module reaches a
    game's rules through games.rules_api: none imports an engine, its package or a module of it."""
    outside = [module for module in graph.values() if not is_within(module.name, ENGINE_DOORS)]
    assert len(outside) > len(graph) // 2, "the project's modules were not found"
    for module in outside:
        engines = sorted(name for name in module.imports if is_within(name, ENGINES))
        assert not engines, f"{module.name} imports {engines}: go through games.rules_api"


# The public faces a bot may see: the two engines, the Renaissance board's own module (the map is
# printed on the board, public to every player) and the one interface over both games.
BOT_VISIBLE = {"games.engine", "games.renaissance", "games.renaissance.board", "games.rules_api"}


def test_bots_see_only_the_engines_public_face(graph):
    for module in modules_under(graph, "ai"):
        games_imports = {name for name in module.imports if name.startswith("games")}
        assert games_imports <= BOT_VISIBLE, (
            f"{module.name} imports {sorted(games_imports - BOT_VISIBLE)}"
        )
        assert not module.external & WEB_FRAMEWORKS, (
            f"{module.name} imports {sorted(module.external & WEB_FRAMEWORKS)}"
        )


def test_the_services_import_no_runner(graph):
    for module in modules_under(graph, "games.services"):
        runners = {
            name
            for name in module.imports
            if name in RUNNERS or name.startswith(("games.actors", "games.views"))
        }
        assert not runners, f"{module.name} imports {sorted(runners)}"
        assert "celery" not in module.external, f"{module.name} imports celery"


def test_the_job_port_knows_no_job(graph):
    """games.jobs is imported by the services: it must import nothing of the project back."""
    assert graph["games.jobs"].imports == set()


def test_no_import_cycle_anywhere(graph):
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_import_is_hidden_in_a_function_to_dodge_a_cycle(graph):
    late = {(module.name, target) for module in graph.values() for target in module.late}
    assert late <= LATE_IMPORTS_ALLOWED, f"imports inside functions: {sorted(late)}"
