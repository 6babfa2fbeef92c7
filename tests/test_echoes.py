"""Verdicts, not echoes: label extraction ignores restated instructions and conditional
definitions (golden cases in tests/golden/findver_echoes.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finprobe.benchmarks.findver.scorer import reply_label
from finprobe.echoes import drop_echoes, is_conditional_definition, is_instruction

GOLDEN = json.loads((Path(__file__).parent / "golden" / "findver_echoes.json").read_text())
LABELS = json.loads((Path(__file__).parent / "golden" / "findver_labels.json").read_text())


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: c["why"][:50])
def test_findver_reply_label_ignores_echoes(case: dict) -> None:
    assert reply_label(case["completion"]) == case["label"]


@pytest.mark.parametrize("case", LABELS, ids=lambda c: c["completion"][:40] or "empty")
def test_plain_replies_read_as_before(case: dict) -> None:
    assert reply_label(case["completion"]) == case["label"]


def test_sentence_rules() -> None:
    assert is_conditional_definition("The claim is refuted only if all its facts are false.")
    assert is_conditional_definition("If any part of it is contradicted it is refuted.")
    assert not is_conditional_definition("If we compare the years, the claim is refuted.")
    assert is_instruction('Finish with one last line, exactly "Answer: entailed".')
    assert not is_instruction("Answer: refuted")
    assert drop_echoes("Answer: refuted") == "Answer: refuted"
    assert drop_echoes(None) == ""
