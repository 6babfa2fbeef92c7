"""FinDVer scoring: strict vs random-guess accuracy, unlabelled claims, the summary."""

from __future__ import annotations

from finprobe.benchmarks.findver.scorer import random_guess, rescore, score_label, summarize
from finprobe.runner import SampleRecord


def test_random_guess_is_seeded_per_example() -> None:
    guesses = {random_guess(f"ie-val-{i}") for i in range(40)}
    assert guesses == {"entailed", "refuted"}  # both labels occur
    assert random_guess("ie-val-7") == random_guess("ie-val-7")
    assert [random_guess(f"x{i}", seed=1) for i in range(20)] != [
        random_guess(f"x{i}", seed=2) for i in range(20)
    ]


def test_unparseable_is_wrong_strictly_and_a_coin_flip_otherwise() -> None:
    guess = random_guess("math-val-3")
    gold_matches_guess = guess == "entailed"
    values = score_label(True, None, "math-val-3")
    assert values == {"parsed": 0.0, "correct": 0.0, "correct_guess": float(gold_matches_guess)}
    assert score_label(False, "refuted", "a") == {
        "parsed": 1.0,
        "correct": 1.0,
        "correct_guess": 1.0,
    }
    assert score_label(None, "refuted", "test-1") == {"parsed": 1.0}


def test_rescore_reads_not_entailed_as_refuted() -> None:
    meta = {"label": False, "example_id": "ie-val-1"}
    assert rescore("Answer: not entailed", meta)["correct"] == 1.0


def _record(
    i: int, subset: str, correct: bool, parsed: bool = True, setting: str = "rag"
) -> SampleRecord:
    gold = True
    predicted = ("entailed" if correct else "refuted") if parsed else None
    score = score_label(gold, predicted, f"id{i}")
    return SampleRecord(
        id=f"id{i}",
        metadata={
            "subset": subset,
            "setting": setting,
            "relevant_context": ["1", "2"],
            "evidence_info": {"retrieved_ids": ["1", "5"], "truncated": i == 0},
        },
        completion="",
        score=score,
        score_metadata={"predicted": predicted},
    )


def test_summary_overall_per_subset_and_unparseable_rate() -> None:
    records = [
        _record(0, "ie", True),
        _record(1, "ie", False),
        _record(2, "math", True),
        _record(3, "know", False, parsed=False),
    ]
    summary = summarize(records)
    head = summary["headline"]
    assert (
        head["overall"] == 50.0
        and head["IE"] == 50.0
        and head["Math"] == 100.0
        and head["Know"] == 0.0
    )
    assert head["unparseable_rate"] == 25.0
    assert summary["breakdowns"]["subset"]["know"]["unparseable_rate"] == 100.0
    # half of each claim's evidence retrieved, never all of it
    assert summary["metrics"]["evidence_recall_mean_fraction"] == 50.0
    assert summary["metrics"]["evidence_recall_all_retrieved"] == 0.0


def test_summary_reports_truncation_rate_for_long_context() -> None:
    records = [_record(i, "ie", True, setting="long-context") for i in range(4)]
    assert summarize(records)["metrics"]["truncation_rate"] == 25.0
