"""FinED injection: golden cases per rule injector, the filter, and the pipeline on real reports."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from finprobe.benchmarks.fined.filter import (
    check_injection,
    numbers_rule_ok,
    revert_error,
    verify_calculation,
)
from finprobe.benchmarks.fined.inject import (
    RULE_SUBTYPES,
    SENTENCE_INJECTORS,
    inject_rules,
    parse_llm_injection,
    source_from_document,
    source_from_text,
)
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS

GOLDEN = Path(__file__).parent / "golden" / "fined_injectors.jsonl"
SHARED = Path(__file__).resolve().parents[2] / "shared"
REPORTS = SHARED / "data" / "findver" / "reports"


def _cases() -> list[dict]:
    return [
        json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def test_every_subtype_has_a_rule_injector() -> None:
    assert sorted(RULE_SUBTYPES) == sorted(SUBTYPE_IDS)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c['subtype']}:{c['sentence'][:30]}")
def test_golden_injector(case: dict) -> None:
    change = SENTENCE_INJECTORS[case["subtype"]](
        case["sentence"], case["language"], random.Random(0)
    )
    if case.get("none") or (
        case["modified"] is None and not {"contains", "formula", "repeat"} & set(case)
    ):
        assert change is None
        return
    assert change is not None
    if case["modified"] is not None:
        assert change.modified == case["modified"]
    if "contains" in case:
        assert case["contains"] in change.modified
    if case.get("repeat"):
        clause = change.detail["repeated"]
        assert f"{clause}, {clause}" in change.modified
    if "formula" in case:
        assert change.detail["formula"] == case["formula"]
        assert verify_calculation(change.detail) == (True, "")
    # the rule filter accepts what the injector made: one sentence, no stray number change
    text = "Intro. " + case["sentence"] + " Outro."
    start = text.index(case["sentence"])
    ok, why = check_injection(
        case["subtype"],
        case["sentence"],
        change.modified,
        text,
        start,
        start + len(case["sentence"]),
        change.detail,
    )
    assert ok, why


def test_filter_rejects_unintended_number_changes() -> None:
    assert not numbers_rule_ok(
        "terminology_misuse", "equity financing of $5 million", "debt financing of $6 million"
    )[0]
    assert not numbers_rule_ok("numerical_inconsistency", "a 5 and 6", "a 7 and 8")[0]
    assert numbers_rule_ok("numerical_inconsistency", "a 5 and 6", "a 5 and 8")[0]
    assert not numbers_rule_ok("numerical_missing", "was $5 in 2023", "was $7 in 2023")[0]


def test_calculation_verifier_recomputes() -> None:
    detail = {
        "formula": "a=b+c",
        "tolerance": "0.1",
        "original_values": ["15", "10", "5"],
        "modified_values": ["15", "10", "5"],
    }
    assert verify_calculation(detail) == (False, "formula still holds after the change")
    detail["modified_values"] = ["17", "10", "5"]
    assert verify_calculation(detail)[0]
    detail["original_values"] = ["16", "10", "5"]
    assert verify_calculation(detail) == (False, "formula does not hold on the original")


def test_parse_llm_injection() -> None:
    reply = 'Sure. <think>x {"a": 1}</think> {"original": "Rate: 6%.", "modified": "Rate: 8%."}'
    assert parse_llm_injection(reply) == ("Rate: 6%.", "Rate: 8%.")
    assert parse_llm_injection('{"original": ""}') is None


def _check_document(src, doc) -> None:
    assert 1 <= len(doc.errors) <= 4
    assert len({e.sentence for e in doc.errors}) == len(doc.errors)
    for e in doc.errors:
        assert doc.text[e.start : e.start + len(e.sentence)] == e.sentence
        assert doc.text.count(e.sentence) == 1
    # reverting every error gives back the source text exactly: nothing else changed
    for e in sorted(doc.errors, key=lambda e: e.start, reverse=True):
        revert_error(doc, e)
    assert doc.text == src.text


def test_pipeline_on_findver_reports_is_sound_and_deterministic() -> None:
    files = sorted(REPORTS.glob("*.json.gz"))[:3] if REPORTS.is_dir() else []
    if not files:
        pytest.skip("shared FinDVer reports not available")
    from finprobe.document import load_findver_report

    counts: Counter = Counter()
    for f in files:
        src = source_from_document(load_findver_report(f))
        doc = inject_rules(src, seed=1, max_errors=4, global_counts=counts)
        again = inject_rules(
            source_from_document(load_findver_report(f)), seed=1, max_errors=4, global_counts=None
        )
        assert doc.id == again.id
        _check_document(src, doc)
    # the corpus-level balancing spreads errors over subtypes
    assert len(counts) >= 8


def test_pipeline_on_chinese_text() -> None:
    text = "\n".join(
        [
            "一、项目名称：办公软件采购；",
            "二、投标截止时间为2024年5月22日9时30分，开标时间为2024年5月22日9时30分。",
            "三、本项目最高限价：350万元，同比增长5.2%。",
            "四、计划工期：180天，供应商不得将项目转包。",
            "五、邮编：735019，联系电话：0937-1234567。",
        ]
    )
    src = source_from_text(text, "zh-demo", scene="tender_announcement")
    assert src.language == "zh"
    doc = inject_rules(src, seed=0, max_errors=4)
    assert len(doc.errors) >= 3
    _check_document(src, doc)
