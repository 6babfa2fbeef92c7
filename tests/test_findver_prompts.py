"""FinDVer prompts and rule-based label extraction (golden cases in tests/golden)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finprobe.benchmarks.findver.prompts import extract_label, verification_prompt

GOLDEN = json.loads((Path(__file__).parent / "golden" / "findver_labels.json").read_text())


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: c["completion"][:40] or "empty")
def test_label_extraction_golden(case: dict) -> None:
    assert extract_label(case["completion"]) == case["label"]


def test_not_entailed_is_refuted_even_after_an_entailed_mention() -> None:
    text = "At first the figures look entailed, but the 2023 value differs.\nAnswer: not entailed"
    assert extract_label(text) == "refuted"


def test_prompts_carry_context_claim_and_style() -> None:
    cot = verification_prompt("[Table 3]\nRevenue | 10 | 9", "Revenue rose.", "cot")
    direct = verification_prompt("[Table 3]\nRevenue | 10 | 9", "Revenue rose.", "direct")
    assert "Revenue | 10 | 9" in cot and "Claim: Revenue rose." in cot
    assert "numbered list" in cot and "Answer: entailed" in cot
    assert "Do not explain" in direct and "numbered list" not in direct
    with pytest.raises(ValueError):
        verification_prompt("x", "y", "fancy")
