"""FinDVer scoring: label accuracy overall and per subset, two ways for bad replies.

- ``correct``: strict; an unparseable reply is wrong.
- ``correct_guess``: the paper's convention; an unparseable reply gets a random
  label, seeded by the example id, so a re-score gives the same figure.
Both are reported, with the unparseable rate. Unlabelled claims (the public test
split) are scored for parseability only; their predictions go to the leaderboard
export.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from finprobe.benchmarks.findver.dataset import SUBSETS
from finprobe.benchmarks.findver.prompts import PROMPT_STYLES, extract_label, verification_prompt
from finprobe.echoes import drop_echoes
from finprobe.retrieval import recall_at_k
from finprobe.runner import SampleRecord

SCORER_VERSION = "findver-1.1"  # 1.1: restated instructions and definitions are not verdicts
GUESS_SEED = 0
# the prompts' own instructions: a reply sentence restating one is not a verdict
INSTRUCTIONS = tuple(verification_prompt("", "", style) for style in PROMPT_STYLES)


def reply_label(completion: str | None) -> str | None:
    """The verdict of a reply, read after its echoes of the instructions are dropped."""
    return extract_label(drop_echoes(completion, INSTRUCTIONS))


def random_guess(example_id: str, seed: int = GUESS_SEED) -> str:
    """A fixed coin flip per example: the same id and seed always give the same label."""
    digest = hashlib.sha256(f"{seed}:{example_id}".encode()).digest()
    return "entailed" if digest[0] % 2 == 0 else "refuted"


def score_label(
    label: bool | None, predicted: str | None, example_id: str, seed: int = GUESS_SEED
) -> dict[str, float]:
    """Per-sample values; ``label`` None (unlabelled) gives only ``parsed``."""
    values = {"parsed": float(predicted is not None)}
    if label is None:
        return values
    gold = "entailed" if label else "refuted"
    guess = predicted if predicted is not None else random_guess(example_id, seed)
    values["correct"] = float(predicted == gold)
    values["correct_guess"] = float(guess == gold)
    return values


def rescore(completion: str, metadata: dict[str, Any]) -> dict[str, float]:
    return score_label(metadata.get("label"), reply_label(completion), metadata["example_id"])


@scorer(metrics={"correct": [mean()], "correct_guess": [mean()], "parsed": [mean()]})
def findver_scorer() -> Scorer:
    """Entailment accuracy; Score.metadata keeps the extracted label."""

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion if state.output else ""
        predicted = reply_label(completion)
        values = score_label(state.metadata.get("label"), predicted, state.metadata["example_id"])
        gold = state.metadata.get("label")
        return Score(
            value=values,
            answer=predicted or "none",
            explanation=None if gold is None else f"gold {'entailed' if gold else 'refuted'}",
            metadata={
                "predicted": predicted,
                "guess": None if predicted else random_guess(state.metadata["example_id"]),
            },
        )

    return score


# ----------------------------------------------------------------------------- summary


def _pct(numerator: float, denominator: int) -> float:
    return round(100.0 * numerator / denominator, 2) if denominator else 0.0


def _accuracy(records: list[SampleRecord], key: str) -> float:
    labelled = [r for r in records if key in r.score]
    return _pct(sum(float(r.score[key]) for r in labelled), len(labelled))


PUBLISHED_SUBSET_NAMES = {"ie": "IE", "math": "Math", "know": "Know"}


def summarize(records: list[SampleRecord]) -> dict[str, Any]:
    """Accuracy (strict and with random guesses) overall and per subset; retrieval
    recall of the evidence actually shown (RAG); truncation rate (long-context)."""
    n = len(records)
    labelled = [r for r in records if "correct" in r.score]
    unparseable = sum(1 for r in records if not r.score.get("parsed"))
    by_subset: dict[str, list[SampleRecord]] = defaultdict(list)
    for record in labelled:
        by_subset[record.metadata.get("subset", "unknown")].append(record)
    subsets = {
        subset: {
            "n": len(group),
            "accuracy": _accuracy(group, "correct"),
            "accuracy_random_guess": _accuracy(group, "correct_guess"),
            "unparseable_rate": _pct(
                sum(1 for r in group if not r.score.get("parsed")), len(group)
            ),
        }
        for subset, group in sorted(
            by_subset.items(), key=lambda kv: (SUBSETS + (kv[0],)).index(kv[0])
        )
    }
    # keys as in the published table (data/published.json): overall, IE, Math, Know
    headline: dict[str, Any] = {"overall": _accuracy(labelled, "correct")}
    for subset in SUBSETS:
        if subset in subsets:
            headline[PUBLISHED_SUBSET_NAMES[subset]] = subsets[subset]["accuracy"]
    headline["overall_random_guess"] = _accuracy(labelled, "correct_guess")
    headline["unparseable_rate"] = _pct(unparseable, n)
    metrics: dict[str, Any] = {
        "n": n,
        "labelled": len(labelled),
        "unparseable": unparseable,
        "unparseable_rate": _pct(unparseable, n),
        "error_samples": sum(1 for r in records if r.error),
        "predicted_entailed_rate": _pct(
            sum(1 for r in records if r.score_metadata.get("predicted") == "entailed"), n
        ),
    }
    settings = {r.metadata.get("setting") for r in records}
    metrics["settings"] = sorted(s for s in settings if s)
    rag = [
        r
        for r in records
        if r.metadata.get("setting") == "rag" and r.metadata.get("relevant_context")
    ]
    if rag:
        fractions, complete = [], []
        for r in rag:
            retrieved = r.metadata.get("evidence_info", {}).get("retrieved_ids", [])
            fraction, whole = recall_at_k(retrieved, r.metadata["relevant_context"], len(retrieved))
            fractions.append(fraction)
            complete.append(whole)
        metrics["evidence_recall_mean_fraction"] = _pct(sum(fractions), len(rag))
        metrics["evidence_recall_all_retrieved"] = _pct(sum(complete), len(rag))
    long = [r for r in records if r.metadata.get("setting") == "long-context"]
    if long:
        cut = [r for r in long if r.metadata.get("evidence_info", {}).get("truncated")]
        metrics["truncation_rate"] = _pct(len(cut), len(long))
        metrics["truncated_samples"] = len(cut)
        metrics["evidence_dropped_samples"] = sum(
            1 for r in cut if r.metadata.get("evidence_info", {}).get("evidence_dropped")
        )
    return {"headline": headline, "metrics": metrics, "breakdowns": {"subset": subsets}}
