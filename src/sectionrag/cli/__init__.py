"""The ``sectionrag`` command line.

One module per command under ``sectionrag.cli``; each exposes
``register(subparsers)`` which adds its sub-parser and sets ``handler`` (a
function ``(args) -> int``). Exit codes: 0 success, 1 error (one-line
message, traceback only with ``--debug``), 2 bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from sectionrag._version import __version__
from sectionrag.errors import ConfigError, SectionRagError

__all__ = ["COMMANDS", "build_parser", "main"]

#: command modules, in the order ``--help`` lists them
COMMANDS = ("parse", "chunk", "index", "search", "compare", "eval", "mcp", "demo")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with code 2 and one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available command registered."""
    parser = _Parser(prog="sectionrag", description="Section-aware chunking and retrieval.")
    parser.add_argument("--version", action="version", version=f"sectionrag {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    common.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"sectionrag.cli.{name}")
        except ModuleNotFoundError as e:  # a command whose module is not present yet
            if e.name == f"sectionrag.cli.{name}":
                continue
            raise
        module.register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code.

    Without ``argv`` (the ``sectionrag`` program, ``python -m sectionrag``) the
    process is the command's own: lancedb is then imported without pandas,
    which nothing here hands it (see :mod:`sectionrag.stores._lazy_import`).
    """
    if argv is None:
        from sectionrag.stores._lazy_import import hide_pandas

        hide_pandas()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        code: int = args.handler(args)
        return code
    except KeyboardInterrupt:
        print("sectionrag: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`sectionrag search ... | head`): stop quietly, as Unix tools do;
        # stdout is pointed at /dev/null so the interpreter's final flush raises nothing either
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141
    except ConfigError as e:
        if args.debug:
            raise
        print(f"sectionrag {args.command}: error: {e}", file=sys.stderr)
        return 2
    except (SectionRagError, OSError) as e:
        if args.debug:
            raise
        print(f"sectionrag {args.command}: error: {_one_line(e)}", file=sys.stderr)
        return 1


def _one_line(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return " ".join(text.split())
