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
    """Windows ``[p, p + size)`` for ``p = start, start + step, ...`` while ``p < end``."""
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
    its own and the window gives back the extra tokens at its end. Windows that
    do not end at a clean cut are counted exactly, in one batch; the rare one
    still over ``limit`` is split at the least harmful point.
    """
    text = measure.text
    starts = measure.token_starts()
    i0, i1 = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
    if i1 <= i0:
        return [(start, end, "", -1)]
    width = min(size, limit)
    step = max(1, width - overlap)
    planned: list[tuple[int, int, int, int, int, int]] = []  # a, b, i, j, delta, fragment end
    i = i0
    while True:
        a = start if i == i0 else starts[i]
        delta, frag_end = 0, a
        if a > start and not text[a - 1].isspace():
            delta, frag_end = _head_delta(measure, a, i, i1)
        j = min(i + max(1, width - max(0, delta)), i1)
        planned.append((a, end if j == i1 else starts[j], i, j, delta, frag_end))
        if j >= i1:
            break
        i = j if overlap == 0 else min(i + step, j)
    # A window counts as its document tokens plus the change of its first word
    # fragment, when counts add up at its end; the others are counted exactly.
    out: list[Planned] = []
    todo: list[tuple[int, int]] = []
    for a, b, i, j, delta, frag_end in planned:
        ta, tb = trim(text, a, b)
        if tb <= ta:
            continue
        if (
            measure.additive
            and i > i0
            and j < i1
            and frag_end <= tb
            and measure.clean_cut(tb)
            and measure.seam_free(ta, tb)
        ):
            out.append((ta, tb, "", j - i + delta))
        else:
            out.append((ta, tb, "", -1))
            todo.append((ta, tb))
    exact = iter(measure.count_spans(todo))
    final: list[Planned] = []
    for a, b, h, n in out:
        if n < 0:
            n = next(exact)
        if n <= limit:
            final.append((a, b, h, n))
        else:
            final.extend((x, y, "", m) for x, y, m in measure.split_to_fit(a, b, limit))
    return final


def _head_delta(measure: Measure, a: int, i: int, i1: int) -> tuple[int, int]:
    """Extra tokens the word fragment at ``a`` takes on its own, and where the fragment ends.

    ``##eipt`` inside the document is one token; ``eipt`` alone may be three.
    """
    text = measure.text
    starts = measure.token_starts()
    ends = measure.token_ends()
    k = i
    while k + 1 < i1 and starts[k + 1] <= ends[k] and k - i < 64:
        k += 1  # adjacent tokens: the rest of the same word
    w = ends[k]
    return measure.count(text[a:w]) - (k - i + 1), w
