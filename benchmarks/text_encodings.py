"""How text files in encodings they do not name are decoded: a table per labelled encoding.

Two measurements, both on files this machine holds (none is kept in the repo):

- chardet's labelled test files (``--chardet-dir``, shipped with gsutil in the
  Google Cloud SDK, or any checkout of chardet's ``tests`` folder): each folder
  names the encoding of its files. A file counts as right when sectionrag's text
  equals the file decoded with that encoding (or the superset browsers read for
  the label: cp932 for Shift_JIS, GB18030 for GB2312, cp949 for EUC-KR, Big5-HKSCS
  for Big5). Files are split in halves by a hash of their name: ``--half dev``
  (used while building) and ``--half held`` (reported).
- ``--roundtrip DIR...``: the UTF-8 text, Markdown, reStructuredText and HTML
  files under the folders, each mostly in one script, encoded in a code page of
  that script (a Latin text in the first of cp1252, cp1250, cp1254 and cp1257
  that holds it) and decoded back; right when the text comes back exactly.

    python benchmarks/text_encodings.py --half held
    python benchmarks/text_encodings.py --roundtrip /usr/share/doc /usr/share/texlive
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import logging
import unicodedata
from pathlib import Path

from sectionrag.errors import ParseError
from sectionrag.parsers._source import decode_with_errors

CHARDET = Path("/usr/lib/google-cloud-sdk/platform/gsutil/third_party/chardet/tests")
#: folder name -> Python codec, where the name alone does not say
CODEC = {
    "windows-1252": "cp1252",
    "iso-8859-1": "latin-1",
    "MacCyrillic": "mac_cyrillic",
    "MacRoman": "mac_roman",
    "IBM855": "cp855",
    "IBM866": "cp866",
    "TIS-620": "tis_620",
    "Johab": "johab",
    "GB2312": "gb18030",
    "Big5": "big5hkscs",
    "EUC-TW": None,  # no Python codec
}
SUPERSET = {"shift_jis": "cp932", "euc-kr": "cp949", "cp932": "cp932", "tis_620": "cp874"}
#: the code pages each script is written in, for the round trip (each tried, but for Latin text:
#: only the first code page that holds it, as a Czech text is written in cp1250, not cp1252)
CODE_PAGES = {
    "LATIN": ["cp1252", "cp1250", "cp1254", "cp1257"],  # the first that holds the text
    "CYRILLIC": ["cp1251", "koi8_r"],
    "GREEK": ["cp1253"],
    "HEBREW": ["cp1255"],
    "ARABIC": ["cp1256"],
    "THAI": ["cp874"],
    "CHINESE": ["gb18030", "big5hkscs"],
    "JAPANESE": ["cp932", "euc_jp"],
    "HANGUL": ["cp949"],
}


SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI", "HANGUL")


def lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")


def codec_of(folder: str) -> str | None:
    if folder in CODEC:
        return CODEC[folder]
    if folder.startswith("windows-"):
        return "cp" + folder.split("-")[1]
    if folder.startswith("iso-8859-"):
        return "iso8859_" + folder.split("-")[2]
    return folder


def decoded(data: bytes, name: str) -> tuple[str | None, str]:
    try:
        text, encoding, _ = decode_with_errors(data, name)
    except ParseError:
        return None, "ParseError"
    return text, encoding


def labelled(root: Path, half: str) -> None:
    rows = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        codec = codec_of(folder.name)
        if codec is None:
            continue
        right = total = 0
        chosen: collections.Counter[str] = collections.Counter()
        for f in sorted(folder.iterdir()):
            if (int(hashlib.md5(f.name.encode()).hexdigest(), 16) % 2 == 0) != (half == "dev"):
                continue
            data = f.read_bytes()
            answers = []
            for c in dict.fromkeys((codec, SUPERSET.get(codec.lower(), codec))):
                try:
                    answers.append(lf(data.decode(c)))
                except UnicodeDecodeError:
                    continue
            if not answers:
                continue  # the label does not decode its own file
            text, encoding = decoded(data, f.name)
            total += 1
            right += text in answers
            chosen[encoding] += text not in answers
        if total:
            wrong = ", ".join(f"{e} {n}" for e, n in chosen.most_common() if n)
            rows.append((folder.name, right, total, wrong))
    print(f"chardet's labelled files, {half} half\n")
    print("| encoding | right | files | read instead as |\n|---|---:|---:|---|")
    for name, right, total, wrong in rows:
        print(f"| {name} | {right} | {total} | {wrong} |")
    print(f"| **all** | **{sum(r[1] for r in rows)}** | **{sum(r[2] for r in rows)}** | |\n")


def script(text: str) -> str | None:
    letters = [c for c in text if not c.isascii() and c.isalpha()]
    if len(letters) < 20:
        return None
    names = collections.Counter()
    for c in letters:
        name = unicodedata.name(c, "")
        kind = next(
            (k for k in ("LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI", "HANGUL") if k in name),
            None,
        )
        if kind is None and ("HIRAGANA" in name or "KATAKANA" in name):
            kind = "JAPANESE"
        if kind is None and "CJK" in name:
            kind = "CHINESE"
        names[kind] += 1
    kind, n = names.most_common(1)[0]
    if kind == "CHINESE" and names["JAPANESE"]:
        kind = "JAPANESE"
    return kind if n >= 0.8 * len(letters) else None


def roundtrip(dirs: list[str]) -> None:
    seen: set[str] = set()
    counts: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    for d in dirs:
        for f in sorted(Path(d).rglob("*")):
            if f.suffix.lower() not in (".txt", ".md", ".rst", ".html", ".htm") or not f.is_file():
                continue
            try:
                raw = f.read_bytes()
                text = lf(raw.decode("utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
            if not 300 <= len(raw) <= 400_000 or text in seen:
                continue
            seen.add(text)
            kind = script(text)
            for codec in CODE_PAGES.get(kind or "", []):
                try:
                    data = text.encode(codec)
                except UnicodeEncodeError:
                    continue
                counts[kind, codec, decoded(data, f.name)[0] == text] += 1  # type: ignore[index]
                if kind == "LATIN":
                    break
    print("UTF-8 files re-encoded and decoded back\n")
    print("| script | code page | exact | files |\n|---|---|---:|---:|")
    for kind, codec in sorted({(k, c) for k, c, _ in counts}):
        right = counts[kind, codec, True]
        print(f"| {kind.lower()} | {codec} | {right} | {right + counts[kind, codec, False]} |")
    exact = sum(n for (_, _, ok), n in counts.items() if ok)
    print(f"| **all** | | **{exact}** | **{sum(counts.values())}** |\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chardet-dir", type=Path, default=CHARDET)
    ap.add_argument("--half", choices=["dev", "held"], default="held")
    ap.add_argument("--roundtrip", nargs="*", metavar="DIR", help="folders of UTF-8 texts to re-encode")
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    if args.chardet_dir.is_dir():
        labelled(args.chardet_dir, args.half)
    else:
        print(f"{args.chardet_dir}: not found; pass --chardet-dir")
    if args.roundtrip:
        roundtrip(args.roundtrip)


if __name__ == "__main__":
    main()
