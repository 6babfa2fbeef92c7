"""Light constants the command line needs before it imports any benchmark.

``finprobe --help``, ``list`` and ``check`` must start without inspect_ai (2-3 s of
imports), so run defaults and the names users type (tasks, baselines) live here,
in a module that imports nothing. tests/test_cli_startup.py checks the catalogue
against each benchmark's ``BenchmarkInfo``, so the two cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_MAX_RETRIES = 3  # of a failed model request, with backoff
DEFAULT_TIMEOUT = 60  # seconds per model request attempt
DEFAULT_RUNS_DIR = Path("finprobe-runs")
# A run may lose this fraction of samples to errors (after retries) and still finish.
DEFAULT_FAIL_ON_ERROR = 0.2

# benchmark -> ((inspect task, (its non-LLM baselines, as --model finprobe/<name>)), ...)
CATALOG: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "faith": (("faith", ("faith-solver", "faith-solver-hand", "faith-solver-learned")),),
    "findver": (("findver", ("findver-verifier",)),),
    "finauditing": (
        ("finsm", ("finsm-retriever",)),
        ("finre", ("finre-classifier",)),
        ("finmr", ("finmr-solver",)),
    ),
    "fined": (("fined", ("fined-detector",)),),
}


def task_names(benchmark: str) -> tuple[str, ...]:
    """The inspect tasks of a benchmark (``--task`` takes one of them)."""
    return tuple(task for task, _ in CATALOG.get(benchmark, ()))
