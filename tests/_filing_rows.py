"""Rows of a quarterly income statement, as ``label | this year | last year`` (shared by chunker tests)."""

from __future__ import annotations

ROWS = [
    ("Products", "60,584", "63,355"),
    ("Services", "21,213", "19,604"),
    ("Total net sales", "81,797", "82,959"),
    ("Research and development", "7,442", "6,797"),
    ("Selling, general and administrative", "5,973", "6,012"),
    ("Operating income", "22,998", "23,076"),
    ("Provision for income taxes", "2,852", "3,624"),
    ("Net income", "19,881", "19,442"),
]
