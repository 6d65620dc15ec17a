"""Heading detection on papers typeset with IEEE's class, whose samples ship as sources only.

Debian's ``texlive-publishers-doc`` ships IEEEtran's templates as ``.tex``
files, not PDFs, so the outside check (``outside_eval.py``) has no IEEE-style
paper. This script typesets four (conference and journal, plain and Computer
Society) with ``pdflatex`` and hyperref's bookmarks, their sections filled with
the R package abstracts of the retrieval set (``benchmarks/retrieval_set``),
and scores them as ``heading_eval.py`` does, outline off. The papers' levels
are IEEE's: ``I. INTRODUCTION``, ``A. Title`` in italics on a line of its own,
``1) Title:`` in italics run into its paragraph.

Needs ``pdflatex`` and IEEEtran (Debian: ``texlive-latex-base``,
``texlive-latex-recommended``, ``texlive-fonts-recommended``,
``texlive-publishers``).

    python benchmarks/class_papers.py            # one row per paper, and the means
    python benchmarks/class_papers.py --keep D   # keep the .tex and .pdf files in D
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (for heading_eval)

import heading_eval as he

HERE = Path(__file__).resolve().parent
ABSTRACTS = HERE / "retrieval_set" / "docs" / "abstracts" / "r_package_abstracts.md"
#: (class options, file name)
PAPERS = (
    ("conference", "ieee-conference"),
    ("journal", "ieee-journal"),
    ("conference,compsoc", "ieee-compsoc-conference"),
    ("journal,compsoc", "ieee-compsoc-journal"),
)
_TEX_SPECIALS = str.maketrans({c: "" for c in "\\{}^~"} | {c: "\\" + c for c in "&%$#_"})


def abstracts() -> list[tuple[str, str]]:
    """Return ``(title, text)`` of every abstract, in file order."""
    parts = re.split(r"^## (.+)$", ABSTRACTS.read_text(encoding="utf-8"), flags=re.M)[1:]
    return [
        (parts[i].strip().translate(_TEX_SPECIALS), re.sub(r"(?m)^Package: .*$", "", parts[i + 1]).strip())
        for i in range(0, len(parts), 2)
    ]


def paper_source(options: str, items: list[tuple[str, str]]) -> str:
    """Return a paper's LaTeX: sections of two paragraphs, two sub-sections each, run-in heads under one."""
    pick = iter(items * 4)

    def para() -> str:
        return next(pick)[1].translate(_TEX_SPECIALS) + "\n\n"

    def title(words: int = 6) -> str:
        return " ".join(next(pick)[0].split(":")[0].split()[:words])

    body = []
    for name in ("Introduction", "Related Work", title(), "Experiments", title(), "Conclusion"):
        body.append(f"\\section{{{name}}}\n{para()}{para()}")
        if name in ("Introduction", "Conclusion"):
            continue
        for k in range(2):
            body.append(f"\\subsection{{{title()}}}\n{para()}{para()}")
            if k == 1:
                body += [f"\\subsubsection{{{title(4)}}}\n{para()}" for _ in range(2)]
    return (
        f"\\documentclass[{options}]{{IEEEtran}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{hyperref}}\n"
        f"\\begin{{document}}\n\\title{{{title(8)}}}\n"
        "\\author{\\IEEEauthorblockN{First Author}\\IEEEauthorblockA{Some University\\\\City}\n"
        "\\and \\IEEEauthorblockN{Second Author}\\IEEEauthorblockA{Other Institute\\\\Town}}\n"
        f"\\maketitle\n\\begin{{abstract}}\n{para()}\\end{{abstract}}\n"
        "\\begin{IEEEkeywords}\nstatistics, software, R packages\n\\end{IEEEkeywords}\n"
        + "".join(body)
        + f"\\section*{{Acknowledgment}}\n{para()}"
        "\\begin{thebibliography}{1}\n"
        "\\bibitem{a} A. Author, ``A title of a paper,'' \\emph{Journal of Things}, vol. 1, 2020.\n"
        "\\end{thebibliography}\n\\end{document}\n"
    )


def build(folder: Path) -> list[Path]:
    """Typeset every paper into ``folder`` (twice, for the bookmarks) and return the PDFs."""
    items = abstracts()
    out = []
    for k, (options, name) in enumerate(PAPERS):
        tex = folder / f"{name}.tex"
        tex.write_text(paper_source(options, items[k * 7 :] + items[: k * 7]), encoding="utf-8")
        for _ in range(2):
            command = ["pdflatex", "-interaction=nonstopmode", tex.name]
            subprocess.run(command, cwd=folder, capture_output=True, check=False)
        pdf = tex.with_suffix(".pdf")
        if not pdf.is_file():
            raise SystemExit(f"pdflatex made no {pdf.name}; see {tex.with_suffix('.log')}")
        out.append(pdf)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="folder to keep the papers in")
    args = parser.parse_args(argv)
    if shutil.which("pdflatex") is None:
        raise SystemExit(
            "pdflatex is not installed (Debian: apt-get install texlive-latex-base "
            "texlive-latex-recommended texlive-fonts-recommended texlive-publishers)"
        )
    folder = args.keep or Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    rows = [he.evaluate(pdf) for pdf in build(folder)]
    print("| paper | truth | found | matched | F1 (depth) | recall | level agreement |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r.file} | {r.truth} | {r.found} | {r.matched} | {r.f1_in_depth:.2f} | "
            f"{r.recall:.2f} | {r.level_agreement:.2f} |"
        )
    n = len(rows)
    f1, recall = sum(r.f1_in_depth for r in rows) / n, sum(r.recall for r in rows) / n
    print(f"| mean | | | | {f1:.3f} | {recall:.3f} | {sum(r.level_agreement for r in rows) / n:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
