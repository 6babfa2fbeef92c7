"""The benchmark contract: what the runner, results and report know about a benchmark.

These types live apart from ``runner.py`` (inspect glue) and ``results.py``
(results files) so that both import them and neither imports the other's types:
results -> benchmark <- runner, and runner -> results.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from finprobe.errors import InputError

if TYPE_CHECKING:
    from inspect_ai import Task

BENCHMARK_NAMES = ("faith", "findver", "finauditing", "fined")


@dataclass(frozen=True)
class SampleRecord:
    """One scored sample, as read back from an inspect log."""

    id: str
    metadata: dict
    completion: str
    score: dict
    score_metadata: dict
    error: str | None = None


@dataclass(frozen=True)
class BenchmarkInfo:
    """What the runner, results and report need to know about a benchmark."""

    name: str
    task: Callable[..., Task]
    scorer_version: str
    summarize: Callable[[list[SampleRecord]], dict]
    rescore: Callable[[str, dict], dict] | None = None
    baselines: Mapping[str, Callable[[dict], str]] = field(default_factory=dict)
    default_data: Callable[[], Path] | None = None
    # inspect task names for sub-tasks (finauditing has finsm/finre/finmr)
    subtasks: tuple[str, ...] = ()


def benchmark_info(name: str) -> BenchmarkInfo:
    """Import a benchmark's task module and return its BenchmarkInfo."""
    if name not in BENCHMARK_NAMES:
        raise InputError(
            None, f"unknown benchmark {name!r}; choose one of {', '.join(BENCHMARK_NAMES)}"
        )
    module = importlib.import_module(f"finprobe.benchmarks.{name}.task")
    return module.BENCHMARK


def samples_fingerprint(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:16]
