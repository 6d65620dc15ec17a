"""The import graph of ``src/sectionrag`` follows the data flow: no circle, no upward or sideways import.

Read from the source with ``ast`` (every import counts: module level,
inside functions, under ``TYPE_CHECKING``). Each module belongs to a room,
its first name under ``sectionrag`` (``sectionrag.stores._lock`` is in
``stores``); rooms sit on layers, top first. A module may import its own
room and the rooms of lower layers. The same contract is checked by
import-linter in ``make lint`` (``[tool.importlinter]`` in pyproject.toml).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sectionrag"

#: rooms by layer, top first; rooms of one layer may not import each other, except on the ground
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"__main__"}),
    frozenset({"cli"}),
    frozenset({"eval", "integrations", "testing"}),
    frozenset({"pipeline"}),
    frozenset({"ingest"}),
    frozenset({"parsers", "chunkers", "enrich", "embedders", "stores"}),
    frozenset(
        {
            "registry",
            "protocols",
            "tokenizers",
            "enrichment_fields",
            "_describe",
            "_checks",
            "_sentences",
            "_rerank",
            "_hidden_imports",
            "defaults",
            "types",
            "errors",
            "_version",
        }
    ),
)
GROUND = LAYERS[-1]


def modules(root: Path) -> dict[str, Path]:
    """Map every module under ``root`` (a package directory) to its file."""
    package = root.name
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """Yield ``(imported module, line)`` for each import of the package's own modules in ``path``."""
    package = name.split(".")[0]
    is_package = path.name == "__init__.py"
    seen: set[tuple[str, int]] = set()
    for found in _imports(name, path, known, package, is_package):
        if found not in seen:
            seen.add(found)
            yield found


def _imports(
    name: str, path: Path, known: dict[str, Path], package: str, is_package: bool
) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == package:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.split(".")[0] != package:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub if sub in known else base), node.lineno


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(name: str) -> int | None:
    return next((i for i, rooms in enumerate(LAYERS) if name in rooms), None)


def violations(root: Path) -> list[str]:
    """Every import that breaks the layering, and every circle, as readable lines."""
    known = modules(root)
    package = root.name
    graph: dict[str, set[str]] = {m: set() for m in known}
    problems: list[str] = []
    for name, path in known.items():
        here = room(name)
        where = f"{path.relative_to(root.parent)}"
        if here and layer_of(here) is None:
            problems.append(
                f"{where}: room {here!r} is on no layer; add it to LAYERS and the import contract"
            )
            continue
        for target, line in imports(name, path, known):
            if target in known and target != name:
                graph[name].add(target)
            there = room(target)
            if not here:  # the package's public surface may import everything below it
                continue
            if not there:
                problems.append(f"{where}:{line}: imports the package root {package!r} (its public surface)")
                continue
            if there == here:
                continue
            mine, theirs = layer_of(here), layer_of(there)
            if theirs is None or mine is None:
                problems.append(f"{where}:{line}: imports {target}, which is on no layer")
            elif theirs < mine:
                problems.append(f"{where}:{line}: imports {target} upward ({here} -> {there})")
            elif theirs == mine and here not in GROUND:
                problems.append(f"{where}:{line}: imports {target} sideways ({here} -> {there})")
    problems.extend(f"import circle: {' -> '.join(c)}" for c in circles(graph))
    return problems


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each as a closed path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append([*sorted(component), sorted(component)[0]])

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_follows_the_data_flow() -> None:
    assert violations(SRC) == []


def test_every_room_is_on_a_layer_of_the_import_linter_contract() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((SRC.parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    listed = [
        frozenset(part.strip(" ()") for part in layer.replace(":", "|").split("|"))
        for layer in contract["layers"]
    ]
    assert listed == list(LAYERS)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"stores/lancedb.py": "from sectionrag.ingest.lock import file_lock\n"},
            "upward (stores -> ingest)",
        ),
        (
            {"chunkers/semantic.py": "from sectionrag.embedders import static\n"},
            "sideways (chunkers -> embedders)",
        ),
        ({"types.py": "import sectionrag.cli\n"}, "upward (types -> cli)"),
        ({"pipeline.py": "import sectionrag\n"}, "imports the package root"),
        ({"ingest/runner.py": "if TYPE_CHECKING:\n    from sectionrag.pipeline import Pipeline\n"}, "upward"),
        ({"plugins/x.py": ""}, "on no layer"),
        (
            {"ingest/a.py": "from sectionrag.ingest import b\n", "ingest/b.py": "from . import a\n"},
            "import circle: sectionrag.ingest.a -> sectionrag.ingest.b -> sectionrag.ingest.a",
        ),
    ],
)
def test_the_check_fails_on_a_bad_import(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    root = _write(
        tmp_path / "sectionrag",
        {
            "__init__.py": "",
            "types.py": "",
            "stores/__init__.py": "",
            "ingest/__init__.py": "",
            "chunkers/__init__.py": "",
            "embedders/__init__.py": "",
            "cli/__init__.py": "",
            **files,
        },
    )
    found = violations(root)
    assert any(expected in line for line in found), found


def test_a_good_tree_passes(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "sectionrag",
        {
            "__init__.py": "from sectionrag.pipeline import Pipeline\n",
            "types.py": "",
            "errors.py": "",
            "protocols.py": "from sectionrag.types import Chunk\n",
            "chunkers/__init__.py": "from sectionrag.chunkers.fixed import FixedChunker\n",
            "chunkers/fixed.py": "from sectionrag import registry\nfrom sectionrag.errors import Error\n",
            "registry.py": "from sectionrag.errors import Error\n",
            "pipeline.py": "from sectionrag.chunkers import FixedChunker\nimport sectionrag.protocols\n",
            "cli/__init__.py": "from sectionrag.pipeline import Pipeline\n",
        },
    )
    assert violations(root) == []
