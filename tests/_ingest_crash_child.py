"""Helper process for tests/test_ingest_crash.py: a zygote that forks ingest loops to be SIGKILLed.

Importing LanceDB takes seconds, so this process imports everything once,
then for each ``run SEED`` line on stdin forks a child that rewrites the
documents at random and ingests them (``sync=True``) in an endless loop.
It answers ``pid N`` when the child starts and ``exit STATUS`` when it is
gone. It never touches the database itself, so forking is safe.

The document variants are defined here and imported by the test.
"""

from __future__ import annotations

import os
import random
import sys
import traceback
import warnings
from pathlib import Path

NAMES = [f"doc{i}.md" for i in range(6)]
VARIANTS = 3


def variant(name: str, v: int) -> str:
    """Return version ``v`` of document ``name``: 1 to 4 sections, each one paragraph."""
    i = NAMES.index(name)
    parts = 1 + (i + v) % 4
    return "".join(
        f"# Section {j} of {name}\n\nVersion {v}, part {j}: "
        + " ".join(f"w{i}{v}{j}{k}" for k in range(5 + j))
        + ".\n\n"
        for j in range(parts)
    )


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one rename, so a reader never sees a half-written file."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def make_pipeline(db: Path) -> object:
    """The pipeline both the children and the test use."""
    import sectionrag
    from sectionrag import Pipeline
    from sectionrag.stores import LanceDBStore
    from sectionrag.testing import HashEmbedder

    return Pipeline(
        chunker=sectionrag.chunker("paragraph", size=64),
        embedder=HashEmbedder(dimension=32),
        store=LanceDBStore(db),
        batch_size=2,
    )


def loop(docs: Path, db: Path, seed: int) -> None:  # pragma: no cover - runs in a child
    """Rewrite documents at random and ingest them, forever (until killed)."""
    import sectionrag.ingest.runner as runner

    runner._FLUSH_MIN = 3  # many small commit groups: more moments to be killed in between
    rng = random.Random(seed)
    pipe = make_pipeline(db)
    while True:
        for name in NAMES:
            roll = rng.random()
            path = docs / name
            if roll < 0.15:
                path.unlink(missing_ok=True)
            elif roll < 0.8:
                write_atomically(path, variant(name, rng.randrange(VARIANTS)))
        pipe.ingest([docs], sync=True)  # type: ignore[attr-defined]


def main() -> None:  # pragma: no cover - runs as a separate process
    """Serve ``run SEED`` / ``quit`` commands from stdin."""
    docs, db = Path(sys.argv[1]), Path(sys.argv[2])
    import sectionrag.ingest.runner
    import sectionrag.parsers.markdown  # noqa: F401
    from sectionrag.stores import LanceDBStore  # noqa: F401

    print("ready", flush=True)
    for line in sys.stdin:
        command = line.split()
        if not command or command[0] == "quit":
            break
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # lancedb warns that fork support is experimental
            pid = os.fork()
        if pid == 0:
            try:
                loop(docs, db, int(command[1]))
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(3)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)


if __name__ == "__main__":
    main()
