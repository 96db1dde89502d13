"""The project's import graph, read from the source (no module is imported to build it).

Every `import` and `from ... import` counts, at module level or inside a function: an import
placed in a function to dodge a cycle is still an arrow. `python -m tests.import_graph` prints
the graph's size, its cycles and its late imports, for the architecture's before/after report.
"""

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("condottiere_site", "games", "ai")
SKIPPED_PARTS = {"migrations", "__pycache__"}


@dataclass
class Module:
    name: str
    path: Path
    lines: int
    imports: set[str] = field(default_factory=set)  # every module this one imports
    late: set[str] = field(default_factory=set)  # those imported inside a function
    external: set[str] = field(default_factory=set)  # top-level names of other packages


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> list[Path]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not SKIPPED_PARTS & set(path.relative_to(ROOT).parts):
                files.append(path)
    return files


def resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def imported_names(node, module: str, is_package: bool) -> list[str]:
    """The absolute module names one import statement may refer to."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    origin = node.module
    if node.level:
        origin = resolve_relative(module, is_package, node.level, node.module)
    # `from package import name` names a submodule or something the package defines.
    return [f"{origin}.{alias.name}" for alias in node.names]


def function_bodies_imports(tree: ast.AST) -> set[int]:
    """ids of the import statements that sit inside a function."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for child in ast.walk(node):
                if isinstance(child, ast.Import | ast.ImportFrom):
                    inside.add(id(child))
    return inside


def is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def read_module(path: Path) -> tuple[Module, list[tuple[list[str], bool]]]:
    source = path.read_text()
    tree = ast.parse(source)
    name = module_name(path)
    is_package = path.name == "__init__.py"
    late_ids = function_bodies_imports(tree)
    typing_only = {
        id(child)
        for node in ast.walk(tree)
        if is_type_checking_block(node)
        for child in ast.walk(node)
    }
    raw = [
        (imported_names(node, name, is_package), id(node) in late_ids)
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in typing_only
    ]
    return Module(name, path, len(source.splitlines())), raw


def project_graph() -> dict[str, Module]:
    """{module name: Module}, with imports limited to the project's own modules."""
    read = [read_module(path) for path in project_files()]
    modules = {module.name: module for module, _ in read}
    for module, raw in read:
        for names, late in raw:
            for candidate in names:
                target = owner_module(candidate, modules)
                if target is None and candidate.split(".")[0] not in PACKAGES:
                    module.external.add(candidate.split(".")[0])
                elif target and target != module.name:
                    module.imports.add(target)
                    if late:
                        module.late.add(target)
    return modules


def owner_module(name: str, modules: dict) -> str | None:
    """The project module `name` denotes (`games.engine.X` where X is a function: the package)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index_of, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(node: str) -> None:
        index_of[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(modules[node].imports):
            if target not in index_of:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index_of[target])
        if low[node] == index_of[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(modules):
        if node not in index_of:
            visit(node)
    return sorted(found, key=len, reverse=True)


def report() -> str:
    modules = project_graph()
    arrows = sum(len(module.imports) for module in modules.values())
    late = sum(len(module.late) for module in modules.values())
    lines = [f"{len(modules)} modules, {arrows} arrows, {late} late (in-function) project imports"]
    for component in cycles(modules):
        size = sum(modules[name].lines for name in component)
        lines.append(f"cycle of {len(component)} modules ({size} lines): {', '.join(component)}")
    for module in sorted(modules.values(), key=lambda m: m.name):
        if module.late:
            lines.append(f"late imports in {module.name}: {', '.join(sorted(module.late))}")
    largest = sorted(modules.values(), key=lambda m: -m.lines)[:10]
    lines.append("largest: " + ", ".join(f"{m.name} {m.lines}" for m in largest))
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
