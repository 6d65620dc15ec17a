"""Telling that ``sectionrag index`` has nothing to do, without lancedb or a model (private).

A successful run over a local collection writes
``_sectionrag_unchanged.<collection>.json`` next to its tables: the run's
options, every file it found with the ``stat`` taken *before* ingesting
(size, modification and change times in nanoseconds, inode, device), and the
version listing of the collection's tables *after* it wrote. A later run
with the same options reports every file unchanged straight from that
manifest when all of these hold, and otherwise runs the ingest as always:

- the same files are found (same paths, options, include/exclude patterns);
- each file's ``stat`` is the recorded one, and none was "racy" when
  recorded (modified or changed less than two seconds before its ``stat``,
  when a later write could leave the same times behind);
- the tables hold the same version files (names, sizes, times): any write to
  the collection (another run, the Python API, the MCP server, a compaction)
  adds one, and a collection dropped and built again has new ones;
- no other ingest holds the collection's lock; the sectionrag version is the same.

A run that starts ingesting deletes the manifest first, and writes it again
only when every file ended added, updated or unchanged with no failure or
warning. The version listing is taken just after the ingest released the
collection's lock: a write by another program in that instant would be
taken for the run's own (its files are still compared by their stat).
Options that ask for work or checks the manifest cannot vouch for
(``--verify``, ``--estimate``, ``--ray``, a PDF password, object storage,
another store) always take the full path.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from sectionrag.cli._sidecar import database_dir, read_sidecar, remove_sidecar, sidecar_path, write_sidecar

__all__ = ["Snapshot", "forget", "record", "snapshot", "unchanged_report"]

#: options that decide what a run does; a manifest holds only for a run with the same values
KEY_OPTIONS = (
    "collection",
    "store",
    "embedder",
    "backend",
    "strategy",
    "size",
    "rechunk",
    "parser",
    "tables",
    "enrich",
    "llm_url",
    "llm_model",
    "anthropic",
    "llm_key_env",
    "llm_concurrency",
    "enrich_min_tokens",
    "embed_summary",
    "sync",
    "allow_empty",
    "follow_symlinks",
    "include",
    "exclude",
)
#: options under which a run always ingests
_NEVER = ("verify", "estimate", "ray", "ray_address", "ray_actors", "ray_gpus", "password", "password_env")
#: a file modified or changed this close to its stat may change again with the same times
RACY_NS = 2_000_000_000


class Snapshot:
    """What a run found before ingesting: its key, its files and their stat (``None`` if racy)."""

    def __init__(self, directory: Path, key: dict[str, Any], files: list[list[Any]], racy: bool) -> None:
        self.directory = directory
        self.key = key
        self.files = files
        self.racy = racy


def _key(args: Any) -> dict[str, Any]:
    from sectionrag._version import __version__

    return {
        "sectionrag": __version__,
        "paths": [os.path.abspath(os.path.expanduser(p)) for p in args.paths],
        "options": {name: getattr(args, name, None) for name in KEY_OPTIONS},
    }


def _eligible(args: Any) -> Path | None:
    if any(getattr(args, name, None) not in (None, False) for name in _NEVER):
        return None
    return database_dir(args)


def _file_states(args: Any) -> tuple[list[list[Any]], bool] | None:
    """Return ``[[path, size, mtime_ns, ctime_ns, inode, device], ...]`` and whether one is racy.

    ``None`` when the scan skipped or could not read something (the run has warnings to give).
    """
    from sectionrag.ingest.sources import scan_paths

    scan = scan_paths(
        args.paths, include=args.include, exclude=args.exclude, follow_symlinks=args.follow_symlinks
    )
    if scan.skipped or scan.failed or not scan.files:
        return None
    now = time.time_ns()
    states: list[list[Any]] = []
    racy = False
    for path in scan.files:
        try:
            st = os.stat(path)
        except OSError:
            return None
        states.append([str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev])
        racy = racy or now - max(st.st_mtime_ns, st.st_ctime_ns) <= RACY_NS
    return states, racy


def _versions(directory: Path, collection: str) -> list[list[Any]] | None:
    """Return the version files of the collection's table and records table (``None``: not there).

    Each as ``[name, size, mtime_ns]``: a table dropped and built again has version files of the
    same names, but not of the same times. Only the ``*.manifest`` files (one per version, never
    rewritten): LanceDB's ``latest_version_hint.json`` says nothing more and may be rewritten later.
    """
    from sectionrag.stores._lance_write import records_table_name

    out: list[list[Any]] = []
    for table in (collection, records_table_name(collection)):
        folder = directory / f"{table}.lance" / "_versions"
        try:
            entries = sorted(
                (e for e in os.scandir(folder) if e.name.endswith(".manifest")), key=lambda e: e.name
            )
            out.append([[e.name, e.stat().st_size, e.stat().st_mtime_ns] for e in entries])
        except OSError:
            return None
    return out


def _lock_free(directory: Path, collection: str) -> bool:
    """Whether no ingest holds the collection's lock now."""
    from sectionrag.stores._lance_write import lock_file_name
    from sectionrag.stores._lock import lock_is_free

    return lock_is_free(directory / lock_file_name(collection))


def unchanged_report(args: Any) -> tuple[Any, str] | None:
    """Return ``(report, embedder name)`` when the manifest proves nothing changed, else ``None``."""
    directory = _eligible(args)
    if directory is None:
        return None
    manifest = read_sidecar(sidecar_path(directory, "unchanged", args.collection))
    if manifest is None or manifest.get("key") != _key(args) or not isinstance(manifest.get("embedder"), str):
        return None
    if not _lock_free(directory, args.collection):
        return None
    versions = _versions(directory, args.collection)
    if versions is None or manifest.get("versions") != versions:
        return None
    found = _file_states(args)
    if found is None or found[0] != manifest.get("files"):
        return None
    from sectionrag.ingest.report import IngestReport

    return IngestReport(unchanged=[f[0] for f in found[0]]), manifest["embedder"]


def snapshot(args: Any) -> Snapshot | None:
    """Take the stat of the files a run is about to ingest (``None``: it will write no manifest)."""
    directory = _eligible(args)
    if directory is None:
        return None
    found = _file_states(args)
    if found is None:
        return None
    return Snapshot(directory, _key(args), found[0], found[1])


def forget(args: Any) -> None:
    """Delete the collection's manifest: a run is about to write."""
    directory = database_dir(args)
    if directory is not None:
        remove_sidecar(sidecar_path(directory, "unchanged", args.collection))


def record(args: Any, before: Snapshot, report: Any, embedder: str) -> bool:
    """Write the manifest after a run that left every file indexed; return whether it was written."""
    done = len(report.added) + len(report.updated) + len(report.unchanged)
    if before.racy or report.failed or report.warnings or done != len(before.files):
        return False
    versions = _versions(before.directory, args.collection)
    if versions is None:
        return False
    data = {"key": before.key, "files": before.files, "versions": versions, "embedder": embedder}
    return write_sidecar(sidecar_path(before.directory, "unchanged", args.collection), data)
