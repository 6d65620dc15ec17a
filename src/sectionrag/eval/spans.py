"""Character-span scores in the manner of Chroma's chunking study.

:func:`sectionrag.eval.retrieval.score_query` merges the retrieved spans of a
document before counting, so overlapping chunks are never counted twice.
Chroma's study (Smith and Troynikov, *Evaluating Chunking Strategies for
Retrieval*, 2024) counts them differently, and its figures are the ones
published for other chunkers. :func:`chroma_scores` follows its rule:

- the *numerator* is the union of the parts of the references covered by any
  retrieved chunk;
- **recall** = numerator / total length of the references;
- **precision** = numerator / the sum of the lengths of all retrieved chunks,
  each counted in full (overlapping chunks count twice; chunks of other
  documents count too);
- **IoU** = numerator / (that sum + the reference characters no chunk covers).

Both rules agree when the retrieved chunks do not overlap; with overlapping
chunks (a 250-token window with a 125-token overlap) Chroma's precision and
IoU are lower.
"""

from __future__ import annotations

from collections.abc import Sequence

from sectionrag.eval.retrieval import Reference, Retrieved, source_matches

__all__ = ["chroma_scores"]


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def chroma_scores(
    references: Sequence[Reference], retrieved: Sequence[Retrieved]
) -> tuple[float, float, float]:
    """Return ``(recall, precision, iou)`` of ``retrieved`` against the span references.

    Page references are ignored; with no span reference every score is 0.
    Pass the top ``k`` results only.
    """
    spans = [r for r in references if r.has_span]
    covered: list[tuple[str, int, int]] = []
    for ref in spans:
        assert ref.start is not None and ref.end is not None
        for hit in retrieved:
            if not source_matches(ref.source, hit.source, hit.doc_id):
                continue
            a, b = max(ref.start, hit.start), min(ref.end, hit.end)
            if b > a:
                covered.append((ref.source, a, b))
    numerator = 0
    for source in {s for s, _, _ in covered}:
        numerator += sum(b - a for a, b in _merge([(a, b) for s, a, b in covered if s == source]))
    total_ref = 0
    for source in {r.source for r in spans}:
        total_ref += sum(
            b - a for a, b in _merge([(r.start or 0, r.end or 0) for r in spans if r.source == source])
        )
    retrieved_len = sum(hit.end - hit.start for hit in retrieved)
    unused = total_ref - numerator
    recall = numerator / total_ref if total_ref else 0.0
    precision = numerator / retrieved_len if retrieved_len else 0.0
    union = retrieved_len + unused
    iou = numerator / union if union else 0.0
    return recall, precision, iou
