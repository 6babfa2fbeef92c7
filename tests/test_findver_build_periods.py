"""FinDVer builder: periods and outflows named as the report names them, as golden cases on
real dev reports (session 9). Each old claim below was built by the session-8 builder; the
builder no longer makes it, and the independent self-check (re-reading the report file)
refuses it by its own reading of the header and the report's prose."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from findver_cells import self_check
from findver_reports import REPORTS
from findver_reports import built_claims as _built
from findver_reports import hand_claim as _claim
from findver_reports import report_path as _path

from finprobe.benchmarks.findver.build import build_claims_for_document
from finprobe.benchmarks.findver.periods import balance_at, fiscal_names, fiscal_years
from finprobe.document import load_findver_report

pytestmark = pytest.mark.skipif(not REPORTS.is_dir(), reason="no shared FinDVer data")


def _reason(ticker: str, claim: dict) -> str:
    return self_check(claim, _path(ticker)).reason


def test_a_fiscal_year_ending_early_in_the_next_year_is_named_as_the_report_names_it() -> None:
    """BURL: "Fiscal Year Ended | February 3, 2024 | January 28, 2023", which the report calls
    Fiscal 2023 and Fiscal 2022 ("the fiscal year ended February 3, 2024 ("Fiscal 2023")");
    audit 8 #17: "Store related costs increased by 13.39% from 2023 to 2024"."""
    sga = [c for c in _built("BURL") if c["relevant_context"] == [174]]
    assert sga
    for claim in sga:
        assert "fiscal 2023" in claim["statement"], claim["statement"]
        assert not re.search(r"(?<!fiscal )\b2024\b", claim["statement"]), claim["statement"]
    changes = [c for c in sga if c["kind"] == "pct_change" and c["entailment_label"]]
    assert changes and all(
        c["statement"].endswith("from fiscal 2022 to fiscal 2023.") for c in changes
    )
    assert all(self_check(c, _path("BURL")).passed for c in changes)
    # the old claim: named by the calendar year of the year's end
    old = _claim(
        "Store related costs increased by 13.39% from 2023 to 2024.",
        True, 174, "Store related costs", "2023", "2024",
    )  # fmt: skip
    assert _reason("BURL", old) == "fiscal year named by the calendar year of its end"
    wrong = _claim(
        "Store related costs was $1,972.6 million in fiscal 2024.", True, 174,
        "Store related costs", "2024",
    )  # fmt: skip
    assert _reason("BURL", wrong) == "fiscal year not the column's"


def test_the_report_defines_its_fiscal_years_or_the_claim_gives_the_end_date() -> None:
    doc = load_findver_report(_path("BURL"))
    names = fiscal_years([p.text for p in doc.paragraphs])
    assert names["feb 3 2024"] == "fiscal 2023" and names["jan 28 2023"] == "fiscal 2022"
    header = "Fiscal Year Ended February 3, 2024 January 28, 2023"
    columns = {"2024": "Fiscal Year Ended February 3, 2024", "2023": "January 28, 2023"}
    assert fiscal_names(columns, header, names) == {"2024": "fiscal 2023", "2023": "fiscal 2022"}
    # no definition in the report: the end date, never "2024"
    assert fiscal_names(columns, header, {})["2024"] == "the fiscal year ended February 3, 2024"
    # a calendar year or a quarter keeps its year
    december = {"2023": "Year Ended December 31, 2023", "2022": "December 31, 2022"}
    assert fiscal_names(december, "Year Ended December 31, 2023 December 31, 2022", {}) == {}
    # VEEV (years ended January 31, no definition in its prose) gives the end date
    veev = [c["statement"] for c in _built("VEEV") if c["relevant_context"] == [220]]
    assert veev and all("the fiscal year ended January 31, 2024" in s for s in veev), veev


def test_a_balance_is_stated_at_its_date_not_in_a_year() -> None:
    """LEA 98 (audit 8 #7 kind): "Current assets was $4.8 million in 2024" of a column
    "March 30, 2024"; IRDM 61 "Commissions (Contract Assets)" at March 31, 2024."""
    lea = [c for c in _built("LEA") if c["relevant_context"] == [27] and c["kind"] == "lookup"]
    assert lea and all(c["statement"].endswith("at March 30, 2024.") for c in lea)
    assert all(self_check(c, _path("LEA")).passed for c in lea)
    shares = [c for c in _built("LEA") if c["relevant_context"] == [27] and c["kind"] == "share"]
    assert shares and all(c["statement"].startswith("At March 30, 2024, ") for c in shares)
    old = _claim("Current assets was $4.8 million in 2024.", False, 98, "Current assets", "2024")
    assert _reason("LEA", old) == "balance date not named"
    # LEA 98 itself holds where marketable equity securities sit ("Current assets | 5.0"):
    # no claim, and the self-check refuses one (the measure is in the title only)
    assert not [c for c in _built("LEA") if c["relevant_context"] in ([98], [106])]
    classified = _claim(
        "Current assets was $5.0 million at March 30, 2024.", True, 98, "Current assets", "2024"
    )
    assert _reason("LEA", classified) == "rows are where the titled item sits in the balance sheet"
    misdated = _claim(
        "Current assets was $5.0 million at March 31, 2024.", True, 98, "Current assets", "2024"
    )
    assert _reason("LEA", misdated) == "named date is not the column's"
    dated = {"2024": "March 30,2024", "2023": "December 31,2023"}
    assert balance_at(dated, "", rows=("Cash", "Total assets")) == {
        "2024": "March 30, 2024",
        "2023": "December 31, 2023",
    }
    # a balance only on rows that name balances: not flows, not rows that name neither
    assert (
        balance_at(dated, "", rows=("Net sales", "Cost of sales", "Cash paid for interest")) == {}
    )
    assert balance_at(dated, "", rows=("Level 1", "Level 2")) == {}
    # AMAO 37, a statement of operations dated "December 31, 2023 | December 31, 2022" with
    # "INCOME" and "OPERATING EXPENSES" under it, is no balance: its flows stay "in 2023"
    amao = [c for c in _built("AMAO") if c["relevant_context"] == [37]]
    assert amao and not any(" at December 31" in c["statement"] for c in amao)
    assert any(self_check(c, _path("AMAO")).passed for c in amao if " in 2023" in c["statement"])
    # a span over the columns (or in the caption) is no balance
    assert (
        balance_at({"2024": "March 30, 2024", "2023": "April 1, 2023"}, "Three Months Ended") == {}
    )


def test_an_outflow_under_a_signed_heading_is_stated_by_its_size() -> None:
    """IRDM "Payments on the Term Loan was negative $4,063 thousand", SCE-PL "Long-term debt
    repaid or repurchased was negative $601 million", CRSR "Payment of contingent
    consideration was negative $950 thousand": rows under "Cash flows from financing
    activities:" that name a payment."""
    rows = {
        "IRDM": "Payments on the Term Loan",
        "SCE-PL": "Long-term debt repaid or repurchased",
        "CRSR": "Payment of contingent consideration",
    }
    for ticker, row in rows.items():
        on_row = [c for c in _built(ticker) if c["cells"][0]["row"] == row]
        assert on_row, ticker
        assert not any("negative" in c["statement"] for c in on_row), ticker
        lookups = [c for c in on_row if c["kind"] == "lookup"]
        assert lookups and all(self_check(c, _path(ticker)).passed for c in lookups), ticker
    old = _claim(
        "Long-term debt repaid or repurchased was negative $601 million in 2024, for the three "
        "months ended March 31.",
        True, 18, "Long-term debt repaid or repurchased", "2024",
    )  # fmt: skip
    assert _reason("SCE-PL", old) == "an outflow said negative"


def test_a_row_that_names_no_measure_is_not_claimed_unless_a_heading_does() -> None:
    """AFGC 259: "Other specialty" of a table of net written premiums ("NWP" in the header,
    the measure in the lead-in only); CNSL 96: "Video services (Consumer)" of operating
    revenues by service. Session 8 claimed both with no measure."""
    assert not [c for c in _built("AFGC") if c["relevant_context"] == [259]]
    assert not [c for c in _built("CNSL") if c["cells"][0]["row"] == "Video services"]
    old = _claim(
        "Other specialty increased by 13.11% from 2022 to 2023, for the three months ended "
        "December 31.",
        True, 259, "Other specialty", "2022", "2023",
    )  # fmt: skip
    assert _reason("AFGC", old) == "subject names no measure"
    # a measure in the label still passes: a share of revenue by its own row
    named = [c for c in _built("CNSL") if c["relevant_context"] == [5]]
    assert any("Total" in c["statement"] for c in named)  # else the check below is vacuous
    assert named and all(
        self_check(c, _path("CNSL")).passed for c in named if "Total" in c["statement"]
    )


def test_a_segment_named_in_the_title_is_named_in_the_claim() -> None:
    """DLA 94: "Reconciliation of GAAP Measures Delta Group Segment Gross Margin and Delta
    Group Segment Operating Income to ...": session 8 said "Operating Income increased by $369
    thousand" as if the company's (whose operating result was a loss)."""
    delta = [c for c in _built("DLA") if c["relevant_context"] == [94]]
    assert delta and all(c["statement"].startswith("The Delta Group segment's ") for c in delta)
    assert all(self_check(c, _path("DLA")).passed for c in delta)
    old = _claim(
        "Operating Income increased by $369 thousand from 2022 to 2023, for the three months "
        "ended December.",
        True, 94, "Operating Income", "2022", "2023",
    )  # fmt: skip
    assert _reason("DLA", old) == "segment in the title not named"


def test_a_balance_and_a_years_change_are_no_rivals_and_a_change_line_says_so() -> None:
    """The rival-figure rule (session 8) dropped right balance-sheet claims because the
    cash-flow statement shows the same label's change ("Inventory" 342,782 at December 31,
    2023 against the year's change in inventory): a balance is no rival to a year's flow,
    nor an "Average Balance" table to anything. A cash-flow change line must then say it is
    a change (RCFA 280: "Accounts payable and accrued expenses increased by $125,194" read as
    the balance, audit 1712)."""
    inventory = _claim(
        "Inventory was $342,782 at December 31, 2023.", True, 326, "Inventory", "2023"
    )
    assert self_check(inventory, _path("SOBR")).passed
    row = "Accounts payable and accrued expenses"
    old = _claim(f"{row} increased by $125,194 from 2022 to 2023.", True, 280, row, "2022", "2023")
    assert _reason("RCFA", old) == "a working-capital change read as a balance"
    rcfa = [
        c for c in _built("RCFA") if c["relevant_context"] == [280] and c["cells"][0]["row"] == row
    ]
    assert rcfa and all(
        "(Changes in operating assets and liabilities)" in c["statement"] for c in rcfa
    )
    assert all(self_check(c, _path("RCFA")).passed for c in rcfa)
    # the section's cash total is no change line: HYMCL 245 "Net cash used in operating
    # activities" ends "Changes in operating assets and liabilities" and passes
    total = "Net cash used in operating activities"
    hymcl = _claim(f"{total} was $41,448 thousand in 2023.", True, 245, total, "2023")
    assert self_check(hymcl, _path("HYMCL")).passed


def test_a_parent_companys_own_statement_is_named_by_its_lines() -> None:
    """CASS 361: "Condensed Statements of Income" whose title does not say "parent" but whose
    lines do ("Equity in undistributed income of subsidiaries", "Dividends received from
    subsidiaries"); session 9's first hand check found "Other expenses (Expenses) increased by
    26.77%" stated as the company's."""
    cass = [c for c in _built("CASS") if c["relevant_context"] == [361]]
    # "The parent company's ...", "... made up 2.81% of total revenue for the parent company."
    assert cass and all("the parent company" in c["statement"].lower() for c in cass)
    assert any(self_check(c, _path("CASS")).passed for c in cass)  # others: the rival rule
    old = _claim(
        "Other expenses (Expenses) increased by 24.79% from 2022 to 2023.",
        True, 361, "Other expenses", "2022", "2023",
    )  # fmt: skip
    assert _reason("CASS", old) == "a parent company's own statement not named"


def _small_report(tmp_path: Path) -> Path:
    """A project-made 10-K: a single-segment table under a generic segment title, a table of
    flows dated by day ("December 31, 2023 | December 31, 2022"), and a balance table."""
    report = {
        "url": "x",
        "report_type": "10-K",
        "context": [
            {"id": 0, "type": "paragraph", "context": "Widgetco makes widgets. The Company "
             "manages its business as one operating segment. Amounts are in thousands."},
            {"id": 1, "type": "table", "context": "Single Reportable Segment\nThe following "
             "table presents significant segment expenses (in thousands):\n\n"
             "| | Year Ended December 31, |\n| | 2023 | 2022 |\n"
             "| Revenue | $ | 120,500 | $ | 100,200 |\n| Cost of revenue | 60,100 | 55,300 |\n"
             "| Research and development expense | 20,400 | 18,900 |\n"
             "| Selling and marketing expense | 15,000 | 12,100 |\n"
             "| Total expenses | 95,500 | 86,300 |\n| Segment operating income | 25,000 | 13,900 |"},
            {"id": 2, "type": "table", "context": "Selected data (in thousands):\n\n"
             "| | December 31, 2023 | December 31, 2022 |\n"
             "| Net sales | $ | 80,100 | $ | 70,300 |\n| Cost of sales | 40,200 | 36,800 |\n"
             "| Gross profit | 39,900 | 33,500 |\n| Cash paid for interest | 1,200 | 900 |\n"
             "| Cash paid for income taxes | 2,500 | 2,100 |"},
            {"id": 3, "type": "table", "context": "Balance sheet data (in thousands):\n\n"
             "| | December 31, 2023 | December 31, 2022 |\n"
             "| Cash and cash equivalents | $ | 14,300 | $ | 11,900 |\n"
             "| Accounts receivable | 9,800 | 8,700 |\n| Inventories | 21,600 | 19,400 |\n"
             "| Total assets | 145,700 | 131,000 |\n| Accounts payable | 7,700 | 6,900 |"},
        ],
        "html_tables": [],
    }  # fmt: skip
    path = tmp_path / "WIDG-2024-02-20_10-K.json"
    path.write_text(json.dumps(report))
    return path


def _built_small(path: Path) -> list[dict]:
    doc = load_findver_report(path)
    return [c for seed in range(6) for c in build_claims_for_document(doc, path.name, seed, 6, 40)]


def test_a_flow_table_dated_by_day_is_not_worded_as_balances(tmp_path: Path) -> None:
    """review11b-s9 H2: "Net sales was $80,100 thousand at December 31, 2023" and "At December
    31, 2023, the gross margin ... was 49.81%" came from a table of flows whose columns print
    a day; the builder said "at" for want of a short list of flow rows. Now "at <date>" needs
    rows that name balances, and the self-check refuses a flow stated at a date."""
    path = _small_report(tmp_path)
    built = _built_small(path)
    flows = [c for c in built if c["relevant_context"] == [2]]
    balances = [c for c in built if c["relevant_context"] == [3]]
    assert flows and balances
    assert not [
        c for c in flows if " at December 31" in c["statement"] or "At Dec" in c["statement"]
    ]
    singles = [c for c in balances if c["kind"] in ("lookup", "share")]
    assert singles and all("t December 31, 2023" in c["statement"] for c in singles)
    for statement, row, kind in [
        ("Net sales was $80,100 thousand at December 31, 2023.", "Net sales", "lookup"),
        ("Cash paid for interest was $1,200 thousand at December 31, 2023.", "Cash paid for interest", "lookup"),
    ]:  # fmt: skip
        claim = {
            "statement": statement, "entailment_label": True, "kind": kind,
            "relevant_context": [2], "cells": [{"row": row, "period": "2023"}],
        }  # fmt: skip
        assert _reason_at(path, claim) == "a flow stated at a date"
    cash = {
        "statement": "Cash and cash equivalents was $14,300 thousand at December 31, 2023.",
        "entailment_label": True, "kind": "lookup", "relevant_context": [3],
        "cells": [{"row": "Cash and cash equivalents", "period": "2023"}],
    }  # fmt: skip
    assert _reason_at(path, cash) == "ok"


def test_a_generic_segment_title_is_no_segment_name(tmp_path: Path) -> None:
    """review11b-s9 H3: "Single Reportable Segment" over a single-segment table gave "The Single
    Reportable segment's revenue was $120,500 thousand in 2023", which the self-check passed."""
    path = _small_report(tmp_path)
    built = [c for c in _built_small(path) if c["relevant_context"] == [1]]
    assert built
    assert not [c for c in built if "segment" in c["statement"].lower()]
    old = {
        "statement": "The Single Reportable segment's revenue was $120,500 thousand in 2023.",
        "entailment_label": True, "kind": "lookup", "relevant_context": [1],
        "cells": [{"row": "Revenue", "period": "2023"}],
    }  # fmt: skip
    assert _reason_at(path, old) == "segment named by a description"
    plain = dict(old, statement="Revenue was $120,500 thousand in 2023.")
    assert _reason_at(path, plain) == "ok"
    from finprobe.benchmarks.findver.names import table_scope

    for title in ("Business Segment Information", "Each Segment", "Geographic Segment Data",
                  "Operating Segment Information", "Segment Information"):  # fmt: skip
        assert table_scope(f"{title}\nThe table below shows revenue by segment:") == "", title
    assert table_scope("Delta Group Segment Operating Income\n") == "the Delta Group segment"


def _reason_at(path: Path, claim: dict) -> str:
    return self_check(claim, path).reason


def test_a_fiscal_name_is_tied_to_a_date_with_no_other_fiscal_year_between(tmp_path: Path) -> None:
    """review11b-s9 L2: "Fiscal 2024 ends February 1, 2025; fiscal 2023 ended February 3, 2024"
    put "fiscal 2024" within 80 characters of February 3, 2024, and the self-check tied them."""
    report = {
        "url": "x",
        "report_type": "10-K",
        "context": [
            {"id": 0, "type": "paragraph", "context": "Our fiscal year ends on the Saturday "
             "nearest January 31. Fiscal 2024 ends February 1, 2025; fiscal 2023 ended "
             "February 3, 2024 and fiscal 2022 ended January 28, 2023."},
            {"id": 1, "type": "table", "context": "Results (in thousands):\n\n"
             "| | Fiscal Year Ended |\n| | February 3, 2024 | January 28, 2023 |\n"
             "| Net sales | $ | 80,100 | $ | 70,300 |\n| Cost of sales | 40,200 | 36,800 |\n"
             "| Gross profit | 39,900 | 33,500 |"},
        ],
        "html_tables": [],
    }  # fmt: skip
    path = tmp_path / "FISC-2024-03-20_10-K.json"
    path.write_text(json.dumps(report))
    claim = {
        "statement": "Net sales was $80,100 thousand in fiscal 2024.",
        "entailment_label": True, "kind": "lookup", "relevant_context": [1],
        "cells": [{"row": "Net sales", "period": "2024"}],
    }  # fmt: skip
    assert self_check(claim, path).reason == "fiscal year not the column's"
    right = dict(claim, statement="Net sales was $80,100 thousand in fiscal 2023.")
    assert self_check(right, path).reason == "ok"
