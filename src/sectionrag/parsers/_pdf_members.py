"""Member headings of an API reference: ``event.bubbles`` under ``Class: Event`` set in the same face.

An API reference may print a class's heading and the headings of its
members (``event.bubbles``, ``eventTarget.addEventListener(type, listener)``)
in one style, so that size and weight cannot tell their levels apart. The
text can: a heading that names a member of an object (an identifier, a dot
or a bracket, more code) belongs to the nearest heading of its rank that
names that object (``Class: Event``, ``Class: CustomEvent`` for ``event.detail``,
``Class: NodeEventTarget`` for ``nodeEventTarget.emit(type, arg)``), and nests
one level below it. Members already ranked below their class (a larger class
heading) are left as they are.
"""

from __future__ import annotations

import re

__all__ = ["nest_members"]

# an identifier followed by a member access, before any space: "event.bubbles", "emitter[Symbol.for(...)]"
_MEMBER = re.compile(r"^(?P<owner>[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$]|\[)[^\s(]*(?:\(.*\))?\s*$")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def _owner(title: str) -> str | None:
    """Return the object a member heading belongs to (``event`` for ``event.bubbles``), else ``None``."""
    m = _MEMBER.match(title.strip())
    return m.group("owner").casefold() if m else None


def _names(title: str, owner: str) -> bool:
    """Tell whether a heading names the object ``owner``: its last identifier is ``owner`` or ends with it.

    ``Class: Event`` names ``event``; ``Class: CustomEvent`` names ``event``
    too (a member of a subclass is written with the base's name); a heading
    that is itself a member access names nothing.
    """
    if _owner(title) is not None:
        return False
    words = _IDENTIFIER.findall(title)
    if not words:
        return False
    last = words[-1].casefold()
    return last == owner or (len(owner) >= 4 and last.endswith(owner))


def nest_members(titles: list[str], ranks: list[int]) -> list[int]:
    """Rank member headings one level below the same-rank heading of their object; dense ranks out.

    ``titles`` and ``ranks`` are the headings in reading order. A member
    heading looks back past its sibling members to the nearest heading of its
    rank or above; when that heading has its rank and names the member's
    object, the member ranks just below it.
    """
    keys: list[float] = [float(r) for r in ranks]
    owners = [_owner(t) for t in titles]
    changed = False
    for i, owner in enumerate(owners):
        if owner is None:
            continue
        for j in range(i - 1, -1, -1):
            if ranks[j] > ranks[i] or (owners[j] is not None and ranks[j] == ranks[i]):
                continue  # deeper headings and sibling members
            if ranks[j] == ranks[i] and _names(titles[j], owner):
                keys[i] = ranks[i] + 0.5
                changed = True
            break
    if not changed:
        return ranks
    dense = {k: n + 1 for n, k in enumerate(sorted(set(keys)))}
    return [dense[k] for k in keys]
