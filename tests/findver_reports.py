"""Test helper: the FinDVer dev reports in ``../shared`` and the claims the builder makes
from one of them over several draws (before the self-check), shared by the builder's
golden tests."""

from __future__ import annotations

import functools
from pathlib import Path

from shared_data import SHARED

from finprobe.benchmarks.findver.build import build_claims_for_document
from finprobe.document import load_findver_report

REPORTS = SHARED / "data" / "findver" / "reports"


def report_path(ticker: str) -> Path:
    """The one dev report of ``ticker``."""
    [path] = REPORTS.glob(f"{ticker}-*.json.gz")
    return path


@functools.cache
def built_claims(ticker: str) -> tuple[dict, ...]:
    """Claims from every table of the report over six draws, before the self-check."""
    path = report_path(ticker)
    doc = load_findver_report(path)
    name = path.name.removesuffix(".gz")
    return tuple(
        claim for seed in range(6) for claim in build_claims_for_document(doc, name, seed, 6, 400)
    )


def hand_claim(statement: str, label: bool, evidence: int, row: str, *periods: str) -> dict:
    """A hand-made claim citing ``row`` in each of ``periods`` of table ``evidence``; its kind
    read from the wording ("made up" a share, "was" a lookup, "%" a percentage change)."""
    kind = "lookup" if " was " in statement else "pct_change" if "%" in statement else "change"
    if " made up " in statement:
        kind = "share"
    return {
        "statement": statement,
        "entailment_label": label,
        "kind": kind,
        "relevant_context": [evidence],
        "cells": [{"row": row, "period": p} for p in periods],
    }
