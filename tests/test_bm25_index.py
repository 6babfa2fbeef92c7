"""The numpy BM25 build (finprobe.bm25_index) against bm25s's own ``index()``: every
stored score bit for bit, the vocabulary, and retrieval, on real FinDVer reports and
edge cases."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import bm25s
import numpy as np
import pytest

from finprobe.bm25_index import build_bm25
from finprobe.retrieval import (
    EMPTY_PLACEHOLDER,
    BM25Retriever,
    Passage,
    analyze,
    analyze_corpus_ids,
    passages_from_context,
)

REPORTS = Path(__file__).resolve().parents[2] / "shared/data/findver/reports"
CLAIMS = REPORTS.parent / "testmini-dev.json"


def _bm25s_model(texts: list[str]) -> bm25s.BM25:
    """What BM25Retriever built before: bm25s over analyze, a placeholder for no tokens."""
    model = bm25s.BM25(k1=1.5, b=0.75)
    model.index([analyze(t) or [EMPTY_PLACEHOLDER] for t in texts], show_progress=False)
    return model


def _columns(model: bm25s.BM25) -> dict[str, tuple[list[int], list[int]]]:
    """token -> (its documents, their float32 scores as bits), independent of token ids."""
    data, indices, indptr = (model.scores[k] for k in ("data", "indices", "indptr"))
    return {
        token: (
            indices[indptr[j] : indptr[j + 1]].tolist(),
            data[indptr[j] : indptr[j + 1]].view(np.uint32).tolist(),
        )
        for token, j in model.vocab_dict.items()
        if j < len(indptr) - 1  # "" has no column
    }


def assert_same_index(texts: list[str]) -> None:
    old = _bm25s_model(texts)
    new = build_bm25(*analyze_corpus_ids(texts), 1.5, 0.75)
    assert set(new.vocab_dict) == set(old.vocab_dict)
    assert new.vocab_dict[""] == len(new.vocab_dict) - 1
    assert new.scores["num_docs"] == old.scores["num_docs"] == len(texts)
    for key in ("data", "indices", "indptr"):
        assert new.scores[key].dtype == old.scores[key].dtype, key
    assert _columns(new) == _columns(old)
    # the ids are a dense 0..V-1 numbering in column order, as bm25s's
    assert sorted(new.vocab_dict.values()) == list(range(len(new.vocab_dict)))


def _report_texts(path: Path) -> list[str]:
    with gzip.open(path) if path.suffix == ".gz" else open(path, "rb") as handle:
        return [p.text for p in passages_from_context(json.loads(handle.read())["context"])]


@pytest.mark.skipif(not REPORTS.is_dir(), reason="FinDVer dev reports not present")
def test_every_findver_report_indexes_to_bm25s_scores_bit_for_bit() -> None:
    reports = sorted(REPORTS.iterdir())
    assert len(reports) > 100
    for path in reports:
        assert_same_index(_report_texts(path))


@pytest.mark.skipif(not CLAIMS.is_file(), reason="FinDVer dev claims not present")
def test_retrieval_scores_equal_on_findver_claims() -> None:
    """BM25Retriever (numpy build) against the same retriever on bm25s's build, on every
    claim of 20 reports: equal float scores and rankings."""
    claims = json.loads(CLAIMS.read_text())
    by_report: dict[str, list[str]] = {}
    for claim in claims:
        by_report.setdefault(claim["report"], []).append(claim["statement"])
    for report in sorted(by_report)[:20]:
        path = next(REPORTS.glob(f"{report}*"))
        passages = [Passage(str(i), t, "paragraph", i) for i, t in enumerate(_report_texts(path))]
        fast, slow = BM25Retriever(), BM25Retriever(tokenizer=lambda text: analyze(text))
        fast.index(passages)
        slow.index(passages)
        for statement in by_report[report]:
            assert np.array_equal(fast.scores(statement), slow.scores(statement))
            assert fast.ranking(statement) == slow.ranking(statement)


@pytest.mark.parametrize(
    "texts",
    [
        ["Revenue grew 12% to $6,786,000 in 2023."],  # one document
        ["the and of", "", "   "],  # no tokens anywhere: all placeholders
        ["revenue revenue revenue", "", "revenue costs"],  # a placeholder among others
        ["net income", "net income", "net income"],  # a token in every document
        ["a b", "income income income income income income expenses", "x"],  # lengths vary
        ["Überschuss 5.3 million ﬁscal", "café, naïve", "１２３ ٣٤ 4,5"],  # non-ASCII
        ["∅ revenue", ""],  # the placeholder token itself in a text
        [f"token{i} shared" for i in range(300)],  # many documents
    ],
)
def test_edge_cases_index_as_bm25s(texts: list[str]) -> None:
    assert_same_index(texts)


def test_retriever_on_passages_without_tokens_and_save_load(tmp_path, monkeypatch) -> None:
    """The fast build through BM25Retriever and the disk cache (bm25s save/load)."""
    monkeypatch.setenv("FINPROBE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FINPROBE_NO_CACHE", raising=False)
    texts = ["Total revenue was $1.2 billion", "", "of the", "Operating income fell 3%"]
    passages = [Passage(str(i), t, "paragraph", i) for i, t in enumerate(texts)]
    built, loaded, slow = (
        BM25Retriever(),
        BM25Retriever(),
        BM25Retriever(tokenizer=lambda t: analyze(t)),
    )
    built.index(passages)  # built and saved
    loaded.index(passages)  # read back from the cache
    slow.index(passages)
    assert list(tmp_path.glob("bm25/*")), "the index was not cached"
    for query in ("revenue 1.2 billion", "operating income", "nothing here"):
        assert np.array_equal(built.scores(query), slow.scores(query))
        assert np.array_equal(loaded.scores(query), slow.scores(query))
    assert built.token_sets == slow.token_sets == loaded.token_sets


def test_build_refuses_an_empty_document() -> None:
    with pytest.raises(ValueError):
        build_bm25(np.array([0], dtype=np.int64), np.array([1, 0]), ["x"], 1.5, 0.75)
