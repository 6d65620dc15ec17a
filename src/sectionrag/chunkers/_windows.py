"""Fixed-size windows in tokens or characters, shared by ``fixed`` and ``overlap`` (private)."""

from __future__ import annotations

import bisect
from typing import Literal

from sectionrag.chunkers._base import Planned
from sectionrag.chunkers._spans import Measure, trim
from sectionrag.errors import ConfigError

__all__ = ["Unit", "char_windows", "check_unit", "drop_contained", "token_windows"]

Unit = Literal["tokens", "chars"]
_UNITS = ("tokens", "chars")


def check_unit(unit: object) -> Unit:
    """Validate ``unit``."""
    if unit not in _UNITS:
        raise ConfigError(f"unknown unit {unit!r}; choose one of: {', '.join(_UNITS)}")
    return "tokens" if unit == "tokens" else "chars"


def char_windows(start: int, end: int, size: int, step: int) -> list[Planned]:
    """Windows ``[p, p + size)`` for ``p = start, start + step, ...`` while ``p < end`` (the seed's loop)."""
    out: list[Planned] = []
    p = start
    while p < end:
        out.append((p, min(p + size, end), "", -1))
        p += step
    return out


def drop_contained(text: str, planned: list[Planned]) -> list[Planned]:
    """Drop windows that, once trimmed, lie inside the previous kept window (pure repeats)."""
    out: list[Planned] = []
    last: tuple[int, int] | None = None
    for item in planned:
        a, b = trim(text, item[0], item[1])
        if b <= a or (last is not None and last[0] <= a and b <= last[1]):
            continue
        out.append(item)
        last = (a, b)
    return out


def token_windows(
    measure: Measure, start: int, end: int, size: int, overlap: int, limit: int
) -> list[Planned]:
    """Windows of ``size`` tokens sharing ``overlap`` tokens over ``text[start:end]``, counted exactly.

    The window shrinks to ``limit`` when that is smaller (a model's
    ``max_tokens``), and the step shrinks with it so that windows still meet.

    Windows are planned on the document's one tokenization. A window that
    starts inside a word can tokenize differently on its own (``##eipt``
    becomes ``e ##ip ##t``), so the first word of such a window is counted on
    its own and the window gives back that many tokens at its end. The windows
    are then counted exactly in one batch; the rare one still over ``limit``
    is split at the least harmful point.
    """
    text = measure.text
    starts = measure.token_starts()
    i0, i1 = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
    if i1 <= i0:
        return [(start, end, "", -1)]
    width = min(size, limit)
    step = max(1, width - overlap)
    planned: list[tuple[int, int]] = []
    i = i0
    while True:
        a = start if i == i0 else starts[i]
        extra = _head_excess(measure, a, i, i1) if a > start and not text[a - 1].isspace() else 0
        j = min(i + max(1, width - extra), i1)
        planned.append((a, end if j == i1 else starts[j]))
        if j >= i1:
            break
        i = j if overlap == 0 else min(i + step, j)
    spans = [trim(text, a, b) for a, b in planned]
    spans = [(a, b) for a, b in spans if b > a]
    counts = measure.count_spans(spans)
    out: list[Planned] = []
    for (a, b), n in zip(spans, counts, strict=False):
        if n <= limit:
            out.append((a, b, "", n))
        else:
            out.extend((x, y, "", m) for x, y, m in measure.split_to_fit(a, b, limit))
    return out


def _head_excess(measure: Measure, a: int, i: int, i1: int) -> int:
    """How many more tokens the word fragment at ``a`` takes on its own than in the document."""
    text = measure.text
    starts = measure.token_starts()
    ends = measure.token_ends()
    k = i
    while k + 1 < i1 and starts[k + 1] <= ends[k] and k - i < 64:
        k += 1  # adjacent tokens: the rest of the same word
    w = ends[k]
    return max(0, measure.count(text[a:w]) - (k - i + 1))
