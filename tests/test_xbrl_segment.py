"""Statement segmentation: role classification, sub-filing facts, XML and text output."""

from __future__ import annotations

import pytest
from lxml import etree
from shared_data import SHARED
from test_xbrl_minifiling import BS, IS, NOTE, write_mini_filing

from finprobe.xbrl.filing import load_filing
from finprobe.xbrl.linkbase import secure_parser
from finprobe.xbrl.segment import classify_role, segment_filing

XBRL = SHARED / "data" / "xbrl"


@pytest.mark.parametrize(
    "definition,kind",
    [
        ("0000005 - Statement - CONSOLIDATED BALANCE SHEETS", "balance_sheet"),
        ("101 - Statement - Statement Of Financial Position Classified", "balance_sheet"),
        ("0000006 - Statement - CONSOLIDATED BALANCE SHEETS (Parenthetical)", "parenthetical"),
        ("0000003 - Statement - CONSOLIDATED STATEMENTS OF OPERATIONS", "income_statement"),
        ("103 - Statement - Statement Of Income", "income_statement"),
        ("0000004 - Statement - CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME", "comprehensive_income"),
        ("1003 - Statement - Statements of Operations and Comprehensive Loss", "income_statement"),
        ("0000007 - Statement - CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY", "equity"),
        ("0000008 - Statement - CONSOLIDATED STATEMENTS OF CASH FLOWS", "cash_flow"),
        ("0000001 - Document - Cover Page", "cover"),
        ("0000015 - Disclosure - Income Taxes", "notes"),
        ("9954476 - Disclosure - Income Taxes (Tables)", "tables"),
        ("9954471 - Disclosure - Summary of Significant Accounting Policies (Policies)", "policies"),
        ("9954497 - Disclosure - Income Taxes - Components (Details)", "details"),
    ],
)  # fmt: skip
def test_classify_role(definition, kind):
    assert classify_role(definition) == kind


@pytest.fixture
def subs(tmp_path):
    filing = load_filing(write_mini_filing(tmp_path / "m"))
    return {s.role: s for s in segment_filing(filing)}


def test_sub_filings_per_role_with_their_facts(subs):
    assert set(subs) == {BS, IS, NOTE}
    bs = subs[BS]
    assert bs.kind == "balance_sheet"
    concepts = {f.concept for f in bs.facts}
    assert concepts == {"us-gaap:AssetsCurrent", "us-gaap:AssetsNoncurrent", "us-gaap:Assets",
                        "us-gaap:Cash", "us-gaap:Goodwill"}  # fmt: skip
    # segment facts belong to the note whose table has the axis, not the balance sheet
    assert all(not bs.contexts[f.context_id].has_dims for f in bs.facts)
    note_ctx = {f.context_id for f in subs[NOTE].facts}
    assert {"SEG_A", "SEG_B"} <= note_ctx
    assert [a.target for a in bs.calc_arcs] == ["us-gaap:AssetsCurrent", "us-gaap:AssetsNoncurrent",
                                                "us-gaap:Cash"]  # fmt: skip
    assert subs[NOTE].def_arcs and not bs.def_arcs


def test_xml_fragments_are_valid_and_reload(subs, tmp_path):
    frags = subs[BS].to_xml()
    for text in frags.values():
        etree.fromstring(text.encode(), secure_parser())  # well-formed
    out = tmp_path / "bs"
    out.mkdir()
    names = {"instance": "bs.xml", "schema": "mini.xsd", "cal": "bs_cal.xml", "pre": "bs_pre.xml",
             "def": "bs_def.xml", "lab": "bs_lab.xml"}  # fmt: skip
    for key, name in names.items():
        (out / name).write_text(frags[key], encoding="utf-8")
    again = load_filing(out)
    assert len(again.facts) == len(subs[BS].facts)
    assert {(a.source, a.target, a.weight) for a in again.calc.arcs} == {
        (a.source, a.target, a.weight) for a in subs[BS].calc_arcs
    }
    assert again.role_types[BS].definition == "0001 - Statement - Balance Sheet"
    assert again.label("us-gaap:Assets") == "Assets, Total"
    nil = [f for f in again.facts if f.concept == "us-gaap:Goodwill"]
    assert nil and nil[0].is_nil


def test_typed_and_scenario_dimensions_round_trip(tmp_path):
    from finprobe.xbrl.segment import SubFiling

    filing = load_filing(write_mini_filing(tmp_path / "m"))
    facts = [f for f in filing.facts if f.context_id in ("TYPED", "SCEN")]
    sub = SubFiling(filing, IS, "x", "notes", [], facts, [], [],
                    {c: filing.contexts[c] for c in ("TYPED", "SCEN")})  # fmt: skip
    out = tmp_path / "t"
    out.mkdir()
    (out / "t.xml").write_text(sub.to_xml()["instance"], encoding="utf-8")
    again = load_filing(out / "t.xml")
    assert again.contexts["TYPED"].typed[0].value == "L-42"
    assert again.contexts["SCEN"].in_scenario
    assert again.contexts["SCEN"].explicit == filing.contexts["SCEN"].explicit


def test_compact_text(subs):
    text = subs[BS].to_text()
    assert text.startswith("# 0001 - Statement - Balance Sheet [balance_sheet]")
    assert "us-gaap:Assets | Assets, Total | 2023-12-31 | - | 300000 | USD | -3" in text
    assert "us-gaap:Assets = +us-gaap:AssetsCurrent +us-gaap:AssetsNoncurrent" in text
    assert "us-gaap:Goodwill | Goodwill | 2023-12-31 | - | nil" in text
    assert "(label role: terseLabel)" in text
    eps = subs[IS].to_text()
    assert "| 1.25 | USD/shares | 2\n" in eps


@pytest.mark.skipif(not XBRL.is_dir(), reason="shared XBRL data not present")
def test_real_filing_statements():
    filing = load_filing(XBRL / "aapl-10k-2023")
    subs = segment_filing(filing, {"balance_sheet", "income_statement", "cash_flow"})
    assert [s.kind for s in subs] == ["income_statement", "balance_sheet", "cash_flow"]
    bs = subs[1]
    assets = [f for f in bs.facts if f.concept == "us-gaap:Assets"]
    assert sorted(f.value for f in assets) == ["352583000000", "352755000000"]
    text = bs.to_text()
    assert "us-gaap:Assets = +us-gaap:AssetsCurrent +us-gaap:AssetsNoncurrent" in text
    assert len(text) < 40_000  # a statement is prompt-sized
