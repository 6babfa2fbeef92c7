"""The FAITH inspect task: ``inspect eval finprobe/faith`` and ``finprobe eval faith``."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from finprobe.benchmarks.faith.dataset import (
    HIDDEN_FROM_BASELINES,
    instance_metadata,
    iter_instances,
    load_faith_reports,
)
from finprobe.benchmarks.faith.prompts import prediction_prompt
from finprobe.benchmarks.faith.scorer import (
    SCORER_VERSION,
    faith_scorer,
    parse_answer,
    rescore,
    summarize,
)
from finprobe.runner import BenchmarkInfo, answer_or_generate, json_generate


def answerability_note(path: Path, samples: list[Sample]) -> str | None:
    """One line saying how many instances are not known answerable, or None when all are."""
    counts = Counter(s.metadata["answerability"] for s in samples if s.metadata)
    apart = {k: v for k, v in counts.items() if k != "answerable"}
    if not apart:
        return None
    parts = ", ".join(f"{v} {k}" for k, v in sorted(apart.items()))
    scope = (
        f"the headline counts only the {counts['answerable']} answerable"
        if counts.get("answerable")
        else "no instance is labelled answerable, so the headline counts them all"
    )
    return (
        f"note: {path}: {parts} of {len(samples)} instances; scored apart "
        f"(breakdowns.answerability), {scope}"
    )


def faith_samples(data: str | Path) -> list[Sample]:
    reports = load_faith_reports(Path(data))
    samples = []
    used: set[str] = set()
    for report, instance in iter_instances(reports):
        metadata = instance_metadata(report, instance)
        # inspect needs unique ids; a dataset with repeated uids keeps every instance
        uid, n = instance.uid, 1
        while uid in used:
            n += 1
            uid = f"{instance.uid}#{n}"
        used.add(uid)
        samples.append(
            Sample(
                id=uid,
                input=prediction_prompt(metadata),
                target=instance.ground_truth,
                metadata=metadata,
            )
        )
    note = answerability_note(Path(data), samples)
    if note:
        print(note, file=sys.stderr)
    return samples


def default_data() -> Path:
    """The embedded default: FAITH instances built from synthetic reports."""
    from finprobe.benchmarks.faith.build import synthetic_dataset

    return synthetic_dataset()


# the solver is imported on first use: every FinProbe task module is imported whenever
# inspect loads FinProbe's entry point (any run, any benchmark)
def faith_solver_baseline(metadata: dict) -> str:
    from finprobe.benchmarks.faith.solver import solve_from_tables

    visible = {k: v for k, v in metadata.items() if k not in HIDDEN_FROM_BASELINES}
    return solve_from_tables(visible).to_completion()


def faith_solver_hand_baseline(metadata: dict) -> str:
    """The same solver with the hand-set rule weights (written while looking at pilot-dev:
    its pilot-dev figure is a tuned one)."""
    from finprobe.benchmarks.faith.ranker import HAND_RANKER
    from finprobe.benchmarks.faith.solver import SolverOptions, solve_from_tables

    visible = {k: v for k, v in metadata.items() if k not in HIDDEN_FROM_BASELINES}
    return solve_from_tables(visible, SolverOptions(ranker=HAND_RANKER)).to_completion()


BASELINES = {
    "faith-solver": faith_solver_baseline,  # the learned ranker (``faith_ranker.json``)
    "faith-solver-hand": faith_solver_hand_baseline,
    # the name the learned ranker had before it became the default: old commands still work
    "faith-solver-learned": faith_solver_baseline,
}


@task
def faith(data: str | None = None, max_attempts: int = 3) -> Task:
    """FAITH: recover a masked number in a 10-K MD&A sentence from the report's tables.

    Args:
        data: a FAITH dataset JSON (the released pilot/main format or one written by
            ``finprobe build faith``). Default: instances built from synthetic reports.
        max_attempts: generations per sample when the reply has no valid JSON.
    """
    path = Path(data) if data else default_data()
    samples = faith_samples(path)
    return Task(
        dataset=MemoryDataset(samples, name=f"faith:{path.name}", location=str(path)),
        solver=answer_or_generate(
            BASELINES,
            json_generate(parse_answer, max_attempts=max_attempts),
            hidden=HIDDEN_FROM_BASELINES,
        ),
        scorer=faith_scorer(),
        config=GenerateConfig(temperature=0.0, max_tokens=1024),
        version=SCORER_VERSION,
        headline_metric="faith_scorer.correct",  # shown first in the progress display
        metadata={"benchmark": "faith", "scorer_version": SCORER_VERSION},
    )


BENCHMARK = BenchmarkInfo(
    name="faith",
    task=faith,
    scorer_version=SCORER_VERSION,
    summarize=summarize,
    rescore=rescore,
    baselines=BASELINES,
    default_data=default_data,
)
