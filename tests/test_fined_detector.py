"""The rule baseline `finprobe/fined-detector`: golden sentences, and its answer format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finprobe.benchmarks.fined.detector import detect, fined_detector
from finprobe.benchmarks.fined.scorer import parse_detections

GOLDEN = Path(__file__).parent / "golden" / "fined_detector.jsonl"


def _cases() -> list[dict]:
    return [
        json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["sentence"][:40])
def test_golden_detector(case: dict) -> None:
    found = detect(case["sentence"])
    assert [d.subtype for d in found] == ([case["subtype"]] if case["subtype"] else [])
    if found:
        assert case["sentence"] in found[0].sentence


def test_one_figure_with_two_values_across_the_document() -> None:
    text = (
        "Net revenue for the year was $1,234.5 million, driven by new stores.\n"
        "Some unrelated sentence sits here.\n"
        "As noted above, net revenue for the year was $1,294.5 million."
    )
    found = detect(text)
    assert [(d.subtype, d.sentence[:9]) for d in found] == [
        ("numerical_inconsistency", "As noted ")
    ]


def test_answer_is_parseable_and_hides_nothing_it_does_not_need() -> None:
    completion = fined_detector({"text": "On February 30, 2024, the board met.", "language": "en"})
    [d] = parse_detections(completion)
    assert d.subtype == "illegal_time"
    assert parse_detections(fined_detector({"text": "All good here."})) == []
