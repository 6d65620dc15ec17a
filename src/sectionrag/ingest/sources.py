"""Finding sources, and telling cheaply whether one changed (private).

A file is "unchanged" when its size and modification time (ns) equal the
recorded ones and the record is not racy (the file was not modified within
:data:`RACY_NS` of being hashed), or else when the sha256 of its bytes equals
the recorded hash. Bytes are hashed before any parsing, so an unchanged file
is never parsed.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path

from sectionrag import registry
from sectionrag._describe import canonical_json
from sectionrag.errors import ConfigError
from sectionrag.protocols import SourceRecord
from sectionrag.types import Document

__all__ = ["RACY_NS", "FileState", "discover_files", "document_hash", "read_file", "stat_unchanged"]

#: a record whose file was modified this close (ns) to being hashed is not trusted by stat alone
RACY_NS = 2_000_000_000


def discover_files(
    paths: Iterable[str | Path],
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> list[Path]:
    """Expand files and directories into the list of files to ingest (sorted within each directory).

    Directories are walked recursively for the file types a registered parser
    handles (plug-ins included, see :func:`sectionrag.register`). ``include``
    and ``exclude`` are glob patterns matched against the path relative to
    the directory given (and against the file name). Explicit files are kept
    whatever their extension, so the parser can say why it refuses one. Inside
    a directory, entries with a supported extension that are not readable
    regular files (a broken symbolic link, a FIFO, a socket) are listed too,
    so that ingestion reports them instead of skipping them silently.

    Raises:
        ConfigError: a path does not exist.
    """
    exts = frozenset(registry.parser_extensions())
    found: dict[Path, None] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                if file.suffix.lower() not in exts or file.is_dir():
                    continue
                rel = file.relative_to(path).as_posix()
                if include and not _matches(rel, file.name, include):
                    continue
                if exclude and _matches(rel, file.name, exclude):
                    continue
                found[file] = None
        elif path.exists() or path.is_symlink():
            found[path] = None
        else:
            raise ConfigError(f"no such file or directory: {path}")
    return list(found)


def _matches(rel: str, name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in patterns)


@dataclass(frozen=True, slots=True)
class FileState:
    """A file's size and modification time, and (once read) its bytes and their hash."""

    size: int
    mtime_ns: int
    checked_ns: int = 0
    content_hash: str = ""
    data: bytes | None = None


def check_regular(path: Path) -> os.stat_result:
    """Return ``stat(path)``, or raise OSError saying why ``path`` is not a readable regular file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise OSError(f"broken symbolic link (target {os.readlink(path)!r} is missing)") from None
        raise OSError("no such file (it disappeared during the ingest)") from None
    except OSError as e:
        raise OSError(f"cannot stat file ({e.strerror or e})") from e
    if stat.S_ISDIR(st.st_mode):
        raise OSError("is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise OSError("not a regular file (a FIFO, socket or device); not read")
    return st


def stat_unchanged(st: os.stat_result, record: SourceRecord | None) -> bool:
    """Tell whether size and mtime alone show the file is the one recorded (never for racy records)."""
    return (
        record is not None
        and record.content_hash != ""
        and record.size == st.st_size
        and record.mtime_ns == st.st_mtime_ns
        and record.checked_ns - record.mtime_ns > RACY_NS
    )


def read_file(path: Path, st: os.stat_result) -> FileState:
    """Read a file and hash its bytes.

    Raises:
        OSError: the file cannot be read (the message says why).
    """
    checked = time.time_ns()
    try:
        data = path.read_bytes()
    except OSError as e:
        raise OSError(f"cannot read file ({e.strerror or e})") from e
    return FileState(
        size=len(data),
        mtime_ns=st.st_mtime_ns,
        checked_ns=checked,
        content_hash=hashlib.sha256(data).hexdigest(),
        data=data,
    )


def document_hash(doc: Document) -> str:
    """Hash everything of an in-memory Document that its chunks depend on."""
    h = hashlib.sha256()
    h.update(doc.id.encode("utf-8", "surrogatepass"))
    h.update(b"\x00")
    h.update(doc.text.encode("utf-8", "surrogatepass"))
    h.update(b"\x00")
    structure = {
        "sections": [list(astuple(s)) for s in doc.sections],
        "pages": [[p.number, p.start, p.end] for p in doc.pages],
        "metadata": dict(doc.metadata),
    }
    h.update(canonical_json(structure).encode("utf-8", "surrogatepass"))
    return h.hexdigest()
