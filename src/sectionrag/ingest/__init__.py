"""Ingestion internals: records, change detection, locking, the embedding cache (private).

The public entry point is :meth:`sectionrag.Pipeline.ingest`; what it
reports is :class:`~sectionrag.ingest.report.IngestReport`. See
``docs/ingestion.md`` for the design (records table, atomic replacement,
crash safety, locking).
"""

from __future__ import annotations

from sectionrag.ingest.report import FailedSource, IngestReport
from sectionrag.ingest.sources import discover_files

__all__ = ["FailedSource", "IngestReport", "discover_files"]
