"""Learned BM25 + dense fusion: the logistic fit, features, model files, the retriever."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.errors import InputError
from finprobe.fusion import (
    STAGE1_FEATURES,
    STAGE2_EXTRA,
    FusionModel,
    LearnedHybridRetriever,
    LogisticModel,
    cross_validated_rankings,
    fit_fusion,
    fusion_examples,
    stage2_features,
)
from finprobe.retrieval import (
    BM25Retriever,
    Passage,
    dense_available,
    passages_from_context,
    summarize_recall,
)

PASSAGES = [
    Passage("0", "ITEM 1. BUSINESS. We sell outdoor gear through retail stores.", "paragraph", 0),
    Passage("1", "The following table shows our cost of sales by year.", "paragraph", 1),
    Passage(
        "2", "Cost of sales | 163,795 | 142,792\nTotal revenues | 188,058 | 136,092", "table", 2
    ),
    Passage(
        "3", "The Company carries cybersecurity insurance against cyberattacks.", "paragraph", 3
    ),
    Passage("4", "Our marketing efforts remain focused in North America.", "paragraph", 4),
]


class BagOfWordsDense:
    """A dense stand-in without a model: unit vectors of hashed word counts."""

    def __init__(self, width: int = 64) -> None:
        self.width = width
        self.passages: list[Passage] = []

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.width)
        for word in text.lower().split():
            vector[sum(map(ord, word.strip(".,|$"))) % self.width] += 1.0
        norm = np.linalg.norm(vector)
        return vector / norm if norm else vector

    def index(self, passages) -> None:  # noqa: ANN001
        self.passages = list(passages)
        self._vectors = np.array([self._vector(p.text) for p in self.passages])

    def scores_many(self, queries) -> np.ndarray:  # noqa: ANN001
        return self._vectors @ np.array([self._vector(q) for q in queries]).T

    def passage_vectors(self) -> np.ndarray:
        return self._vectors


def test_logistic_fit_recovers_a_known_model() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20_000, 3)) * [1.0, 2.0, 0.5] + [0.0, 1.0, 0.0]
    logits = x @ np.array([1.5, -0.5, 0.0]) - 1.0
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-logits))).astype(float)
    model = LogisticModel.fit(x, y, l2=0.0)
    # decision values are on the original scale: compare with the true logits
    assert np.corrcoef(model.decision(x), logits)[0, 1] > 0.99
    raw = model.coef / model.scale
    assert raw == pytest.approx([1.5, -0.5, 0.0], abs=0.08)
    # a strong penalty shrinks the weights towards zero
    shrunk = LogisticModel.fit(x, y, l2=1e6)
    assert np.abs(shrunk.coef).max() < 0.05 * np.abs(model.coef).max()


def test_stage2_marks_neighbours_of_the_best_passages() -> None:
    stage1 = np.zeros((6, len(STAGE1_FEATURES)))
    scores = np.array([0.1, 0.2, 5.0, 0.3, 0.0, 0.4])
    features = stage2_features(stage1, scores)
    assert features.shape == (6, len(STAGE1_FEATURES) + len(STAGE2_EXTRA))
    extra = dict(zip(STAGE2_EXTRA, features[:, len(STAGE1_FEATURES) :].T, strict=True))
    assert extra["adjacent_top1"].tolist() == [0, 1, 0, 1, 0, 0]
    assert extra["two_away_top1"].tolist() == [1, 0, 0, 0, 1, 0]
    assert extra["closeness_top1"][2] == 1.0
    assert extra["stage1_rank"][2] == 1.0  # 1 / log2(1 + 1)


def test_shipped_model_loads_and_ranks_the_table_first() -> None:
    model = FusionModel.load()
    assert "testmini-dev.json" in model.info["data"] and model.info["queries"] > 2000
    retriever = LearnedHybridRetriever(BM25Retriever(), BagOfWordsDense(), model)  # type: ignore[arg-type]
    retriever.index(PASSAGES)
    ranking = retriever.ranking("Cost of sales was $163.8 million in 2023")
    assert ranking[0] == "2"
    assert sorted(ranking) == [p.id for p in PASSAGES]
    # the paragraph that introduces the table rises next to it
    assert ranking.index("1") < ranking.index("4")
    # one-passage and empty documents still rank
    retriever.index(PASSAGES[2:3])
    assert retriever.ranking("cost of sales") == ["2"]
    retriever.index([])
    assert retriever.retrieve("cost of sales") == []


def test_model_files_round_trip_and_reject_foreign_json(tmp_path: Path) -> None:
    model = FusionModel.load()
    path = tmp_path / "fusion.json"
    model.save(path)
    again = FusionModel.load(path)
    features = np.random.default_rng(1).random((7, len(STAGE1_FEATURES)))
    assert np.allclose(again.scores(features), model.scores(features))
    payload = json.loads(path.read_text())
    payload["stage1_features"] = payload["stage1_features"][:-1]
    path.write_text(json.dumps(payload))
    with pytest.raises(InputError, match="fusion.json.*refit"):
        FusionModel.load(path)
    # a stale model does not stop feature extraction (what fitting needs), only scoring
    retriever = LearnedHybridRetriever(BM25Retriever(), BagOfWordsDense(), path)  # type: ignore[arg-type]
    retriever.index(PASSAGES)
    assert retriever.features("cost of sales").shape == (len(PASSAGES), len(STAGE1_FEATURES))
    with pytest.raises(InputError, match="refit"):
        retriever.ranking("cost of sales")
    path.write_text('{"version": 1}')
    with pytest.raises(InputError, match="not a FinProbe fusion model"):
        FusionModel.load(path)


def _dev_groups(limit: int) -> list:
    data = SHARED / "data" / "findver"
    claims = json.loads((data / "testmini-dev.json").read_text())[:limit]
    groups = []
    for report in sorted({c["report"] for c in claims}):
        raw = json.loads(gzip.decompress((data / "reports" / f"{report}.gz").read_bytes()))
        queries = [(c["statement"], c["relevant_context"]) for c in claims if c["report"] == report]
        groups.append((report, passages_from_context(raw["context"]), queries))
    return groups


def test_fusion_fitted_on_other_reports_beats_bm25_on_dev_claims() -> None:
    if not (SHARED / "data" / "findver").is_dir():
        pytest.skip("shared FinDVer data not present")
    groups = _dev_groups(150)
    examples = fusion_examples(
        groups,
        lambda: LearnedHybridRetriever(BM25Retriever(), BagOfWordsDense(), FusionModel.load()),  # type: ignore[arg-type]
    )
    golds = [[str(g) for g in gold] for _, _, queries in groups for _, gold in queries]
    column = STAGE1_FEATURES.index("bm25")
    bm25 = summarize_recall(
        [
            ([e.passage_ids[j] for j in np.argsort(-e.features[:, column], kind="stable")], g)
            for e, g in zip(examples, golds, strict=True)
        ]
    )
    fused = summarize_recall(list(zip(cross_validated_rankings(examples, 3), golds, strict=True)))
    # held-out documents only: the gain comes from clauses, numbers and neighbours
    assert fused.all_retrieved[10] > bm25.all_retrieved[10]
    assert fused.mean_fraction[10] > bm25.mean_fraction[10]
    with pytest.raises(ValueError, match="two documents"):
        fit_fusion(examples[:1])


@pytest.mark.skipif(
    not dense_available(), reason="sentence-transformers / packaged MiniLM not installed"
)
def test_fit_fusion_command_writes_a_model_the_task_can_use(tmp_path: Path) -> None:
    from finprobe.benchmarks.findver.build import build_dataset
    from finprobe.benchmarks.findver.task import findver
    from finprobe.cli import app

    claims = tmp_path / "claims.json"
    build_dataset([], claims, synthetic=4, seed=2, per_table=1, max_tables=3)
    more = tmp_path / "more" / "more-claims.json"
    build_dataset([], more, synthetic=2, seed=3, per_table=1, max_tables=3)
    out = tmp_path / "fusion.json"
    cache = tmp_path / "emb"
    runner = CliRunner()
    args = ["findver", "fit-fusion", str(claims), "--out", str(out), "--folds", "2"]
    result = runner.invoke(app, [*args, str(more), "--embedding-cache", str(cache)])
    assert result.exit_code == 0, result.output
    assert "more-claims.json: bm25" in result.output and "wrote" in result.output
    model = FusionModel.load(out)
    assert model.info["data"] == ["claims.json", "more-claims.json"]
    assert model.info["documents"] >= 4
    assert model.info["recall"]["claims.json: hybrid (held-out)"]["n"] > 0
    result = runner.invoke(
        app,
        ["findver", "recall", str(claims), "--retriever", "hybrid", "--fusion", str(out)]
        + ["--embedding-cache", str(cache)],
    )
    assert result.exit_code == 0, result.output
    task = findver(
        data=str(claims), retriever="hybrid", fusion=str(out), embedding_cache=str(cache)
    )
    infos = [s.metadata["evidence_info"] for s in task.dataset]
    assert infos and all(i["retriever"] == "hybrid" and i["retrieved_ids"] for i in infos)
    # too few reports for the folds: one line, exit 2
    result = runner.invoke(app, [*args[:-1], "9"])
    assert result.exit_code == 2 and "fewer than 9 folds" in result.output
