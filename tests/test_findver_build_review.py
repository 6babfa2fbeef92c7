"""FinDVer builder, review11b-s9 medium findings as golden cases on real dev reports:
explanations name the claim's period (M1), average-balance tables (M3), and the "paid"
pattern for outflows under a signed heading (L1)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from findver_cells import self_check
from findver_reports import REPORTS
from findver_reports import built_claims as _built
from findver_reports import report_path as _path

from finprobe.benchmarks.findver.names import row_negative_name
from finprobe.benchmarks.findver.table_facts import Cell, Row

pytestmark = pytest.mark.skipif(not REPORTS.is_dir(), reason="no shared FinDVer data")


def test_an_explanation_names_the_period_as_the_claim_does() -> None:
    """BBW/BURL: the claim says "from fiscal 2022 to fiscal 2023" and the explanation said
    "47 for 2023 ... 110 for 2024"; a balance "at March 30, 2024" was "for 2024"."""
    fiscal = [c for c in _built("BURL") if " fiscal 2023" in c["statement"]]
    assert fiscal
    for claim in fiscal:
        assert "fiscal 2023" in claim["explanation"]
        assert " for 2024" not in claim["explanation"] and " in 2024" not in claim["explanation"]
    at = [c for c in _built("LEA") if c["statement"].endswith("at March 30, 2024.")]
    assert at
    for claim in at:
        assert "at March 30, 2024" in claim["explanation"]
        assert " for 2024" not in claim["explanation"]


def test_an_average_balance_table_is_not_claimed_as_balances() -> None:
    """UBFO 165: "Average Balance | Yield" per year; "Savings (Interest-bearing deposits)
    decreased by $4,084 thousand" was the average balance (123,396 -> 119,312)."""
    assert not [c for c in _built("UBFO") if c["relevant_context"] == [165]]
    assert [c for c in _built("UBFO")]
    row = "Savings"
    claim = {
        "statement": "Savings (Interest-bearing deposits) decreased by $4,084 thousand from 2022 to 2023.",
        "entailment_label": True, "kind": "change", "relevant_context": [165],
        "cells": [{"row": row, "period": "2022", "value": "123396"},
                  {"row": row, "period": "2023", "value": "119312"}],
    }  # fmt: skip
    assert self_check(claim, _path("UBFO")).reason == "an average stated as a balance"


def _row(label: str) -> Row:
    cells = {
        "2023": Cell(label, "2023", Decimal(-5), "(5)", 0),
        "2022": Cell(label, "2022", Decimal(-7), "(7)", 0),
    }
    return Row(
        label, 3, cells, "money", Decimal(1000), heading="Cash flows from financing activities:"
    )


def test_paid_in_capital_and_proceeds_are_no_payments() -> None:
    """L1: "paid" in "Additional paid-in capital" and "repaid" in "Proceeds from notes repaid by
    customers" (cash in) made a row under a signed heading read as an outflow by its size."""
    assert row_negative_name(_row("Additional paid-in capital")) is None
    assert row_negative_name(_row("Proceeds from notes repaid by customers")) is None
    assert row_negative_name(_row("Dividends paid")) is not None
    assert row_negative_name(_row("Long-term debt repaid or repurchased")) is not None


def test_asset_classes_of_a_flow_table_are_not_claimed_as_balances() -> None:
    """review11b-s9 M2: BURL 256, "Asset Categories | Fiscal Years Ended" (an impairment by
    asset class, the measure never named in the file) gave "Operating lease assets was $2,623
    thousand in fiscal 2023" and "Other assets was $1,383 thousand in fiscal 2023", which read
    as the balances. A row whose only measure words name an asset class, in a table over a
    span, now needs its measure said; these rows give no claim."""
    assert not [c for c in _built("BURL") if c["relevant_context"] == [256]]
    assert [c for c in _built("BURL") if c["relevant_context"] == [174]]  # others still do


def test_rows_under_a_denominator_heading_are_no_amounts() -> None:
    """IRDM 65 (fix-round hand check): "Dilutive effect of stock options decreased by $325
    thousand" of rows under "Denominator:" in an EPS table, which are thousands of shares."""
    assert not [c for c in _built("IRDM") if c["cells"][0]["row"].startswith("Dilutive effect of")]
    row = "Dilutive effect of stock options"
    claim = {
        "statement": f"{row} decreased by $361 thousand from 2023 to 2024, for the three months ended March 31.",
        "entailment_label": True, "kind": "change", "relevant_context": [65],
        "cells": [{"row": row, "period": "2023", "value": "698"},
                  {"row": row, "period": "2024", "value": "337"}],
    }  # fmt: skip
    assert self_check(claim, _path("IRDM")).reason == "share count for an amount"
