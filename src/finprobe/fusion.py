"""Learned fusion of BM25 and dense retrieval: the default ``hybrid`` retriever.

Why learned: on the FinDVer dev claims a fixed weighted sum of BM25 and MiniLM
scores only ties BM25 (MiniLM alone finds half as much evidence). What separates
evidence from the rest is spread over many weak signals: the claim's clauses
each match a different passage, its numbers and years appear in a table, and
evidence passages sit next to each other (38% of gold passages are adjacent to
another gold passage). A logistic model reads these signals in two stages:

1. per-passage features of the claim and its clauses under BM25 and the dense
   model (scores, ranks, number/year/word overlap, neighbours, similarity to
   BM25's best passages);
2. the stage-1 score again, plus where the passage sits relative to stage 1's
   best passages (adjacent, two away), so neighbours of strong evidence rise.

Stage 2 is trained on out-of-fold stage-1 scores, folds grouped by document, so
it learns how stage 1 behaves on documents it has not seen. The logistic models
are fit by Newton's method here (no scikit-learn needed); a fitted model is a
small JSON file (``FusionModel.save``/``load``). FinProbe ships one fitted on
the FinDVer dev claims and builder claims from the same reports; ``finprobe
findver fit-fusion`` fits one on any claims with annotated evidence and reports
cross-validated recall.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from finprobe.errors import InputError
from finprobe.files import read_json, write_text_atomic
from finprobe.retrieval import (
    BM25Retriever,
    DenseRetriever,
    Passage,
    _Base,
    _normalise,
    analyze,
    rank_positions,
    sub_queries,
)

FUSION_VERSION = 1
_YEAR_TOKEN = re.compile(r"#(?:19|20)\d\d")

STAGE1_FEATURES = (
    "bm25_claim",  # BM25 of the whole claim, min-max normalised over the document
    "bm25_clause_max",  # best normalised BM25 over the claim's clauses
    "bm25_clause_sum",
    "bm25",  # the BM25 retriever's final score (clauses and neighbour bonus included)
    "dense",  # cosine similarity of the claim and the passage
    "dense_norm",
    "bm25_rank",  # 1 / log2(rank + 1)
    "dense_rank",
    "numbers",  # share of the claim's numbers (3 significant digits) in the passage
    "years",  # share of the claim's years in the passage
    "words",  # share of the claim's content words in the passage
    "table",
    "log_chars",
    "position",  # 0 at the document's start, 1 at its end
    "bm25_neighbour",  # best BM25 score of the two adjacent passages
    "dense_neighbour",
    "numbers_neighbour",
    "bm25_top10",
    "dense_top10",
    "clauses",  # number of clauses searched on their own
    "bm25_clause_rank",  # best rank of the passage under any clause
    "dense_clause_max",
    "dense_clause_max_norm",
    "dense_clause_rank",
    "similar_to_bm25_top3",  # dense similarity to BM25's three best passages
    "similar_to_bm25_top1",
    "bm25_clause_top3",
)

STAGE2_EXTRA = tuple(
    f"{what}_top{t}" for t in (1, 3, 5) for what in ("adjacent", "two_away", "closeness")
) + ("stage1_z", "stage1_rank", "stage1_neighbour", "stage1_top10")


# ----------------------------------------------------------------------------- features


def _neighbour_max(values: np.ndarray, pad: float = 0.0) -> np.ndarray:
    left = np.concatenate([[pad], values[:-1]])
    right = np.concatenate([values[1:], [pad]])
    return np.maximum(left, right)


def _discount(ranks: np.ndarray) -> np.ndarray:
    return 1.0 / np.log2(ranks + 1.0)


def _overlap(wanted: Sequence[str], token_sets: Sequence[frozenset[str]]) -> np.ndarray:
    if not wanted:
        return np.zeros(len(token_sets))
    return np.array([sum(t in tokens for t in wanted) / len(wanted) for tokens in token_sets])


def stage1_features(
    query: str,
    passages: Sequence[Passage],
    token_sets: Sequence[frozenset[str]],
    bm25_parts: tuple[np.ndarray, list[np.ndarray], np.ndarray],
    dense_scores: np.ndarray,
    passage_vectors: np.ndarray,
) -> np.ndarray:
    """The stage-1 feature matrix (passages x ``STAGE1_FEATURES``).

    ``dense_scores`` has one column for the claim, then one per clause (the
    clauses of ``sub_queries(query)``, in order).
    """
    n = len(passages)
    whole, clauses, final = bm25_parts
    claim_tokens = analyze(query)
    numbers = [t for t in claim_tokens if t.startswith("~") and t.endswith("/3")]
    years = [t for t in claim_tokens if _YEAR_TOKEN.fullmatch(t)]
    words = sorted({t for t in claim_tokens if t[0] not in "#~"})

    bm25_claim = _normalise(whole)
    if clauses:
        normalised = [_normalise(c) for c in clauses]
        clause_max, clause_sum = np.max(normalised, axis=0), np.sum(normalised, axis=0)
        clause_rank = np.min([rank_positions(c) for c in clauses], axis=0)
    else:
        clause_max = clause_sum = bm25_claim
        clause_rank = rank_positions(whole)
    bm25 = _normalise(final)
    dense = dense_scores[:, 0]
    dense_norm = _normalise(dense)
    if dense_scores.shape[1] > 1:
        dense_clause_max = dense_scores[:, 1:].max(axis=1)
        dense_clause_rank = np.min(
            [rank_positions(dense_scores[:, j]) for j in range(1, dense_scores.shape[1])], axis=0
        )
    else:
        dense_clause_max, dense_clause_rank = dense, rank_positions(dense)
    bm25_ranks, dense_ranks = rank_positions(final), rank_positions(dense)
    number_share = _overlap(numbers, token_sets)
    top = np.argsort(-final, kind="stable")[:3]
    similar = passage_vectors @ passage_vectors[top].T if n else np.zeros((0, 1))
    columns = [
        bm25_claim,
        clause_max,
        clause_sum,
        bm25,
        dense,
        dense_norm,
        _discount(bm25_ranks),
        _discount(dense_ranks),
        number_share,
        _overlap(years, token_sets),
        _overlap(words, token_sets),
        np.array([p.kind == "table" for p in passages], dtype=float),
        np.log1p([len(p.text) for p in passages]),
        np.arange(n) / max(1, n - 1),
        _neighbour_max(bm25),
        _neighbour_max(dense_norm),
        _neighbour_max(number_share),
        (bm25_ranks <= 10).astype(float),
        (dense_ranks <= 10).astype(float),
        np.full(n, float(len(clauses))),
        _discount(clause_rank),
        dense_clause_max,
        _normalise(dense_clause_max),
        _discount(dense_clause_rank),
        similar.max(axis=1),
        similar[:, 0],
        (clause_rank <= 3).astype(float),
    ]
    return np.stack(columns, axis=1).astype(np.float64)


def stage2_features(stage1: np.ndarray, stage1_scores: np.ndarray) -> np.ndarray:
    """Stage-1 features, plus the stage-1 score and closeness to its best passages."""
    n = len(stage1_scores)
    order = np.argsort(-stage1_scores, kind="stable")
    position = np.arange(n)
    columns = []
    for t in (1, 3, 5):
        distance = np.min(np.abs(position[:, None] - order[:t][None, :]), axis=1)
        columns += [(distance == 1).astype(float), (distance == 2).astype(float)]
        columns.append(1.0 / (1.0 + distance))
    z = (stage1_scores - stage1_scores.mean()) / (stage1_scores.std() + 1e-9)
    ranks = rank_positions(stage1_scores)
    columns += [z, _discount(ranks), _neighbour_max(z, pad=-9.0), (ranks <= 10).astype(float)]
    return np.concatenate([stage1, np.stack(columns, axis=1)], axis=1)


# ----------------------------------------------------------------------------- model


@dataclass
class LogisticModel:
    """L2-regularised logistic regression on standardised features."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    def decision(self, features: np.ndarray) -> np.ndarray:
        return ((features - self.mean) / self.scale) @ self.coef + self.intercept

    @classmethod
    def fit(
        cls, features: np.ndarray, labels: np.ndarray, l2: float = 1.0, iterations: int = 50
    ) -> LogisticModel:
        """Newton's method on the penalised log-loss (``l2`` times half the squared weights)."""
        mean = features.mean(axis=0)
        scale = features.std(axis=0)
        scale = np.where(scale > 1e-12, scale, 1.0)
        x = np.hstack([(features - mean) / scale, np.ones((len(features), 1))])
        y = labels.astype(np.float64)
        weights = np.zeros(x.shape[1])
        penalty = np.full(x.shape[1], l2)
        penalty[-1] = 0.0  # the intercept is not shrunk
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-np.clip(x @ weights, -35, 35)))
            gradient = x.T @ (p - y) + penalty * weights
            hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
            step = np.linalg.solve(hessian, gradient)
            weights -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        return cls(mean, scale, weights[:-1], float(weights[-1]))

    def as_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], width: int) -> LogisticModel:
        arrays = [np.asarray(data[k], dtype=np.float64) for k in ("mean", "scale", "coef")]
        if any(a.shape != (width,) for a in arrays):
            raise ValueError(f"expected {width} weights per array")
        return cls(*arrays, float(data["intercept"]))


@dataclass
class FusionModel:
    """The two logistic stages, with where they came from."""

    stage1: LogisticModel
    stage2: LogisticModel
    info: dict[str, Any] = field(default_factory=dict)

    def scores(self, features: np.ndarray) -> np.ndarray:
        first = self.stage1.decision(features)
        return self.stage2.decision(stage2_features(features, first))

    def save(self, path: str | Path) -> None:
        payload = {
            "version": FUSION_VERSION,
            "stage1_features": list(STAGE1_FEATURES),
            "stage2_features": list(STAGE1_FEATURES + STAGE2_EXTRA),
            "stage1": self.stage1.as_dict(),
            "stage2": self.stage2.as_dict(),
            "info": self.info,
        }
        write_text_atomic(Path(path), json.dumps(payload, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path | None = None) -> FusionModel:
        """A saved model; None loads the one FinProbe ships."""
        if path is None:
            text = resources.files("finprobe").joinpath("data/findver_fusion.json").read_text()
            data = json.loads(text)
            source: Path | None = None
        else:
            source = Path(path)
            data = read_json(source)
        try:
            if data.get("version") != FUSION_VERSION:
                raise ValueError(f"version {data.get('version')!r}, expected {FUSION_VERSION}")
            if tuple(data["stage1_features"]) != STAGE1_FEATURES:
                raise ValueError("its features differ from this FinProbe's: refit it")
            return cls(
                LogisticModel.from_dict(data["stage1"], len(STAGE1_FEATURES)),
                LogisticModel.from_dict(data["stage2"], len(STAGE1_FEATURES + STAGE2_EXTRA)),
                dict(data.get("info") or {}),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(source, f"not a FinProbe fusion model: {exc}") from exc


# ----------------------------------------------------------------------------- fitting


@dataclass
class FusionExample:
    """One query's stage-1 features and which passages are evidence."""

    group: str  # the document: folds never split one
    features: np.ndarray
    labels: np.ndarray
    passage_ids: list[str]


def _folds(groups: Sequence[str], folds: int) -> list[int]:
    names = sorted(set(groups))
    fold_of = {name: i % folds for i, name in enumerate(names)}
    return [fold_of[g] for g in groups]


def fit_fusion(examples: Sequence[FusionExample], folds: int = 5, l2: float = 1.0) -> FusionModel:
    """Fit stage 1 on everything and stage 2 on out-of-fold stage-1 scores."""
    if len({e.group for e in examples}) < 2:
        raise ValueError("fitting needs queries from at least two documents")
    folds = min(folds, len({e.group for e in examples}))
    fold_of = _folds([e.group for e in examples], folds)
    out_of_fold: list[np.ndarray | None] = [None] * len(examples)
    for fold in range(folds):
        train = [e for e, f in zip(examples, fold_of, strict=True) if f != fold]
        model = LogisticModel.fit(
            np.concatenate([e.features for e in train]),
            np.concatenate([e.labels for e in train]),
            l2,
        )
        for i, (e, f) in enumerate(zip(examples, fold_of, strict=True)):
            if f == fold:
                out_of_fold[i] = model.decision(e.features)
    stage1 = LogisticModel.fit(
        np.concatenate([e.features for e in examples]),
        np.concatenate([e.labels for e in examples]),
        l2,
    )
    second = [stage2_features(e.features, s) for e, s in zip(examples, out_of_fold, strict=True)]
    stage2 = LogisticModel.fit(
        np.concatenate(second), np.concatenate([e.labels for e in examples]), l2
    )
    info = {
        "queries": len(examples),
        "documents": len({e.group for e in examples}),
        "positives": int(sum(e.labels.sum() for e in examples)),
        "folds": folds,
        "l2": l2,
    }
    return FusionModel(stage1, stage2, info)


def cross_validated_rankings(
    examples: Sequence[FusionExample], folds: int = 5, l2: float = 1.0
) -> list[list[str]]:
    """Each query's ranking by a model fitted without its document (nested folds)."""
    fold_of = _folds([e.group for e in examples], folds)
    rankings: list[list[str]] = [[] for _ in examples]
    for fold in range(folds):
        train = [e for e, f in zip(examples, fold_of, strict=True) if f != fold]
        model = fit_fusion(train, folds, l2)
        for i, (e, f) in enumerate(zip(examples, fold_of, strict=True)):
            if f == fold:
                order = np.argsort(-model.scores(e.features), kind="stable")
                rankings[i] = [e.passage_ids[j] for j in order]
    return rankings


# ----------------------------------------------------------------------------- retriever


class LearnedHybridRetriever(_Base):
    """BM25 and dense retrieval fused by a fitted ``FusionModel``.

    Args:
        sparse: the BM25 retriever (default settings if None).
        dense: the dense retriever (the packaged MiniLM if None).
        model: a ``FusionModel``, a path to one, or None for the shipped model
            (read when first needed).
    """

    name = "hybrid"

    def __init__(
        self,
        sparse: BM25Retriever | None = None,
        dense: DenseRetriever | None = None,
        model: FusionModel | str | Path | None = None,
        cache: Any = None,
    ) -> None:
        super().__init__()
        self.sparse = sparse or BM25Retriever()
        self.dense = dense or DenseRetriever(cache=cache)
        self._model = model if isinstance(model, FusionModel) else None
        self._model_file = None if isinstance(model, FusionModel) else model
        self._passage_vectors = np.zeros((0, 1))

    @property
    def model(self) -> FusionModel:
        # read on first use: fitting only needs features, and must work when the
        # shipped model is stale (its features differ from this code's)
        if self._model is None:
            self._model = FusionModel.load(self._model_file)
        return self._model

    def index(self, passages: Sequence[Passage]) -> None:
        self.passages = list(passages)
        self.sparse.index(self.passages)
        self.dense.index(self.passages)
        self._passage_vectors = self.dense.passage_vectors()

    def features(self, query: str) -> np.ndarray:
        """The stage-1 feature matrix of ``query`` over the indexed passages."""
        dense_scores = self.dense.scores_many([query, *sub_queries(query)])
        return stage1_features(
            query,
            self.passages,
            self.sparse.token_sets,
            self.sparse.score_parts(query),
            dense_scores,
            self._passage_vectors,
        )

    def scores(self, query: str) -> np.ndarray:
        if not self.passages:
            return np.zeros(0)
        return self.model.scores(self.features(query))


def fusion_examples(
    groups: Sequence[tuple[str, Sequence[Passage], Sequence[tuple[str, Sequence[str]]]]],
    make: Callable[[], LearnedHybridRetriever],
    progress: Callable[[int, int], None] | None = None,
) -> list[FusionExample]:
    """Stage-1 features for (document, passages, [(query, gold ids)]) groups."""
    examples: list[FusionExample] = []
    for done, (name, passages, queries) in enumerate(groups, 1):
        retriever = make()
        retriever.index(passages)
        ids = [p.id for p in passages]
        for query, gold in queries:
            wanted = {str(g) for g in gold}
            labels = np.array([pid in wanted for pid in ids], dtype=np.float64)
            examples.append(FusionExample(name, retriever.features(query), labels, ids))
        if progress:
            progress(done, len(groups))
    return examples
