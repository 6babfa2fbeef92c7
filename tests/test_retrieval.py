"""Shared retrieval: tokenizer, BM25, fusion, recall definitions, and dev-claim recall."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from shared_data import SHARED

from finprobe.retrieval import (
    BM25Retriever,
    HybridRetriever,
    Passage,
    analyze,
    dense_available,
    in_document_order,
    number_tokens,
    recall_at_k,
    sub_queries,
    summarize_recall,
    windows,
)
from finprobe.retrievers import make_retriever

PASSAGES = [
    Passage("0", "ITEM 1. BUSINESS. We sell outdoor gear through retail stores.", "paragraph", 0),
    Passage(
        "1", "Cost of sales | 163,795 | 142,792\nTotal revenues | 188,058 | 136,092", "table", 1
    ),
    Passage(
        "2", "The Company carries cybersecurity insurance against cyberattacks.", "paragraph", 2
    ),
    Passage("3", "Our marketing efforts remain focused in North America.", "paragraph", 3),
]


def test_number_tokens_join_scaled_and_unscaled_figures() -> None:
    # "$163.8 million" in a claim and "163,795" in a table "in thousands"
    claim = set(number_tokens("163.8"))
    cell = set(number_tokens("163,795"))
    assert claim & cell == {"~16/2", "~164/3"}
    assert not set(number_tokens("183.8")) & cell  # a perturbed figure shares nothing
    assert number_tokens("2023") == ["#2023"]  # years only match exactly


def test_analyze_stems_and_drops_stopwords() -> None:
    assert analyze("The revenues increased") == analyze("revenue increases")
    assert "the" not in analyze("the revenue")


def test_bm25_ranks_the_table_for_a_scaled_number() -> None:
    retriever = BM25Retriever()
    retriever.index(PASSAGES)
    hits = retriever.retrieve("Cost of sales was $163.8 million", 2)
    assert hits[0].passage.id == "1"
    assert [h.rank for h in hits] == [1, 2]


def test_sub_queries_split_joined_facts() -> None:
    parts = sub_queries(
        "Cost of sales was $163.8 million, while the company carries no cybersecurity insurance"
    )
    assert len(parts) == 2 and "cybersecurity" in parts[1]
    assert sub_queries("Revenue was $5 million.") == []


def test_sub_queries_find_both_pieces_of_evidence() -> None:
    retriever = BM25Retriever()
    retriever.index(PASSAGES)
    top2 = {
        h.passage.id
        for h in retriever.retrieve(
            "Cost of sales rose, while the Company carries cybersecurity insurance", 2
        )
    }
    assert top2 == {"1", "2"}


def test_in_document_order() -> None:
    retriever = BM25Retriever()
    retriever.index(PASSAGES)
    hits = retriever.retrieve("marketing North America cybersecurity", 2)
    assert [p.id for p in in_document_order(hits)] == sorted(h.passage.id for h in hits)


def test_recall_definitions_differ() -> None:
    assert recall_at_k(["1", "2", "3"], ["1", "9"], 3) == (0.5, False)
    assert recall_at_k(["1", "9", "3"], ["1", "9"], 2) == (1.0, True)
    summary = summarize_recall([(["a", "b"], ["a", "c"]), (["a", "b"], ["b"])], ks=(1, 2))
    assert summary.mean_fraction == {1: 25.0, 2: 75.0}
    assert summary.all_retrieved == {1: 0.0, 2: 50.0}
    with pytest.raises(ValueError):
        recall_at_k(["a"], [], 1)


def test_windows_cover_long_text_with_overlap() -> None:
    text = " ".join(f"w{i}" for i in range(600))
    parts = windows(text, size=200, stride=150)
    assert len(parts) > 1 and all(len(p) <= 200 for p in parts)
    assert parts[0].split()[0] == "w0" and parts[-1].split()[-1] == "w599"


class _FixedScores(BM25Retriever):
    """A stand-in dense retriever with given scores (no model needed)."""

    def __init__(self, scores: list[float]) -> None:
        super().__init__()
        self._fixed = np.asarray(scores, dtype=float)

    def index(self, passages):  # noqa: ANN001
        self.passages = list(passages)

    def scores(self, query: str) -> np.ndarray:
        return self._fixed


def test_hybrid_fusion_blends_both_rankings() -> None:
    dense = _FixedScores([0.9, 0.5, 0.1, 0.8])
    hybrid = HybridRetriever(BM25Retriever(), dense, method="score", weight=0.5)
    hybrid.index(PASSAGES)
    ranking = hybrid.ranking("cost of sales 163,795")
    # BM25 alone puts the table first; the dense scores lift passage 0 above 2
    assert ranking[0] == "1"
    assert ranking.index("0") < ranking.index("2")
    rrf = HybridRetriever(BM25Retriever(), _FixedScores([0.9, 0.1, 0.2, 0.8]), method="rrf")
    rrf.index(PASSAGES)
    assert set(rrf.ranking("cost of sales")[:2]) & {"0", "1"}
    with pytest.raises(ValueError):
        HybridRetriever(BM25Retriever(), dense, method="max")


def test_make_retriever_rejects_unknown_names() -> None:
    with pytest.raises(ValueError):
        make_retriever("tfidf")


@pytest.mark.skipif(
    not dense_available(), reason="sentence-transformers / packaged MiniLM not installed"
)
def test_dense_retriever_ranks_paraphrase_first(tmp_path: Path) -> None:
    retriever = make_retriever("dense", cache=tmp_path)
    retriever.index(PASSAGES)
    assert retriever.retrieve("protection against hacking losses", 1)[0].passage.id == "2"
    # the second index of the same passages reads the embedding cache
    assert list(tmp_path.glob("*.npy"))


def _dev_pairs(limit: int, factory) -> list:
    data = SHARED / "data" / "findver"
    claims = json.loads((data / "testmini-dev.json").read_text())[:limit]
    pairs = []
    for report in sorted({c["report"] for c in claims}):
        raw = json.loads(gzip.decompress((data / "reports" / f"{report}.gz").read_bytes()))
        from finprobe.retrieval import passages_from_context

        retriever = factory()
        retriever.index(passages_from_context(raw["context"]))
        for claim in (c for c in claims if c["report"] == report):
            pairs.append((retriever.ranking(claim["statement"]), claim["relevant_context"]))
    return pairs


def test_finance_bm25_beats_plain_bm25_on_dev_claims() -> None:
    if not (SHARED / "data" / "findver").is_dir():
        pytest.skip("shared FinDVer data not present")
    plain = summarize_recall(_dev_pairs(60, BM25Retriever.plain))
    ours = summarize_recall(_dev_pairs(60, BM25Retriever))
    assert ours.all_retrieved[10] >= plain.all_retrieved[10]
    assert ours.mean_fraction[10] >= plain.mean_fraction[10]
    assert plain.mean_fraction[10] > 50  # BM25 finds most evidence in the top 10
