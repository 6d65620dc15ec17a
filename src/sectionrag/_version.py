"""The package version (private; ``sectionrag.__version__`` is the public name)."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.2.0"
