"""Instance building: synthetic reports exported as XBRL (round trip), injected
errors with ground truth, DQC messages, and the non-LLM baselines on the results."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from shared_data import SHARED

from finprobe.benchmarks.finauditing.baselines import (
    classify_relation,
    finmr_solver,
    rank_concepts,
)
from finprobe.benchmarks.finauditing.build import (
    build_dataset,
    children_sum,
    instances_from_filing,
    instances_from_messages,
    parse_dqc_message,
)
from finprobe.benchmarks.finauditing.dataset import HIDDEN_FROM_BASELINES, load_samples
from finprobe.synth import make_report
from finprobe.xbrl.checks import run_checks
from finprobe.xbrl.filing import load_filing
from finprobe.xbrl.segment import segment_filing
from finprobe.xbrl.synth_export import export_report

XBRL = SHARED / "data" / "xbrl"


@pytest.fixture(scope="module")
def synth_filing(tmp_path_factory):
    report = make_report(seed=3)
    folder = export_report(report, tmp_path_factory.mktemp("synth") / "filing")
    return report, folder, load_filing(folder)


def test_synth_export_round_trip(synth_filing):
    report, folder, filing = synth_filing
    assert filing.warnings == []
    assert {p.suffix for p in folder.iterdir()} == {".xml", ".xsd"}
    # every exported fact reads back with its value, decimals and dimensions
    by_key = {}
    for fact in filing.facts:
        ctx = filing.contexts[fact.context_id]
        by_key[(fact.concept, ctx.start, ctx.end, dict(ctx.explicit).get(
            "us-gaap:StatementBusinessSegmentsAxis"))] = fact  # fmt: skip
    for sf in report.facts:
        fact = by_key[(sf.concept, sf.period_start, sf.period_end, sf.member)]
        assert fact.number == sf.value
        assert fact.decimals == sf.decimals
    # calculation relations come back per statement role with their weights
    arcs = {(a.source, a.target, a.weight) for a in filing.calc.arcs}
    for rel in report.calculations:
        for child, weight in zip(rel.children, rel.weights, strict=True):
            assert (rel.parent, child, float(weight)) in arcs
    kinds = {s.kind for s in segment_filing(filing)}
    assert {"income_statement", "balance_sheet", "cash_flow", "details"} <= kinds
    assert filing.label("us-gaap:Revenues") == "Revenue"
    assert filing.period_end() == max(f.period_end for f in report.facts)
    # consistent by construction: no calculation finding
    assert [f for f in run_checks(filing) if f.rule_id == "XBRL.calc"] == []


def _visible(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in HIDDEN_FROM_BASELINES}


def test_injected_instances_have_ground_truth_and_baselines_recover_it(synth_filing):
    _, _, filing = synth_filing
    rows = instances_from_filing(filing, "synth", seed=1, finmr=3, finre_per_label=2, finsm=2)
    assert len(rows["finmr"]) == 3 and len(rows["finsm"]) == 2
    labels = sorted(r["answer"] for r in rows["finre"])
    assert labels == ["Inappropriateness", "Inappropriateness", "Reversal", "Reversal"]
    for row in rows["finmr"]:
        answer = json.loads(row["answer"])
        truth = row["truth"]
        # the extracted value is the changed one; the calculated one the children's sum
        assert answer["extracted_value"] == truth["injected"]
        assert Decimal(answer["calculated_value"]) != Decimal(answer["extracted_value"])
        assert json.loads(finmr_solver(_visible(row))) == answer
        assert truth["injected"] in row["query"]
    for row in rows["finre"]:
        assert classify_relation(_visible(row)) == row["answer"]
        assert all(e in row["query"] for e in row["elements"])
    hits = 0
    for row in rows["finsm"]:
        gold = set(row["answer"])
        assert gold <= {f["concept"] for f in row["context"]["facts"]}
        hits += bool(gold & set(rank_concepts(_visible(row))[:5]))
    # the query names only the area, not the mis-tagged facts' label: the retriever
    # must find them from label/name mismatches, which some mis-tags do not show
    # (OtherAssets for "Other assets"), so not every instance is a hit
    assert hits >= 1


def test_baselines_fail_when_the_answer_is_not_in_the_structure(synth_filing):
    _, _, filing = synth_filing
    row = instances_from_filing(filing, "synth", seed=2, finmr=1, finre_per_label=1, finsm=0)
    mr = _visible(row["finmr"][0])
    mr["context"] = {**mr["context"], "calc": []}  # no calculation: nothing to recompute
    answer = json.loads(finmr_solver(mr))
    assert answer["calculated_value"] == answer["extracted_value"]
    reversal = next(r for r in row["finre"] if r["answer"] == "Reversal")
    flipped = dict(_visible(reversal), elements=list(reversed(reversal["elements"])))
    flipped["context"] = {**flipped["context"], "calc": []}
    assert classify_relation(flipped) == "Inappropriateness"


def test_children_sum_matches_the_exported_relation(synth_filing):
    report, _, filing = synth_filing
    role = next(r for r in filing.calc.roles() if "Operations" in r)
    ctx = next(c for c, v in filing.contexts.items() if v.period_type == "duration" and not v.has_dims
               and v.end == max(f.period_end for f in report.facts))  # fmt: skip
    gp = next(
        f.number for f in filing.facts if f.concept == "us-gaap:GrossProfit" and f.context_id == ctx
    )
    assert children_sum(filing, role, "us-gaap:GrossProfit", ctx) == gp


PORTAL_0126 = (
    "The statement 000007 - Statement - Consolidated Statements of Cash Flows (Unaudited) includes "
    "an inconsistent calculation. The value of the concept us-gaap:NetCashProvidedByUsedInOperatingActivities "
    "of 16,373,000 should be equal to the sum of its child components defined in the calculation "
    "linkbase. The sum of these child components is 117,309,000. The values reported in the financial "
    "statement in the current reporting period of 2021-01-01 to 2021-06-30 should be complete."
)
PORTAL_0081 = (
    "The line item concept us-gaap:CostOfRevenue with a value of 2,765,746 is represented as a child of "
    "us-gaap:OperatingExpenses with a value of 35,240,113 in the companies extension taxonomy role "
    "00200 - Statement - CONSOLIDATED STATEMENTS OF OPERATIONS. Rule Element ID: 9277"
)
PORTAL_0001 = (
    "The member, Land [Member] is used on the axis Position [Axis] with the element Property Plant and "
    "Equipment Gross with a value of 150,000,000.  This member should not be used with the Position [Axis].\n"
    "Period: 2015-01-01 to 2015-09-30\nDimensions: PositionAxis = LandMember\nUnit: USD"
)


def test_parse_portal_messages():
    m = parse_dqc_message(PORTAL_0126, "DQC.US.0126.7481")
    assert (m.rule, m.concepts, m.values, m.period) == (
        "DQC_0126", ["us-gaap:NetCashProvidedByUsedInOperatingActivities"],
        ["16373000", "117309000"], "2021-01-01 to 2021-06-30")  # fmt: skip
    m = parse_dqc_message(PORTAL_0081, "DQC_0081")
    assert m.concepts == ["us-gaap:OperatingExpenses", "us-gaap:CostOfRevenue"]
    m = parse_dqc_message(PORTAL_0001, "DQC_0001")
    assert (m.concepts, m.period) == (["PositionAxis", "LandMember"], "2015-01-01 to 2015-09-30")


def test_instances_from_a_portal_message_on_the_synth_filing(synth_filing):
    _, _, filing = synth_filing
    changed = filing.copy()
    fact = next(f for f in changed.facts if f.concept == "us-gaap:GrossProfit")
    ctx = changed.contexts[fact.context_id]
    fact.value = str(fact.number + 1000)
    changed.invalidate()
    text = (f"The value of the concept us-gaap:GrossProfit of {fact.number:,} should be equal to "
            f"the sum of its child components. The sum of these child components is 1. "
            f"current reporting period of {ctx.period_text()} should be complete.")  # fmt: skip
    rows = instances_from_messages(changed, "s", [parse_dqc_message(text, "DQC_0126")])
    assert len(rows["finmr"]) == 1
    answer = json.loads(rows["finmr"][0]["answer"])
    assert Decimal(answer["extracted_value"]) == fact.number
    assert Decimal(answer["calculated_value"]) == fact.number - 1000


@pytest.mark.skipif(not XBRL.is_dir(), reason="shared data not present")
def test_build_from_a_real_filing(tmp_path):
    manifest = build_dataset([XBRL / "nflx-10q-2010"], tmp_path, seed=0, finmr=2,
                             finre_per_label=1, finsm=1)  # fmt: skip
    assert manifest["counts"]["finmr"] == 2 and manifest["counts"]["finsm"] == 1
    assert manifest["labels"]["finre"] == {"Reversal": 1, "Inappropriateness": 1}
    samples = load_samples(tmp_path, "finre")
    assert {s.metadata["method"] for s in samples} == {"inject"}
    assert all("Element 1:" in s.input and "## Calculation" in s.input for s in samples)
