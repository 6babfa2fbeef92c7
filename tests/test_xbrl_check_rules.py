"""`finprobe check` as an auditor uses it: severities, each default DQC rule with a
firing and a non-firing case on real filings, coverage and bad values, the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.xbrl.check_report import coverage, render_report
from finprobe.xbrl.checks import DEFAULT_RULES, RULES, run_checks, run_rules
from finprobe.xbrl.filing import Context, load_filing

XBRL = SHARED / "data" / "xbrl"
pytestmark = pytest.mark.skipif(not XBRL.is_dir(), reason="needs ../shared/data/xbrl")


@pytest.fixture(scope="module")
def cli():
    import typer

    from finprobe.benchmarks.finauditing.commands import register

    app = typer.Typer()
    register(typer.Typer(), app)
    app.command("noop", hidden=True)(lambda: None)
    return app


# --- severities ------------------------------------------------------------------------


def test_calc_counts_unchanged_and_split_by_severity():
    # the XBRL 2.1 inconsistency counts match an independent implementation; only the
    # severity says which ones an auditor can act on
    got = {}
    for name in ("aapl-10k-2010", "aeon-10q-2023", "nflx-10q-2024q3", "aapl-10k-2023"):
        found = run_checks(load_filing(XBRL / name, labels=False), ["XBRL.calc"])
        got[name] = sorted(f.severity for f in found)
    assert got == {"aapl-10k-2010": ["incomplete"] * 9, "aeon-10q-2023": ["error"],
                   "nflx-10q-2024q3": ["incomplete"] * 6, "aapl-10k-2023": []}  # fmt: skip


def test_error_has_every_child_reported_and_both_rounding_rules():
    filing = load_filing(XBRL / "aeon-10q-2023")
    (f,) = run_checks(filing, ["XBRL.calc"])
    assert f.severity == "error" and f.details["missing_children"] == []
    assert f.details["xbrl21_consistent"] is False and f.details["calc11_consistent"] is False
    # re-add the children from the filing's own facts: the sum differs by 125,000
    assert int(f.values[0]) - int(f.values[1]) == 125000
    assert f.period == "2023-01-06 to 2023-01-06" and dict(f.dimensions)


def test_incomplete_names_the_missing_children():
    filing = load_filing(XBRL / "nflx-10q-2024q3")
    found = run_checks(filing, ["XBRL.calc"])
    numeric = {(x.concept, x.context_id) for x in filing.facts if x.number is not None}
    for f in found:
        assert f.severity == "incomplete"
        missing = f.details["missing_children"]
        assert missing and all((m, f.contexts[0]) not in numeric for m in missing)
        assert all(m in f.message for m in missing)


def test_incomplete_sums_have_no_verdict_in_the_json():
    # a sum that cannot be judged is neither consistent nor inconsistent: null, not false
    found = run_checks(load_filing(XBRL / "aapl-10k-2010", labels=False), ["XBRL.calc"])
    rows = json.loads(json.dumps([f.to_dict() for f in found]))
    assert len(rows) == 9
    for row in rows:
        assert row["severity"] == "incomplete"
        assert row["details"]["xbrl21_consistent"] is None
        assert row["details"]["calc11_consistent"] is None
        assert row["details"]["children_reported"] < row["details"]["children_total"]


def test_report_says_a_partial_sum_is_partial():
    filing = load_filing(XBRL / "aapl-10k-2010")
    run = run_rules(filing, ["XBRL.calc"])
    text = " ".join(render_report(run.findings, coverage(filing, run.ran, run.skipped), 80).split())
    # GrossProfit 4,507,000,000 with only SalesRevenueNet of its 2 children reported
    assert ("values reported 4,507,000,000; reported children (1 of 2) sum to "
            "11,880,000,000") in text  # fmt: skip
    assert "; children sum to" not in text  # every finding there is incomplete
    aeon = load_filing(XBRL / "aeon-10q-2023")
    run = run_rules(aeon, ["XBRL.calc"])
    text = render_report(run.findings, coverage(aeon, run.ran, run.skipped), 80)
    assert "reported 315,332,000; children sum to 315,207,000" in text


def test_json_counts_what_min_severity_hides(cli, tmp_path):
    out = tmp_path / "errors.json"
    result = CliRunner().invoke(cli, ["check", str(XBRL / "aapl-10k-2010"), "--json", str(out),
                                      "--min-severity", "error"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["findings"] == []
    # the 9 incomplete calculation findings are counted, not silently dropped
    assert data["not_shown"] == {"min_severity": "error", "count": 9,
                                 "by_severity": {"incomplete": 9}}  # fmt: skip
    result = CliRunner().invoke(cli, ["check", str(XBRL / "aapl-10k-2010"), "--json", "-"])
    data = json.loads(result.stdout)
    assert len(data["findings"]) == 9 and data["not_shown"]["count"] == 0


def test_calc_mode_can_be_forced():
    filing = load_filing(XBRL / "aeon-10q-2023", labels=False)
    for mode in ("xbrl21", "calc11"):
        assert [f.details["mode"] for f in run_checks(filing, ["XBRL.calc"], calc_mode=mode)] == [
            mode
        ]


# --- DQC_0137 -----------------------------------------------------------------------------


def _put_on_location_axis(filing, concept: str, n: int = 1, axis: str = "BalanceSheetLocationAxis"):
    """A minimally edited copy: ``n`` facts of ``concept`` moved onto the location axis
    alone (a new context per fact, same period)."""
    out = filing.copy()
    moved = 0
    for fact in out.facts:
        if fact.concept != concept or moved >= n:
            continue
        ctx = out.contexts[fact.context_id]
        if ctx.has_dims:
            continue
        new_id = f"{ctx.id}-loc{moved}"
        out.contexts[new_id] = Context(new_id, ctx.entity_scheme, ctx.entity_id, ctx.period_type,
                                       ctx.start, ctx.end,
                                       ((f"us-gaap:{axis}", "us-gaap:OtherLiabilitiesCurrentMember"),))  # fmt: skip
        fact.context_id = new_id
        moved += 1
    out.invalidate()
    assert moved == n
    return out


def test_dqc_0137_does_not_fire_on_real_filings():
    # the earlier loose version fired on these (any concept, any single member)
    for name in ("aapl-10k-2022", "aapl-10k-2023", "aapl-10q-2023", "nflx-10k-2024"):
        assert run_checks(load_filing(XBRL / name, labels=False), ["DQC_0137"]) == []


def test_dqc_0137_fires_on_one_fact_with_the_location_axis():
    filing = load_filing(XBRL / "aapl-10k-2023", labels=False)
    edited = _put_on_location_axis(filing, "us-gaap:OperatingLeaseLiabilityCurrent")
    (f,) = run_checks(edited, ["DQC_0137"])
    assert f.element_id == "DQC.US.0137.9838" and f.rule_version == "18.0.0RC1"
    assert f.concepts[:2] == ("us-gaap:OperatingLeaseLiabilityCurrent", "BalanceSheetLocationAxis")
    assert (
        "us-gaap:OperatingLeaseLiabilityCurrentStatementOfFinancialPositionExtensibleList"
        in f.message
    )
    assert f.severity == "error" and f.period


def test_dqc_0137_not_for_two_facts_wrong_axis_or_old_rule_sets():
    filing = load_filing(XBRL / "aapl-10k-2023", labels=False)
    two = _put_on_location_axis(filing, "us-gaap:OperatingLeaseLiabilityCurrent", n=2)
    assert run_checks(two, ["DQC_0137"]) == []
    # an instant concept on the income statement axis is not the rule's pair
    wrong = _put_on_location_axis(filing, "us-gaap:OperatingLeaseLiabilityCurrent",
                                  axis="IncomeStatementLocationAxis")  # fmt: skip
    assert run_checks(wrong, ["DQC_0137"]) == []
    # a concept with no extensible-list counterpart
    other = _put_on_location_axis(filing, "us-gaap:AccountsPayableCurrent")
    assert run_checks(other, ["DQC_0137"]) == []
    # a filing whose taxonomy predates the 2022 rule set: the rule does not apply
    old = load_filing(XBRL / "nflx-10k-2010", labels=False)
    run = run_rules(old, ["DQC_0137"])
    assert run.ran == [] and "DQC_0137" in run.skipped


# --- DQC_0015 -----------------------------------------------------------------------------


def test_dqc_0015_fires_on_a_negated_value_and_not_on_the_real_filing():
    filing = load_filing(XBRL / "aapl-10k-2023", labels=False)
    assert run_checks(filing, ["DQC_0015"]) == []
    edited = filing.copy()
    target = next(x for x in edited.facts if x.concept == "us-gaap:AccountsPayableCurrent"
                  and not edited.contexts[x.context_id].has_dims)  # fmt: skip
    target.value = "-" + target.value
    edited.invalidate()
    (f,) = run_checks(edited, ["DQC_0015"])
    assert f.concepts == ("us-gaap:AccountsPayableCurrent",) and f.element_id.startswith(
        "DQC.US.0015."
    )
    assert f.rule_version and f.period == edited.contexts[target.context_id].period_text()


def test_dqc_0015_respects_the_effective_date():
    old = load_filing(XBRL / "aapl-10k-2010", labels=False)
    run = run_rules(old, ["DQC_0015"])
    assert run.findings == [] and "effective date" in run.skipped["DQC_0015"]
    # asked to ignore the date, the 2010 filing's negative values show (12 of them)
    assert len(run_checks(old, ["DQC_0015"], any_date=True)) == 12


def test_default_set_is_the_faithful_rules():
    assert set(DEFAULT_RULES) == {"XBRL.calc", "XBRL.duplicates", "XBRL.values", "DQC_0015",
                                  "DQC_0137"}  # fmt: skip
    assert all(RULES[r].why_not_default for r in RULES if r not in DEFAULT_RULES)


# --- bad values and coverage ------------------------------------------------------------------


def _copy_filing(name: str, dest: Path) -> Path:
    shutil.copytree(XBRL / name, dest)
    return dest


def test_nan_inf_and_text_values_are_findings_not_crashes(cli, tmp_path):
    folder = _copy_filing("aeon-10q-2023", tmp_path / "f")
    inst = next(folder.glob("*htm.xml"))
    from lxml import etree

    tree = etree.parse(str(inst))
    numeric = [el for el in tree.iter() if el.get("unitRef") and (el.text or "").strip()]
    for el, bad in zip(numeric[:3], ("NaN", "INF", "n/a"), strict=True):
        el.text = bad
    tree.write(str(inst))
    res = CliRunner().invoke(cli, ["check", str(folder), "--json", "-"])
    assert res.exit_code == 1, res.output
    doc = json.loads(res.output)
    bad_values = [f for f in doc["findings"] if f["rule_id"] == "XBRL.values"]
    assert len(bad_values) == 3 and all(f["severity"] == "error" for f in bad_values)
    assert doc["coverage"]["numeric_unusable"] == len(bad_values)


def test_no_linkbases_is_said_not_silent(cli, tmp_path):
    folder = tmp_path / "bare"
    folder.mkdir()
    src = XBRL / "nflx-10q-2024q1"
    shutil.copy(next(src.glob("*.xsd")), folder)
    inst = [p for p in src.glob("*.xml") if not p.stem.endswith(("_cal", "_pre", "_def", "_lab"))][
        0
    ]
    shutil.copy(inst, folder)
    res = CliRunner().invoke(cli, ["check", str(folder), "--width", "80"])
    assert res.exit_code == 0
    said = " ".join(res.output.split())
    assert "NOT found: calculation, presentation, definition, label" in said
    assert "no calculation checks possible" in said
    assert "rule XBRL.calc not run: no calculation relationships" in said


def test_broken_locators_are_counted(tmp_path):
    folder = _copy_filing("aeon-10q-2023", tmp_path / "f")
    cal = next(folder.glob("*_cal.xml"))
    text = cal.read_text(encoding="utf-8")
    import re

    # one locator with no fragment (names no concept), one naming an undeclared element
    text = re.sub(r'(<(?:link:)?loc [^>]*xlink:href="[^"#]*)#[^"]*"', r'\1"', text, count=1)
    text = re.sub(r'(<(?:link:)?loc [^>]*xlink:href="aeon-20230930\.xsd)#[^"]*"', r'\1#aeon_NoSuchThing"',
                  text, count=1)  # fmt: skip
    cal.write_text(text, encoding="utf-8")
    filing = load_filing(folder)
    run = run_rules(filing)
    cov = coverage(filing, run.ran, run.skipped)
    assert cov["broken_locators"] >= 2
    assert any("names no concept" in x for x in filing.broken_locators)
    assert any("aeon_NoSuchThing" in x for x in filing.broken_locators)
    assert "broken locators" in render_report(run.findings, cov, 80)


# --- the report -----------------------------------------------------------------------------------


def test_report_is_grouped_and_fits_80_columns():
    filing = load_filing(XBRL / "aapl-10k-2010")
    run = run_rules(filing, ["all"], any_date=True)
    text = render_report(run.findings, coverage(filing, run.ran, run.skipped), 80)
    # only a name longer than the line passes the edge, alone on its line (never cut)
    over = [line for line in text.splitlines() if len(line) > 80]
    assert over and all(line == line.strip() and " " not in line for line in over)
    assert "us-gaap:ShareBasedCompensationArrangementByShareBasedPaymentAwardEquityInstruments" \
           "OtherThanOptionsForfeitedInPeriod" in over  # fmt: skip
    assert "== XBRL.calc (9)" in text and "== DQC_0015 (12)" in text
    assert text.count("[1] ") == len({f.rule_id.split(".")[0] if f.rule_id.startswith("DQC")
                                      else f.rule_id for f in run.findings})  # fmt: skip


def test_report_wraps_between_names_and_never_inside_one():
    filing = load_filing(XBRL / "aeon-10q-2023")
    run = run_rules(filing, ["XBRL.calc"])
    lines = render_report(run.findings, coverage(filing, run.ran, run.skipped), 80).splitlines()
    block = lines[next(i for i, x in enumerate(lines) if x.startswith("[1] ")) :]
    assert max(len(x) for x in block) <= 80
    # inside a finding block only the block's own first line starts at column 0; a line
    # indented less than a continuation holds one name too long to fit indented
    for line in block[1:]:
        if not line.startswith("  "):
            assert " " not in line.strip() and len(line.strip()) > 80 - 4, line
    # the long axis=member value continues at the value column, cut after the '='
    i = block.index("           us-gaap:AssetAcquisitionAxis=")
    assert block[i + 1] == "           aeon:IntangibleAssetsOfOldAeonAcquiredMember"
    # every name stays whole on one line (copied from the report, searched for in the filing)
    names = {c for f in run.findings for c in f.concepts}
    names |= {n for f in run.findings for dm in f.dimensions for n in dm}
    names.add("us-gaap:AssetAcquisitionConsiderationTransferredEquityInterestIssuedAndIssuable")
    for name in names:
        assert any(name in line for line in block), name
    assert "\u2026" not in "\n".join(block)


def test_wrap_text_keeps_names_longer_than_the_line_whole():
    from finprobe.xbrl.check_report import wrap_text

    long = "us-gaap:" + "IncomeLossFromContinuingOperations" * 3  # 110 characters
    lines = wrap_text(f"Missing: {long}. Reported: us-gaap:IncomeTaxExpenseBenefit 1.", 80,
                      "  ", "    ")  # fmt: skip
    assert lines == ["  Missing:", f"{long}.", "    Reported: us-gaap:IncomeTaxExpenseBenefit 1."]
    pair = "us-gaap:StatementEquityComponentsAxis=us-gaap:AccumulatedTranslationAdjustmentMember"
    assert wrap_text(pair, 80, "  dims     ", " " * 11) == [
        "  dims     us-gaap:StatementEquityComponentsAxis=",
        "           us-gaap:AccumulatedTranslationAdjustmentMember",
    ]


def _edit_value(filing, concept: str, pick, new_value: str):
    out = filing.copy()
    fact = next(x for x in out.facts if x.concept == concept and pick(out.contexts[x.context_id]))
    fact.value = new_value
    out.invalidate()
    return out, fact


def test_duplicates_fire_on_disagreeing_copies_only():
    filing = load_filing(XBRL / "nflx-10k-2024", labels=False)
    assert run_checks(filing, ["XBRL.duplicates"]) == []  # its duplicates agree
    out = filing.copy()
    seen = {}
    for fact in out.facts:
        if fact.number is None:
            continue
        key = (fact.concept, fact.context_id, fact.unit_id)
        if key in seen and seen[key].value == fact.value:
            fact.value = str(fact.number + 1000000)
            break
        seen[key] = fact
    out.invalidate()
    (f,) = run_checks(out, ["XBRL.duplicates"])
    assert f.severity == "error" and f.concepts == (fact.concept,)


def test_dqc_0117_fires_when_product_and_service_members_do_not_add_up():
    filing = load_filing(XBRL / "aapl-10k-2023", labels=False)
    assert run_checks(filing, ["DQC_0117"]) == []
    products = lambda ctx: [m.split(":")[-1] for _, m in ctx.explicit] == ["ProductMember"]  # noqa: E731
    fact = next(x for x in filing.facts if x.concept == "us-gaap:CostOfGoodsAndServicesSold"
                and products(filing.contexts[x.context_id]))  # fmt: skip
    edited, _ = _edit_value(filing, "us-gaap:CostOfGoodsAndServicesSold",
                            lambda ctx: ctx.id == fact.context_id, str(fact.number + 5000000))  # fmt: skip
    found = run_checks(edited, ["DQC_0117"])
    assert [f.concepts[0] for f in found] == ["us-gaap:CostOfGoodsAndServicesSold"]
    assert found[0].rule_version == "16.0.0RC1"


def test_dqc_0109_fires_on_a_concentration_without_the_benchmark_axis():
    filing = load_filing(XBRL / "aapl-10k-2023", labels=False)
    assert run_checks(filing, ["DQC_0109"]) == []
    out = filing.copy()
    fact = next(x for x in out.facts if x.concept == "us-gaap:ConcentrationRiskPercentage1")
    ctx = out.contexts[fact.context_id]
    keep = tuple(p for p in ctx.explicit if p[0].endswith("ConcentrationRiskByTypeAxis"))
    assert keep
    out.contexts["only-type"] = Context("only-type", ctx.entity_scheme, ctx.entity_id,
                                        ctx.period_type, ctx.start, ctx.end, keep)  # fmt: skip
    fact.context_id = "only-type"
    out.invalidate()
    (f,) = run_checks(out, ["DQC_0109"])
    assert f.rule_id == "DQC_0109.9567" and f.element_id == "DQC.US.0109.9567"
