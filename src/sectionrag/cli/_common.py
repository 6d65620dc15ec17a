"""Helpers shared by the CLI commands: output, stages by name, progress."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from sectionrag.defaults import (
    DEFAULT_COLLECTION,
    DEFAULT_EMBEDDER,
    DEFAULT_FUSION,
    DEFAULT_K,
    DEFAULT_SEARCH_MODE,
    DEFAULT_STORE,
    DEFAULT_WEIGHTS,
    FUSIONS,
    MAX_CHARS_RESULTS,
)

__all__ = [
    "add_collection_options",
    "add_parser_options",
    "add_password_options",
    "add_search_options",
    "build_parser",
    "emit_json",
    "format_results",
    "open_collection",
    "open_store",
    "parse_weights",
    "password_from",
    "progress_enabled",
    "resolve_embedder",
    "storage_options",
]


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout."""
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def progress_enabled() -> bool:
    """Show progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def add_collection_options(p: Any, *, db_help: str = "database directory") -> None:
    """Add ``--db``, ``--collection``, ``--store`` and ``--storage-option`` (which collection, where)."""
    p.add_argument("--db", required=True, help=f"{db_help}, or s3://, gs://, az:// URI")
    p.add_argument("--collection", default=DEFAULT_COLLECTION, help="collection name (default: %(default)s)")
    p.add_argument("--store", default=DEFAULT_STORE, help="registered store (default: %(default)s)")
    p.add_argument(
        "--storage-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="object-storage option for --db s3://... (aws_endpoint, aws_region, allow_http, ...); "
        "repeatable; visible in the process list, so pass secrets with --storage-option-env",
    )
    p.add_argument(
        "--storage-option-env",
        action="append",
        default=[],
        metavar="KEY=VAR",
        help="object-storage option KEY read from the environment variable VAR "
        "(e.g. aws_secret_access_key=MY_SECRET); repeatable",
    )


def storage_options(args: Any) -> dict[str, str]:
    """Collect ``--storage-option KEY=VALUE`` and ``--storage-option-env KEY=VAR`` into a mapping.

    Values are never echoed: errors name the flag, the key and the variable only. A key given
    both ways takes the ``--storage-option-env`` value.

    Raises:
        ConfigError: a flag without ``=`` or with an empty key, or an environment variable that
            is not set.
    """
    from sectionrag.errors import ConfigError

    out: dict[str, str] = {}
    sources = (
        ("--storage-option", "storage_option", False),
        ("--storage-option-env", "storage_option_env", True),
    )
    for flag_name, attr, from_env in sources:
        for flag in getattr(args, attr, None) or []:
            key, sep, value = flag.partition("=")
            key = key.strip()
            if not sep or not key:
                meta = "KEY=VAR" if from_env else "KEY=VALUE"
                shown = key or "(empty)"
                raise ConfigError(f"{flag_name} takes {meta}; got one without '=' or key (key {shown!r})")
            if from_env:
                var = value.strip()
                if var not in os.environ:
                    raise ConfigError(f"{flag_name} {key}=...: the environment variable {var!r} is not set")
                value = os.environ[var]
            out[key] = value
    return out


def add_search_options(p: Any, *, k_help: str, budget: bool = False) -> None:
    """Add ``-k``, ``--mode``, ``--fusion`` and ``--weights`` (how to search).

    ``budget``: also ``--max-chars``; ``-k`` then defaults to ``None`` (resolved by the search).
    """
    if budget:
        p.add_argument(
            "-k",
            type=int,
            default=None,
            help=f"{k_help} (default: {DEFAULT_K}; with --max-chars, at most {MAX_CHARS_RESULTS})",
        )
        p.add_argument(
            "--max-chars",
            type=int,
            default=None,
            metavar="N",
            help="return the best results while their text adds up to at most N characters "
            "(the best one always)",
        )
    else:
        p.add_argument("-k", type=int, default=DEFAULT_K, help=f"{k_help} (default: %(default)s)")
    p.add_argument(
        "--mode",
        choices=("vector", "text", "hybrid"),
        default=DEFAULT_SEARCH_MODE,
        help="search mode (default: %(default)s)",
    )
    p.add_argument(
        "--fusion", choices=FUSIONS, default=None, help=f"hybrid fusion (default: {DEFAULT_FUSION})"
    )
    p.add_argument(
        "--weights",
        default=None,
        metavar="V,T",
        help="hybrid weights of the vector and text rankings "
        f"(default: {DEFAULT_WEIGHTS[0]:g},{DEFAULT_WEIGHTS[1]:g})",
    )


def add_parser_options(p: Any) -> None:
    """Add ``--parser NAME``, ``--tables`` and the PDF password options to a command that parses files."""
    p.add_argument(
        "--parser",
        default=None,
        metavar="NAME",
        help="parse with this registered parser (default: chosen by each file's type and content)",
    )
    p.add_argument(
        "--tables",
        action="store_true",
        help="PDF: find ruled tables with pdfplumber and write each row as 'cell | cell' (slower)",
    )
    add_password_options(p)


def build_parser(args: Any, **options: Any) -> Any:
    """Return the parser ``--parser``, ``--tables`` and ``--password`` ask for (default: AutoParser)."""
    from sectionrag.parsers import AutoParser, get_parser

    if getattr(args, "tables", False):
        options["tables"] = True
    password = password_from(args)
    if password is not None:
        options["password"] = password
    name = getattr(args, "parser", None)
    return AutoParser(**options) if name is None else get_parser(name, **options)


def resolve_embedder(name: str | None, *, default: str = DEFAULT_EMBEDDER, backend: str | None = None) -> Any:
    """Return the embedder for a registered name, model id or local path (lazy import).

    ``backend`` (``torch``, ``onnx``, ``onnx-int8``, ``openvino``) wins over a name's ``@backend``.
    """
    from sectionrag.embedders import get_embedder

    if backend is None:
        return get_embedder(name or default)
    return get_embedder(name or default, backend=backend)


def open_store(
    db: str, collection: str, store: str = DEFAULT_STORE, options: dict[str, str] | None = None
) -> Any:
    """Open collection ``collection`` of the registered store ``store`` at ``db``.

    ``options`` (``--storage-option``) are passed as ``storage_options=`` when given.
    """
    from sectionrag import registry

    remote = {"storage_options": options} if options else {}
    return registry.create("store", store, db, collection=collection, **remote)


def parse_weights(text: str | None) -> tuple[float, float] | None:
    """Parse ``--weights V,T`` into a pair of floats (``None`` when not given)."""
    from sectionrag.errors import ConfigError

    if text is None:
        return None
    try:
        vector, text_weight = (float(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"--weights takes two numbers such as 0.7,0.3, got {text!r}") from None
    return vector, text_weight


def open_collection(args: Any, *, check: bool = True, **stages: Any) -> Any:
    """Reopen ``--db``/``--collection``/``--store`` with the stages it records (:meth:`Pipeline.open`).

    ``--embedder``, when the command has it and it is given, must name the
    model the collection was built with; ``--backend`` runs that model on
    another runtime (searching works; the store refuses its vectors when
    indexing); ``stages`` replace recorded ones.

    Raises:
        CollectionNotFoundError: the collection does not exist (the message says how to build it).
    """
    from sectionrag.errors import CollectionNotFoundError
    from sectionrag.pipeline import Pipeline

    try:
        return Pipeline.open(
            args.db,
            args.collection,
            store=args.store,
            embedder=getattr(args, "embedder", None),
            backend=getattr(args, "backend", None),
            check=check,
            storage_options=storage_options(args) or None,
            **stages,
        )
    except CollectionNotFoundError as e:
        raise CollectionNotFoundError(
            f"{e} with `sectionrag index PATH --db {args.db}"
            + ("" if args.collection == DEFAULT_COLLECTION else f" --collection {args.collection}")
            + "`"
        ) from e


def format_results(results: list[Any], *, width: int = 100) -> str:
    """Render search results as a readable block of text."""
    if not results:
        return "no results"
    lines = []
    for r in results:
        path = " > ".join(r.section_path) or "(no section)"
        pages = ""
        if r.page_start is not None:
            pages = f" p.{r.page_start}" if r.page_start == r.page_end else f" pp.{r.page_start}-{r.page_end}"
        lines.append(f"{r.rank:>2}. {r.score:.4f}  {r.source}{pages}  [{r.start}:{r.end}]")
        lines.append(f"    § {path}")
        snippet = " ".join(r.text.split())
        if len(snippet) > width:
            snippet = snippet[: width - 1].rstrip() + "…"
        lines.append(f"    {snippet}")
    return "\n".join(lines)


def add_password_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--password`` and ``--password-env VAR`` (for encrypted PDFs) to a command."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--password",
        default=None,
        metavar="TEXT",
        help="password of encrypted PDFs (visible to other users in the process list: prefer --password-env)",
    )
    group.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="read the password of encrypted PDFs from the environment variable VAR",
    )


def password_from(args: argparse.Namespace) -> str | None:
    """Return the PDF password given by ``--password`` or ``--password-env`` (``None`` if neither).

    Raises:
        ConfigError: ``--password-env`` names a variable that is not set.
    """
    from sectionrag.errors import ConfigError

    if getattr(args, "password", None) is not None:
        return str(args.password)
    var = getattr(args, "password_env", None)
    if var is None:
        return None
    value = os.environ.get(var)
    if value is None:
        raise ConfigError(f"--password-env: the environment variable {var} is not set")
    return value
