"""``sectionrag index``: parse, chunk, (enrich), embed and store files.

An existing collection is reopened with :meth:`~sectionrag.Pipeline.open`:
its recorded embedder, chunker, enricher and parser are used unless an
option names another. A run over unchanged files loads no model.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from sectionrag.cli import _unchanged as unchanged
from sectionrag.cli._common import (
    add_collection_options,
    add_parser_options,
    build_parser,
    emit_json,
    open_collection,
    open_store,
    password_from,
    progress_enabled,
    resolve_embedder,
    storage_options,
)
from sectionrag.cli._sidecar import write_embedder_hint
from sectionrag.defaults import DEFAULT_EMBEDDER, DEFAULT_STRATEGY

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``index`` command."""
    p = sub.add_parser("index", parents=[common], help="index files or directories into a database")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories to index")
    add_collection_options(p, db_help="database directory (created if missing)")
    p.add_argument(
        "--embedder",
        default=None,
        help=f"{DEFAULT_EMBEDDER} (default for a new collection), minilm, another registered embedder, "
        "a model id or a local path; an existing collection remembers its embedder",
    )
    p.add_argument(
        "--backend",
        default=None,
        choices=("torch", "onnx", "onnx-int8", "openvino"),
        help="embedding runtime (default: the one an existing collection records; for a new one the "
        "preset's CPU default on a CPU, torch on a GPU); a collection refuses vectors from another backend",
    )
    p.add_argument(
        "--strategy",
        default=None,
        help=f"registered chunking strategy (default: the collection's, {DEFAULT_STRATEGY} for a new one)",
    )
    p.add_argument(
        "--size", type=int, default=None, help="maximum tokens per chunk (default: the collection's)"
    )
    p.add_argument(
        "--rechunk",
        action="store_true",
        help="re-index documents the collection holds with other chunking, parsing, enrichment "
        "or embedder settings (refused otherwise)",
    )
    add_parser_options(p)
    p.add_argument(
        "--enrich",
        default=None,
        metavar="MODE",
        help="none (the default for a new collection; an existing one keeps its recorded enrichment); "
        "extractive (offline: central sentence, key phrases, dates, fiscal "
        "periods, amounts, names); llm (summary, questions, entities from --llm-url/--anthropic); "
        "or another registered enricher",
    )
    p.add_argument(
        "--llm-url",
        default=None,
        metavar="URL",
        help="OpenAI-compatible API root, e.g. http://localhost:11434/v1",
    )
    p.add_argument("--llm-model", default=None, metavar="NAME", help="model name for --enrich llm")
    p.add_argument(
        "--anthropic",
        action="store_true",
        help="--enrich llm through Anthropic's API (sectionrag[anthropic])",
    )
    p.add_argument(
        "--llm-key-env",
        default=None,
        metavar="VAR",
        help="environment variable holding the API key (default: OPENAI_API_KEY, or ANTHROPIC_API_KEY)",
    )
    p.add_argument(
        "--llm-concurrency", type=int, default=4, metavar="N", help="LLM calls at once (default: 4)"
    )
    p.add_argument(
        "--enrich-min-tokens",
        type=int,
        default=0,
        metavar="N",
        help="do not send chunks under N tokens to the LLM",
    )
    p.add_argument("--embed-summary", action="store_true", help="embed each chunk's summary with its text")
    p.add_argument(
        "--estimate",
        action="store_true",
        help="with --enrich: parse and chunk only, then print the LLM calls and tokens indexing would spend",
    )
    p.add_argument(
        "--sync",
        action="store_true",
        help="also delete indexed documents whose source is gone (the collection mirrors PATH...)",
    )
    p.add_argument(
        "--allow-empty",
        action="store_true",
        help="let --sync delete every document of the collection (refused otherwise)",
    )
    p.add_argument(
        "--follow-symlinks",
        action="store_true",
        help="follow symbolic links that leave the directories given (skipped with a warning otherwise)",
    )
    p.add_argument("--include", action="append", default=[], metavar="GLOB", help="only files matching GLOB")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip files matching GLOB")
    p.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait up to SECONDS for another index run on the same collection (default: fail at once)",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="hash every file, even those whose size and modification time are unchanged",
    )
    p.add_argument(
        "--ray",
        action="store_true",
        help="distributed ingest on Ray Data: parse and chunk as Ray tasks, embed in an actor pool "
        "(sectionrag[ray]); files must be readable at the same path on every node",
    )
    p.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="with --ray: the cluster to join (auto, ray://HEAD:10001); default: start a local Ray",
    )
    p.add_argument(
        "--ray-actors",
        type=int,
        default=None,
        metavar="N",
        help="with --ray: embedding actors (default: one per GPU of the cluster, else 1)",
    )
    p.add_argument(
        "--ray-gpus",
        type=float,
        default=None,
        metavar="G",
        help="with --ray: GPUs per embedding actor (default: 1 when the cluster has GPUs, else 0)",
    )
    p.set_defaults(handler=run)


#: file in the database directory that caches LLM enrichment between runs
ENRICH_CACHE = "enrichment_cache.sqlite3"


def build_enricher(mode: str, args: argparse.Namespace) -> Any:
    """Return the enricher for ``--enrich MODE`` (``None`` for ``none``).

    ``llm`` uses an OpenAI-compatible server (``--llm-url``, ``--llm-model``) or,
    with ``--anthropic``, Anthropic's API; answers are cached in the database
    directory (:data:`ENRICH_CACHE`), so re-indexing unchanged text calls no LLM.
    Any other mode is a registered enricher, built with no arguments.

    Raises:
        ConfigError: unknown mode, or ``llm`` without a URL and model.
    """
    from sectionrag import registry
    from sectionrag.errors import ConfigError

    embed_summary = bool(getattr(args, "embed_summary", False))
    if mode == "none":
        return None
    if mode == "extractive":
        return registry.create("enricher", mode, embed_summary=embed_summary)
    if mode != "llm":
        if registry.find("enricher", mode) is None:
            modes = ", ".join(sorted([*registry.names("enricher"), "none"]))
            raise ConfigError(f"unknown --enrich mode {mode!r}; choose one of: {modes}")
        return registry.create("enricher", mode)
    from sectionrag.enrich import AnthropicLLM, OpenAICompatibleLLM, SQLiteCache

    llm: Any
    if getattr(args, "anthropic", False):
        llm = AnthropicLLM(
            args.llm_model or "claude-haiku-4-5", api_key_env=args.llm_key_env or "ANTHROPIC_API_KEY"
        )
    elif args.llm_url and args.llm_model:
        llm = OpenAICompatibleLLM(
            args.llm_url, args.llm_model, api_key_env=args.llm_key_env or "OPENAI_API_KEY"
        )
    else:
        raise ConfigError(
            "--enrich llm needs --llm-url URL and --llm-model NAME (an OpenAI-compatible server: vLLM, "
            "Ollama, llama.cpp, OpenAI) or --anthropic"
        )
    path = enrich_cache_path(args.db)
    cache = None if getattr(args, "estimate", False) and not path.exists() else SQLiteCache(path)
    return registry.create(
        "enricher",
        "llm",
        llm,
        cache=cache,
        concurrency=args.llm_concurrency,
        min_tokens=args.enrich_min_tokens,
        embed_summary=embed_summary,
    )


def enrich_cache_path(db: str) -> Path:
    """Return where the LLM enrichment cache of database ``db`` lives.

    In the database's directory; for a database on object storage, in the
    user's cache directory, one file per database URI.
    """
    import hashlib
    import os

    from sectionrag.stores.lancedb import is_remote

    if not is_remote(db):
        return Path(db).expanduser() / ENRICH_CACHE
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sectionrag"
    return base / f"enrichment-{hashlib.sha256(db.encode()).hexdigest()[:16]}.sqlite3"


def build_executor(args: argparse.Namespace) -> Any:
    """Return the executor ``--ray`` asks for (``None``: the local one).

    Raises:
        ConfigError: a ``--ray-*`` option without ``--ray``.
    """
    from sectionrag.errors import ConfigError

    extra = [
        f
        for f, v in (
            ("--ray-address", args.ray_address),
            ("--ray-actors", args.ray_actors),
            ("--ray-gpus", args.ray_gpus),
        )
        if v is not None
    ]
    if not args.ray:
        if extra:
            raise ConfigError(f"{', '.join(extra)} needs --ray")
        return None
    from sectionrag.ingest.ray_executor import RayExecutor

    return RayExecutor(args.ray_address, embed_actors=args.ray_actors, gpus_per_actor=args.ray_gpus)


def estimate(args: argparse.Namespace, pipe: Any) -> int:
    """``--estimate``: parse and chunk the paths, print what enrichment would cost; send and write nothing."""
    from sectionrag.enrich import EnrichmentEstimate
    from sectionrag.errors import ConfigError, SectionRagError
    from sectionrag.ingest.sources import display_source
    from sectionrag.pipeline import discover_files

    enricher = pipe.enricher
    if enricher is None:
        raise ConfigError("--estimate needs --enrich llm (or extractive, which calls no LLM)")
    total = EnrichmentEstimate(0, 0, 0, 0, 0, 0)
    failed: list[dict[str, str]] = []
    files = discover_files(
        args.paths, include=args.include, exclude=args.exclude, follow_symlinks=args.follow_symlinks
    )
    for path in files:
        try:
            chunks = pipe.chunker.chunk(pipe.parser.parse(path))
        except Exception as e:  # one bad file never stops the estimate
            text = " ".join(str(e).split())
            if not isinstance(e, (SectionRagError, OSError)):
                text = f"{type(e).__name__}: {text}"
            failed.append({"source": display_source(str(path)), "error": text})
            continue
        if hasattr(enricher, "estimate"):
            total = total + enricher.estimate(chunks)
        else:
            total = total + EnrichmentEstimate(len(chunks), 0, 0, len(chunks), 0, 0)
    if args.json:
        emit_json({"estimate": {"documents": len(files) - len(failed), **total.to_dict()}, "failed": failed})
    else:
        for f in failed:
            print(f"failed: {f['source']}: {f['error']}", file=sys.stderr)
        print(
            f"{total.calls} LLM calls for {total.chunks} chunks of {len(files) - len(failed)} documents "
            f"({total.cached} cached, {total.skipped} not sent): about {total.input_tokens:,} input tokens "
            f"and at most {total.output_tokens:,} output tokens; nothing was sent or written"
        )
    return 0 if not failed else 1


def build_chunker(args: argparse.Namespace, recorded: Any) -> Any:
    """Return the chunker ``--strategy``/``--size`` ask for, or ``None`` when neither is given.

    ``--size`` alone keeps the collection's recorded strategy and its other
    settings (``recorded``: the configuration it records, ``None`` for a new
    collection), else the default strategy.
    """
    from sectionrag import registry
    from sectionrag.ingest.fingerprint import chunker_settings

    if args.strategy is None and args.size is None:
        return None  # the recorded chunker (Pipeline.open builds it again), else the default
    params: dict[str, Any] = {} if args.size is None else {"size": args.size}
    if args.strategy is not None:
        return registry.create("chunker", args.strategy, **params)
    settings = chunker_settings(recorded)
    if settings is not None:
        return registry.create("chunker", settings[0], **{**settings[1], **params})
    return registry.create("chunker", DEFAULT_STRATEGY, **params)


def _stages(args: argparse.Namespace, recorded: Any) -> dict[str, Any]:
    """Return the stages the options ask for: chunker, enricher, parser (those not given are left out)."""
    stages: dict[str, Any] = {}
    chunker = build_chunker(args, recorded)
    if chunker is not None:
        stages["chunker"] = chunker
    if args.enrich is not None:
        enricher = build_enricher(args.enrich, args)
        stages["enricher"] = False if enricher is None else enricher
    if args.parser is not None or args.tables or password_from(args) is not None:
        stages["parser"] = build_parser(args)
    return stages


def store_where(store: Any, db: str) -> str:
    """Return the database as a message shows it: the store's credential-free form if it has one."""
    where = getattr(store, "where", None)
    return where if isinstance(where, str) else db


def run(args: argparse.Namespace) -> int:
    """Index the given paths and print a report."""
    started = time.perf_counter()
    executor = build_executor(args)
    nothing = unchanged.unchanged_report(args)  # the last run's manifest proves nothing changed
    if nothing is not None:
        return _print_report(args, nothing[0], nothing[1], str(Path(args.db).expanduser()), started)
    from sectionrag.errors import CollectionNotFoundError
    from sectionrag.ingest.fingerprint import read_recorded_config
    from sectionrag.pipeline import Pipeline

    options = storage_options(args) or None
    recorded = None
    if args.size is not None and args.strategy is None:  # --size alone: the recorded strategy
        recorded = read_recorded_config(open_store(args.db, args.collection, args.store, options))
    stages = _stages(args, recorded)
    try:
        pipe = open_collection(args, **stages)
    except CollectionNotFoundError:  # a new collection: the options, else the defaults
        pipe = Pipeline(
            parser=stages.get("parser") or build_parser(args),
            chunker=stages.get("chunker"),
            embedder=resolve_embedder(args.embedder, backend=args.backend),
            store=open_store(args.db, args.collection, args.store, options),
            enricher=stages.get("enricher") or None,
        )
    embedder, store = pipe.embedder, pipe.store
    if args.estimate:
        return estimate(args, pipe)
    before = unchanged.snapshot(args)  # the files' stat before anything of them is read
    unchanged.forget(args)
    report = pipe.ingest(
        args.paths,
        sync=args.sync,
        allow_empty=args.allow_empty,
        rechunk=args.rechunk,
        include=args.include,
        exclude=args.exclude,
        follow_symlinks=args.follow_symlinks,
        progress=progress_enabled(),
        lock_timeout=args.wait,
        verify=args.verify,
        executor=executor,
    )
    if before is not None:
        unchanged.record(args, before, report, embedder.name)
    if report.ok and (report.added or report.updated or report.unchanged):
        info = store.info()
        if info is not None:
            write_embedder_hint(args, embedder, info.dimension)
    return _print_report(args, report, embedder.name, store_where(store, args.db), started)


def _print_report(args: argparse.Namespace, report: Any, embedder: str, where: str, started: float) -> int:
    """Print what the run did (JSON with ``--json``); return the exit code."""
    from sectionrag.ingest.sources import display_source

    summary = (
        f"{report.summary()} in {time.perf_counter() - started:.1f} s "
        f"({embedder} -> {where}:{args.collection})"
    )
    if args.json:
        emit_json(report.to_dict(display_source))
        if not report.ok:  # stdout holds the JSON document; say it on stderr too
            print(f"sectionrag index: {len(report.failed)} source(s) failed; {summary}", file=sys.stderr)
    else:
        for f in report.failed:
            print(f"failed: {display_source(f.source)}: {f.error}", file=sys.stderr)
        for w in report.warnings:
            print(f"warning: {display_source(w.source)}: {w.message}", file=sys.stderr)
        if report.reconfigured:
            print(
                f"configuration changed ({'; '.join(report.config_changes)}): "
                f"re-indexed {len(report.reconfigured)} source(s)",
                file=sys.stderr,
            )
        print(summary)
        if args.debug:
            print(f"seconds: {report.timings()}", file=sys.stderr)
    return 0 if report.ok else 1
