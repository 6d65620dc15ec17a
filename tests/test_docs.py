"""The documentation site builds with ``mkdocs build --strict``, covers every public module, and
the extras tables of the README and the docs list every extra pyproject.toml declares."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "sectionrag"
DOCS = ROOT / "docs"
pytestmark = pytest.mark.skipif(not (ROOT / "mkdocs.yml").is_file(), reason="needs the source tree")


def _public_modules() -> set[str]:
    """Every module and package of sectionrag whose dotted path has no part starting with ``_``."""
    found = set()
    for path in SRC.rglob("*.py"):
        parts = ("sectionrag", *path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(p.startswith("_") for p in parts):
            found.add(".".join(parts))
    return found


def _extras() -> set[str]:
    tomllib = pytest.importorskip("tomllib", reason="needs Python 3.11 or newer")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def _extras_table(text: str) -> set[str]:
    """The first column of the table under the heading "Optional extras"."""
    section = text.split("Optional extras", 1)[1]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \|", section, flags=re.MULTILINE)
    return set(rows)


def test_api_reference_covers_every_public_module() -> None:
    documented = set()
    for page in (DOCS / "reference").glob("*.md"):
        documented |= set(
            re.findall(r"^::: (sectionrag[\w.]*)\s*$", page.read_text(encoding="utf-8"), re.MULTILINE)
        )
    assert documented <= _public_modules(), "a reference page names a module that does not exist"
    assert _public_modules() - documented == set(), "add these modules to a page of docs/reference/"


def test_every_docs_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert {p for p in pages if p not in nav} == set()


@pytest.mark.parametrize("doc", ["README.md", "docs/install.md"])
def test_extras_tables_list_every_extra(doc: str) -> None:
    assert _extras_table((ROOT / doc).read_text(encoding="utf-8")) == _extras()


def test_install_hints_name_extras_that_exist() -> None:
    hints = set()
    for path in SRC.rglob("*.py"):
        for group in re.findall(r"sectionrag\[([a-z0-9,-]+)\]", path.read_text(encoding="utf-8")):
            hints |= set(group.split(","))
    from sectionrag.embedders import _backends, _models

    hints |= {extra for _, extra in _backends._NEEDS.values()} | {
        extra for _, extra in _models._PACKAGED.values()
    }
    assert hints and hints <= _extras()


@pytest.mark.slow
def test_site_builds_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason='needs pip install "sectionrag[docs]"')
    pytest.importorskip("mkdocstrings_handlers.python", reason='needs pip install "sectionrag[docs]"')
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p)
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    for page in (
        "index.html",
        "concepts/index.html",
        "reference/chunkers/index.html",
        "changelog/index.html",
    ):
        assert (site / page).is_file(), page
    reference = (site / "reference" / "chunkers" / "index.html").read_text(encoding="utf-8")
    assert 'id="sectionrag.chunkers.section.SectionChunker"' in reference
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog and "--8&lt;--" not in changelog
