"""Make the web pages printed to PDF by Chrome in tests/data/pdf (round twenty-one).

Each page comes from a Debian documentation package (Git's AsciiDoc pages, PostgreSQL's DocBook
pages, Python's Sphinx pages, SQLite's own pages) and is printed by headless Chromium with the
outline a browser builds from the page's headings (``--generate-pdf-document-outline``): the
bookmarks ``heading_eval.py`` scores against. Needs ``chromium`` and ``apt-get download``.

    python benchmarks/make_web_pdfs.py            # into tests/data/pdf
    python benchmarks/make_web_pdfs.py --out DIR
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (Debian package, page inside the unpacked package, file written)
PAGES = [
    ("git-doc", "usr/share/doc/git-doc/MyFirstContribution.html", "git-first-contribution-chrome.pdf"),
    ("git-doc", "usr/share/doc/git-doc/user-manual.html", "git-user-manual-chrome.pdf"),
    (
        "postgresql-doc-15",
        "usr/share/doc/postgresql-doc-15/html/functions-json.html",
        "postgresql-functions-json-chrome.pdf",
    ),
    (
        "postgresql-doc-15",
        "usr/share/doc/postgresql-doc-15/html/monitoring-stats.html",
        "postgresql-monitoring-stats-chrome.pdf",
    ),
    (
        "postgresql-doc-15",
        "usr/share/doc/postgresql-doc-15/html/pgbench.html",
        "postgresql-pgbench-chrome.pdf",
    ),
    ("python3.11-doc", "usr/share/doc/python3.11/html/howto/regex.html", "python-regex-howto-chrome.pdf"),
    ("python3.11-doc", "usr/share/doc/python3.11/html/library/sqlite3.html", "python-sqlite3-chrome.pdf"),
    ("sqlite3-doc", "usr/share/doc/sqlite3/fts5.html", "sqlite-fts5-chrome.pdf"),
    ("sqlite3-doc", "usr/share/doc/sqlite3/optoverview.html", "sqlite-query-optimizer-chrome.pdf"),
    ("sqlite3-doc", "usr/share/doc/sqlite3/vtab.html", "sqlite-virtual-tables-chrome.pdf"),
]


def unpack(packages: set[str], into: Path) -> None:
    """Download the Debian packages and unpack them into ``into``."""
    subprocess.run(["apt-get", "download", *sorted(packages)], cwd=into, check=True)
    for deb in into.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(into / "x")], check=True)


def print_page(chromium: str, html: Path, pdf: Path) -> None:
    """Print one page to PDF as Chrome's "Save as PDF" does, with the outline of its headings."""
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            "--generate-pdf-document-outline",
            f"--print-to-pdf={pdf}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "pdf")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        unpack({package for package, _, _ in PAGES}, work)
        for _, page, name in PAGES:
            print_page(chromium, work / "x" / page, args.out / name)
            print(args.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
