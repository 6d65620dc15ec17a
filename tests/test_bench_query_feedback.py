"""The thirteenth retrieval round's lever (benchmarks/query_feedback_lever.py): query vector feedback."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import query_feedback_lever as lever


def test_the_query_moves_toward_the_mean_of_its_first_results_and_stays_a_unit_vector() -> None:
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    found = [np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])]
    moved = lever.moved_query(q, found, 1.0)
    assert moved == pytest.approx(np.array([1.0, 0.5, 0.5]) / np.sqrt(1.5))
    assert float(np.linalg.norm(moved)) == pytest.approx(1.0)


def test_no_results_leave_the_query_as_it_was() -> None:
    q = np.array([0.6, 0.8], dtype=np.float32)
    assert lever.moved_query(q, [], 0.5) is q
