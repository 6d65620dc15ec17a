"""The heading benchmark's level measure: a lone root is not a level, nothing else is forgiven."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "heading_eval.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("heading_eval", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["heading_eval"] = module
    spec.loader.exec_module(module)
    return module


heading_eval = _load()


def test_lone_root_is_not_a_level():
    tree = [(1, "A Book", 1), (2, "1 Intro", 2), (3, "1.1 Goals", 2), (2, "2 Use", 5)]
    assert heading_eval.without_lone_root(tree) == [
        (1, "A Book", 1),
        (1, "1 Intro", 2),
        (2, "1.1 Goals", 2),
        (1, "2 Use", 5),
    ]


def test_two_top_entries_or_a_later_top_entry_keep_their_levels():
    two = [(1, "Preface", 1), (1, "1 Intro", 2), (2, "1.1 Goals", 2)]
    assert heading_eval.without_lone_root(two) == two
    late = [(2, "Preface", 1), (1, "1 Intro", 2), (2, "1.1 Goals", 2)]
    assert heading_eval.without_lone_root(late) == late
    assert heading_eval.without_lone_root([(1, "Only", 1)]) == [(1, "Only", 1)]


def test_sets_are_apart():
    assert heading_eval.set_of("git-user-manual-asciidoctor.pdf") == "fresh validation"
    assert (
        heading_eval.set_of("nodejs-events-typst.pdf") == "development"
    )  # fresh in round five, examined since
    assert heading_eval.set_of("why3-manual.pdf") == "development"  # fresh in round four, examined since
    assert heading_eval.set_of("gnuplot-manual.pdf") == "development"  # fresh in round three, examined since
    assert heading_eval.set_of("aprx-manual.pdf") == "validation"
    assert heading_eval.set_of("doxygen-manual.pdf") == "round 7 (examined)"  # fresh until examined
    assert not heading_eval.FRESH7 & (heading_eval.FRESH | heading_eval.VALIDATION)
    assert heading_eval.set_of("classicthesis.pdf") == "development"
    assert not heading_eval.FRESH & heading_eval.VALIDATION
    assert heading_eval.set_of("minitoc-manual.pdf") == "held-out (round 8)"
    assert not heading_eval.HELDOUT8 & (heading_eval.FRESH | heading_eval.VALIDATION | heading_eval.FRESH7)
    assert all((heading_eval.DATA / name).is_file() for name in heading_eval.HELDOUT8)
    # round nine: split by name order, the first, third ... file development, the others held out
    round9 = sorted(heading_eval.ROUND9_DEV | heading_eval.HELDOUT9)
    assert len(round9) == 16 and set(round9[0::2]) == heading_eval.ROUND9_DEV
    assert set(round9[1::2]) == heading_eval.HELDOUT9
    earlier = heading_eval.FRESH | heading_eval.VALIDATION | heading_eval.FRESH7 | heading_eval.HELDOUT8
    assert not set(round9) & earlier
    assert all((heading_eval.DATA / name).is_file() for name in round9)
    assert heading_eval.set_of("wargame-manual.pdf") == "held-out (round 9)"
    assert heading_eval.set_of("aomart-sample.pdf") == "round 9 (examined)"
    # round ten: the same rule
    round10 = sorted(heading_eval.ROUND10_DEV | heading_eval.HELDOUT10)
    assert len(round10) == 13 and set(round10[0::2]) == heading_eval.ROUND10_DEV
    assert set(round10[1::2]) == heading_eval.HELDOUT10
    assert not set(round10) & (earlier | set(round9))
    assert all((heading_eval.DATA / name).is_file() for name in round10)
    assert heading_eval.set_of("glpk-gmpl-reference.pdf") == "held-out (round 10)"
    assert heading_eval.set_of("verilator-manual-sphinx.pdf") == "round 10 (examined)"


def test_truth_printed_counts_titles_on_their_page_or_beside_it():
    from sectionrag.types import Document, PageSpan

    text = "1 Introduction\nSome text.\nTwo\n2 Usage and more\nText.\n"
    second = text.index("Two")
    doc = Document.create(
        text,
        source="t",
        sections=[],
        pages=[PageSpan(1, 0, second), PageSpan(2, second, len(text))],
        metadata={},
    )
    truth = [(1, "1 Introduction", 1), (1, "2 Usage and more", 1), (1, "3 Never printed", 2)]
    assert heading_eval.printed_share(truth, doc) == 2 / 3  # page 2 is beside page 1
    assert heading_eval.printed_share([(1, "Introduction", 9)], doc) == 0.0  # far from its page
    assert heading_eval.printed_share([], doc) == 1.0


def test_figures_carry_the_versions_they_were_measured_with():
    from importlib.metadata import version

    env = heading_eval.environment()
    assert env["pypdfium2"] == version("pypdfium2")
    assert env["pdfplumber"] == version("pdfplumber")
    assert env["sectionrag"] == version("sectionrag")
    assert set(heading_eval.MEASURED_WITH) <= set(env) and "python" in env
    line = heading_eval.environment_line(env)
    assert line.startswith("Measured with python ") and f"pypdfium2 {env['pypdfium2']}" in line
    assert f"system fonts {heading_eval.system_fonts()}" in line


def test_figures_carry_the_fonts_a_pdf_may_borrow(tmp_path):
    # a PDF's fonts that are not embedded are drawn with the machine's: another font installed is
    # another environment, though every package's version is the same
    fonts = tmp_path / "fonts"
    (fonts / "truetype" / "dejavu").mkdir(parents=True)
    (fonts / "truetype" / "dejavu" / "DejaVuSans.ttf").write_bytes(b"")
    (fonts / "README").write_text("not a font")
    before = heading_eval.system_fonts((fonts, tmp_path / "missing"))
    assert before.startswith("1 files ")
    (fonts / "truetype" / "droid").mkdir()
    (fonts / "truetype" / "droid" / "DroidSansFallbackFull.TTF").write_bytes(b"")
    after = heading_eval.system_fonts((fonts,))
    assert after.startswith("2 files ") and after != before
    assert heading_eval.system_fonts((fonts,)) == after  # the same fonts, the same mark


def test_outside_check_keeps_apt_output_off_stdout(tmp_path, monkeypatch, capfd):
    """The package download's progress never mixes into the table or the JSON on stdout."""
    import pytest

    spec = importlib.util.spec_from_file_location("outside_eval", SCRIPT.with_name("outside_eval.py"))
    assert spec is not None and spec.loader is not None
    outside = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(outside)
    fake = tmp_path / "bin"
    fake.mkdir()
    apt = fake / "apt-get"
    apt.write_text("#!/bin/sh\necho 'Get:1 http://deb.example/ texlive-publishers-doc'\nexit 100\n")
    apt.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    monkeypatch.setattr(outside, "CACHE_ROOT", tmp_path / "cache")
    with pytest.raises(SystemExit, match="could not download"):
        outside.unpacked(None)
    out, err = capfd.readouterr()
    assert "Get:1" not in out and "Get:1" in err


def test_outside_check_lists_both_draws_split_alternately_and_apart():
    """Each draw's files are development and held out in turn, and no file is in both draws."""
    spec = importlib.util.spec_from_file_location("outside_eval", SCRIPT.with_name("outside_eval.py"))
    assert spec is not None and spec.loader is not None
    outside = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(outside)
    first, second = outside.listed(outside.LIST), outside.listed(outside.SECOND)
    scripts, producers = outside.listed(outside.SCRIPTS), outside.listed(outside.PRODUCERS)
    assert (len(first), len(second), len(scripts), len(producers)) == (120, 353, 47, 15)
    assert {package for package, *_ in producers} == {"pypi:pymupdf", "pypi:ocrmypdf"}
    for rows in (first, second, scripts, producers):
        assert [which for *_, which in rows] == ["development", "held-out"] * (len(rows) // 2) + (
            ["development"] if len(rows) % 2 else []
        )
        assert all(path.endswith(".pdf") and not path.startswith("/") for _, _, path, _ in rows)
    assert {(p, v) for p, v, _, _ in first} == {(outside.PACKAGE, outside.VERSION)}
    assert not {path for _, _, path, _ in first} & {path for _, _, path, _ in second}
    # the Chinese and Japanese draw was looked at after the changes it measures: development only
    cjk = outside.listed(outside.CJK)
    assert len(cjk) == 41 and {which for *_, which in cjk} == {"development"}
    earlier = {path for _, _, path, _ in first} | {path for _, _, path, _ in second}
    assert not {path for _, _, path, _ in cjk} & earlier
    assert not {path for _, _, path, _ in scripts} & (earlier | {path for _, _, path, _ in cjk})


def _outside_module():
    spec = importlib.util.spec_from_file_location("outside_eval", SCRIPT.with_name("outside_eval.py"))
    assert spec is not None and spec.loader is not None
    outside = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(outside)
    return outside


def _sdist():
    """A source distribution holding a PDF, a licence and a module, and PyPI's simple index for it."""
    import hashlib
    import io
    import json
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in (
            ("demo-1.0/tests/resources/a.pdf", b"%PDF-1.4 demo"),
            ("demo-1.0/COPYING", b"licence text"),
            ("demo-1.0/demo/__init__.py", b"print('no')"),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    data = buffer.getvalue()
    index = {"files": [{"filename": "demo-1.0.tar.gz", "url": "../../files/demo-1.0.tar.gz",
                        "hashes": {"sha256": hashlib.sha256(data).hexdigest()}}]}  # fmt: skip
    return data, json.dumps(index).encode()


def test_outside_check_fetches_a_source_distribution_checks_it_and_keeps_its_pdfs(tmp_path, monkeypatch):
    import io

    import pytest

    outside = _outside_module()
    data, index = _sdist()
    asked: list[str] = []

    def urlopen(request, timeout=0):
        url = request if isinstance(request, str) else request.full_url
        asked.append(url)
        return io.BytesIO(index if url.endswith("/simple/demo/") else data)

    monkeypatch.setattr(outside.urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(outside, "CACHE_ROOT", tmp_path / "cache")
    root = outside.sdist_unpacked("demo", "1.0")
    assert (root / "demo-1.0/tests/resources/a.pdf").read_bytes() == b"%PDF-1.4 demo"
    assert (root / "demo-1.0/COPYING").is_file() and not (root / "demo-1.0/demo").exists()
    assert asked == ["https://pypi.org/simple/demo/", "https://pypi.org/files/demo-1.0.tar.gz"]
    assert outside.sdist_unpacked("demo", "1.0") == root and len(asked) == 2  # (cached)
    # a distribution that is not the one PyPI lists is refused
    monkeypatch.setattr(outside, "CACHE_ROOT", tmp_path / "other")
    data = data[:-1] + bytes([data[-1] ^ 1])
    with pytest.raises(SystemExit, match="does not match"):
        outside.sdist_unpacked("demo", "1.0")
