"""What two inspect logs of the same run must share, whichever runner wrote them.

``comparable_log`` keeps everything of an EvalLog except what differs between two runs
of the same thing by nature: ids, timestamps, durations, the message ids inspect draws at
random, the traceback's frames (the runner's own frames differ; its message is kept),
and the transcript events (the direct runner keeps none; see finprobe.direct_run).
"""

from __future__ import annotations

from typing import Any

VOLATILE_SPEC = {"eval_id", "run_id", "created", "task_id"}


def _message(message: Any) -> dict:
    data = message.model_dump(exclude_none=True)
    data.pop("id", None)
    return data


def _output(output: Any) -> dict:
    data = output.model_dump(exclude_none=True)
    data.pop("time", None)
    for choice in data.get("choices", []):
        choice.get("message", {}).pop("id", None)
    return data


def comparable_sample(sample: Any) -> dict:
    return {
        "id": sample.id,
        "epoch": sample.epoch,
        "input": sample.input
        if isinstance(sample.input, str)
        else [_message(m) for m in sample.input],
        "target": sample.target,
        "choices": sample.choices,
        "metadata": sample.metadata,
        "messages": [_message(m) for m in sample.messages],
        "output": _output(sample.output),
        "scores": {k: v.model_dump(exclude_none=True) for k, v in (sample.scores or {}).items()},
        "store": sample.store,
        "model_usage": {k: v.model_dump(exclude_none=True) for k, v in sample.model_usage.items()},
        "error": sample.error.message if sample.error else None,
        "error_retries": sample.error_retries,
        "limit": sample.limit,
    }


def comparable_log(log: Any) -> dict:
    spec = log.eval.model_dump(exclude_none=True)
    spec = {k: v for k, v in spec.items() if k not in VOLATILE_SPEC}
    stats = log.stats.model_dump(exclude_none=True)
    return {
        "status": log.status,
        "error": log.error.message if log.error else None,
        "eval": spec,
        "plan": log.plan.model_dump(exclude_none=True),
        "results": log.results.model_dump(exclude_none=True) if log.results else None,
        "model_usage": stats.get("model_usage"),
        "samples": sorted(
            (comparable_sample(s) for s in log.samples or []), key=lambda s: str(s["id"])
        ),
        "reductions": [r.model_dump(exclude_none=True) for r in log.reductions or []],
    }


def comparable_results(results: dict) -> dict:
    """A results record without its log's path and its creation time."""
    return {k: v for k, v in results.items() if k not in ("log", "created")}
