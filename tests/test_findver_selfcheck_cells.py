"""FinDVer self-check: the cited cells of every claim, entailed or refuted, are confirmed by the
self-check's own reading of the report file (review11b-s9 H1). Golden cases on real dev reports:
KMT 53/54 (several figure columns under each year), AMAO 128 (a "Level" column before the
years), KIRK 140 ("$ | %" under each fiscal year) and ETST 71 (a dash cell before a figure)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from findver_reports import REPORTS
from findver_reports import built_claims as _built
from findver_reports import report_path as _path

from finprobe.benchmarks.findver.selfcheck import self_check
from finprobe.benchmarks.findver.selfcheck_read import _cell, _read_entry

pytestmark = pytest.mark.skipif(not REPORTS.is_dir(), reason="no shared FinDVer data")


def _claim(statement: str, label: bool, evidence: int, kind: str, cells: list[tuple]) -> dict:
    return {
        "statement": statement,
        "entailment_label": label,
        "kind": kind,
        "relevant_context": [evidence],
        "cells": [{"row": r, "period": p, "value": v} for r, p, v in cells],
    }


def test_several_figure_columns_under_a_year_give_no_claim_and_no_reading() -> None:
    """KMT 53: "2023 | 2022" over "Pre-tax | Tax impact | Net of tax" twice. The builder read the
    Tax-impact column as the year's figure (audit #682: "the table shows $19 for 2023", 19 being
    the tax effect of a (78) pre-tax loss); it now builds nothing there, and the self-check reads
    no figure, so a refuted claim citing 19 for 2023 no longer passes."""
    assert not [c for c in _built("KMT") if c["relevant_context"][0] in (53, 54)]
    assert [c for c in _built("KMT")]  # the report's other tables still give claims
    row = "Unrealized loss on derivatives designated and qualified as cash flow hedges"
    claim = _claim(
        f"{row} was $626 thousand in 2023, for the three months ended December 31.",
        False,
        53,
        "lookup",
        [(row, "2023", "19")],
    )
    check = self_check(claim, _path("KMT"))
    assert not check.passed
    assert check.reason == "columns unreadable"


def test_a_refuted_claim_whose_cited_figure_is_not_the_cell_is_refused() -> None:
    """AMAO 128: "Description | Level | December 31, 2023 | December 31, 2022". The self-check
    used to read the Level (3) as 2023's figure, so a refuted claim passed whatever figure the
    builder had read. It now reads 117,036 and holds the claim's cited figure to it."""
    table = _read_entry(_path("AMAO"), "128")
    assert table is not None
    row = "Warrant Liability – Private Warrants"
    got = _cell(table, row, "2023")
    assert not isinstance(got, str) and got[0] == Decimal(117036)
    got = _cell(table, row, "2022")
    assert not isinstance(got, str) and got[0] == Decimal(101432)
    right = _claim(
        f"{row} was $150,000 at December 31, 2023.", False, 128, "lookup", [(row, "2023", "117036")]
    )
    assert self_check(right, _path("AMAO")).passed
    misread = _claim(
        f"{row} was $150,000 at December 31, 2023.", False, 128, "lookup", [(row, "2023", "3")]
    )
    assert self_check(misread, _path("AMAO")).reason == "cited figure is not the cell's"


def test_a_percentage_sub_column_is_not_the_years_figure() -> None:
    """KIRK 140: "Fiscal 2023 | Fiscal 2022 | Change" over "$ | % | $ | % | $ | %". The
    self-check read 2022's loss before taxes as (5.8), the percentage of sales."""
    table = _read_entry(_path("KIRK"), "140")
    assert table is not None
    for row, new, old in [
        ("Loss before income taxes", -27232, -44151),
        ("Cost of sales", 341700, 379036),
        ("Interest expense", 3317, 1735),
    ]:
        got_new, got_old = _cell(table, row, "2023"), _cell(table, row, "2022")
        assert not isinstance(got_new, str) and not isinstance(got_old, str)
        assert (got_new[0], got_old[0]) == (Decimal(new), Decimal(old))
    built = [c for c in _built("KIRK") if c["relevant_context"] == [140]]
    assert built
    for claim in built:  # every claim the builder makes there cites what the self-check reads
        for cell in claim["cells"]:
            got = _cell(table, cell["row"], cell["period"])
            assert not isinstance(got, str) and got[0] == Decimal(cell["value"])
    claim = next(c for c in built if self_check(c, _path("KIRK")).passed)
    wrong = {**claim, "cells": [{**cell, "value": "-5.8"} for cell in claim["cells"]]}
    assert self_check(wrong, _path("KIRK")).reason == "cited figure is not the cell's"


def test_a_dash_cell_is_zero_not_a_minus_sign_on_the_next_figure() -> None:
    """ETST 71: "Cost of legal proceedings | - | 8,297 | (8,297) | -100.00%". Read as one
    string, "- 8,297" was -8,297 for 2023; cell by cell, 2023 is 0 and 2022 is 8,297."""
    table = _read_entry(_path("ETST"), "71")
    assert table is not None
    new = _cell(table, "Cost of legal proceedings", "2023")
    old = _cell(table, "Cost of legal proceedings", "2022")
    assert not isinstance(new, str) and not isinstance(old, str)
    assert (new[0], old[0]) == (Decimal(0), Decimal(8297))


def test_a_claim_that_gives_no_cited_figure_is_not_kept_on_trust() -> None:
    claim = next(c for c in _built("KIRK") if self_check(c, _path("KIRK")).passed)
    bare = {**claim, "cells": [{"row": c["row"], "period": c["period"]} for c in claim["cells"]]}
    assert self_check(bare, _path("KIRK")).reason == "cited figure not given"


def test_the_card_counts_claims_dropped_for_a_misread_cell() -> None:
    from finprobe.benchmarks.findver.card import card_lines, data_card

    good = [c for c in _built("KIRK") if self_check(c, _path("KIRK")).passed][:3]
    wrong = {**good[0], "cells": [{**cell, "value": "-5.8"} for cell in good[0]["cells"]]}
    built = [*good, wrong]
    checks = [self_check(c, _path("KIRK")) for c in built]
    card = data_card(good, built, checks, probe=False)
    label = "entailed" if wrong["entailment_label"] else "refuted"
    assert card["self_check"]["cited_figure_mismatch"][label] == 1
    assert sum(card["self_check"]["cited_figure_mismatch"].values()) == 1
    assert any(line.startswith("cited figure is not the self-check") for line in card_lines(card))
