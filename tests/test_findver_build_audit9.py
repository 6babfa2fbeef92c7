"""FinDVer builder, audit 9 findings as golden cases on real dev reports: a parenthesised
liability or expense is never "negative" (WSTRF 431), and a grand total does not take the
header of the sub-block above it (RHP 122)."""

from __future__ import annotations

import pytest
from findver_cells import self_check
from findver_reports import REPORTS
from findver_reports import built_claims as _built
from findver_reports import report_path as _path

from finprobe.benchmarks.findver.names import section_heading
from finprobe.document import load_findver_report

pytestmark = pytest.mark.skipif(not REPORTS.is_dir(), reason="no shared FinDVer data")


def _lookup(statement: str, label: bool, table: int, row: str, period: str) -> dict:
    return {
        "statement": statement, "entailment_label": label, "kind": "lookup",
        "relevant_context": [table], "cells": [{"row": row, "period": period}],
    }  # fmt: skip


def test_a_parenthesised_liability_is_stated_by_its_size() -> None:
    """WSTRF 431 (tax note): "Deferred tax liabilities, net | $(2,708,887)" is a net
    liability of $2.71M (the balance sheet shows it positive); the old build said it "was
    negative $2,708,887", which an analyst reads as a net asset."""
    built = [c for c in _built("WSTRF") if c["relevant_context"] == [431]]
    assert built
    assert not [c for c in built if "was negative" in c["statement"]]
    right = "Deferred tax liabilities, net was $2,708,887 at December 31, 2023."
    assert right in {c["statement"] for c in built}
    # the components under "Deferred tax liabilities:" are liabilities too
    assert any(c["statement"].startswith("Property and equipment (Deferred tax liabilities) was $") for c in built)  # fmt: skip
    row = "Deferred tax liabilities, net"
    old = _lookup(right.replace("was $", "was negative $"), True, 431, row, "2023")
    assert self_check(old, _path("WSTRF")).reason == "a liability or expense said negative"
    assert self_check(_lookup(right, True, 431, row, "2023"), _path("WSTRF")).passed


def test_a_two_sided_or_changing_liability_row_gives_no_sign_claim() -> None:
    """KRNLW 207 "Total other income (expense), net" names both sides, HY 209 "Accounts
    payable" sits under "Working capital changes": neither "negative" nor the size is safe,
    so the builder makes no lookup there and the self-check refuses the old "negative"."""
    for ticker, table, row, statement in [
        ("KRNLW", 207, "Total other income (expense), net", "Total other income (expense), net was negative $4,972,208 in 2023."),
        ("HY", 209, "Accounts payable", "Accounts payable (Working capital changes) was negative $81.4 million in 2023."),
    ]:  # fmt: skip
        built = _built(ticker)
        assert [
            c for c in built if c["relevant_context"] == [table]
        ]  # the table still gives claims
        assert not [
            c for c in built
            if c["relevant_context"] == [table] and c["kind"] == "lookup" and c["cells"][0]["row"] == row
        ]  # fmt: skip
        old = _lookup(statement, True, table, row, "2023")
        assert self_check(old, _path(ticker)).reason == "a liability or expense said negative"


def test_a_grand_total_does_not_take_the_last_sub_blocks_header() -> None:
    """RHP 122: "Operating lease cost", "Finance lease cost:" with its two lines, then "Net
    lease cost" (18,534 = 18,346 + 163 + 25): the old build named the grand total "Net lease
    cost (Finance lease cost)"."""
    doc = load_findver_report(_path("RHP"))
    [table] = [
        t
        for t in doc.tables
        if str(t.source_id) == "122" and any(r[0] == "Net lease cost" for r in t.cells)
    ]
    rows = {table.row_label(r).strip(): r for r in range(table.header_rows, table.n_rows)}
    assert section_heading(table, rows["Net lease cost"]) == ""
    assert section_heading(table, rows["Interest on lease liabilities"]) == "Finance lease cost"
    built = [c for c in _built("RHP") if c["relevant_context"] == [122]]
    assert [c for c in built if c["statement"].startswith("Net lease cost increased by")]
    assert not [c for c in built if "(Finance lease cost)" in c["statement"] and "Net lease" in c["statement"]]  # fmt: skip
    row = "Net lease cost"
    old = {
        "statement": "Net lease cost (Finance lease cost) increased by 16.94% from 2022 to 2023.",
        "entailment_label": True, "kind": "pct_change", "relevant_context": [122],
        "cells": [{"row": row, "period": "2022"}, {"row": row, "period": "2023"}],
    }  # fmt: skip
    assert self_check(old, _path("RHP")).reason == "bracketed section is not the row's"
    new = {**old, "statement": old["statement"].replace(" (Finance lease cost)", "")}
    assert self_check(new, _path("RHP")).passed


def test_a_cash_flow_summary_dated_by_day_is_no_balance() -> None:
    """COO 77 (10-Q): "Operating activities | Investing activities | Financing activities |
    ... | Net increase (decrease) in cash ..." under "January 31, 2024 | January 31, 2023":
    the old build said the net increase "was $14.4 million at January 31, 2024", a flow for
    the quarter stated as a balance."""
    built = [c for c in _built("COO") if c["relevant_context"] == [77]]
    assert built
    assert not [c for c in built if " at January 31, 2024" in c["statement"]]
    row = "Net increase (decrease) in cash, cash equivalents, restricted cash"
    old = _lookup(f"{row} was $14.4 million at January 31, 2024.", True, 77, row, "2024")
    assert self_check(old, _path("COO")).reason == "a flow stated at a date"
