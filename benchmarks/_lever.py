"""What the lever scripts share: their own arguments before ``--``, the benchmark's after it."""

from __future__ import annotations

import sys


def split_at_dashes(argv: list[str] | None) -> tuple[list[str], list[str]]:
    """Return ``(the lever's arguments, the benchmark's)`` of ``argv`` (``sys.argv[1:]`` if None)."""
    args = sys.argv[1:] if argv is None else argv
    if "--" not in args:
        return args, []
    at = args.index("--")
    return args[:at], args[at + 1 :]
