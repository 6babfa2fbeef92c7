"""Checks: the summation rule on hand-made cases, DQC rules on the mini filing,
and a real inconsistency injected into a real filing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from shared_data import SHARED
from test_xbrl_minifiling import BS, IS, write_mini_filing

from finprobe.xbrl import inject
from finprobe.xbrl.checks import (
    RULES,
    Finding,
    check_summation,
    findings_to_json,
    pick_fact,
    round_to_decimals,
    run_checks,
)
from finprobe.xbrl.filing import load_filing

XBRL = SHARED / "data" / "xbrl"

D = Decimal


# --- the XBRL 2.1 summation rule on hand-made cases ---------------------------------


@pytest.mark.parametrize(
    "total,items,expected",
    [
        # exact
        ((D(300), 0), [(D(100), 0, 1), (D(200), 0, 1)], True),
        ((D(301), 0), [(D(100), 0, 1), (D(200), 0, 1)], False),
        # weights: gross profit = revenue - cost
        ((D(8300), 0), [(D(12300), 0, 1), (D(4000), 0, -1)], True),
        # sum 2,500 rounded half-even to thousands is 2,000; the total is 2,000 at -3
        ((D(2000), -3), [(D(1200), 0, 1), (D(1300), 0, 1)], True),
        # sum 3,500 rounds (half-even) to 4,000, not 3,000
        ((D(3000), -3), [(D(1700), 0, 1), (D(1800), 0, 1)], False),
        # each item is first rounded to its own decimals: 1,449 at -2 counts as 1,400
        ((D(3000), 0), [(D(1449), -2, 1), (D(1600), -2, 1)], True),
        # an unrounded item that only matches if the items' rounding is skipped
        ((D(3049), 0), [(D(1449), -2, 1), (D(1600), -2, 1)], False),
        # INF decimals: exact comparison
        ((D("1.25"), float("inf")), [(D("1.2"), float("inf"), 1), (D("0.05"), float("inf"), 1)], True),
    ],
)  # fmt: skip
def test_xbrl21_summation_rule(total, items, expected):
    assert check_summation(total, items, "xbrl21").consistent is expected


def test_min_decimals_mode_rounds_everything_to_the_coarsest():
    # total 3,000 at -3, items exact: xbrl21 rounds the sum 3,049 -> 3,000 too
    res = check_summation((D(3000), -3), [(D(1449), 0, 1), (D(1600), 0, 1)], "min")
    assert res.consistent and res.decimals == -3 and res.computed == 3049
    # with a finer total the DQC mode still compares at the items' coarser decimals
    assert check_summation((D(3049), 0), [(D(1400), -2, 1), (D(1600), -2, 1)], "min").consistent
    assert not check_summation(
        (D(3049), 0), [(D(1400), -2, 1), (D(1600), -2, 1)], "xbrl21"
    ).consistent


def test_calc11_interval_rule_tolerates_accumulated_rounding():
    # three items of 1 (each anywhere in [0.5, 1.5)) can sum to 4: Calc 1.1 accepts,
    # XBRL 2.1 (3 != 4) does not
    items = [(D(1), 0, 1)] * 3
    assert check_summation((D(4), 0), items, "calc11").consistent
    assert not check_summation((D(4), 0), items, "xbrl21").consistent
    # closed intervals: [1.5, 4.5] meets 5's [4.5, 5.5] at the boundary; 6 is out
    assert check_summation((D(5), 0), items, "calc11").consistent
    assert not check_summation((D(6), 0), items, "calc11").consistent


def test_round_to_decimals_half_even():
    assert round_to_decimals(D(2500), -3) == 2000
    assert round_to_decimals(D(3500), -3) == 4000
    assert round_to_decimals(D("1.255"), 2) == D("1.26")
    assert round_to_decimals(D(7), None) == 7


def test_duplicates_consistent_pick_most_precise(tmp_path):
    f = load_filing(write_mini_filing(tmp_path / "m"))
    cur = [x for x in f.facts if x.concept == "us-gaap:AssetsCurrent" and x.context_id == "I"]
    best, ok = pick_fact(cur)
    assert ok and best.id == "dup-consistent"
    cash = [x for x in f.facts if x.concept == "us-gaap:Cash"]
    assert pick_fact(cash) == (None, False)


# --- rules on the mini filing ----------------------------------------------------------


@pytest.fixture
def mini(tmp_path):
    return load_filing(write_mini_filing(tmp_path / "m"))


def test_mini_calc_findings(mini):
    findings = run_checks(mini, ["XBRL.calc"])
    # Assets I: 300,000 = 100,000 + 200,000 holds; Assets P: 250,000 != 240,000;
    # AssetsCurrent is skipped (its only child Cash has inconsistent duplicates);
    # GrossProfit (Calc 1.1): 8,300 vs 12,345 (decimals -2) - 4,000: interval
    # [8295, 8395] meets [8344.5-50, 8345.5+50]: consistent
    assert [(x.concepts[0], x.contexts) for x in findings] == [("us-gaap:Assets", ("P",))]
    assert findings[0].values == ("250000", "240000")
    assert findings[0].role == BS


def test_mini_dqc_0126_checks_current_period_only(mini):
    assert run_checks(mini, ["DQC_0126"]) == []
    # break the current-period total: now DQC_0126 fires
    for fact in mini.facts:
        if fact.concept == "us-gaap:Assets" and fact.context_id == "I":
            fact.value = "310000"
    mini.invalidate()
    (finding,) = run_checks(mini, ["DQC_0126"])
    assert finding.concepts[0] == "us-gaap:Assets" and finding.contexts == ("I",)
    assert finding.values == ("310000", "300000")


def test_mini_duplicates_and_negative_values(mini):
    dup = run_checks(mini, ["XBRL.duplicates"])
    assert [x.concepts for x in dup] == [("us-gaap:Cash",)]
    neg = run_checks(mini, ["DQC_0015"])
    assert [x.concepts for x in neg] == [("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment",)]
    assert neg[0].rule_id == "DQC_0015.1964"


def test_negative_value_excluded_with_elimination_member(tmp_path):
    from test_xbrl_minifiling import INSTANCE

    text = INSTANCE.replace(
        '<us-gaap:PaymentsToAcquirePropertyPlantAndEquipment contextRef="D"',
        '<us-gaap:PaymentsToAcquirePropertyPlantAndEquipment contextRef="ELIM"',
    ).replace(
        '<unit id="usd">',
        '<context id="ELIM"><entity><identifier scheme="x">1</identifier><segment>'
        '<xbrldi:explicitMember dimension="srt:ConsolidationItemsAxis">'
        "srt:IntersegmentEliminationMember</xbrldi:explicitMember></segment></entity>"
        "<period><startDate>2023-01-01</startDate><endDate>2023-12-31</endDate></period>"
        '</context><unit id="usd">',
    )
    f = load_filing(write_mini_filing(tmp_path / "m", **{"mini-20231231.xml": text}))
    assert run_checks(f, ["DQC_0015"]) == []


def test_mini_dqc_0099_statement_item_without_calculation(mini):
    found = {x.role: x.concepts for x in run_checks(mini, ["DQC_0099"])}
    # capex is monetary, on the income statement, and in no calculation; Goodwill too
    # (nil, but the rule applies whatever the value); EPS is not monetary
    assert found == {IS: ("us-gaap:PaymentsToAcquirePropertyPlantAndEquipment",),
                     BS: ("us-gaap:Goodwill",)}  # fmt: skip


def test_mini_dqc_0145_heuristic(mini):
    # capex under IncomeStatementAbstract is not flagged (only working-capital items are)
    assert run_checks(mini, ["DQC_0145"]) == []


def test_unknown_rule_rejected(mini):
    with pytest.raises(ValueError, match="unknown rule"):
        run_checks(mini, ["DQC_9999"])


def test_finding_json_round_trip():
    f = Finding("DQC_0015.1", "error", ("us-gaap:A",), ("c1",), ("-5",), "msg", None)
    assert findings_to_json([f]).count('"rule_id": "DQC_0015.1"') == 1
    assert f.to_text() == "DQC_0015.1 error: msg"


# --- real filings ----------------------------------------------------------------------

needs_data = pytest.mark.skipif(not XBRL.is_dir(), reason="shared XBRL data not present")


@pytest.fixture(scope="module")
def apple():
    if not XBRL.is_dir():
        pytest.skip("shared XBRL data not present")
    return load_filing(XBRL / "aapl-10k-2023")


@needs_data
def test_real_filing_calc_clean_then_injected_error_found(apple):
    """The calculation check agrees with the XBRL 2.1 rule on a real filing: the
    clean Apple 10-K passes DQC_0126; a changed total is caught with the right
    reported and computed values."""
    assert run_checks(apple, ["DQC_0126"]) == []
    current = [x for x in apple.facts if x.concept == "us-gaap:Assets"
               and apple.contexts[x.context_id].end == "2023-09-30"
               and not apple.contexts[x.context_id].has_dims]  # fmt: skip
    ctx_id = current[0].context_id
    modified, truth = inject.change_total(apple, "us-gaap:Assets", ctx_id)
    assert truth.original == "352583000000"  # Apple's total assets, FY2023
    findings = run_checks(modified, ["DQC_0126"])
    assert len(findings) == 1
    (found,) = findings
    assert found.concepts[:1] == ("us-gaap:Assets",) and found.contexts == (ctx_id,)
    assert found.values == (truth.injected, "352583000000")
    # the same with the plain XBRL 2.1 rule over all contexts: only the new error appears
    base = {(x.concepts, x.contexts) for x in run_checks(apple, ["XBRL.calc"])}
    new = [x for x in run_checks(modified, ["XBRL.calc"]) if (x.concepts, x.contexts) not in base]
    assert [(x.concepts[0], x.contexts) for x in new] == [("us-gaap:Assets", (ctx_id,))]
    # the original is untouched
    assert run_checks(apple, ["DQC_0126"]) == []


@needs_data
def test_real_filing_wrong_axis_caught_by_dqc_0001(apple):
    assert run_checks(apple, ["DQC_0001"]) == []
    modified, truth = inject.move_member_to_wrong_axis(
        apple, "aapl:OtherCountriesMember", "srt:ConsolidationItemsAxis"
    )
    found = run_checks(modified, ["DQC_0001"])
    assert any(f.concepts[:2] == ("srt:ConsolidationItemsAxis", "aapl:OtherCountriesMember")
               for f in found)  # fmt: skip
    assert truth.kind == "wrong_axis" and truth.original == "srt:StatementGeographicalAxis"


@needs_data
def test_all_rules_run_on_all_filings():
    for folder in sorted(XBRL.iterdir()):
        findings = run_checks(load_filing(folder, labels=False))
        assert all(f.rule_id.split(".")[0] in {r.split(".")[0] for r in RULES} for f in findings)
        # the real filings carry no negative-value or duplicate errors except Apple 2010
        if folder.name != "aapl-10k-2010":
            assert not [f for f in findings if f.rule_id.startswith(("DQC_0015", "XBRL.dup"))]
