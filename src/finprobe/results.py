"""Results JSON: one per run, read back from the inspect log, comparable with the papers.

A results file holds the benchmark, model, settings, scorer version, dataset
fingerprint, sample count and the benchmark's summary. The summary always has a
``headline`` dict of percentages whose keys match the published tables in
``data/published.json`` (so runs and papers line up), plus ``metrics`` and
``breakdowns`` with everything else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from finprobe.benchmark import (
    BENCHMARK_NAMES,
    BenchmarkInfo,
    SampleRecord,
    benchmark_info,
    samples_fingerprint,
)
from finprobe.development import developed_on
from finprobe.errors import InputError
from finprobe.files import (  # noqa: F401 (write_text_atomic re-exported)
    parse_json_bytes,
    write_json_atomic,
    write_text_atomic,
)
from finprobe.likeness import data_identity, headline_interval_of_records
from finprobe.model_calls import error_cause, plain_error
from finprobe.schemas import ResultsRecord, validate_object

RESULTS_SUFFIX = ".results.json"
# Results go in a folder of the runs folder, under names inspect does not take for
# logs (a log's name starts with its timestamp): resume and `inspect view` see each
# run once, and never try to read a results file as a log.
RESULTS_FOLDER = "results"
RESULTS_PREFIX = "run_"


def records_from_log(log: Any) -> list[SampleRecord]:
    """SampleRecords from an EvalLog with samples (first score of each sample)."""
    records = []
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()), None)
        value = score.value if score is not None else {}
        if not isinstance(value, dict):
            value = {"value": value}
        records.append(
            SampleRecord(
                id=str(sample.id),
                metadata=dict(sample.metadata or {}),
                completion=sample.output.completion if sample.output else "",
                score=dict(value),
                score_metadata=dict((score.metadata or {}) if score is not None else {}),
                error=str(sample.error.message) if sample.error else None,
            )
        )
    return records


def results_from_log(
    log_path: Path, info: BenchmarkInfo, rescore: bool = False, log: Any = None
) -> dict:
    """Build the results dict for a finished (or partly finished) inspect log.

    ``log``: the EvalLog just written to ``log_path`` (the direct runner's), so that it is
    not read back."""
    if log is None:
        from inspect_ai.log import read_eval_log

        log = read_eval_log(str(log_path))
    records = records_from_log(log)
    if rescore and info.rescore is not None:
        records = [
            SampleRecord(
                id=r.id,
                metadata=r.metadata,
                completion=r.completion,
                score=info.rescore(r.completion, r.metadata),
                score_metadata=r.score_metadata,
                error=r.error,
            )
            for r in records
        ]
    # errored samples have no answer: the headline is over the scored ones, and the
    # errors are counted beside it by cause
    scored = [r for r in records if not r.error]
    errored = [r for r in records if r.error]
    summary = (
        info.summarize(scored)
        if scored
        else {"headline": {}, "metrics": {}, "breakdowns": {}}  # nothing was answered
    )
    # what data this is (report.py compares like with like) and, where the headline is
    # not a share of samples, its bootstrap interval
    summary = {
        **summary,
        "data": data_identity(scored or records),
        "interval": headline_interval_of_records(info.name, scored, info.summarize),
    }
    causes: dict[str, int] = {}
    examples: dict[str, str] = {}
    for record in errored:
        cause = error_cause(record.error)
        causes[cause] = causes.get(cause, 0) + 1
        examples.setdefault(cause, plain_error(record.error)[:300])
    spec = log.eval
    finprobe_meta = (spec.metadata or {}).get("finprobe", {})
    # a baseline scored on the data it was developed on gives a tuned figure: say so
    tuned_on = developed_on(info.name, spec.model, [r.id for r in records])
    return {
        "benchmark": info.name,
        "task": spec.task,
        "model": spec.model,
        "scorer_version": info.scorer_version,
        "rescored": rescore,
        "settings": {
            "task_args": dict(spec.task_args or {}),
            "limit": spec.config.limit,
            "fail_on_error": spec.config.fail_on_error,
            **_generation_settings(log),
            **{k: v for k, v in finprobe_meta.items() if k != "model_url"},
        },
        "dataset": {
            "name": spec.dataset.name,
            "location": spec.dataset.location,
            "samples": spec.dataset.samples,
            "fingerprint": samples_fingerprint([r.id for r in records]),
        },
        "status": run_status(log.status, len(errored)),
        "inspect_status": log.status,
        "finished": log.status == "success",
        "stopped_by": _stop_reason(log),
        "samples": len(records),
        "scored_samples": len(scored),
        "errors": len(errored),
        "error_causes": dict(sorted(causes.items())),
        "error_examples": examples,
        "model_url": finprobe_meta.get("model_url"),
        "prompt_fit": _prompt_fit_summary(records),
        "log": str(log_path),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        **({"developed_on": tuned_on} if tuned_on else {}),
        **summary,
    }


def run_status(inspect_status: str, errors: int) -> str:
    """success | success_with_errors | failed (stopped: --fail-on-error crossed, or a
    fatal error) | cancelled | incomplete (still running, or killed)."""
    if inspect_status == "success":
        return "success_with_errors" if errors else "success"
    if inspect_status == "error":
        return "failed"
    if inspect_status == "cancelled":
        return "cancelled"
    return "incomplete"


def _stop_reason(log: Any) -> str | None:
    if log.status == "success" or log.error is None:
        return None
    return " ".join(plain_error(log.error.message).split())[:300]


def _generation_settings(log: Any) -> dict[str, Any]:
    config = log.plan.config if log.plan is not None else None
    out: dict[str, Any] = {}
    for key in ("max_tokens", "temperature", "seed"):
        value = getattr(config, key, None) if config is not None else None
        if value is not None:
            out[key] = value
    return out


def _prompt_fit_summary(records: list[SampleRecord]) -> dict[str, Any] | None:
    fits = [r.metadata.get("prompt_fit") for r in records]
    fits = [f for f in fits if isinstance(f, dict)]
    if not fits:
        return None
    return {
        "policy": fits[0].get("policy"),
        "budget_tokens": fits[0].get("budget_tokens"),
        "checked": len(fits),
        "truncated": sum(1 for f in fits if f.get("truncated")),
        "refused": sum(1 for f in fits if not f.get("fits")),
        "max_estimated_tokens": max(int(f.get("estimated_tokens", 0)) for f in fits),
    }


def results_path_for(log_path: Path) -> Path:
    """``<log folder>/results/run_<log name>.results.json``."""
    log_path = Path(log_path)
    stem = log_path.name.rsplit(".", 1)[0]
    return log_path.parent / RESULTS_FOLDER / f"{RESULTS_PREFIX}{stem}{RESULTS_SUFFIX}"


def _legacy_results_path(log_path: Path) -> Path:
    """Where results were written before they moved out of inspect's sight."""
    stem = Path(log_path).name.rsplit(".", 1)[0]
    return Path(log_path).with_name(stem + RESULTS_SUFFIX)


def write_results(results: dict, log_path: Path) -> Path:
    return write_json_atomic(results_path_for(log_path), results)


def load_results(path: str | Path) -> dict:
    """Read a results JSON; also accepts an inspect log (its results file is used or built)."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a folder; give a .results.json or a .eval log")
    if path.suffix in (".eval",) or (
        path.suffix == ".json" and not path.name.endswith(RESULTS_SUFFIX)
    ):
        for sibling in (results_path_for(path), _legacy_results_path(path)):
            if sibling.exists():
                path = sibling
                break
        else:
            return _results_for_log(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from exc
    if not text.strip():
        raise InputError(path, "file is empty")
    data = parse_json_bytes(path, text)
    if not isinstance(data, dict) or "benchmark" not in data:
        raise InputError(path, "not a FinProbe results file (no 'benchmark' field)")
    return validate_object(path, data, ResultsRecord, "FinProbe results file")


def benchmark_of_log(path: Path) -> str:
    """The FinProbe benchmark an inspect log belongs to (from its task name)."""
    from inspect_ai.log import read_eval_log

    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception as exc:
        raise InputError(path, f"not a readable inspect log ({type(exc).__name__})") from exc
    name = header.eval.task.split("/")[-1]
    if name in ("finsm", "finre", "finmr"):
        return "finauditing"
    if name in BENCHMARK_NAMES:
        return name
    raise InputError(path, f"log of task {header.eval.task!r} is not a FinProbe benchmark")


def _results_for_log(path: Path) -> dict:
    return results_from_log(path, benchmark_info(benchmark_of_log(path)))


def rescore_run(path: str | Path) -> dict:
    """Re-score a saved run's answers with the current scorer (no model calls)."""
    path = Path(path)
    log_path = path
    if path.name.endswith(RESULTS_SUFFIX):
        log_path = Path(load_results(path)["log"])
    if not log_path.exists():
        raise InputError(log_path, "the run's inspect log is missing: cannot re-score")
    info = benchmark_info(benchmark_of_log(log_path))
    return results_from_log(log_path, info, rescore=True)


@lru_cache(maxsize=1)
def published() -> dict:
    """The papers' published numbers (from shared/reference/paper-results.md)."""
    text = resources.files("finprobe").joinpath("data/published.json").read_text(encoding="utf-8")
    return json.loads(text)["benchmarks"]


def published_split(benchmark: str, split: str | None = None) -> tuple[str, dict[str, dict]]:
    """(split name, {model: {metric: value}}) of a benchmark's published table."""
    splits = published().get(benchmark, {}).get("splits", {})
    if not splits:
        return "", {}
    if split is None:
        split = next(iter(splits))
    if split not in splits:
        raise InputError(
            None, f"{benchmark} has no published split {split!r}; choose one of {', '.join(splits)}"
        )
    table = {}
    for model, values in splits[split].items():
        table[model] = _flatten(values)
    return split, table


def published_notes(benchmark: str, split: str) -> dict[str, str]:
    """{model: note} for a published table: where the authors' released outputs
    differ from the paper's figures (the figures themselves stay the paper's)."""
    return published().get(benchmark, {}).get("notes", {}).get(split, {})


def _flatten(values: dict, prefix: str = "") -> dict[str, float]:
    flat: dict[str, float] = {}
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}." if key != "overall" or prefix else "overall."))
        else:
            flat[name] = float(value)
    return flat


def headline_columns(runs: Iterable[dict], published_rows: dict[str, dict]) -> list[str]:
    """Columns present in the runs' headlines, in the published table's order first."""
    columns: list[str] = []
    for row in published_rows.values():
        for key in row:
            if key not in columns:
                columns.append(key)
    run_keys: list[str] = []
    for run in runs:
        for key in run.get("headline", {}):
            if key not in run_keys:
                run_keys.append(key)
    ordered = [c for c in columns if c in run_keys] or run_keys
    return ordered + [k for k in run_keys if k not in ordered]
