"""Test helper: the self-check on hand-made FinDVer claims, with each cited cell's figure
filled in as the builder's reader (``finprobe.document``) reads it, so the self-check's
final test (its own reading of the cell must equal the cited figure) is a real comparison
between the two readers. A cell the builder's reader cannot find is left without a figure
(the self-check then refuses the claim: "cited figure not given")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from finprobe.benchmarks.findver import selfcheck
from finprobe.benchmarks.findver.names import FOOTNOTE
from finprobe.benchmarks.findver.table_facts import _cell_value, _percent_column
from finprobe.document import load_findver_report

_YEAR = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")


def _builders_figure(table: Any, row: str, period: str) -> str | None:
    rows = [r for r in range(table.n_rows) if FOOTNOTE.sub("", table.row_label(r)).strip() == row]
    columns = [
        c
        for c in range(table.header_cols, table.n_cols)
        if _YEAR.findall(table.column_label(c)) == [period]
        and not re.search(r"(?i)change|%|percent|variance", table.column_label(c))
        and not _percent_column(table, c)
    ]
    if len(rows) != 1 or len(columns) != 1:
        return None
    read = _cell_value(table, rows[0], columns[0])
    return None if read is None else str(read[0])


def with_values(claim: dict[str, Any], report: Path) -> dict[str, Any]:
    cells = claim.get("cells") or []
    if all("value" in c for c in cells):
        return claim
    doc = load_findver_report(report)
    evidence = str(claim["relevant_context"][0])
    table = next(
        (
            t
            for t in doc.tables
            if str(t.source_id if t.source_id is not None else t.id) == evidence
        ),
        None,
    )
    out = []
    for c in cells:
        figure = None if table is None else _builders_figure(table, c["row"], c["period"])
        out.append(c if "value" in c or figure is None else {**c, "value": figure})
    return {**claim, "cells": out}


def self_check(claim: dict[str, Any], report: Path) -> selfcheck.CheckResult:
    return selfcheck.self_check(with_values(claim, report), report)
