"""``sectionrag index``: parse, chunk, (enrich), embed and store files."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from sectionrag.cli._common import embedder_for_store, emit_json, open_store, progress_enabled

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``index`` command."""
    p = sub.add_parser("index", parents=[common], help="index files or directories into a database")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories to index")
    p.add_argument("--db", required=True, help="database directory (created if missing)")
    p.add_argument("--collection", default="default", help="collection name (default: %(default)s)")
    p.add_argument(
        "--embedder",
        default=None,
        help="bge-m3 (default for a new collection), minilm, a model id or a local path; "
        "an existing collection remembers its embedder",
    )
    p.add_argument(
        "--backend",
        default=None,
        choices=("torch", "onnx", "onnx-int8", "openvino"),
        help="embedding runtime (default: the preset's CPU default on a CPU, torch on a GPU); "
        "a collection refuses vectors from another backend",
    )
    p.add_argument("--strategy", default="section", help="chunking strategy (default: %(default)s)")
    p.add_argument("--size", type=int, default=None, help="maximum tokens per chunk")
    p.add_argument(
        "--enrich",
        default="none",
        metavar="MODE",
        help="none (default); extractive (offline: central sentence, key phrases, dates, fiscal "
        "periods, amounts, names); llm (summary, questions, entities from --llm-url/--anthropic)",
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
    p.set_defaults(handler=run)


#: file in the database directory that caches LLM enrichment between runs
ENRICH_CACHE = "enrichment_cache.sqlite3"


def build_enricher(mode: str, args: argparse.Namespace, embedder: Any = None) -> Any:
    """Return the enricher for ``--enrich MODE`` (``None`` for ``none``).

    ``llm`` uses an OpenAI-compatible server (``--llm-url``, ``--llm-model``) or,
    with ``--anthropic``, Anthropic's API; answers are cached in the database
    directory (:data:`ENRICH_CACHE`), so re-indexing unchanged text calls no LLM.

    Raises:
        ConfigError: unknown mode, or ``llm`` without a URL and model.
    """
    from pathlib import Path

    from sectionrag.errors import ConfigError

    embed_summary = bool(getattr(args, "embed_summary", False))
    if mode == "none":
        return None
    if mode == "extractive":
        from sectionrag.enrich import ExtractiveEnricher

        return ExtractiveEnricher(embed_summary=embed_summary, tokenizer=embedder)
    if mode != "llm":
        raise ConfigError(f"unknown --enrich mode {mode!r}; choose one of: extractive, llm, none")
    from sectionrag.enrich import AnthropicLLM, LLMEnricher, OpenAICompatibleLLM, SQLiteCache

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
    path = Path(args.db).expanduser() / ENRICH_CACHE
    cache = None if getattr(args, "estimate", False) and not path.exists() else SQLiteCache(path)
    return LLMEnricher(
        llm,
        cache=cache,
        concurrency=args.llm_concurrency,
        min_tokens=args.enrich_min_tokens,
        embed_summary=embed_summary,
        tokenizer=embedder,
    )


def estimate(args: argparse.Namespace, chunker: Any, enricher: Any) -> int:
    """``--estimate``: parse and chunk the paths, print what enrichment would cost; send and write nothing."""
    import sectionrag
    from sectionrag.enrich import EnrichmentEstimate
    from sectionrag.errors import ConfigError, SectionRagError
    from sectionrag.pipeline import discover_files

    if enricher is None:
        raise ConfigError("--estimate needs --enrich llm (or extractive, which calls no LLM)")
    total = EnrichmentEstimate(0, 0, 0, 0, 0, 0)
    failed: list[dict[str, str]] = []
    files = discover_files(args.paths, include=args.include, exclude=args.exclude)
    for path in files:
        try:
            chunks = chunker.chunk(sectionrag.parse(path))
        except (SectionRagError, OSError) as e:
            failed.append({"source": str(path), "error": " ".join(str(e).split())})
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


def run(args: argparse.Namespace) -> int:
    """Index the given paths and print a report."""
    import sectionrag
    from sectionrag.pipeline import Pipeline

    started = time.perf_counter()
    store = open_store(args.db, args.collection)
    embedder = embedder_for_store(store, args.embedder, backend=args.backend)
    params: dict[str, Any] = {"tokenizer": embedder}
    if args.size is not None:
        params["size"] = args.size
    enricher = build_enricher(args.enrich, args, embedder)
    if args.estimate:
        return estimate(args, sectionrag.chunker(args.strategy, **params), enricher)
    pipe = Pipeline(
        chunker=sectionrag.chunker(args.strategy, **params),
        embedder=embedder,
        store=store,
        enricher=enricher,
    )
    report = pipe.ingest(
        args.paths,
        sync=args.sync,
        include=args.include,
        exclude=args.exclude,
        progress=progress_enabled(),
        lock_timeout=args.wait,
        verify=args.verify,
    )
    summary = (
        f"{report.summary()} in {time.perf_counter() - started:.1f} s "
        f"({embedder.name} -> {args.db}:{args.collection})"
    )
    if args.json:
        emit_json(report.to_dict())
        if not report.ok:  # stdout holds the JSON document; say it on stderr too
            print(f"sectionrag index: {len(report.failed)} source(s) failed; {summary}", file=sys.stderr)
    else:
        for f in report.failed:
            print(f"failed: {f.source}: {f.error}", file=sys.stderr)
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
