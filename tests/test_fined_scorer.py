"""FinED scoring: golden cases for the paper's rule, aggregation, and the released Chinese samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_data import SHARED

from finprobe.benchmarks.fined.dataset import load_dataset
from finprobe.benchmarks.fined.scorer import (
    Detection,
    aggregate,
    detections_to_json,
    parse_detections,
    score_completion,
    sentence_matches,
)

GOLDEN = Path(__file__).parent / "golden" / "fined_scoring.jsonl"
FINED_DATA = SHARED / "data" / "fined"


def _cases() -> list[dict]:
    return [
        json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_golden_scoring(case: dict) -> None:
    value, meta = score_completion(case["completion"], {"errors": case["errors"], "text": ""})
    assert (value["tp"], value["n_pred"], value["n_gold"]) == (
        case["tp"],
        case["n_pred"],
        case["n_gold"],
    )
    assert meta["parsed"] is case.get("parsed", True)


def test_match_rule_is_containment_not_overlap() -> None:
    assert sentence_matches("x. The sentence.", "The sentence.")
    assert not sentence_matches("The sentence", "The sentence.")
    assert not sentence_matches("", "")


def test_roundtrip_json() -> None:
    dets = [Detection('He said "no" [sic].', "calculation_error", "calculation_error")]
    assert parse_detections(detections_to_json(dets)) == dets


def test_aggregate_micro_per_category_subtype_and_breakdowns() -> None:
    text = "First sentence with April 31. Padding text here. Middle one. More padding words. Last sentence 5 = 2 + 2."
    meta = {
        "text": text,
        "scene": "tender_announcement",
        "length_bucket": "<=2K",
        "errors": [
            {"sentence": "First sentence with April 31.", "subtype": "illegal_time"},
            {"sentence": "Last sentence 5 = 2 + 2.", "subtype": "calculation_error"},
        ],
    }
    completion = json.dumps(
        [
            {"error_type": "Illegal Time", "sentences": ["First sentence with April 31."]},
            {"error_type": "Calculation Error", "sentences": ["Middle one."]},
        ]
    )
    result = aggregate([score_completion(completion, meta)[1]])
    assert result["overall"]["precision"] == 0.5 and result["overall"]["recall"] == 0.5
    assert result["by_category"]["GKE"]["f1"] == 1.0
    assert result["by_category"]["FRE"] == {
        "precision": 0.0, "recall": 0.0, "f1": 0.0, "tp": 0, "n_pred": 1, "n_gold": 1
    }  # fmt: skip
    assert result["by_subtype"]["illegal_time"]["tp"] == 1
    pos = result["breakdowns"]["position"]
    assert (
        pos["beginning"]["tp"] == 1
        and pos["ending"]["n_gold"] == 1
        and pos["middle"]["n_pred"] == 1
    )
    assert result["breakdowns"]["scene"]["tender_announcement"]["n_gold"] == 2


def _released(name: str):
    path = FINED_DATA / name
    if not path.is_file():
        pytest.skip("shared FinED data not available")
    return load_dataset(path)


def test_released_chinese_samples_perfect_and_empty() -> None:
    docs = _released("sft_data_w_errors.json")
    metas_perfect, metas_empty = [], []
    for d in docs:
        md = {"text": d.text, "errors": [e.to_dict() for e in d.errors]}
        e = d.errors[0]
        perfect = json.dumps(
            [{"error_type": "数值不一致错误", "sentences": [e.sentence]}], ensure_ascii=False
        )
        metas_perfect.append(score_completion(perfect, md)[1])
        metas_empty.append(score_completion("[]", md)[1])
    assert aggregate(metas_perfect)["overall"]["f1"] == 1.0
    assert aggregate(metas_empty)["overall"]["f1"] == 0.0
    assert aggregate(metas_empty)["overall"]["recall"] == 0.0


def test_released_reference_outputs_under_paper_rule() -> None:
    """The released reasoning answers quote a shorter span in 12 of 30 cases: the paper's rule rejects those."""
    docs = _released("sft_data_w_errors.json")
    metas = [
        score_completion(
            d.metadata["reference_output"],
            {"text": d.text, "errors": [e.to_dict() for e in d.errors]},
        )[1]
        for d in docs
    ]
    result = aggregate(metas)
    assert result["counts"]["unparsed"] == 0
    assert result["overall"]["tp"] == 18 and result["overall"]["n_gold"] == 30


def test_error_free_fragments_score_perfect_when_nothing_flagged() -> None:
    docs = _released("sft_data_wo_errors.json")
    for d in docs[:5]:
        value, _ = score_completion(d.metadata["reference_output"], {"text": d.text, "errors": []})
        assert value["f1"] == 1.0 and value["n_pred"] == 0
