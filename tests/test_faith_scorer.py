"""FAITH scoring: golden cases for both modes, parsing, and the summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finprobe.benchmarks.faith.scorer import (
    consensus_scenarios,
    parse_answer,
    score_answer,
    summarize,
)
from finprobe.runner import SampleRecord

GOLDEN = [
    json.loads(line) for line in (Path(__file__).parent / "golden" / "faith_scoring.jsonl").open()
]


@pytest.mark.parametrize("case", GOLDEN, ids=[c["note"] for c in GOLDEN])
def test_golden_scoring(case: dict) -> None:
    parsed = parse_answer(case["completion"])
    assert (parsed["answer"] if parsed else None) == case["answer"]
    scores = score_answer(case["ground_truth"], parsed["answer"] if parsed else None)
    assert scores["correct"] == float(case["reference_correct"])
    assert scores["paper_value"] == float(case["paper_numeric"])
    assert scores["paper_unit"] == float(case["paper_unit"])
    assert scores["paper_correct"] == float(case["paper_numeric"] and case["paper_unit"])
    assert scores["parsed"] == (1.0 if parsed else 0.0)


def test_parse_answer_reads_scenario_and_lists() -> None:
    parsed = parse_answer(
        'x ```json\n{"results": {"answer": "12%", "scenario": "b", "necessary_metrics": ["Revenue"], "reference": ["Table 3"]}}\n```'
    )
    assert parsed == {
        "answer": "12%",
        "scenario": "B",
        "necessary_metrics": ["Revenue"],
        "reference": ["Table 3"],
    }


def _record(
    uid: str, mask_type: str | None, correct: bool, scenario: str | None, parsed: bool = True
) -> SampleRecord:
    score = (
        score_answer("$10", "$10" if correct else "$99") if parsed else score_answer("$10", None)
    )
    return SampleRecord(
        id=uid,
        metadata={"mask_type": mask_type},
        completion="",
        score=score,
        score_metadata={"parsed": {"answer": "x", "scenario": scenario} if parsed else None},
    )


def test_summary_by_scenario_and_unparseable_rate() -> None:
    records = [
        _record("1", "A", True, "A"),
        _record("2", "A", False, "A"),
        _record("3", "B", True, "C"),
        _record("4", None, True, "D"),  # no annotation: its own correct self-report counts
        _record("5", None, False, "C"),  # wrong answers say nothing about the scenario
        _record("6", "C", False, None, parsed=False),
    ]
    summary = summarize(records)
    assert summary["headline"]["overall"] == pytest.approx(50.0)
    assert summary["breakdowns"]["scenario"]["A"] == {
        "n": 2,
        "accuracy": 50.0,
        "paper_accuracy": 50.0,
    }
    assert summary["breakdowns"]["scenario"]["D"]["n"] == 1
    assert summary["breakdowns"]["scenario"]["unknown"]["n"] == 1
    assert summary["metrics"]["unparseable_rate"] == pytest.approx(100 / 6, abs=0.01)


def test_consensus_scenario_is_the_majority_of_correct_models() -> None:
    run_a = [_record("x", None, True, "B"), _record("y", None, True, "A")]
    run_b = [_record("x", None, True, "B"), _record("y", None, False, "C")]
    run_c = [_record("x", None, True, "C"), _record("y", "D", True, "A")]
    assert consensus_scenarios([run_a, run_b, run_c]) == {"x": "B", "y": "A"}


def test_repeated_uids_become_unique_sample_ids(tmp_path) -> None:
    from finprobe.benchmarks.faith.task import faith_samples

    data = json.loads((Path(__file__).parent / "data" / "faith_tiny.json").read_text())
    data[0]["instances"].append(dict(data[0]["instances"][0]))  # same uid again
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(data))
    ids = [s.id for s in faith_samples(path)]
    assert len(ids) == len(set(ids)) == 7
    assert "tiny-1#2" in ids


def test_unanswerable_and_unlabelled_instances_are_scored_apart(tmp_path, capsys) -> None:
    from finprobe.benchmarks.faith.task import faith_samples

    def rec(uid: str, status: str, correct: float) -> SampleRecord:
        return SampleRecord(
            id=uid,
            metadata={"mask_type": "A", "answerability": status},
            completion="",
            score={"correct": correct, "paper_correct": correct, "parsed": 1.0},
            score_metadata={},
        )

    records = [rec("a", "answerable", 1), rec("b", "answerable", 0), rec("c", "unanswerable", 0)]
    records.append(rec("d", "unlabelled", 0))
    summary = summarize(records)
    assert summary["metrics"]["n"] == 2 and summary["headline"]["overall"] == 50.0
    assert summary["metrics"]["scope"] == "answerable"
    assert summary["breakdowns"]["answerability"]["unanswerable"] == {
        "n": 1, "accuracy": 0.0, "paper_accuracy": 0.0,
    }  # fmt: skip
    # a file where nothing is labelled: the headline counts all, and says so
    only = summarize([rec("d", "unlabelled", 1)])
    assert only["metrics"]["scope"] == "all" and only["headline"]["overall"] == 100.0
    # loading such a file says so on stderr
    data = {
        "metadata": {},
        "tables": [],
        "instances": [
            {"uid": "u1", "sentence": "Revenue was $5 million.", "mask_span": [12, 22],
             "masked_sentence": "Revenue was [MASK].", "ground_truth": "$5,000,000",
             "answerable": False},
            {"uid": "u2", "sentence": "Revenue was $5 million.", "mask_span": [12, 22],
             "masked_sentence": "Revenue was [MASK].", "ground_truth": "$5,000,000"},
        ],
    }  # fmt: skip
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([data]))
    samples = faith_samples(path)
    assert [s.metadata["answerability"] for s in samples] == ["unanswerable", "unlabelled"]
    assert "1 unanswerable, 1 unlabelled of 2 instances" in capsys.readouterr().err
