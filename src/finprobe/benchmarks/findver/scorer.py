"""FinDVer scoring: label accuracy overall and per subset, under two protocols.

- ``reference`` (the headline, the one beside the published tables): what the
  authors' released evaluation does, made deterministic. A chain-of-thought reply
  is read by FinProbe's extractor (the released code asks gpt-4o-mini for the
  label); a direct reply by the released substring rule (``released_direct_label``).
  A reply with no label gets a random one, seeded by the example id and
  ``GUESS_SEED`` (recorded in the results), so a re-score gives the same figure.
- ``strict``: FinProbe's extractor on every reply; an unparseable reply is wrong.
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

SCORER_VERSION = "findver-1.2"  # 1.2: the reference protocol is the headline; direct replies by the released rule
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


def released_direct_label(reply: str | None) -> str | None:
    """The released rule for direct ("do") replies: any 'entail' in the lower-cased
    reply reads as entailed, else any 'refut' as refuted, else no label. It reads
    "Not entailed" as entailed: kept, being what the paper's figures used."""
    text = (reply or "").lower()
    if "entail" in text:
        return "entailed"
    if "refut" in text:
        return "refuted"
    return None


def reference_label(completion: str | None, prompt: str = "cot") -> str | None:
    """The label the reference protocol reads before any random guess."""
    return released_direct_label(completion) if prompt == "direct" else reply_label(completion)


def score_label(
    label: bool | None,
    predicted: str | None,
    example_id: str,
    seed: int = GUESS_SEED,
    reference: str | None = None,
    prompt: str = "cot",
) -> dict[str, float]:
    """Per-sample values; ``label`` None (unlabelled) gives only ``parsed``.
    ``reference``: the reference protocol's reading (for direct replies, the
    released rule's), else ``predicted``. ``correct_guess`` is the reference figure."""
    values = {"parsed": float(predicted is not None)}
    if label is None:
        return values
    gold = "entailed" if label else "refuted"
    read = reference if prompt == "direct" else predicted
    guess = read if read is not None else random_guess(example_id, seed)
    values["correct"] = float(predicted == gold)
    values["correct_guess"] = float(guess == gold)
    return values


def score_reply(
    completion: str | None, metadata: dict[str, Any], seed: int = GUESS_SEED
) -> tuple[dict[str, float], dict[str, Any]]:
    """(Score.value, Score.metadata) of one reply: the one scoring path of
    ``finprobe eval`` and ``finprobe score``."""
    prompt = metadata.get("prompt") or "cot"
    predicted = reply_label(completion)
    reference = reference_label(completion, prompt) if prompt == "direct" else predicted
    values = score_label(
        metadata.get("label"), predicted, metadata["example_id"], seed, reference, prompt
    )
    meta = {
        "predicted": predicted,
        "reference_label": reference,
        "guess": None if reference else random_guess(metadata["example_id"], seed),
    }
    return values, meta


def rescore(completion: str, metadata: dict[str, Any]) -> dict[str, float]:
    return score_reply(completion, metadata)[0]


@scorer(metrics={"correct": [mean()], "correct_guess": [mean()], "parsed": [mean()]})
def findver_scorer() -> Scorer:
    """Entailment accuracy; Score.metadata keeps the extracted label."""

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion if state.output else ""
        values, meta = score_reply(completion, state.metadata)
        gold = state.metadata.get("label")
        return Score(
            value=values,
            answer=meta["predicted"] or "none",
            explanation=None if gold is None else f"gold {'entailed' if gold else 'refuted'}",
            metadata=meta,
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
    """Accuracy (reference and strict protocols) overall and per subset; retrieval
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
            "accuracy": _accuracy(group, "correct_guess"),
            "accuracy_strict": _accuracy(group, "correct"),
            "unparseable_rate": _pct(
                sum(1 for r in group if not r.score.get("parsed")), len(group)
            ),
        }
        for subset, group in sorted(
            by_subset.items(), key=lambda kv: (SUBSETS + (kv[0],)).index(kv[0])
        )
    }
    # keys as in the published table (data/published.json): overall, IE, Math, Know;
    # the reference protocol's figures, the strict ones beside them
    protocols: dict[str, dict[str, float]] = {}
    for protocol, key in (("reference", "correct_guess"), ("strict", "correct")):
        figures = {"overall": _accuracy(labelled, key)}
        for subset in SUBSETS:
            if subset in subsets:
                figures[PUBLISHED_SUBSET_NAMES[subset]] = _accuracy(by_subset[subset], key)
        protocols[protocol] = figures
    headline: dict[str, Any] = dict(protocols["reference"])
    headline.update({f"{k}_strict": v for k, v in protocols["strict"].items()})
    headline["unparseable_rate"] = _pct(unparseable, n)
    metrics: dict[str, Any] = {
        "protocol": "reference",
        "protocols": protocols,
        "guess_seed": GUESS_SEED,
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
