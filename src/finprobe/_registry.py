"""inspect_ai entry point: registers FinProbe's tasks and the ``finprobe`` model API.

Loaded by inspect when it resolves ``finprobe/<task>`` or ``--model finprobe/<baseline>``.
A benchmark whose optional dependencies are missing is skipped, not fatal.
"""

from __future__ import annotations

import importlib
import logging

from finprobe import runner  # noqa: F401  (registers the finprobe model API)

_log = logging.getLogger(__name__)

for _name in runner.BENCHMARK_NAMES:
    try:
        importlib.import_module(f"finprobe.benchmarks.{_name}.task")
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        _log.debug("finprobe benchmark %s not registered: %s", _name, exc)
