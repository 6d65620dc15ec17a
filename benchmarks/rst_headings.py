"""reStructuredText section titles: sectionrag's parser against docutils, the reference reader.

Every ``.rst`` file under the folders given (default: the running Python's
installation, whose packages ship their READMEs, change logs, licences and
documentation as reStructuredText) is read twice: by docutils, which builds
the document tree (the document title kept as a section, no includes, no raw
input, no messages), and by :class:`sectionrag.parsers.rst.RstParser`. Each
file's sections are compared as (title, depth) pairs: precision, recall and
F1 per file, their means over the files where docutils finds a section, and
the share of files whose sections match exactly. Files with the same bytes
are read once.

    python benchmarks/rst_headings.py                 # the installation's .rst files
    python benchmarks/rst_headings.py DIR ... --show 10  # other folders; list the worst files

The figures in docs/benchmarks.md also read the sdists of ten projects documented in
reStructuredText (``pip download --no-binary :all: --no-deps sphinx pytest sqlalchemy flask
click werkzeug jinja2 alembic docutils setuptools``, unpacked into one folder).

Needs docutils (``pip install docutils``; not a dependency of sectionrag).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import sys
import sysconfig
from collections import Counter
from pathlib import Path

from sectionrag.parsers.rst import RstParser

_ROLE = re.compile(r":[\w.+-]+:`([^`]*)`")
SETTINGS = {
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "sectnum_xform": False,
    "report_level": 5,
    "halt_level": 5,
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "warning_stream": False,
    "input_encoding": "utf-8",
}


def docutils_sections(text: str) -> list[tuple[str, int]] | None:
    """Return docutils' (title, depth) of every section of ``text``, or ``None`` when it cannot read it."""
    from docutils import nodes
    from docutils.core import publish_doctree

    try:
        tree = publish_doctree(text, settings_overrides=SETTINGS)
    except Exception:  # docutils gives up on a few malformed files; they are not counted
        return None
    out = []
    for section in tree.findall(nodes.section):
        depth, parent = 1, section.parent
        while parent is not None:
            depth += isinstance(parent, nodes.section)
            parent = parent.parent
        out.append((_key(section[0].astext()), depth))
    return out


def _key(title: str) -> str:
    # (docutils alone leaves roles it does not know, Sphinx's ":mod:`email`", as their source)
    return " ".join(_ROLE.sub(r"\1", title).replace("\\", "").split()).casefold()


def scores(truth: list[tuple[str, int]], found: list[tuple[str, int]]) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``found`` against ``truth``, as multisets of (title, depth)."""
    hit = sum((Counter(truth) & Counter(found)).values())
    precision = hit / len(found) if found else float(not truth)
    recall = hit / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="*", type=Path, help="folders to search (default: Python's own)")
    p.add_argument("--show", type=int, default=0, help="list this many files with the lowest F1")
    args = p.parse_args(argv)
    paths = sysconfig.get_paths()
    folders = args.folders or sorted({Path(paths[k]) for k in ("stdlib", "purelib", "platlib")})
    seen: set[str] = set()
    rows = []
    parser = RstParser()
    unread = 0
    for path in sorted(f for folder in folders for f in folder.rglob("*.rst") if f.is_file()):
        data = path.read_bytes()
        digest = hashlib.sha1(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            unread += 1
            continue
        truth = docutils_sections(text)
        if truth is None:
            unread += 1
            continue
        if not text.strip():
            continue
        doc = parser.parse_text(text, source=str(path))
        found = [(_key(s.title), s.level) for s in doc.sections]
        rows.append((path, truth, found, *scores(truth, found)))
    scored = [r for r in rows if r[1]]
    no_sections = [r for r in rows if not r[1]]
    print(f"{len(rows)} distinct .rst files read by both ({unread} docutils could not read or not UTF-8)")
    print()
    print(
        "| files | sections (docutils) | sections (sectionrag) "
        "| mean precision | mean recall | mean F1 | exact |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, group in (("with sections", scored), ("without sections", no_sections)):
        if not group:
            continue
        print(
            f"| {label}: {len(group)} | {sum(len(r[1]) for r in group)} | {sum(len(r[2]) for r in group)} "
            f"| {statistics.mean(r[3] for r in group):.3f} | {statistics.mean(r[4] for r in group):.3f} "
            f"| {statistics.mean(r[5] for r in group):.3f} "
            f"| {sum(r[1] == r[2] for r in group) / len(group):.3f} |"
        )
    for path, truth, found, _, _, f1 in sorted(scored + no_sections, key=lambda r: r[5])[: args.show]:
        print(f"\n{f1:.2f} {path}")
        print("  docutils:  ", truth[:8])
        print("  sectionrag:", found[:8])
    return 0


if __name__ == "__main__":
    sys.exit(main())
