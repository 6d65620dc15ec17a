"""``sectionrag chunk FILE --strategy S``: chunk only, and optionally measure the chunks."""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

from sectionrag.cli._common import add_parser_options, build_parser, emit_json
from sectionrag.defaults import DEFAULT_SIMILARITY, DEFAULT_SIZE, DEFAULT_STRATEGY

__all__ = ["chunk_json", "register", "run", "strategy_params"]

_SIMILARITY_STRATEGIES = ("semantic", "section")


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``chunk`` command."""
    p = subparsers.add_parser(
        "chunk",
        parents=[common],
        help="chunk a file with one strategy (and measure the chunks)",
        description="Parse FILE and split it with one chunking strategy. Sizes are tokens of "
        "--embedder's tokenizer (words without it). --stats adds fragment rate, broken words, "
        "section mixing and sizes.",
    )
    p.add_argument("file", metavar="FILE", help="the file to chunk")
    add_parser_options(p)
    p.add_argument(
        "--strategy",
        default=DEFAULT_STRATEGY,
        help="fixed, overlap, paragraph, sentence, recursive, semantic, section or another registered "
        "strategy (default: %(default)s)",
    )
    p.add_argument(
        "--size", type=int, default=None, help=f"maximum tokens per chunk (default {DEFAULT_SIZE})"
    )
    p.add_argument("--overlap", type=int, default=None, help="overlap for the overlap strategy")
    p.add_argument("--unit", default=None, choices=("tokens", "chars"), help="window unit (fixed, overlap)")
    p.add_argument("--threshold", type=float, default=None, help="semantic threshold (default 0.5)")
    p.add_argument(
        "--embedder",
        default=None,
        help="count tokens with this model's tokenizer (minilm, bge-m3, a registered embedder, a model "
        "id or path); its max_tokens caps the size",
    )
    p.add_argument(
        "--similarity",
        default=DEFAULT_SIMILARITY,
        help="similarity model for semantic/section: an embedder name (default: %(default)s, a static "
        "model distilled offline from MiniLM)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other strategy parameter (repeatable): pack=true, max_sentences=1, inner=paragraph ...",
    )
    p.add_argument("--stats", action="store_true", help="measure the chunks (fragments, sections, sizes)")
    p.set_defaults(handler=run)


def strategy_params(args: argparse.Namespace) -> dict[str, Any]:
    """Collect the strategy parameters given on the command line (only those given)."""
    from sectionrag.errors import ConfigError
    from sectionrag.eval.compare import parse_spec

    params: dict[str, Any] = {}
    for key in ("size", "overlap", "unit", "threshold"):
        value = getattr(args, key, None)
        if value is not None:
            params[key] = value
    for item in args.param:
        if "=" not in item:
            raise ConfigError(f"--param expects KEY=VALUE, got {item!r}")
        params.update(parse_spec("x:" + item)[1])
    return params


def _similarity(name: str, embedder_name: str | None, embedder: Any) -> Any:
    """Return the similarity model for ``--similarity NAME``: ``--embedder``'s model when the same."""
    if embedder is not None and name == embedder_name:
        return embedder
    from sectionrag.cli._common import resolve_embedder

    return resolve_embedder(name)


def chunk_json(doc: Any, strategy: str, chunks: list[Any]) -> dict[str, Any]:
    """Return the JSON document ``sectionrag chunk --json`` prints."""
    return {
        "doc_id": doc.id,
        "source": doc.source,
        "text_sha256": hashlib.sha256(doc.text.encode("utf-8", "surrogatepass")).hexdigest(),
        "strategy": strategy,
        "chunks": [
            {
                "index": c.index,
                "text": c.text,
                "start": c.start,
                "end": c.end,
                "token_count": c.token_count,
                "section_path": list(c.section_path),
                "page_start": c.page_start,
                "page_end": c.page_end,
                "fine": c.fine,
            }
            for c in chunks
        ],
    }


def run(args: argparse.Namespace) -> int:
    """Chunk ``args.file`` and print the chunks (and stats)."""
    from sectionrag import registry
    from sectionrag.eval.metrics import chunk_stats

    doc = build_parser(args).parse(args.file)
    params = strategy_params(args)
    embedder = None
    if args.embedder is not None:
        from sectionrag.cli._common import resolve_embedder

        embedder = resolve_embedder(args.embedder)
        params["tokenizer"] = embedder
    inner = params.get("inner", "semantic")
    if args.strategy in _SIMILARITY_STRATEGIES and (args.strategy == "semantic" or inner == "semantic"):
        params.setdefault("embedder", _similarity(args.similarity, args.embedder, embedder))
    chunker = registry.create("chunker", args.strategy, **params)
    chunks = chunker.chunk(doc)
    stats = None
    if args.stats:
        stats = chunk_stats(
            doc, chunks, tokenizer=getattr(chunker, "tokenizer", None), limit=getattr(chunker, "limit", None)
        )
    if args.json:
        out = chunk_json(doc, args.strategy, chunks)
        if stats is not None:
            out["stats"] = stats.to_dict()
        emit_json(out)
        return 0
    fine = sum(1 for c in chunks if c.fine)
    counted = f"{len(chunks)} chunks" + (f", {fine} of them fine (inside the others)" if fine else "")
    print(f"{doc.source}: {counted} ({chunker!r})")
    for c in chunks:
        path = " > ".join(c.section_path) or "-"
        preview = " ".join(c.text.split())
        if len(preview) > 70:
            preview = preview[:69] + "…"
        mark = " fine" if c.fine else ""
        print(f"{c.index:>4} {c.token_count:>5} tok [{c.start}:{c.end}]{mark}  § {path}\n       {preview}")
    if stats is not None:
        print(_format_stats(stats))
    return 0


def _format_stats(stats: Any) -> str:
    t = stats.tokens
    return "\n".join(
        [
            "stats:",
            f"  chunks               {stats.chunks}"
            + (f"  ({stats.fine_chunks} fine)" if stats.fine_chunks else ""),
            f"  fragment rate        {stats.fragment_rate:.2%}  ({stats.boundaries_in_sentence} of "
            f"{stats.boundaries} boundaries inside a sentence; {stats.excused_in_sentence} forced by an "
            "over-long sentence)",
            f"  fragmented chunks    {stats.fragmented_chunk_rate:.2%}  ({stats.fragmented_chunks})",
            f"  broken words         {stats.broken_words}  ({stats.broken_word_rate:.2%} of boundaries)",
            f"  section mixing       {stats.section_mixing_rate:.2%}  ({stats.mixed_chunks} chunks)",
            f"  tokens               min {t.min}  median {t.median:g}  mean {t.mean:g}  "
            f"p95 {t.p95}  max {t.max}",
        ]
    )
