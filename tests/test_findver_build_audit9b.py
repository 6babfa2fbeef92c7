"""FinDVer builder, audit 9b finding as golden cases on real dev reports: on the cash-flow
reconciliation (net income to operating cash) a figure's sign is the adjustment's direction,
and in a block showing income in parentheses ("Other (income) expense") it is the block's
convention: neither is ever "was negative $X" (HHGCW 152, MMTLP 317, HY 206)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from findver_cells import self_check
from findver_reports import REPORTS
from findver_reports import built_claims as _built
from findver_reports import report_path as _path

from finprobe.benchmarks.findver.names import reconciling_lines
from finprobe.benchmarks.findver.table_facts import table_facts
from finprobe.document import load_findver_report

pytestmark = pytest.mark.skipif(not REPORTS.is_dir(), reason="no shared FinDVer data")


def _lookup(statement: str, table: int, row: str) -> dict:
    return {
        "statement": statement, "entailment_label": True, "kind": "lookup",
        "relevant_context": [table], "cells": [{"row": row, "period": "2023"}],
    }  # fmt: skip


CASES = [
    # HHGCW 152: the income statement books the waiver as +210,000 other income
    ("HHGCW", 152, "Waiver of amount due to a related party",
     "Waiver of amount due to a related party was negative $210,000 in 2023."),
    # MMTLP 317: the income statement shows the gain as +6,750,195
    ("MMTLP", 317, "Gain on sale of Next Bridge Notes Receivable",
     "Gain on sale of Next Bridge Notes Receivable was negative $6,750,195 in 2023."),
    # HY 206: "Other (income) expense | ... Income from unconsolidated affiliates | (9.8)"
    ("HY", 206, "Income from unconsolidated affiliates",
     "Income from unconsolidated affiliates was negative $9.8 million in 2023."),
]  # fmt: skip


@pytest.mark.parametrize(("ticker", "table", "row", "old"), CASES)
def test_a_reconciling_or_income_in_parentheses_line_is_never_negative(
    ticker: str, table: int, row: str, old: str
) -> None:
    built = [c for c in _built(ticker) if c["relevant_context"] == [table]]
    assert built  # the table still gives claims
    # the old build also said "Unrealized foreign currency exchange (gain) loss was a loss of
    # $1,733,024" of MMTLP's (1,733,024), a gain deducted
    assert not [c for c in built if "(gain) loss was a loss of" in c["statement"]]
    assert not [c for c in built if c["kind"] == "lookup" and c["cells"][0]["row"] == row]
    reason = self_check(_lookup(old, table, row), _path(ticker)).reason
    assert reason == "a reconciling or income-in-parentheses line said negative"


def test_the_reconciliation_runs_from_the_net_result_to_the_operating_cash_total() -> None:
    labels = [
        "Cash flows from operating activities:", "Net income", "Adjustments to reconcile",
        "Waiver of amount due to a related party", "Increase in prepayment",
        "Net cash used in operating activities", "Proceeds of extension payments",
    ]  # fmt: skip
    assert list(reconciling_lines(labels)) == [2, 3, 4]
    assert list(reconciling_lines(labels[:5])) == []  # no operating total: no reconciliation
    assert list(reconciling_lines(["Revenues", "Net income", "Basic EPS"])) == []


def test_a_positive_reconciling_line_keeps_its_claim() -> None:
    """Only the sign is unsafe: HHGCW's "Net income | 1,372,581" opens the reconciliation and
    is no line of it; a plain positive line is stated as before."""
    sc = self_check(
        _lookup("Net income was $1,372,581 in 2023.", 152, "Net income"), _path("HHGCW")
    )
    assert sc.passed


def test_fiscal_year_end_balances_are_named_as_the_report_names_the_years() -> None:
    """BBW 215 ("February 3, | January 28," over "2024 | 2023"): the balances close fiscal
    2023 and fiscal 2022, which is how the report's flow claims name those years; the old
    build said "from 2023 to 2024", so "2023" meant two periods within one report."""
    built = [c for c in _built("BBW") if c["relevant_context"] == [215]]
    changes = [c for c in built if c["kind"] in ("change", "pct_change")]
    assert changes
    assert all(c["statement"].endswith("from fiscal 2022 to fiscal 2023.") for c in changes)
    assert all("February 3, 2024 (the end of fiscal 2023)" in c["explanation"] for c in changes)
    assert not [c for c in _built("BBW") if "from 2023 to 2024" in c["statement"]]
    row = "Leasehold improvements"
    old = {
        "statement": "Leasehold improvements increased by 2.35% from 2023 to 2024.",
        "entailment_label": True, "kind": "pct_change", "relevant_context": [215],
        "cells": [{"row": row, "period": "2023"}, {"row": row, "period": "2024"}],
    }  # fmt: skip
    reason = self_check(old, _path("BBW")).reason
    assert reason == "fiscal year named by the calendar year of its end"
    new = {
        **old,
        "statement": old["statement"].replace("2023 to 2024", "fiscal 2022 to fiscal 2023"),
    }
    assert self_check(new, _path("BBW")).passed


def test_a_share_line_of_a_cash_flow_statement_is_an_amount() -> None:
    """HHGCW 152: "Redemption of ordinary shares | ( 361,224 )" under financing activities
    is dollars paid; a build drew "Redemption of ordinary shares was 361,224 shares"."""
    row = "Redemption of ordinary shares"
    # read off the table itself: which claims the draws make of it moves with any change
    doc = load_findver_report(_path("HHGCW"))
    [facts] = [
        f for t in doc.tables if (f := table_facts(t, False, Decimal(1))) and f.evidence_id == "152"
    ]
    assert facts.rows[row].unit == "money"
    old = _lookup(f"{row} was 361,224 shares in 2023.", 152, row)
    assert self_check(old, _path("HHGCW")).reason == "share count for an amount"
