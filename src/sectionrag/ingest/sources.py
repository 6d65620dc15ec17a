r"""Finding sources, naming them, and telling cheaply whether one changed (private).

**Names.** A file is recorded by its absolute path with symbolic links resolved
(:func:`source_name`), so one file reached through two spellings (``docs`` and
``/home/me/docs``, a link and its target) is one source. A name holding bytes
that are not UTF-8 (which Python carries as lone surrogates, and no store
accepts) is recorded in an escaped form: the prefix ``bytes:``, then the name
with each backslash doubled and each such byte written ``\xNN``. It is
reversible (:func:`source_os_name`), readable, and ends with the file's name as
the folder shows it, so ``--source`` finds it. A name that starts with
``bytes:`` is escaped the same way, so every escaped name is unambiguous.

**Walking.** :func:`scan_paths` walks the directories named, never leaving them
through a symbolic link unless told to (``follow_symlinks``), never walking a
directory twice (so link loops end), and never opening a FIFO, socket or
device: those are skipped with a note.

**Changes.** A file is "unchanged" when its size and modification time (ns)
equal the recorded ones and the record is not racy (the file was not modified
within :data:`RACY_NS` of being hashed), or else when the sha256 of its bytes
equals the recorded hash. Bytes are hashed before any parsing, so an unchanged
file is never parsed.
"""

from __future__ import annotations

import fnmatch
import hashlib
import logging
import os
import re
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, field
from pathlib import Path

from sectionrag import registry
from sectionrag._checks import check_bool, check_path, check_strings
from sectionrag._describe import canonical_json
from sectionrag.errors import ConfigError
from sectionrag.ingest.report import FailedSource, SourceWarning
from sectionrag.protocols import SourceRecord
from sectionrag.types import Document

__all__ = [
    "ESCAPED_PREFIX",
    "RACY_NS",
    "FileState",
    "Scan",
    "discover_files",
    "display_source",
    "document_hash",
    "escape_source",
    "read_file",
    "scan_paths",
    "source_matches_name",
    "source_name",
    "source_os_name",
    "stat_unchanged",
    "within",
]

#: a record whose file was modified this close (ns) to being hashed is not trusted by stat alone
RACY_NS = 2_000_000_000
#: the prefix of a recorded source name whose bytes are escaped (see the module docstring)
ESCAPED_PREFIX = "bytes:"

logger = logging.getLogger("sectionrag.ingest")

_SURROGATES = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})")


# -- names ----------------------------------------------------------------------------------


def _escape_body(name: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = ord(m.group())
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"

    return _SURROGATES.sub(one, name.replace("\\", "\\\\"))


def escape_source(name: str) -> str:
    r"""Return the recorded form of a source name: ``name`` itself, or escaped when no store can hold it.

    A name with lone surrogates (a file name's bytes that are not UTF-8, read
    with ``surrogateescape``) or starting with :data:`ESCAPED_PREFIX` becomes
    the prefix plus the name with ``\`` doubled and each such byte written ``\xNN``
    (another lone surrogate ``\uNNNN``). :func:`source_os_name` reverses it.
    """
    if name.startswith(ESCAPED_PREFIX) or (not name.isascii() and _SURROGATES.search(name)):
        return ESCAPED_PREFIX + _escape_body(name)
    return name


def source_os_name(source: str) -> str:
    """Return the name a recorded source stands for (a path as the OS gives it); see escape_source."""
    if not source.startswith(ESCAPED_PREFIX):
        return source

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "\\":
            return "\\"
        value = int(code[1:], 16)
        return chr(0xDC00 + value) if code[0] == "x" else chr(value)

    return _ESCAPE.sub(one, source[len(ESCAPED_PREFIX) :])


def source_name(path: str | os.PathLike[str]) -> str:
    """Return the recorded source of a file: its absolute path (escaped when it holds non-UTF-8 bytes)."""
    return escape_source(os.path.abspath(os.fspath(path)))


def _shown(source: str) -> str:
    """Return a recorded source as displayed, before making it relative (bytes escaped)."""
    return source[len(ESCAPED_PREFIX) :] if source.startswith(ESCAPED_PREFIX) else source


def _base(source: str, cwd: str | None) -> str:
    """Return the working directory, written as ``source`` is displayed."""
    base = cwd if cwd is not None else os.getcwd()
    return _escape_body(base) if source.startswith(ESCAPED_PREFIX) else base


def display_source(source: str, cwd: str | None = None) -> str:
    r"""Return a recorded source as a person reads it.

    A path under the working directory (``cwd``, default: the process's) is
    shown relative to it, any other path in full; a name with non-UTF-8
    bytes shows them as ``\xNN`` (without the ``bytes:`` prefix).
    """
    shown = _shown(source)
    if not os.path.isabs(shown):
        return shown
    base = _base(source, cwd).rstrip(os.sep)
    if shown == base:
        return "."
    prefix = base + os.sep
    return shown[len(prefix) :] if shown.startswith(prefix) else shown


def source_matches_name(source: str, name: str, cwd: str | None = None) -> bool:
    r"""Tell whether a recorded ``source`` is the one a user names.

    ``name`` matches the source as recorded, as displayed, a trailing part of
    its path (``a.md``, ``docs/a.md``), or the path it names relative to ``cwd``
    (``./docs/a.md``, ``../docs/a.md``). Bytes that are not UTF-8 may be given
    raw (as the shell passes them) or written ``\xNN`` as they are displayed.
    """
    if source == name:
        return True
    shown = _shown(source)
    base = _base(source, cwd)
    wanted = {name, _escape_body(name)} if _SURROGATES.search(name) else {name}
    for w in wanted:
        if not w:
            continue
        if shown == w or (not os.path.isabs(w) and shown.endswith(os.sep + w)):
            return True
        if os.path.isabs(shown) and shown == os.path.normpath(os.path.join(base, w)):
            return True
    return False


# -- walking ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Scan:
    """What :func:`scan_paths` found.

    Attributes:
        files: The files to ingest, as absolute paths with links resolved, each once,
            in the order the paths were given (sorted within each directory).
        skipped: Directory entries not read, with why (a FIFO, socket or device; a
            symbolic link leaving the folders named).
        failed: Directories that could not be read.
        unread: The recorded names of those directories: a sync must keep the
            sources under them, since it cannot know whether they are gone.
    """

    files: list[Path] = field(default_factory=list)
    skipped: list[SourceWarning] = field(default_factory=list)
    failed: list[FailedSource] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "a special file"


def within(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or below it (both absolute, normalised)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _matches(rel: str, name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in patterns)


class _Walker:
    """Walks the directories named for one :func:`scan_paths` call."""

    def __init__(
        self, roots: Sequence[str], include: Sequence[str], exclude: Sequence[str], follow: bool, scan: Scan
    ) -> None:
        self.roots = roots
        self.include = include
        self.exclude = exclude
        self.follow = follow
        self.scan = scan
        self.exts = frozenset(registry.parser_extensions())

    def wanted(self, rel: str, name: str) -> bool:
        """Whether a directory entry is a file to ingest, by its extension and the patterns."""
        if Path(name).suffix.lower() not in self.exts:
            return False
        if self.include and not _matches(rel, name, self.include):
            return False
        return not (self.exclude and _matches(rel, name, self.exclude))

    def skip(self, path: str, message: str) -> None:
        self.scan.skipped.append(SourceWarning(source_name(path), message))

    def walk(self, root: str) -> list[Path]:
        """Return the files under ``root`` (resolved), sorted by their path below it."""
        found: list[tuple[tuple[str, ...], Path]] = []
        visited: set[tuple[int, int]] = set()
        stack: list[tuple[str, str]] = [(root, "")]
        while stack:
            directory, rel = stack.pop()
            try:
                st = os.stat(directory)
                if (st.st_dev, st.st_ino) in visited:  # reached twice (a loop of links): walk it once
                    continue
                visited.add((st.st_dev, st.st_ino))
                with os.scandir(directory) as it:
                    entries = list(it)
            except OSError as e:
                name = source_name(directory)
                self.scan.failed.append(
                    FailedSource(
                        name,
                        f"cannot read directory ({e.strerror or e}); the sources indexed under it are kept",
                    )
                )
                self.scan.unread.append(name)
                continue
            for entry in entries:
                try:
                    self.entry(entry, f"{rel}{entry.name}", stack, found)
                except OSError:  # it vanished while being looked at: it is not there
                    continue
        found.sort(key=lambda item: item[0])
        return [path for _, path in found]

    def entry(
        self,
        entry: os.DirEntry[str],
        rel: str,
        stack: list[tuple[str, str]],
        found: list[tuple[tuple[str, ...], Path]],
    ) -> None:
        """Look at one directory entry: descend, keep, skip with a note, or ignore."""
        key = tuple(rel.split("/"))
        if entry.is_symlink():
            self.link(entry, rel, stack, found)
        elif entry.is_dir(follow_symlinks=False):
            stack.append((entry.path, rel + "/"))
        elif not self.wanted(rel, entry.name):
            return
        elif entry.is_file(follow_symlinks=False):
            found.append((key, Path(entry.path)))
        else:
            kind = _kind(entry.stat(follow_symlinks=False).st_mode)
            self.skip(entry.path, f"not a regular file ({kind}); skipped without being opened")

    def link(
        self,
        entry: os.DirEntry[str],
        rel: str,
        stack: list[tuple[str, str]],
        found: list[tuple[tuple[str, ...], Path]],
    ) -> None:
        """Follow a symbolic link inside the folders named; outside them only with ``follow_symlinks``."""
        target = os.path.realpath(entry.path)
        inside = any(within(target, root) for root in self.roots)
        try:
            st = os.stat(entry.path)
        except OSError:  # broken, or a loop: listed so that ingestion reports it, if it is inside
            if self.wanted(rel, entry.name):
                if inside or self.follow:
                    found.append((tuple(rel.split("/")), Path(entry.path)))
                else:
                    self.skip(
                        entry.path, f"symbolic link to {target}, outside the folders named; not followed"
                    )
            return
        if stat.S_ISDIR(st.st_mode):
            if inside:  # its files are found in the folder it points to
                return
            if self.follow:
                stack.append((target, rel + "/"))
            else:
                self.skip(
                    entry.path,
                    f"symbolic link to the directory {target}, outside the folders named; not followed "
                    "(follow_symlinks=True, --follow-symlinks, follows it)",
                )
            return
        if not self.wanted(rel, entry.name):
            return
        if not inside and not self.follow:
            self.skip(
                entry.path,
                f"symbolic link to {target}, outside the folders named; not followed "
                "(follow_symlinks=True, --follow-symlinks, follows it)",
            )
        elif stat.S_ISREG(st.st_mode):
            found.append((tuple(rel.split("/")), Path(target)))
        else:
            self.skip(entry.path, f"symbolic link to {_kind(st.st_mode)}; skipped without being opened")


def scan_paths(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    *,
    include: Sequence[str] | str = (),
    exclude: Sequence[str] | str = (),
    follow_symlinks: bool = False,
) -> Scan:
    """Expand files and directories into the files to ingest, with what was skipped and why.

    Directories are walked recursively for the file types a registered parser
    handles (plug-ins included, see :func:`sectionrag.register`). ``include``
    and ``exclude`` are glob patterns matched against the path relative to
    the directory given (and against the file name). Explicit files are kept
    whatever their extension, so the parser can say why it refuses one.

    Every file is given by its absolute path with links resolved, once, however
    many of the paths lead to it (``docs`` and ``docs/a.md``; a link and its
    target). Inside a directory:

    - a symbolic link is followed when it points inside one of the directories
      named, and skipped with a note when it leaves them (unless
      ``follow_symlinks``); a directory is never walked twice, so loops end;
    - a FIFO, socket or device is skipped with a note, never opened;
    - a broken link with a supported extension is listed, so that ingestion
      reports it.

    Raises:
        ConfigError: a path does not exist.
        TypeError: an argument of the wrong type.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    includes = check_strings("include", include)
    excludes = check_strings("exclude", exclude)
    follow = check_bool("follow_symlinks", follow_symlinks)
    named: list[tuple[bool, str]] = []  # (is a directory, absolute path)
    for raw in paths:
        path = os.fspath(check_path("paths", raw))
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except FileNotFoundError:
            if not os.path.islink(path):
                raise ConfigError(f"no such file or directory: {path}") from None
            named.append((False, os.path.abspath(path)))  # a broken link: ingestion says so
            continue
        except OSError:  # a link loop, a parent without search permission: ingestion says so
            named.append((False, os.path.abspath(path)))
            continue
        named.append((is_dir, os.path.realpath(path)))
    scan = Scan()
    walker = _Walker([p for is_dir, p in named if is_dir], includes, excludes, follow, scan)
    seen: set[Path] = set()
    for is_dir, path in named:
        for file in walker.walk(path) if is_dir else [Path(path)]:
            if file not in seen:
                seen.add(file)
                scan.files.append(file)
    return scan


def discover_files(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    *,
    include: Sequence[str] | str = (),
    exclude: Sequence[str] | str = (),
    follow_symlinks: bool = False,
) -> list[Path]:
    """Expand files and directories into the files to ingest (see :func:`scan_paths`).

    What was skipped (special files, links leaving the folders, unreadable
    directories) is logged as a warning.

    Raises:
        ConfigError: a path does not exist.
    """
    scan = scan_paths(paths, include=include, exclude=exclude, follow_symlinks=follow_symlinks)
    for note in scan.skipped:
        logger.warning("%s: %s", display_source(note.source), note.message)
    for failure in scan.failed:
        logger.warning("%s: %s", display_source(failure.source), failure.error)
    return scan.files


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
        raise OSError(f"not a regular file ({_kind(st.st_mode)}); not read")
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

    The file is opened without blocking and checked again through the open
    descriptor, so a file replaced by a FIFO since ``st`` was taken is refused,
    never waited on.

    Raises:
        OSError: the file cannot be read (the message says why).
    """
    checked = time.time_ns()
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise OSError(f"cannot read file ({e.strerror or e})") from e
    with os.fdopen(fd, "rb") as f:
        now = os.fstat(f.fileno())
        if not stat.S_ISREG(now.st_mode):
            raise OSError(f"not a regular file ({_kind(now.st_mode)}); not read")
        try:
            data = f.read()
        except OSError as e:
            raise OSError(f"cannot read file ({e.strerror or e})") from e
    return FileState(
        size=len(data),
        mtime_ns=now.st_mtime_ns,
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
