"""Command-line latency: ``import sectionrag``, ``search`` per mode, ``index`` first vs no-op.

Every figure is a fresh ``python -m sectionrag ...`` process (what a shell
user pays per command), timed end to end (wall) and by its CPU time (user +
sys of the child: on a shared machine, wall time grows with the load while
CPU time stays close to what an idle machine's wall time would be). Runs of
several source trees are interleaved (A B A B ...) so a drift in the
machine's load hits all alike.

- ``import``: ``python -c "import sectionrag"``.
- ``model load``: a fresh process importing the embedder and loading the
  ``minilm`` weights, then embedding one query: the model's own cost, which a
  vector or hybrid search cannot avoid. A search's *overhead* is its time
  less this.
- ``search MODE``: ``sectionrag search QUERY --db DB --mode MODE`` on the
  indexed corpus; "first" is the first run of a tree (file caches warm from
  indexing), the others are the median and best of the rest. Whether torch
  was imported is checked in every run, and the time spent loading the model
  process: the rest is what the command adds to the model's own load time
  (a helper process forked to embed the query is not counted there: its
  model load overlaps the command's own work).
- ``warm query MODE``: the same query answered again in one process whose
  pipeline and model are loaded (the Python API, the MCP server): the
  median over 20 queries.
- ``index first`` / ``index no-op``: ``sectionrag index CORPUS --db NEW
  --embedder minilm``, then the same command on the unchanged corpus.
  ``index no-op, full path``: the same, with the manifest the last run left
  (``_sectionrag_unchanged.*.json``) deleted first, so the run opens the
  collection and compares every file with its record (what a run pays after
  the collection was written to by anything else).

Each source tree is compiled to bytecode first (``compileall``), as an
installed package is: where ``PYTHONDONTWRITEBYTECODE`` is set, a tree that
never was pays for compiling its modules in every command (about 0.15 s).

The corpus is 12 documents copied from the repository (the two examples, the
four evaluation documents, two PDFs, the policies seed and three READMEs).

Usage: python benchmarks/bench_cli.py [--src DIR[=LABEL]]... [--repeat N] [--index-repeat N] [--nice N]
[--realtime]
(each ``--src`` is a ``src`` directory to put first on PYTHONPATH; default: this checkout's).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = [
    "examples/data/harbor_outfitters_customer_policies.md",
    "examples/data/northwind_annual_report_2025.md",
    "benchmarks/eval_data/jargon_file_entries.md",
    "benchmarks/eval_data/sotu_2014_transcript.txt",
    "benchmarks/eval_data/sqlite_manual.md",
    "benchmarks/eval_data/transit_annual_report_2024.md",
    "benchmarks/eval_data/README.md",
    "tests/data/pdf/x-protocol-security-analysis.pdf",
    "tests/data/pdf/annual-report-libreoffice.pdf",
    "tests/data/pdf/README.md",
    "tests/data/austen/README.md",
    "tests/data/seed001_policies.txt",
]
QUERY = "refund policy"
MODES = ("text", "vector", "hybrid")
WARM_QUERIES = [
    "refund policy",
    "total revenue in fiscal 2025",
    "how are orders shipped",
    "who is the chief financial officer",
    "risks of the convertible notes",
]

#: runs the command given as argv[1:] as ``python -m sectionrag``; says on stderr whether torch came in
#: and how long loading the model took inside the process (imports, weights: the model's own cost)
_RUN = (
    "import atexit, runpy, sys, time\n"
    "spent = [0.0]\n"
    "try:\n"
    "    import sectionrag.embedders.sentence_transformers as st\n"
    "    load = st.load_model\n"
    "    def timed(*a, **k):\n"
    "        t = time.perf_counter()\n"
    "        try:\n"
    "            return load(*a, **k)\n"
    "        finally:\n"
    "            spent[0] += time.perf_counter() - t\n"
    "    st.load_model = timed\n"
    "except (ImportError, AttributeError):\n"
    "    pass\n"
    "def report():\n"
    "    print('##torch=%d' % ('torch' in sys.modules), file=sys.stderr)\n"
    "    print('##model=%f' % spent[0], file=sys.stderr)\n"
    "atexit.register(report)\n"
    "sys.argv = ['sectionrag', *sys.argv[1:]]\n"
    "runpy.run_module('sectionrag', run_name='__main__')\n"
)
_MODEL = (
    "import time; t = time.perf_counter()\n"
    "from sectionrag.embedders import get_embedder\n"
    "get_embedder('minilm').embed_query('refund policy')\n"
    "print('##seconds=%f' % (time.perf_counter() - t))\n"
)
_WARM = """
import statistics, sys, time
from pathlib import Path
db, mode = sys.argv[1], sys.argv[2]
queries = sys.argv[3:]
try:
    from sectionrag.pipeline import Pipeline
    pipe = Pipeline.open(db)
    search = lambda q: pipe.search(q, k=5, mode=mode)
except AttributeError:  # a tree without Pipeline.open
    from sectionrag.embedders import get_embedder
    from sectionrag.pipeline import search_store
    from sectionrag.stores import LanceDBStore
    store = LanceDBStore(db)
    emb = None if mode == "text" else get_embedder(store.info().embedder)
    search = lambda q: search_store(store, q, embedder=emb, k=5, mode=mode)
search(queries[0])
times = []
for _ in range(4):
    for q in queries:
        t = time.perf_counter(); search(q); times.append(time.perf_counter() - t)
print("##seconds=%f" % statistics.median(times))
"""


@dataclass
class Tree:
    label: str
    src: Path
    work: Path
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    inner: dict[str, list[float]] = field(default_factory=dict)
    torch: dict[str, set[bool]] = field(default_factory=dict)
    nice: int = 0
    realtime: bool = False

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PYTHONPATH=str(self.src),
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
        )
        return env

    def run(self, key: str, argv: list[str]) -> str:
        """Run one child process; record its wall and CPU time under ``key``; return its stderr."""
        timed = key not in ("warmup", "index first")
        nice = self.nice if timed else 0
        realtime = self.realtime and timed

        def prepare() -> None:
            if nice:
                os.nice(nice)
            if realtime:  # round-robin real-time scheduling: ahead of every ordinary process
                os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(10))

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run(
            argv,
            env=self.env(),
            capture_output=True,
            text=True,
            cwd=self.work,
            preexec_fn=prepare if nice or realtime else None,
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if out.returncode != 0:
            raise SystemExit(f"[{self.label}] {' '.join(argv[2:])} failed:\n{out.stderr[-3000:]}")
        self.wall.setdefault(key, []).append(wall)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.cpu.setdefault(key, []).append(cpu)
        for line in out.stderr.splitlines() + out.stdout.splitlines():
            if line.startswith("##torch="):
                self.torch.setdefault(key, set()).add(line.endswith("1"))
            if line.startswith("##seconds="):
                self.inner.setdefault(key, []).append(float(line.split("=", 1)[1]))
            if line.startswith("##model="):
                model = float(line.split("=", 1)[1])
                self.inner.setdefault(f"{key} model", []).append(model)
                self.inner.setdefault(f"{key} overhead", []).append(wall - model)
        return out.stderr

    def cli(self, key: str, *args: str) -> None:
        self.run(key, [sys.executable, "-c", _RUN, *args])


def _copy_corpus(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for rel in CORPUS:
        src = ROOT / rel
        name = rel.replace("/", "__") if src.name == "README.md" else src.name
        shutil.copy2(src, dest / name)
    return dest


def _fmt(values: list[float]) -> str:
    return "-" if not values else f"{statistics.median(values):.2f}"


def _best(values: list[float]) -> str:
    return "-" if not values else f"{min(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--src", action="append", default=[], metavar="DIR[=LABEL]")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each search and import (default 5)")
    parser.add_argument("--index-repeat", type=int, default=2, help="first-index runs (default 2)")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="run the timed commands (not the first indexes) at this niceness; a negative value (root) "
        "makes the other jobs of a shared machine yield the CPU, which approaches an idle machine",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="run the timed commands (not the first indexes) with round-robin real-time scheduling "
        "(root, Linux): on a shared machine they then run about as on an idle one, both CPUs "
        "included, while the other jobs wait (the kernel keeps 5%% of each second for them); "
        "nice alone does not reach across the control groups other jobs may run in",
    )
    args = parser.parse_args()
    specs = args.src or [f"{ROOT / 'src'}=this checkout"]
    tmp = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    trees: list[Tree] = []
    for i, spec in enumerate(specs):
        path, _, label = spec.partition("=")
        work = tmp / f"tree{i}"
        work.mkdir()
        trees.append(Tree(label or path, Path(path).resolve(), work, nice=args.nice, realtime=args.realtime))
    for tree in trees:  # as an installed package is (see the module docstring)
        compileall.compile_dir(str(tree.src), quiet=1)
    corpus = _copy_corpus(tmp / "corpus")
    print(f"corpus: {len(list(corpus.iterdir()))} documents in {corpus}", file=sys.stderr)
    py = sys.executable
    try:
        for tree in trees:  # one-off work (the static chunking model is distilled and cached once)
            tree.cli(
                "warmup", "index", str(corpus), "--db", str(tree.work / "db-warmup"), "--embedder", "minilm"
            )
        for r in range(args.index_repeat):
            for tree in trees if r % 2 == 0 else reversed(trees):
                db = tree.work / f"db{r}"
                tree.cli("index first", "index", str(corpus), "--db", str(db), "--embedder", "minilm")
        for r in range(args.repeat):
            for tree in trees if r % 2 == 0 else reversed(trees):
                db = str(tree.work / "db0")
                tree.run("import", [py, "-c", "import sectionrag"])
                tree.run("model load", [py, "-c", _MODEL])
                tree.cli("index no-op", "index", str(corpus), "--db", db, "--embedder", "minilm")
                (Path(db) / "_sectionrag_unchanged.default.json").unlink(missing_ok=True)
                tree.cli("index no-op, full path", "index", str(corpus), "--db", db, "--embedder", "minilm")
                for mode in MODES:
                    key = f"search {mode} first" if r == 0 else f"search {mode}"
                    tree.cli(key, "search", QUERY, "--db", db, "--mode", mode)
        for tree in trees:
            for mode in MODES:
                tree.run(f"warm query {mode}", [py, "-c", _WARM, str(tree.work / "db0"), mode, *WARM_QUERIES])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    load = os.getloadavg()
    loads = " / ".join(f"{x:.1f}" for x in load)
    print(f"\nmachine: {os.cpu_count()} CPUs, load average {loads} at the end")
    print(
        f"{args.repeat} runs per search/import row, {args.index_repeat} first indexes; "
        f"timed commands at niceness {args.nice}"
        f"{', real-time (round-robin)' if args.realtime else ''}; seconds\n"
    )
    head = (
        "| row | "
        + " | ".join(f"{t.label}: wall (best) | {t.label}: CPU" for t in trees)
        + " | torch imported |"
    )
    print(head)
    print("|---|" + "---:|---:|" * len(trees) + "---|")
    rows = (
        ["import", "model load"]
        + [k for m in MODES for k in (f"search {m} first", f"search {m}")]
        + ["index first", "index no-op", "index no-op, full path"]
    )
    for key in rows:
        cells = []
        for t in trees:
            cells.append(
                f"{_fmt(t.wall.get(key, []))} ({_best(t.wall.get(key, []))}) | {_fmt(t.cpu.get(key, []))}"
            )
        torch = "; ".join(
            f"{t.label}: {'yes' if any(t.torch.get(key, {False})) else 'no'}" for t in trees if key in t.torch
        )
        print(f"| {key} | " + " | ".join(cells) + f" | {torch or '-'} |")
    print()
    for t in trees:
        model = statistics.median(t.inner.get("model load", [float("nan")]))
        first = statistics.median(t.wall["index first"])
        noop = statistics.median(t.wall["index no-op"])
        noop_cpu = statistics.median(t.cpu["index no-op"])
        first_cpu = statistics.median(t.cpu["index first"])
        print(f"{t.label}: model load inside its process {model:.2f} s (median)")
        for mode in ("vector", "hybrid"):
            key = f"search {mode}"
            wall = statistics.median(t.wall[key])
            model_in = statistics.median(t.inner[f"{key} model"])
            over = t.inner[f"{key} overhead"]
            alone = statistics.median(t.wall["model load"])
            print(
                f"  {key}: wall {wall:.2f} s, {wall - alone:+.2f} s against the model load process "
                f"({alone:.2f} s); loading the model inside it {model_in:.2f} s (in a thread when "
                f"preloaded, 0 when a helper process embedded the query); wall less that: "
                f"median {statistics.median(over):.2f} s, best {min(over):.2f} s"
            )
        for mode in MODES:
            warm = t.inner.get(f"warm query {mode}", [])
            print(f"  warm query {mode}: {1000 * statistics.median(warm):.1f} ms (median, in process)")
        print(
            f"  index: first {first:.2f} s, no-op {noop:.2f} s: {first / noop:.1f}x faster "
            f"(CPU: {first_cpu:.2f} s vs {noop_cpu:.2f} s, {first_cpu / noop_cpu:.1f}x)"
        )
        full = statistics.median(t.wall["index no-op, full path"])
        full_cpu = statistics.median(t.cpu["index no-op, full path"])
        print(
            f"  index no-op, full path: {full:.2f} s: {first / full:.1f}x faster than the first "
            f"(CPU: {full_cpu:.2f} s, {first_cpu / full_cpu:.1f}x)"
        )
    print(
        json.dumps({t.label: {"wall": t.wall, "cpu": t.cpu, "inner": t.inner} for t in trees}),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
