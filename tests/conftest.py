"""Shared fixtures: the tiny FAITH set and one finished baseline run on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from finprobe.runner import RunOutcome, run_benchmark

TINY_FAITH = Path(__file__).parent / "data" / "faith_tiny.json"


@pytest.fixture(scope="session")
def tiny_baseline_run(tmp_path_factory: pytest.TempPathFactory) -> RunOutcome:
    """finprobe/faith-solver on tests/data/faith_tiny.json (six hand-made spans)."""
    runs = tmp_path_factory.mktemp("tiny-runs")
    return run_benchmark(
        "faith",
        "finprobe/faith-solver",
        task_args={"data": str(TINY_FAITH)},
        runs_dir=runs,
        display="none",
    )
