"""FinAuditing instances from genuine errors only: complete calculations, realistic
misstatements, a separate re-check against the filing, and the data card."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from shared_data import SHARED

from finprobe.benchmarks.finauditing.build import (
    build_dataset,
    instances_from_messages,
    message_from_finding,
)
from finprobe.benchmarks.finauditing.datacard import finmr_shortcuts
from finprobe.benchmarks.finauditing.recheck import read_raw, recheck_finmr, rule_verdicts
from finprobe.xbrl import inject
from finprobe.xbrl.checks import run_checks
from finprobe.xbrl.filing import load_filing

XBRL = SHARED / "data" / "xbrl"
pytestmark = pytest.mark.skipif(not XBRL.is_dir(), reason="needs ../shared/data/xbrl")


@pytest.fixture(scope="module")
def apple():
    return load_filing(XBRL / "aapl-10k-2023")


def test_every_misstatement_kind_is_a_genuine_calculation_error(apple):
    candidates = inject.consistent_totals(apple, complete=True)
    assert candidates
    rng = random.Random(0)
    for kind in inject.MISSTATEMENT_KINDS:
        got = None
        for role, parent, ctx in candidates:
            got = inject.misstate_total(apple, role, parent, ctx, kind, rng)
            if got is not None:
                break
        assert got is not None, kind
        changed, truth = got
        new, true = Decimal(truth.injected), Decimal(truth.original)
        assert new != true and truth.details["kind"] == kind
        if kind == "scale_slip":
            assert new in (true * 1000, true / 1000)
        # the misstated total is an "error" finding (every child reported), not incomplete,
        # under XBRL 2.1 and under Calculations 1.1 (whose rounding tolerance hides a
        # slip of one unit of the reported precision)
        for mode in ("xbrl21", "calc11"):
            found = [f for f in run_checks(changed, ["XBRL.calc"], calc_mode=mode)
                     if f.concepts[0] == parent and f.contexts == (ctx,)]  # fmt: skip
            assert [f.severity for f in found] == ["error"], (kind, mode)
        if kind == "rounding_slip":
            digits = truth.details["significant_digits"]
            assert new == inject.round_significant(true, digits) and digits in (2, 3)


def test_recheck_applies_both_summation_rules(tmp_path):
    build_dataset([XBRL / "aapl-10k-2023"], tmp_path, finmr=6, finre_per_label=0, finsm=0)
    card = json.loads((tmp_path / "datacard.json").read_text())
    n = card["counts"]["finmr"]
    assert n >= 6 and card["recheck"]["finmr"]["passed"] == n
    assert card["recheck"]["finmr"]["inconsistent_under"] == {"xbrl21": n, "calc11": n}
    rows = [json.loads(line) for line in (tmp_path / "finmr.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["method"] == "inject")
    raw = read_raw(XBRL / row["filing"])
    answer = json.loads(row["answer"])
    true = Decimal(answer["calculated_value"])
    # the old rounding slip: one unit of the reported precision. XBRL 2.1 calls it
    # inconsistent, Calculations 1.1 does not; the re-check must reject it
    dec = next(
        int(f["decimals"])
        for f in row["context"]["facts"]
        if f["concept"] == row["concept"] and f["context"] == row["truth"]["contexts"][0]
    )
    slip = true + Decimal(1).scaleb(-dec)
    old = dict(row, answer=json.dumps({**answer, "extracted_value": str(slip)}),
               truth={**row["truth"], "details": {"kind": "rounding_slip"}})  # fmt: skip
    why = recheck_finmr(old, raw)
    assert why is not None and "Calculations 1.1" in why and "XBRL 2.1" not in why
    verdicts = rule_verdicts(slip, dec, [(true, dec, Decimal(1))])
    assert verdicts == {"xbrl21": False, "calc11": True}


def test_complete_totals_have_every_child_reported(apple):
    numeric = {(f.concept, f.context_id) for f in apple.facts if f.number is not None}
    for role, parent, ctx in inject.consistent_totals(apple, complete=True):
        for arc in apple.calc.children(parent, role):
            assert (arc.target, ctx) in numeric


def test_finmr_from_findings_only_for_errors():
    aeon = load_filing(XBRL / "aeon-10q-2023")
    msgs = [message_from_finding(f.to_dict()) for f in run_checks(aeon)]
    got = instances_from_messages(aeon, "aeon", msgs)["finmr"]
    # the one genuine error (every child reported) gives one instance, with the true sum
    assert len(got) == 1
    answer = json.loads(got[0]["answer"])
    assert Decimal(answer["extracted_value"]) - Decimal(answer["calculated_value"]) == 125000
    nflx = load_filing(XBRL / "nflx-10q-2024q3")
    msgs = [message_from_finding(f.to_dict()) for f in run_checks(nflx)]
    assert msgs and all(m.severity == "incomplete" for m in msgs)
    assert instances_from_messages(nflx, "nflx", msgs)["finmr"] == []


def test_build_rechecks_every_instance_and_negatives_fail(tmp_path):
    names = ("aapl-10k-2023", "aeon-10q-2023", "nflx-10k-2024")
    manifest = build_dataset([XBRL / n for n in names], tmp_path, finmr=6)
    assert all(v["passed"] == v["checked"] > 0 for v in manifest["recheck"].values())
    card = json.loads((tmp_path / "datacard.json").read_text())
    assert set(card["finmr_error_kinds"]) >= {"transposed_digits", "sign_flip", "genuine"}
    assert (tmp_path / "datacard.md").read_text().startswith("# FinAuditing build")
    rows = [json.loads(line) for line in (tmp_path / "finmr.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["method"] == "inject")
    raw = read_raw(XBRL / row["filing"])
    assert recheck_finmr(row, raw) is None
    # the same instance with its evidence swapped out: a wrong "should be" value ...
    wrong = dict(row, answer=json.dumps({**json.loads(row["answer"]), "calculated_value": "1"}))
    assert recheck_finmr(wrong, raw) is not None
    # ... or checked against another filing
    other = read_raw(XBRL / next(n for n in names if n != row["filing"]))
    assert recheck_finmr(row, other) is not None


def test_ratio_shortcut_stays_low_on_a_build(tmp_path):
    build_dataset([XBRL / n for n in ("aapl-10k-2022", "nflx-10k-2024", "nflx-10q-2024q1")],
                  tmp_path, finmr=6, finre_per_label=0, finsm=0)  # fmt: skip
    rows = [json.loads(line) for line in (tmp_path / "finmr.jsonl").read_text().splitlines()]
    probe = finmr_shortcuts(rows)
    assert probe["instances"] >= 12
    # the old builder's x1.1 ratio recovered nearly every answer
    assert probe["shares"]["identity"] == 0 and probe["max_share"] <= 0.25
