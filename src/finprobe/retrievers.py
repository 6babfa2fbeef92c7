"""Retrievers by name: the one module that knows every kind.

``finprobe.retrieval`` holds the plain retrievers (BM25, dense, fixed fusions) and
``finprobe.fusion`` the learned hybrid built on them; this factory imports both,
so the dependency runs one way (retrieval <- fusion <- retrievers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finprobe.fusion import LearnedHybridRetriever
from finprobe.retrieval import (
    BM25Retriever,
    DenseRetriever,
    EmbeddingCache,
    HybridRetriever,
    _Base,
)

RETRIEVERS = ("bm25", "bm25-plain", "dense", "hybrid", "hybrid-score", "hybrid-rrf")


def make_retriever(
    name: str,
    cache: str | Path | EmbeddingCache | None = None,
    fusion: str | Path | None = None,
    **kwargs: Any,
) -> _Base:
    """A retriever by name.

    bm25, bm25-plain, dense; hybrid (BM25 and dense fused by a fitted model, see
    ``finprobe.fusion``; ``fusion`` names a model file, default the shipped one);
    hybrid-score (weighted min-max score fusion); hybrid-rrf (reciprocal rank fusion).
    """
    if name == "bm25":
        return BM25Retriever(**kwargs)
    if name == "bm25-plain":
        return BM25Retriever.plain()
    if name == "dense":
        return DenseRetriever(cache=cache, **kwargs)
    if name == "hybrid":
        return LearnedHybridRetriever(model=fusion, cache=cache)
    if name in ("hybrid-score", "hybrid-rrf"):
        method = "rrf" if name == "hybrid-rrf" else "score"
        retriever = HybridRetriever(
            BM25Retriever(), DenseRetriever(cache=cache), method=method, **kwargs
        )
        retriever.name = name
        return retriever
    raise ValueError(f"unknown retriever {name!r}: choose one of {', '.join(RETRIEVERS)}")
