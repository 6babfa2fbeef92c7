"""Recall@3/5/10 and timing of each retriever over the FinDVer dev claims.

Units are the released report context entries (ids as in relevant_context). For
each retriever: indexing time over all dev reports, query time over all dev
claims, and recall in both definitions (mean fraction of a claim's evidence
retrieved; share of claims with all evidence retrieved).

The shipped ``hybrid`` fusion model was fitted on these dev claims (over
FinProbe's document passages, with builder claims), so its row is not held
out; the script also prints ``hybrid (5-fold CV)``: each claim ranked by a
model fitted here on the other reports' claims (folds grouped by report).

    .venv/bin/python perf/retrieval_findver.py [--retriever bm25 ...] [--limit N]
        [--embedding-cache DIR] [--hybrid-weights 0.3,0.5,0.7]

Dense and hybrid need the dense extra (torch==2.13.0 first). ``--embedding-cache``
reuses passage embeddings between runs (the timing then excludes encoding).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from finprobe.fusion import (  # noqa: E402
    FusionExample,
    LearnedHybridRetriever,
    cross_validated_rankings,
)
from finprobe.retrieval import (  # noqa: E402
    BM25Retriever,
    DenseRetriever,
    HybridRetriever,
    dense_available,
    passages_from_context,
    summarize_recall,
)
from finprobe.retrievers import make_retriever  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "findver"
PAPER = {"BM25 (paper)": (31.96, 38.62, 46.42), "OAI-3-large (paper)": (34.92, 41.79, 51.65)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DATA / "testmini-dev.json")
    parser.add_argument("--retriever", action="append", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--embedding-cache", type=Path, default=None)
    parser.add_argument(
        "--hybrid-weights", default="", help="extra score-fusion weights to try (sparse share)"
    )
    args = parser.parse_args()
    claims = json.loads(args.data.read_text())[: args.limit]
    reports_dir = args.data.parent / "reports"
    by_report: dict[str, list[dict]] = {}
    for claim in claims:
        by_report.setdefault(claim["report"], []).append(claim)
    start = time.perf_counter()
    passages = {
        name: passages_from_context(
            json.loads(gzip.decompress((reports_dir / f"{name}.gz").read_bytes()))["context"]
        )
        for name in by_report
    }
    n_passages = sum(len(p) for p in passages.values())
    print(
        f"{len(claims)} claims, {len(by_report)} reports, {n_passages} passages (read in {time.perf_counter() - start:.1f} s)"
    )
    names = args.retriever or ["bm25-plain", "bm25"] + (
        ["dense", "hybrid", "hybrid-score", "hybrid-rrf"] if dense_available() else []
    )
    factories = {
        name: (lambda name=name: make_retriever(name, cache=args.embedding_cache)) for name in names
    }
    for weight in filter(None, args.hybrid_weights.split(",")):
        factories[f"hybrid w={weight}"] = lambda w=float(weight): HybridRetriever(
            BM25Retriever(), DenseRetriever(cache=args.embedding_cache), weight=w
        )

    def row(name: str, pairs: list, index_s: float | None = None, query_s: float | None = None):
        s = summarize_recall(pairs)
        mf = " / ".join(f"{s.mean_fraction[k]:.1f}" for k in (3, 5, 10))
        ar = " / ".join(f"{s.all_retrieved[k]:.1f}" for k in (3, 5, 10))
        times = f"{index_s:8.1f} {query_s:8.1f}" if index_s is not None else ""
        print(f"{name:22s} {mf:>24s} {ar:>24s} {times}", flush=True)

    header = f"{'retriever':22s} {'mean-fraction @3/@5/@10':>24s} {'all-retrieved @3/@5/@10':>24s} {'index s':>8s} {'query s':>8s}"
    print(header)
    for name, factory in factories.items():
        index_s = query_s = 0.0
        pairs = []
        examples: list[FusionExample] = []
        for report, group in by_report.items():
            retriever = factory()
            t0 = time.perf_counter()
            retriever.index(passages[report])
            index_s += time.perf_counter() - t0
            ids = [p.id for p in passages[report]]
            t0 = time.perf_counter()
            for claim in group:
                if isinstance(retriever, LearnedHybridRetriever):
                    # rank from the features, and keep them for the cross-validation
                    features = retriever.features(claim["statement"])
                    order = np.argsort(-retriever.model.scores(features), kind="stable")
                    ranking = [ids[j] for j in order]
                    gold = {str(g) for g in claim["relevant_context"]}
                    labels = np.array([i in gold for i in ids], dtype=float)
                    examples.append(FusionExample(report, features, labels, ids))
                else:
                    ranking = retriever.ranking(claim["statement"])
                pairs.append((ranking, claim["relevant_context"]))
            query_s += time.perf_counter() - t0
        row(name, pairs, index_s, query_s)
        if examples:
            t0 = time.perf_counter()
            held_out = cross_validated_rankings(examples, folds=5)
            golds = [c["relevant_context"] for group in by_report.values() for c in group]
            row(f"{name} (5-fold CV)", list(zip(held_out, golds, strict=True)))
            print(f"{'':22s} (fits and cross-validation: {time.perf_counter() - t0:.1f} s)")
    for name, figures in PAPER.items():
        print(
            f"{name:22s} {' / '.join(f'{v:.2f}' for v in figures):>24s} {'(definition not stated)':>24s}"
        )


if __name__ == "__main__":
    main()
