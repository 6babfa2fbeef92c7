"""Export of a synthetic report to the public dataset formats (FinDVer report JSON, FAITH record)."""

from __future__ import annotations

import re
from typing import Any

from finprobe.document import Table
from finprobe.synth.records import SynthReport

_NEGATIVE_CELL = re.compile(r"^\(([\d,.]+%?)\)$")


def _pipe(table: Table) -> str:
    """Pipe rows as FinDVer writes them: a negative "(1,234)" splits into "(1,234 | )"."""
    rows = []
    for row in table.cells:
        cells = [_NEGATIVE_CELL.sub(r"(\1 | )", c) for c in row]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def to_findver_json(report: SynthReport) -> dict[str, Any]:
    """The report in FinDVer's format: one context entry per block, tables as pipe text."""
    context = []
    for i, blk in enumerate(report.document.blocks):
        if isinstance(blk, Table):
            context.append({"id": i, "context": _pipe(blk), "type": "table"})
        else:
            context.append({"id": i, "context": blk.text, "type": "paragraph"})
    return {
        "url": report.document.metadata.get("url", ""),
        "report_type": "10-K",
        "context": context,
        "html_tables": [],
    }


def to_faith_record(report: SynthReport) -> dict[str, Any]:
    """The report in FAITH's format: metadata, tables with pre-texts, no instances."""
    return {
        "metadata": {"cik": report.cik, "filing_date": report.filing_date},
        "tables": [
            {"table_index": str(i), "cells": [list(r) for r in t.cells], "pre_text": t.pre_text}
            for i, t in enumerate(report.document.tables)
        ],
        "instances": [],
    }
