"""FinAuditing inspect tasks: ``finprobe/finsm``, ``finprobe/finre``, ``finprobe/finmr``
and ``finprobe/finauditing`` (``-T subtask=finre``)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig

from finprobe.benchmarks.finauditing.baselines import (
    BASELINES,
    finmr_solver,
    finre_classifier,
    finsm_retriever,
)
from finprobe.benchmarks.finauditing.dataset import HIDDEN_FROM_BASELINES, load_samples
from finprobe.benchmarks.finauditing.scorer import (
    SCORER_VERSION,
    SUBTASKS,
    finauditing_scorer,
    parse_ranked_concepts,
    parse_relation_label,
    parse_value_pair,
    rescore,
    summarize,
)
from finprobe.errors import InputError
from finprobe.runner import BenchmarkInfo, answer_or_generate, json_generate

PARSERS = {"finsm": parse_ranked_concepts, "finre": parse_relation_label,
           "finmr": parse_value_pair}  # fmt: skip
SUBTASK_BASELINES = {
    "finsm": {"finsm-retriever": finsm_retriever},
    "finre": {"finre-classifier": finre_classifier},
    "finmr": {"finmr-solver": finmr_solver},
}


def default_data() -> Path:
    """The embedded default: instances built from synthetic reports exported as XBRL."""
    from finprobe.benchmarks.finauditing.build import synthetic_dataset

    return synthetic_dataset()


# each subtask's headline as a per-sample score: FinSM's HR@5 (the first column of the
# paper's table), FinRE's and FinMR's accuracy
PROGRESS_HEADLINE = {"finsm": "hr@5", "finre": "correct", "finmr": "correct"}


def build_task(subtask: str, data: str | None, max_attempts: int, judge: str | None) -> Task:
    if subtask not in SUBTASKS:
        raise InputError(
            None, f"unknown FinAuditing subtask {subtask!r}; choose {', '.join(SUBTASKS)}"
        )
    path = Path(data) if data else default_data()
    samples = load_samples(path, subtask)
    return Task(
        name=subtask,
        dataset=MemoryDataset(samples, name=f"{subtask}:{path.name}", location=str(path)),
        solver=answer_or_generate(
            SUBTASK_BASELINES[subtask],
            json_generate(PARSERS[subtask], max_attempts=max_attempts),
            hidden=HIDDEN_FROM_BASELINES,
            truncation="keep-head",
        ),
        scorer=finauditing_scorer(judge=judge),
        config=GenerateConfig(temperature=0.0, max_tokens=1024),
        version=SCORER_VERSION,
        # the progress display shows the headline first (not FinSM's has_gold)
        headline_metric=f"finauditing_scorer.{PROGRESS_HEADLINE[subtask]}",
        metadata={"benchmark": "finauditing", "subtask": subtask, "scorer_version": SCORER_VERSION},
    )


@task
def finsm(data: str | None = None, max_attempts: int = 3) -> Task:
    """FinSM: retrieve the mis-tagged US-GAAP concepts of a sub-filing (ranked list).

    Args:
        data: a FinSM file (parquet/JSONL/JSON) or a folder holding ``finsm.*``.
            Default: instances built from synthetic reports.
        max_attempts: generations per sample when the reply has no usable answer.
    """
    return build_task("finsm", data, max_attempts, None)


@task
def finre(data: str | None = None, max_attempts: int = 3) -> Task:
    """FinRE: classify the relation error between two elements (Reversal,
    Inappropriateness, CombinationErr)."""
    return build_task("finre", data, max_attempts, None)


@task
def finmr(data: str | None = None, max_attempts: int = 3, judge: str | None = None) -> Task:
    """FinMR: extract a reported total and compute its true value from its children.

    Args:
        judge: optional model (e.g. ``openai/gpt-4o-mini``) for an LLM judge recorded
            beside the deterministic one.
    """
    return build_task("finmr", data, max_attempts, judge)


@task
def finauditing(
    subtask: str = "finre", data: str | None = None, max_attempts: int = 3, judge: str | None = None
) -> Task:
    """FinAuditing: one of its three subtasks (``-T subtask=finsm|finre|finmr``)."""
    return build_task(subtask, data, max_attempts, judge if subtask == "finmr" else None)


BENCHMARK = BenchmarkInfo(
    name="finauditing",
    task=finauditing,
    scorer_version=SCORER_VERSION,
    summarize=summarize,
    rescore=rescore,
    baselines=BASELINES,
    default_data=default_data,
    subtasks=SUBTASKS,
)
