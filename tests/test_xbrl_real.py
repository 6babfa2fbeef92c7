"""The loader on the ten shared SEC filings, the inject helpers, the CLI commands,
and an optional cross-check against Arelle."""

from __future__ import annotations

import json

import pytest
import typer
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.benchmarks.finauditing.commands import register
from finprobe.xbrl import inject
from finprobe.xbrl.checks import run_checks
from finprobe.xbrl.filing import load_filing

XBRL = SHARED / "data" / "xbrl"
pytestmark = pytest.mark.skipif(not XBRL.is_dir(), reason="shared XBRL data not present")

# facts, contexts, units, calc, pres, def arcs (after prohibition): measured, and the
# contexts/units agree with Arelle's counts (test_arelle_cross_check)
EXPECTED = {
    "aapl-10k-2010": (1377, 266, 4, 147, 921, 860),
    "aapl-10k-2022": (1174, 226, 9, 209, 692, 417),
    "aapl-10k-2023": (1164, 205, 9, 215, 768, 386),
    "aapl-10q-2023": (835, 174, 7, 120, 531, 287),
    "aeon-10q-2023": (1132, 374, 10, 71, 926, 759),
    "nflx-10k-2010": (383, 43, 3, 83, 265, 211),
    "nflx-10k-2024": (1086, 230, 10, 136, 745, 309),
    "nflx-10q-2010": (303, 11, 3, 70, 183, 168),
    "nflx-10q-2024q1": (747, 242, 7, 91, 643, 341),
    "nflx-10q-2024q3": (1162, 332, 7, 103, 678, 348),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts(name):
    f = load_filing(XBRL / name)
    c = f.counts()
    got = (c["facts"], c["contexts"], c["units"], c["calc_arcs"], c["pres_arcs"], c["def_arcs"])
    assert got == EXPECTED[name]
    # every fact points at a context and (if numeric) a unit that exist
    assert all(x.context_id in f.contexts for x in f.facts)
    assert all(x.unit_id in f.units for x in f.facts if x.unit_id)


def test_apple_2010_files_named_differently_from_references():
    f = load_filing(XBRL / "aapl-10k-2010")
    assert f.schema_ref == "aapl-20100925.xsd" and f.files.schema.name == "aapl-20101027.xsd"
    assert f.calc.children("us-gaap:Assets")  # found by suffix all the same


def test_apple_2023_values_and_ratio_unit():
    f = load_filing(XBRL / "aapl-10k-2023")
    eps = [x for x in f.facts if x.concept == "us-gaap:EarningsPerShareBasic"]
    assert {f.units[x.unit_id].text() for x in eps} == {"USD/shares"}
    assert "6.16" in {x.value for x in eps}  # FY2023 basic EPS
    assert f.label("us-gaap:Assets") == "Assets"
    assert f.label("us-gaap:Assets", "http://www.xbrl.org/2003/role/totalLabel") == "Total assets"
    assert f.period_end() == "2023-09-30"


def test_inject_helpers_change_only_what_they_say():
    f = load_filing(XBRL / "nflx-10k-2024", labels=False)
    n_arcs = len(f.calc)
    swapped, truth = inject.swap_parent_child(f, seed=3)
    head, tail = truth.concepts
    assert len(swapped.calc) == n_arcs
    assert any(a.source == tail and a.target == head for a in swapped.calc.arcs)
    assert not any(a.source == tail and a.target == head for a in f.calc.arcs)
    retag, t2 = inject.replace_concept(f, "us-gaap:CashAndCashEquivalentsAtCarryingValue",
                                       "us-gaap:Cash")  # fmt: skip
    assert "us-gaap:CashAndCashEquivalentsAtCarryingValue" not in retag.facts_by_concept()
    assert len(retag.facts_by_concept()["us-gaap:Cash"]) == len(
        f.facts_by_concept()["us-gaap:CashAndCashEquivalentsAtCarryingValue"])  # fmt: skip
    assert t2.expected == "us-gaap:CashAndCashEquivalentsAtCarryingValue"
    total, t3 = inject.change_total(f, seed=5)
    assert [x for x in run_checks(total, ["XBRL.calc"]) if x.concepts[0] == t3.concepts[0]
            and x.contexts == t3.contexts]  # fmt: skip


@pytest.fixture
def cli():
    app = typer.Typer()
    register(typer.Typer(), app)
    app.command("noop", hidden=True)(lambda: None)  # keeps `check` a sub-command
    return app


def test_cli_check_exit_codes_and_json(cli, tmp_path):
    runner = CliRunner()
    clean = runner.invoke(cli, ["check", str(XBRL / "nflx-10q-2010")])
    assert clean.exit_code == 0 and "0 finding(s)" in clean.output
    # only "incomplete" calculation findings (children not reported): no error, exit 0
    partial = runner.invoke(cli, ["check", str(XBRL / "nflx-10q-2024q3"), "--json", "-"])
    assert partial.exit_code == 0
    doc = json.loads(partial.output)
    assert {r["severity"] for r in doc["findings"]} == {"incomplete"}
    assert all(r["details"]["missing_children"] for r in doc["findings"])
    assert doc["coverage"]["linkbases"]["calculation"] and doc["coverage"]["rules_run"]
    errors_only = runner.invoke(cli, ["check", str(XBRL / "nflx-10q-2024q3"),
                                      "--min-severity", "error"])  # fmt: skip
    assert "0 finding(s)" in errors_only.output and "6 below --min-severity" in errors_only.output
    out = tmp_path / "f.json"
    res = runner.invoke(cli, ["check", str(XBRL / "aeon-10q-2023"), "--json", str(out)])
    assert res.exit_code == 1
    rows = json.loads(out.read_text())["findings"]
    assert [(r["rule_id"], r["severity"]) for r in rows] == [("XBRL.calc", "error")]
    assert runner.invoke(cli, ["check", str(tmp_path / "missing")]).exit_code == 2
    assert runner.invoke(cli, ["check", str(XBRL / "aapl-10k-2023"), "--rules", "X"]).exit_code == 2
    bad = runner.invoke(cli, ["check", str(XBRL / "aapl-10k-2023"), "--min-severity", "low"])
    assert bad.exit_code == 2


def test_cli_taxonomy_build_and_search(cli, tmp_path):
    from test_xbrl_taxonomy import make_workbook

    runner = CliRunner()
    wb = make_workbook(tmp_path / "t.xlsx")
    res = runner.invoke(cli, ["taxonomy", "build", str(wb), "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert "core chunks: 6" in res.output and "0 dangling" in res.output
    res = runner.invoke(cli, ["taxonomy", "search", str(tmp_path / "c"), "current assets"])
    assert res.exit_code == 0 and "us-gaap:AssetsCurrent" in res.output.splitlines()[0]
    res = runner.invoke(
        cli, ["taxonomy", "build", str(tmp_path / "no.xlsx"), "--out", str(tmp_path)]
    )
    assert res.exit_code == 2


def test_arelle_cross_check():
    """Arelle offline (no US-GAAP taxonomy) still reads contexts and units fully."""
    pytest.importorskip("arelle")
    import logging

    from arelle import Cntlr

    logging.getLogger("arelle").setLevel(logging.CRITICAL)
    cntlr = Cntlr.Cntlr(logFileName="logToBuffer")
    cntlr.webCache.workOffline = True
    for name in ("nflx-10q-2010", "aapl-10q-2023"):
        f = load_filing(XBRL / name, labels=False)
        model = cntlr.modelManager.load(str(f.files.instance))
        try:
            assert len(model.contexts) == len(f.contexts)
            assert len(model.units) == len(f.units)
            # facts Arelle could resolve (extension concepts at least) are a subset of ours
            ours = {(x.concept.split(":")[-1], x.context_id) for x in f.facts}
            theirs = {(m.qname.localName, m.contextID) for m in model.facts}
            assert theirs <= ours
        finally:
            cntlr.modelManager.close(model)
