"""FinSM instances an analyst would call wrong, asked without giving the answer away."""

from __future__ import annotations

import pytest
from shared_data import SHARED

from finprobe.benchmarks.finauditing.build import (
    NCI_INCLUSIVE,
    NEAR_CONCEPTS,
    has_noncontrolling_interest,
    near_concepts,
)
from finprobe.xbrl.filing import load_filing

XBRL = SHARED / "data" / "xbrl"
pytestmark = pytest.mark.skipif(not XBRL.is_dir(), reason="needs ../shared/data/xbrl")


@pytest.fixture(scope="module")
def netflix():
    return load_filing(XBRL / "nflx-10k-2010", labels=False)


def test_no_swap_that_is_defensible_for_some_filers(netflix):
    # Netflix's cost of revenues is partly services: CostOfServices is no clear mis-tag
    assert near_concepts("us-gaap:CostOfRevenue", netflix, None) == []
    for concept, ambiguous in [("ResearchAndDevelopmentExpense",
                                "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"),
                               ("IncreaseDecreaseInAccountsPayable",
                                "IncreaseDecreaseInAccountsPayableTrade"),
                               ("EarningsPerShareBasic",
                                "IncomeLossFromContinuingOperationsPerBasicShare")]:  # fmt: skip
        assert ambiguous not in NEAR_CONCEPTS.get(concept, ())


def test_including_nci_swaps_only_for_filers_with_nci(netflix):
    assert not has_noncontrolling_interest(netflix)
    assert "us-gaap:ProfitLoss" not in near_concepts("us-gaap:NetIncomeLoss", netflix, None)
    assert near_concepts("us-gaap:StockholdersEquity", netflix, None) == []
    # the same filing with a noncontrolling interest: profit including NCI is now wrong
    with_nci = netflix.copy()
    fact = next(
        f
        for f in with_nci.facts
        if f.concept == "us-gaap:CashAndCashEquivalentsAtCarryingValue" and f.number
    )
    fact.concept = "us-gaap:MinorityInterest"
    with_nci.invalidate()
    assert has_noncontrolling_interest(with_nci)
    assert "us-gaap:ProfitLoss" in near_concepts("us-gaap:NetIncomeLoss", with_nci, None)
    assert {c for opts in NEAR_CONCEPTS.values() for c in opts} >= NCI_INCLUSIVE


@pytest.fixture(scope="module")
def finsm_build(tmp_path_factory):
    import json

    from finprobe.benchmarks.finauditing.build import build_dataset

    out = tmp_path_factory.mktemp("finsm")
    build_dataset([XBRL / n for n in ("aapl-10k-2023", "nflx-10k-2010", "nflx-10q-2024q1")],
                  out, finmr=0, finre_per_label=0, finsm=3, run_checks_as_messages=False)  # fmt: skip
    rows = [json.loads(line) for line in (out / "finsm.jsonl").read_text().splitlines()]
    return rows, json.loads((out / "datacard.json").read_text()), out


def test_query_does_not_name_the_mis_tagged_facts_label(finsm_build):
    rows, _, _ = finsm_build
    assert len(rows) >= 6
    for row in rows:
        gold = set(row["answer"])
        labels = {f["label"].lower() for f in row["context"]["facts"] if f["concept"] in gold}
        assert labels
        query_line = next(x for x in row["query"].splitlines() if x.startswith("Query:"))
        # neither the term nor the query line holds a mis-tagged fact's label
        assert not any(lab in query_line.lower() for lab in labels), (query_line, labels)
        assert row["term"].lower() not in labels


def test_card_measures_the_label_match_shortcut(finsm_build):
    from finprobe.benchmarks.finauditing.datacard import finsm_shortcuts

    rows, card, out = finsm_build
    probe = card["shortcuts"]["finsm"]
    assert probe["instances"] == len(rows)
    assert probe["shares"]["label equals term: exact answer set"] == 0
    assert probe["shares"]["label equals term: hits an answer"] == 0
    assert "FinSM" in (out / "datacard.md").read_text()
    # the probe does catch the old query, whose term was the mis-tagged facts' label
    leaky = []
    for row in rows:
        gold = set(row["answer"])
        term = "; ".join(dict.fromkeys(f["label"] for f in row["context"]["facts"]
                                       if f["concept"] in gold))  # fmt: skip
        leaky.append(dict(row, term=term))
    shares = finsm_shortcuts(leaky)["shares"]
    assert shares["label equals term: hits an answer"] == 1.0
    assert shares["best label overlap with term, top 1"] == 1.0
