"""FAITH scoring: the answer JSON, two precision-relaxed modes, and the summary.

Modes (both are always computed; ``reference`` is the default and the one that
compares with the published tables):

- ``reference``: what the authors' released scorer does. A case-insensitive
  exact string match first; else both sides parsed to value and resolution, correct
  when they differ by at most half the coarser resolution or by at most 2%; a
  negative prediction is wrong; no unit check.
- ``paper``: Algorithm 1 as printed: round both to the coarser precision and
  compare (numeric), and every non-scale unit group of the reference must appear
  in the prediction (unit); correct when both hold.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from finprobe.jsonout import extract_json
from finprobe.numbers import precision_relaxed_match, reference_scorer_match
from finprobe.runner import SampleRecord

SCORER_VERSION = "faith-1.1"  # 1.1: reference mode is the released scorer verdict for verdict
SCORING_MODES = ("reference", "paper")
SCENARIOS = ("A", "B", "C", "D")


def parse_answer(completion: str) -> dict[str, Any] | None:
    """The ``results`` object of a FAITH reply, or None when there is no usable answer."""
    data = extract_json(completion)
    if not isinstance(data, dict):
        return None
    results = data.get("results", data)
    if not isinstance(results, dict):
        return None
    answer = results.get("answer")
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return None
    if isinstance(answer, (int, float)):
        answer = repr(answer) if isinstance(answer, float) else str(answer)
    scenario = str(results.get("scenario") or "").strip().upper()[:1]
    return {
        "answer": str(answer).strip(),
        "scenario": scenario if scenario in SCENARIOS else None,
        "necessary_metrics": results.get("necessary_metrics") or [],
        "reference": results.get("reference") or [],
    }


def score_answer(ground_truth: str, answer: str | None) -> dict[str, float]:
    """All per-sample figures for one answer (None: unparseable reply)."""
    if answer is None:
        return {
            "correct": 0.0,
            "value": 0.0,
            "unit": 0.0,
            "paper_correct": 0.0,
            "paper_value": 0.0,
            "paper_unit": 0.0,
            "parsed": 0.0,
        }
    paper = precision_relaxed_match(ground_truth, answer)
    reference = reference_scorer_match(ground_truth, answer)
    # The unit figure is the paper's unit-group check in both modes: the released
    # scorer has none of its own.
    return {
        "correct": float(reference),
        "value": float(reference),
        "unit": float(paper.unit),
        "paper_correct": float(paper.both),
        "paper_value": float(paper.numeric),
        "paper_unit": float(paper.unit),
        "parsed": 1.0,
    }


def rescore(completion: str, metadata: dict[str, Any]) -> dict[str, float]:
    parsed = parse_answer(completion)
    return score_answer(metadata["ground_truth"], parsed["answer"] if parsed else None)


@scorer(
    metrics={"correct": [mean()], "paper_correct": [mean()], "value": [mean()], "unit": [mean()]}
)
def faith_scorer() -> Scorer:
    """Scores a FAITH reply in both modes; Score.metadata keeps the parsed answer."""

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion if state.output else ""
        parsed = parse_answer(completion)
        values = score_answer(state.metadata["ground_truth"], parsed["answer"] if parsed else None)
        return Score(
            value=values,
            answer=parsed["answer"] if parsed else None,
            explanation=f"ground truth {state.metadata['ground_truth']!r}",
            metadata={
                "parsed": parsed,
                "attempts": state.metadata.get("generate_attempts", 1),
            },
        )

    return score


def _pct(numerator: float, denominator: int) -> float:
    return round(100.0 * numerator / denominator, 2) if denominator else 0.0


def sample_scenario(record: SampleRecord) -> str | None:
    """The annotated scenario, else the model's self-report when it answered correctly."""
    annotated = record.metadata.get("mask_type")
    if annotated in SCENARIOS:
        return annotated
    parsed = record.score_metadata.get("parsed") or {}
    if record.score.get("correct") and parsed.get("scenario") in SCENARIOS:
        return parsed["scenario"]
    return None


ANSWERABILITY = ("answerable", "unanswerable", "unlabelled")


def summarize(
    records: list[SampleRecord], scenarios: dict[str, str] | None = None
) -> dict[str, Any]:
    """Accuracy overall, value, unit and by scenario, in both modes.

    The headline counts the answerable instances only; unanswerable and
    unlabelled ones (a build kept with ``--keep-unanswerable``, a file with no
    labels) are scored apart in ``breakdowns.answerability``. When no instance
    is known answerable, the headline counts them all and says so (``scope``).
    ``scenarios`` (uid -> scenario) overrides per-sample scenarios: ``compare``
    passes the cross-model consensus for instances without an annotated mask_type.
    """
    groups: dict[str, list[SampleRecord]] = defaultdict(list)
    for record in records:
        groups[record.metadata.get("answerability") or "answerable"].append(record)
    scope = "answerable" if groups.get("answerable") else "all"
    headline_records = groups["answerable"] if scope == "answerable" else records
    result = _summarize_group(headline_records, scenarios)
    result["metrics"]["scope"] = scope
    result["breakdowns"]["answerability"] = {
        name: {
            "n": len(group),
            "accuracy": _pct(sum(r.score.get("correct", 0) for r in group), len(group)),
            "paper_accuracy": _pct(sum(r.score.get("paper_correct", 0) for r in group), len(group)),
        }
        for name in ANSWERABILITY
        if (group := groups.get(name))
    }
    return result


def _summarize_group(
    records: list[SampleRecord], scenarios: dict[str, str] | None
) -> dict[str, Any]:
    n = len(records)
    totals: dict[str, float] = defaultdict(float)
    by_scenario: dict[str, list[SampleRecord]] = defaultdict(list)
    unparseable = 0
    errors = 0
    for record in records:
        for key, value in record.score.items():
            totals[key] += float(value)
        if record.error:
            errors += 1
        if not record.score.get("parsed"):
            unparseable += 1
        scenario = (scenarios or {}).get(record.id) or sample_scenario(record) or "unknown"
        by_scenario[scenario].append(record)

    def block(prefix: str) -> dict[str, float]:
        return {
            "overall": _pct(totals[f"{prefix}correct"], n),
            "value": _pct(totals[f"{prefix}value"], n),
            "unit": _pct(totals[f"{prefix}unit"], n),
        }

    scenario_rows: dict[str, dict[str, float]] = {}
    for scenario in (*SCENARIOS, "unknown"):
        group = by_scenario.get(scenario, [])
        if not group:
            continue
        scenario_rows[scenario] = {
            "n": len(group),
            "accuracy": _pct(sum(r.score.get("correct", 0) for r in group), len(group)),
            "paper_accuracy": _pct(sum(r.score.get("paper_correct", 0) for r in group), len(group)),
        }
    reference = block("")
    headline = dict(reference)
    for scenario in SCENARIOS:
        if scenario in scenario_rows:
            headline[scenario] = scenario_rows[scenario]["accuracy"]
    return {
        "headline": headline,
        "metrics": {
            "reference": reference,
            "paper": block("paper_"),
            "unparseable_rate": _pct(unparseable, n),
            "error_samples": errors,
            "n": n,
        },
        "breakdowns": {"scenario": scenario_rows},
    }


def consensus_scenarios(runs: list[list[SampleRecord]]) -> dict[str, str]:
    """Per instance, the majority scenario self-reported by models that answered correctly.

    This is the paper's rule for instances with no annotated scenario (main split).
    """
    votes: dict[str, Counter] = defaultdict(Counter)
    for records in runs:
        for record in records:
            if record.metadata.get("mask_type") in SCENARIOS:
                continue
            parsed = record.score_metadata.get("parsed") or {}
            if record.score.get("correct") and parsed.get("scenario") in SCENARIOS:
                votes[record.id][parsed["scenario"]] += 1
    return {uid: counter.most_common(1)[0][0] for uid, counter in votes.items() if counter}


def apply_scenario_consensus(runs: list[dict]) -> list[dict]:
    """Re-summarize FAITH runs with the cross-model scenario consensus (paper, section 3.4).

    Instances without an annotated scenario (the main split, or datasets built by
    FinProbe without a derivation) take the majority scenario self-reported by the
    models that answered them correctly. Needs each run's inspect log.
    """
    from inspect_ai.log import read_eval_log

    from finprobe.results import records_from_log

    records_per_run = []
    for run in runs:
        log = run.get("log")
        records_per_run.append(
            records_from_log(read_eval_log(log)) if log and Path(log).exists() else None
        )
    available = [r for r in records_per_run if r is not None]
    if len(available) < 2:
        return runs
    consensus = consensus_scenarios(available)
    updated = []
    for run, records in zip(runs, records_per_run, strict=True):
        if records is None:
            updated.append(run)
            continue
        updated.append({**run, **summarize(records, consensus), "scenario_source": "consensus"})
    return updated
