"""Shared cases for the FAITH solver tests: instances as a model sees them, tables."""

from __future__ import annotations

from typing import Any

from finprobe.benchmarks.faith.dataset import unit_hint
from finprobe.benchmarks.faith.solver import solve_from_tables
from finprobe.numbers import reference_scorer_match
from finprobe.synth import make_report, to_faith_record


def _instance(tables: list[dict[str, Any]], masked: str, hint_of: str, **extra: Any) -> dict:
    """Metadata as a model sees it; the hint is derived from an example answer's units."""
    return {
        "tables": tables,
        "masked_sentence": masked,
        "pre_sentence": extra.get("pre", ""),
        "post_sentence": extra.get("post", ""),
        "hint": unit_hint(hint_of),
        "filing_date": "2024-02-20",
    }


def _table(index: str, cells: list[list[str]], pre_text: str = "") -> dict[str, Any]:
    return {"index": index, "pre_text": pre_text, "cells": cells}


def _assert_answer(metadata: dict, expected: str) -> None:
    answer = solve_from_tables(metadata).answer
    assert reference_scorer_match(expected, answer), f"{answer!r} != {expected!r}"


# -- golden cases from synthetic reports ----------------------------------------


def _synthetic_instances(seed: int) -> list[tuple[str, dict, str]]:
    report = make_report(seed=seed)
    record = to_faith_record(report)
    tables = [
        {"index": t["table_index"], "pre_text": t["pre_text"], "cells": t["cells"]}
        for t in record["tables"]
    ]
    out = []
    for sentence in report.sentences:
        if sentence.derivation is None:
            continue
        start, end = sentence.span
        masked = sentence.text[:start] + "[MASK]" + sentence.text[end:]
        out.append(
            (
                sentence.derivation.kind,
                _instance(tables, masked, sentence.span_text),
                sentence.span_text,
            )
        )
    return out


STATEMENTS = _table(
    "5",
    [
        ["", "2024", "2023", "2022"],
        ["Revenue", "1,000", "800", "640"],
        ["Cost of revenue", "600", "500", "400"],
        ["Gross profit", "400", "300", "240"],
        ["Selling, general and administrative", "150", "120", "100"],
        ["Total operating expenses", "250", "200", "160"],
        ["Operating income", "150", "100", "80"],
        ["Income before income taxes", "120", "90", "70"],
        ["Provision for income taxes", "30", "18", "14"],
        ["Net income", "90", "72", "56"],
        ["Diluted earnings per share", "1.80", "1.44", "1.12"],
    ],
    "Consolidated Statements of Operations (in millions, except per share data)",
)
BALANCE = _table(
    "6",
    [
        ["", "2024", "2023", "2022"],
        ["Current assets:", "", "", ""],
        ["Cash and cash equivalents", "200", "150", "100"],
        ["Accounts receivable, net", "120", "110", "90"],
        ["Inventories", "80", "70", "60"],
        ["Total current assets", "400", "330", "250"],
        ["Total current liabilities", "160", "150", "125"],
        ["Total stockholders' equity", "500", "400", "350"],
    ],
    "Consolidated Balance Sheets (in millions)",
)
CASH_FLOWS = _table(
    "7",
    [
        ["", "2024", "2023", "2022"],
        ["Accounts receivable", "(10)", "(20)", "(5)"],
        ["Net cash provided by operating activities", "180", "150", "120"],
        ["Purchases of property and equipment", "(60)", "(50)", "(40)"],
        ["Net increase (decrease) in cash and cash equivalents", "50", "50", "20"],
    ],
    "Consolidated Statements of Cash Flows (in millions)",
)
REPORT = [STATEMENTS, BALANCE, CASH_FLOWS]


# -- rules added for share counts, rate-named amounts, sensitivities, lists -----

DEBT_2024 = _table(
    "18",
    [
        ["", "December 31,", "December 31,"],
        ["", "2024", "2023"],
        ["Total Debt - Fixed Rate", "$1,454,707", "$1,440,773"],
        ["Total Debt - Variable Rate", "426,380", "364,641"],
        ["Net unamortized debt issuance costs", "(11,186)", "(12,697)"],
        ["Unamortized premium", "240", "343"],
        ["Total Indebtedness", "$1,870,141", "$1,793,060"],
    ],
    "A summary of our consolidated debt is as follows (in thousands):",
)


# -- periods without a year, period lengths, synonyms, point changes (round 5) -----

QUARTERS = _table(
    "21",
    [
        ["", "Three Months Ended December 31,", "Three Months Ended December 31,",
         "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022", "2023", "2022"],
        ["Net revenues", "$412.5", "$398.1", "$1,640.2", "$1,577.9"],
        ["Operating income", "61.3", "58.0", "240.8", "221.4"],
    ],
)  # fmt: skip


THREE_YEARS = _table(
    "22",
    [
        ["", "Year Ended December 31,", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022", "2021"],
        ["Net sales", "$950.0", "$900.0", "$700.0"],
        ["Interest income", "4.0", "3.0", "1.0"],
        ["Royalty income", "20.0", "17.5", "16.0"],
        ["Gross margin", "41.2%", "39.8%", "38.0%"],
    ],
)
