"""Find evidence for the SEC 10-Q questions (run once; writes sec_questions.jsonl).

Reads the questions and answers of the SEC 10-Q development corpus
(``questions.csv``, MIT licence, docugami/KG-RAG-datasets) and the filings'
text kept in ``docs/finance/``. The evidence of an answer is found by a rule
that never looks at any chunker: every figure the answer states (``$82,959
million``, ``15.7%``, ``$1.7 billion``) is looked up in the cited filings, and
the table row (a line with ``|`` cells) or the sentence that holds it becomes
an evidence quote; where one figure occurs several times the line holding the
most of the answer's figures wins, then the first. Questions whose answers
state no figure found in the filings are left out, and a few whose figures
matched unrelated lines (checked by reading) are listed in ``DROP``.

    python benchmarks/retrieval_set/sec_evidence.py [path/to/questions.csv]
"""

# ruff: noqa: E501

from __future__ import annotations

import csv
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/sec-10q/questions.csv"
D = os.path.join(HERE, "docs", "finance")
#: row numbers (0-based, in questions.csv) whose matched figures were unrelated lines
DROP = {97, 112, 117, 123, 169}
#: (row, quote prefix) of single matched lines that were unrelated
DROP_LINES = {
    (5, "The fair value as of the respective vesting dates"),
    (129, "Accounts payable"),
    (145, "1.375% Notes"),
    (145, "0.000% Notes"),
    (145, "3.600% Notes"),
}
with open(CSV, encoding="utf-8") as fh:
    rows = list(csv.DictReader(fh))
docs = {}
for path in glob.glob(D + "/*.md"):
    with open(path, encoding="utf-8") as fh:
        docs[os.path.basename(path)[:-3]] = fh.read()


def stems(glob_):
    g = glob_.strip("*").replace(" ", "_")
    return [n for n in docs if g in n]


NUM = re.compile(r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})(\s?(?:billion|million))?")


def numbers(ans):
    out = []
    for m in NUM.finditer(ans):
        n, unit = m.group(1), (m.group(2) or "").strip()
        if re.fullmatch(r"(19|20)\d\d", n):
            continue  # years
        digits = re.sub(r"\D", "", n)
        if len(digits) < 3 and not unit:
            continue
        out.append((n, unit))
    return list(dict.fromkeys(out))


def find_all(text, n, unit):
    pat = r"(?<![\d,.])" + re.escape(n) + r"(?![\d]|,\d|\.\d)"
    if unit == "billion":
        pat += r"\s?" + unit
    return [m.start() for m in re.finditer(pat, text)]


def line_span(text, pos):
    a = text.rfind("\n", 0, pos) + 1
    b = text.find("\n", pos)
    b = len(text) if b < 0 else b
    if "|" not in text[a:b]:
        a = text.rfind("\n\n", 0, pos)
        a = 0 if a < 0 else a + 2
        b = text.find("\n\n", pos)
        b = len(text) if b < 0 else b
    if b - a > 350 and "|" not in text[a:b]:  # a paragraph: the sentence holding pos
        ends = [m.end() for m in re.finditer(r"[.;:][\s]+(?=[A-Z(])", text[a:pos])]
        sa = a + ends[-1] if ends else a
        m = re.search(r"[.;:](?=\s+[A-Z(]|\s*$)", text[pos:b])
        sb = pos + m.end() if m else b
        a, b = sa, sb
    return a, b


out = []
ok = {
    "*2023 Q3 AAPL*",
    "*2023 Q3 AMZN*",
    "*2023 Q3 INTC*",
    "*2023 Q3 MSFT*",
    "*2023 Q3 NVDA*",
    "*AAPL*",
    "*2023 Q1 AAPL*",
    "*2023 Q2 AAPL*",
    "*2022 Q3 AAPL*",
}
for qi, r in enumerate(rows):
    if r["Source Docs"] not in ok:
        continue
    names = stems(r["Source Docs"])
    nums = numbers(r["Answer"])
    spans = {}  # (doc, a, b) -> set(numbers)
    for n, unit in nums:
        for d in names:
            for p in find_all(docs[d], n, unit):
                key = (d, *line_span(docs[d], p))
                spans.setdefault(key, set()).add(n)
    # per number keep best line: most answer numbers, then earliest; prefer doc order
    chosen = {}
    for n, _unit in nums:
        cands = [(k, v) for k, v in spans.items() if n in v]
        if not cands:
            continue
        # group by doc: a number may be evidence in several docs (multi-doc); pick per doc only if that doc is cited
        k = sorted(cands, key=lambda kv: (-len(kv[1]), kv[0][0], kv[0][1]))[0][0]
        chosen[k] = True
    refs = [
        k
        for k in sorted(chosen)
        if not any(k[0] == k[0] and qi == r and docs[k[0]][k[1] : k[2]].startswith(p) for r, p in DROP_LINES)
    ]
    if qi in DROP or not refs:
        continue
    out.append(
        {
            "row": qi,
            "q": r["Question"],
            "docs": r["Source Docs"],
            "type": r["Question Type"],
            "chunk": r["Source Chunk Type"],
            "answer": r["Answer"],
            "refs": [{"source": k[0] + ".md", "quote": docs[k[0]][k[1] : k[2]], "at": k[1]} for k in refs],
        }
    )
with open(os.path.join(HERE, "sec_questions.jsonl"), "w", encoding="utf-8") as fh:
    for o in out:
        fh.write(json.dumps(o, ensure_ascii=False) + "\n")
print(len(out), "questions with evidence")
