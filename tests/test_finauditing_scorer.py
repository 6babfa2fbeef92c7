"""FinAuditing metrics on hand-worked cases (paper appendix C) and answer parsing."""

from __future__ import annotations

import pytest

from finprobe.benchmarks.finauditing.scorer import (
    classification_metrics,
    judge_value_pair,
    parse_judge_label,
    parse_ranked_concepts,
    parse_relation_label,
    parse_value_pair,
    retrieval_scores,
    score_completion,
    summarize,
)
from finprobe.runner import SampleRecord


def test_retrieval_scores_follow_appendix_c1():
    gold = ["us-gaap:Cash", "us-gaap:InventoryGross"]
    ranked = [
        "us-gaap:Revenues",
        "Cash",
        "us-gaap:Goodwill",
        "us-gaap:Assets",
        "x:Y",
        "us-gaap:InventoryGross",
    ]
    s = retrieval_scores(ranked, gold)
    assert s["hr@1"] == 0.0 and s["r@1"] == 0.0 and s["f1@1"] == 0.0
    # top-5 holds one of two gold concepts (prefix ignored): P = 1/5, R = 1/2
    assert s["hr@5"] == 1.0 and s["r@5"] == 0.5
    assert s["f1@5"] == pytest.approx(2 * 0.2 * 0.5 / 0.7)
    # top-10 holds both among 6 predictions: P = 2/6, R = 1
    assert s["r@10"] == 1.0 and s["f1@10"] == pytest.approx(2 * (1 / 3) / (1 / 3 + 1))


def _rec(subtask, score, meta=None, smeta=None):
    return SampleRecord("x", {"subtask": subtask, **(meta or {})}, "", score, smeta or {})


def test_finsm_summary_averages_f1_over_queries_with_gold_only():
    hit = retrieval_scores(["A:B"], ["A:B"])
    empty_gold = retrieval_scores(["A:B"], [])
    miss = retrieval_scores(["A:C"], ["A:B"])
    out = summarize([_rec("finsm", hit), _rec("finsm", empty_gold), _rec("finsm", miss)])
    # HR and R divide by N = 3; MF1 by N' = 2 (one query has no gold)
    assert out["headline"]["HR@1"] == pytest.approx(33.33)
    assert out["headline"]["R@20"] == pytest.approx(33.33)
    assert out["headline"]["MF1@1"] == 50.0
    assert out["split"] == "finsm"


def test_classification_metrics_macro_and_invalid():
    gold = ["Reversal", "Reversal", "Inappropriateness", "CombinationErr"]
    pred = ["Reversal", None, "Reversal", "CombinationErr"]
    m = classification_metrics(gold, pred)
    assert m["accuracy"] == 50.0
    assert m["invalid_rate"] == 25.0
    # Reversal P 1/2 R 1/2; Inappropriateness P 0 R 0; CombinationErr P 1 R 1
    assert m["macro_precision"] == 50.0 and m["macro_recall"] == 50.0
    assert m["per_class"]["Reversal"]["f1"] == 50.0
    assert m["macro_f1"] == 50.0


@pytest.mark.parametrize(
    "reply,label",
    [
        ('```json\n{"answer": "Reversal"}\n```', "Reversal"),
        ('{"answer": "combination error"}', "CombinationErr"),
        ("The parent is wrong.\nAnswer: Inappropriateness", "Inappropriateness"),
        ("It is a CombinationErr.", "CombinationErr"),
        ("Either Reversal or Inappropriateness.", None),
        ("no idea", None),
    ],
)
def test_parse_relation_label(reply, label):
    assert parse_relation_label(reply) == label


def test_parse_ranked_concepts_json_then_text():
    assert parse_ranked_concepts('["us-gaap:Cash", "us-gaap:cash", "us-gaap:Goodwill"]') == [
        "us-gaap:Cash",
        "us-gaap:Goodwill",
    ]
    assert parse_ranked_concepts("First us-gaap:Cash then dei:Foo") == ["us-gaap:Cash", "dei:Foo"]
    assert parse_ranked_concepts("nothing here") is None


@pytest.mark.parametrize(
    "reply,label",
    [
        ('{"extracted_value": 1200, "calculated_value": "1,000"}', "A"),
        ('{"extracted_value": "$1.2 thousand", "calculated_value": 1000.0}', "A"),
        ('{"extracted_value": 1201, "calculated_value": 1000}', "E"),
        ('{"extracted_value": 1200, "calculated_value": 1001}', "C"),
        ('{"extracted_value": 1200}', "S"),
        ("1200 and 1000", "S"),
    ],
)
def test_finmr_deterministic_judge(reply, label):
    assert judge_value_pair(parse_value_pair(reply), "1200", "1000") == label


def test_finmr_summary_rates_and_llm_judge_agreement():
    recs = []
    for label, llm in (("A", "A"), ("S", "S"), ("C", "A"), ("C", "C")):
        values, meta = score_completion(
            "", {"subtask": "finmr", "extracted_value": "1", "calculated_value": "2"}
        )
        meta = {"label": label, "llm_judge_label": llm}
        recs.append(_rec("finmr", values, smeta=meta))
    out = summarize(recs)
    assert out["headline"] == {
        "accuracy": 25.0,
        "structural_error_rate": 25.0,
        "extraction_error_rate": 0.0,
        "calculation_error_rate": 50.0,
    }
    assert out["metrics"]["llm_judge"]["agreement_with_deterministic"] == 75.0
    assert parse_judge_label("Label: C") == "C"


def test_score_completion_never_raises_on_garbage():
    for subtask in ("finsm", "finre", "finmr"):
        values, _ = score_completion("}{ garbage", {"subtask": subtask, "label": "Reversal",
                                                     "gold_concepts": ["a:B"], "extracted_value": "1",
                                                     "calculated_value": "1"})  # fmt: skip
        assert values["parsed" if subtask != "finre" else "valid"] == 0.0
