"""Heading detection on 120 PDFs outside the measured sets: Debian's texlive-publishers-doc.

The PDFs with bookmarks that ``heading_eval.py`` scores are the ones the
detector was built on (and held-out halves of them). This check scores the
same way, outline off, on 120 PDFs drawn at random from the journal, thesis
and report classes of Debian 12's ``texlive-publishers-doc`` package (the
held-out sets' classes left out), listed in
``benchmarks/ground_truth/outside-texlive-publishers.tsv``. The list is split
in its path order: the first, third, fifth ... file is development data
(looked at when a heading rule is written), the second, fourth, sixth ... is
held out (only measured).

The package is fetched with ``apt-get download`` (or given with ``--deb``) and
unpacked into a cache folder; nothing is kept in the repository but the list.

    python benchmarks/outside_eval.py              # means of both halves
    python benchmarks/outside_eval.py --json       # and every file's row
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import heading_eval as he

PACKAGE = "texlive-publishers-doc"
VERSION = "2022.20230122-4"
LIST = Path(__file__).resolve().parent / "ground_truth" / "outside-texlive-publishers.tsv"
CACHE = Path.home() / ".cache" / "sectionrag-bench" / f"{PACKAGE}_{VERSION}"


def unpacked(deb: Path | None) -> Path:
    """Return the folder the package is unpacked in, fetching and unpacking it first if needed."""
    if (CACHE / "usr").is_dir():
        return CACHE
    if deb is None:
        tmp = Path(tempfile.mkdtemp())
        try:
            # (apt-get's progress goes to stderr: stdout holds the table or the JSON)
            subprocess.run(
                ["apt-get", "download", f"{PACKAGE}={VERSION}"], cwd=tmp, check=True, stdout=sys.stderr
            )
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(
                f"could not download {PACKAGE} {VERSION} with apt-get ({exc}); "
                "fetch the .deb yourself and pass it with --deb"
            ) from exc
        deb = next(tmp.glob(f"{PACKAGE}_*.deb"))
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(CACHE)], check=True)
    return CACHE


def listed() -> list[tuple[str, str]]:
    """Return ``(path inside the package, set)`` for every listed PDF."""
    rows = []
    for line in LIST.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            path, which = line.split("\t")
            rows.append((path, which))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deb", type=Path, help=f"the {PACKAGE} {VERSION} .deb, if apt-get cannot fetch it")
    parser.add_argument("--json", action="store_true", help="print every file's row and the means as JSON")
    args = parser.parse_args(argv)
    root = unpacked(args.deb)
    rows: dict[str, list[he.Row]] = {"development": [], "held-out": []}
    for path, which in listed():
        row = he.evaluate(root / path)
        row.file = path.removeprefix("usr/share/doc/texlive-doc/")  # (several files share a name)
        row.set = which
        rows[which].append(row)
    means = {name: he.summary(group) for name, group in rows.items()}
    means["all"] = he.summary([r for group in rows.values() for r in group])
    if args.json:
        files = [asdict(r) for group in rows.values() for r in group]
        print(json.dumps({"files": files, "means": means, "environment": he.environment()}, indent=2))
        return 0
    print("| files | n | mean F1 | mean F1 (depth) | worst F1 (depth) | mean recall | mean level agreement |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, s in means.items():
        print(
            f"| {name} | {s['files']} | {s['mean_f1']:.3f} | {s['mean_f1_in_depth']:.3f} "
            f"| {s['worst_f1_in_depth']:.3f} | {s['mean_recall']:.3f} | {s['mean_level_agreement']:.3f} |"
        )
    print()
    print(he.environment_line(he.environment()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
