"""FinSM instances an analyst would call wrong, asked without giving the answer away."""

from __future__ import annotations

from pathlib import Path

import pytest

from finprobe.benchmarks.finauditing.build import (
    NCI_INCLUSIVE,
    NEAR_CONCEPTS,
    has_noncontrolling_interest,
    near_concepts,
)
from finprobe.xbrl.filing import load_filing

XBRL = Path(__file__).resolve().parents[2] / "shared" / "data" / "xbrl"
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
    fact = next(f for f in with_nci.facts if f.concept == "us-gaap:CashAndCashEquivalentsAtCarryingValue" and f.number)
    fact.concept = "us-gaap:MinorityInterest"
    with_nci.invalidate()
    assert has_noncontrolling_interest(with_nci)
    assert "us-gaap:ProfitLoss" in near_concepts("us-gaap:NetIncomeLoss", with_nci, None)
    assert {c for opts in NEAR_CONCEPTS.values() for c in opts} >= NCI_INCLUSIVE
