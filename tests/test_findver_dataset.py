"""FinDVer loading and the evidence of each setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_data import SHARED

from finprobe.benchmarks.findver.dataset import (
    EvidenceBuilder,
    FinDVerClaim,
    fit_to_context,
    load_claims,
    report_passages,
    report_path,
)
from finprobe.errors import InputError
from finprobe.retrieval import Passage

DEV = SHARED / "data" / "findver" / "testmini-dev.json"


@pytest.fixture(scope="module")
def dev_claims() -> list[FinDVerClaim]:
    if not DEV.is_file():
        pytest.skip("shared FinDVer data not present")
    return load_claims(DEV)


def test_dev_claims_load_with_paper_subsets(dev_claims: list[FinDVerClaim]) -> None:
    assert len(dev_claims) == 374
    counts = {s: sum(c.subset == s for c in dev_claims) for s in ("ie", "math", "know")}
    assert counts == {"ie": 148, "math": 104, "know": 122}
    assert all(c.label is not None and c.relevant_context for c in dev_claims)
    first = dev_claims[0]
    assert (
        first.example_id == "ie-val-1"
        and first.label is False
        and first.relevant_context == ("389", "390", "391")
    )


def test_unlabelled_test_claims_load(tmp_path: Path) -> None:
    path = tmp_path / "test.json"
    path.write_text(
        json.dumps(
            [{"example_id": "ie-test-1", "subset": "ie", "statement": "x", "report": "A.json"}]
        )
    )
    [claim] = load_claims(path)
    assert claim.label is None and claim.relevant_context == ()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("", "empty"),
        ("{not json", "not JSON"),
        (json.dumps([{"example_id": "a", "statement": "s"}]), "lacks report"),
        (
            json.dumps([{"example_id": "a", "statement": "s", "report": "r", "subset": "poetry"}]),
            "unknown FinDVer subset",
        ),
        (
            json.dumps(
                [
                    {
                        "example_id": "a",
                        "statement": "s",
                        "report": "r",
                        "subset": "ie",
                        "entailment_label": "maybe",
                    }
                ]
            ),
            "not entailed/refuted",
        ),
    ],
)
def test_bad_claim_files_raise_input_error(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "claims.json"
    path.write_text(content)
    with pytest.raises(InputError, match=problem):
        load_claims(path)


def test_missing_report_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="report file not found"):
        report_path(tmp_path, "NOPE.json")


def _passages(n: int, size: int = 350) -> list[Passage]:
    return [Passage(str(i), f"revenue item {i} " + "x" * size, "paragraph", i) for i in range(n)]


def test_head_truncation_keeps_the_start_and_records_the_cut() -> None:
    passages = _passages(10)
    kept, cut = fit_to_context(passages, 400, "head")
    assert cut.truncated and cut.total == 10 and 0 < cut.kept < 10
    assert [p.id for p in kept] == [str(i) for i in range(cut.kept)]
    assert cut.dropped_ids[0] == str(cut.kept) and cut.tokens_after <= 400 < cut.tokens_before
    full, none = fit_to_context(passages, None)
    assert len(full) == 10 and not none.truncated


def test_relevance_truncation_keeps_the_passage_about_the_claim() -> None:
    passages = _passages(10)
    passages[7] = Passage("7", "goodwill impairment of $478 million " + "y" * 350, "paragraph", 7)
    kept, cut = fit_to_context(passages, 250, "relevance", query="goodwill impairment $478 million")
    assert "7" in {p.id for p in kept} and cut.truncated
    assert [p.order for p in kept] == sorted(p.order for p in kept)


def test_settings_choose_their_evidence(dev_claims: list[FinDVerClaim]) -> None:
    claim = dev_claims[0]
    path = report_path(DEV.parent / "reports", claim.report)
    passages = report_passages(path)
    assert [p.id for p in passages][:3] == ["0", "1", "2"]  # one passage per context id
    oracle = EvidenceBuilder("oracle").build(claim, passages, str(path))
    assert [p.id for p in oracle.passages] == ["389", "390", "391"]
    rag = EvidenceBuilder("rag", top_k=5).build(claim, passages, str(path))
    orders = [p.order for p in rag.passages]
    assert len(orders) == 5 and orders == sorted(orders)
    assert set(rag.info["retrieved_ids"]) == {p.id for p in rag.passages}
    long = EvidenceBuilder("long-context", max_context_tokens=2_000).build(
        claim, passages, str(path)
    )
    assert long.info["truncated"] and long.info["evidence_dropped"] == 3  # evidence sits at the end
    whole = EvidenceBuilder("long-context").build(claim, passages, str(path))
    assert not whole.info["truncated"] and len(whole.passages) == len(passages)
