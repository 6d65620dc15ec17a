"""Levels and headings told apart by the page's evidence when typography alone does not (generated PDFs).

Like ``test_pdf_headings.py``: each test writes a few pages with ``_pdfgen``
and looks only at ``doc.sections``.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line
from sectionrag.parsers._pdf_members import nest_members
from test_pdf_headings import Flow, levels, parse, titles


def _api_reference(tmp_path: Path, members: dict[str, list[str]]) -> dict[str, int]:
    f = Flow().heading("Events", 18).para(5)
    f.heading("Overview of the module", 14).para(5)
    f.heading("Objects of the module", 14).para(4)
    for owner, names in members.items():
        f.heading(owner, 12).para(4)  # the object's heading and its members' share one face
        for name in names:
            f.heading(name, 12, family="Courier").para(4)  # code in a bold typewriter face
    return levels(parse(f.write(tmp_path / "api.pdf")))


def test_member_headings_nest_under_the_same_face_heading_of_their_object(tmp_path: Path):
    got = _api_reference(
        tmp_path,
        {
            "Class: Event": ["event.bubbles", "event.composedPath()", "event.stopPropagation()"],
            "Class: EventTarget": [
                "eventTarget.addEventListener(type, listener)",
                "eventTarget.dispatchEvent(event)",
            ],
            "Class: CustomEvent": ["event.detail"],  # a subclass's member, written with the base's name
        },
    )
    assert got["Objects of the module"] == 2
    for owner in ("Class: Event", "Class: EventTarget", "Class: CustomEvent"):
        assert got[owner] == 3, got
    for member in (
        "event.bubbles",
        "event.stopPropagation()",
        "eventTarget.dispatchEvent(event)",
        "event.detail",
    ):
        assert got[member] == 4, got


def test_member_headings_of_another_object_stay_level_with_it(tmp_path: Path):
    # "emitter.on" follows "Event listener", which names no "emitter": nothing says it belongs there
    got = _api_reference(
        tmp_path,
        {
            "Class: Event": ["event.bubbles", "event.composedPath()", "event.stopPropagation()"],
            "Event listener": ["emitter.on(eventName, listener)", "emitter.off(name)", "emitter.once(name)"],
        },
    )
    assert got["event.bubbles"] == 4
    assert got["Event listener"] == got["emitter.on(eventName, listener)"] == got["emitter.once(name)"] == 3


def test_only_code_that_names_a_member_nests():
    # prose with dots and numbers, a file name, a heading already below its class: ranks unchanged
    titles = ["Version 2.0 and later", "What is new in 2.1", "setup.py", "Class: Emitter", "emitter.on(name)"]
    assert nest_members(titles, [2, 2, 2, 2, 3]) == [2, 2, 2, 2, 3]
    # a member after sibling members of the same object still finds its class; dense ranks out
    titles = ["Class: Event", "event.type", "event.target", "Other heading", "Details"]
    assert nest_members(titles, [1, 1, 1, 1, 2]) == [1, 2, 2, 1, 3]


def test_chapter_label_line_in_french_is_joined_to_the_title_below(tmp_path: Path):
    # "Chapitre 1" over the chapter's title, as babel's French sets a LaTeX book: one heading,
    # not a chapter "1 Chapitre" over an empty one
    f = Flow()
    for n, (title, sections) in enumerate(
        (("Présentations", ["Objet", "Les commandes"]), ("Exemples", ["Le malade imaginaire", "MacBeth"])), 1
    ):
        if n > 1:
            f.new_page()
        f.heading(f"Chapitre {n}", 20).heading(title, 25, before=20).para(4)
        for k, name in enumerate(sections, 1):
            f.heading(f"{n}.{k} {name}", 14).para(6)
    doc = parse(f.write(tmp_path / "chapitre.pdf"))
    got = levels(doc)
    assert got["Chapitre 1 Présentations"] == got["Chapitre 2 Exemples"] == 1, got
    assert got["1.2 Les commandes"] == got["2.1 Le malade imaginaire"] == 2, got
    assert not any("Chapitre" in t and t.split()[0].isdigit() for t in got), got


def _vesting_table(f: Flow, *, stagger: float) -> None:
    """A two-column table whose bold header cells wrap: the right one on two lines, level with the left."""
    f.gap(8)
    y = f.y
    f.lines.append(Line("Vesting Date", x=150, y=y - stagger, bold=True))
    f.lines.append(Line("Percentage", x=370, y=y, bold=True))
    f.lines.append(Line("of SAs", x=370, y=y - 10, bold=True))
    f.y = y - 26
    for label, share in (
        ("The first anniversary of the award date", "25%"),
        ("Each 6-month anniversary", "12.5%"),
    ):
        f.lines.append(Line(label, x=150, y=f.y))
        f.lines.append(Line(share, x=370, y=f.y))
        f.y -= 14
    f.gap(8)


def test_bold_header_cells_at_staggered_heights_are_not_headings(tmp_path: Path):
    # "Vesting Date" sits half a line below "Percentage" (its neighbour wraps onto "of SAs"),
    # so that the two are in neighbouring rows: still a table's header, not a section
    f = Flow().heading("1 Award agreement", 16).para(5)
    f.heading("1.1 Vesting of the award", 12).para(3)
    _vesting_table(f, stagger=5)
    f.para(4).heading("1.2 Termination", 12).para(5)
    doc = parse(f.write(tmp_path / "table.pdf"))
    assert titles(doc) == ["1 Award agreement", "1.1 Vesting of the award", "1.2 Termination"]
    assert "Vesting Date" in doc.text


def test_label_word_over_its_number_in_german_is_joined_to_the_title(tmp_path: Path):
    # "Kapitel" over a large "1" over the title: one heading, as "CHAPTER" over "ONE" is
    f = Flow()
    for n, (title, sections) in enumerate(
        (("Einleitung", ["Ziele", "Aufbau"]), ("Grundlagen", ["Begriffe"])), 1
    ):
        if n > 1:
            f.new_page()
        f.heading("Kapitel", 18).heading(str(n), 30, before=4).heading(title, 24, before=10).para(4)
        for k, name in enumerate(sections, 1):
            f.heading(f"{n}.{k} {name}", 14).para(6)
    got = levels(parse(f.write(tmp_path / "kapitel.pdf")))
    assert got["Kapitel 1 Einleitung"] == got["Kapitel 2 Grundlagen"] == 1, got
    assert got["1.2 Aufbau"] == got["2.1 Begriffe"] == 2, got


def test_a_numbered_heading_whose_name_is_set_in_typewriter_is_a_heading(tmp_path: Path):
    # "1.2 About cleanthesis", the package's name in bold typewriter: more of the line is code than
    # not, yet its bold subsection number at the headings' size makes it a heading
    f = Flow().heading("1 Introduction", 16).para(4)
    f.heading("1.1 Audience", 12).para(4)
    f._room(72)
    f.y -= 14
    f.lines.append(Line("1.2 About", y=f.y, size=12, bold=True))
    name = Line("cleanthesis-package", x=72 + 0.6 * 12 * 10, y=f.y, size=12, bold=True, family="Courier")
    f.lines.append(name)
    f.y -= 20
    f.para(4).heading("1.3 Options", 12).para(4)
    f.heading("2 Usage", 16).para(4)
    assert titles(parse(f.write(tmp_path / "package.pdf"))) == [
        "1 Introduction",
        "1.1 Audience",
        "1.2 About cleanthesis-package",
        "1.3 Options",
        "2 Usage",
    ]
