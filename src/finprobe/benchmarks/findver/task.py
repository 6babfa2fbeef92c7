"""The FinDVer inspect task: ``inspect eval finprobe/findver`` and ``finprobe eval findver``."""

from __future__ import annotations

import os
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.solver import generate

from finprobe.benchmarks.findver.dataset import (
    HIDDEN_FROM_BASELINES,
    EvidenceBuilder,
    FinDVerClaim,
    claim_metadata,
    default_reports_dir,
    evidence_text,
    load_claims,
    report_passages,
    report_path,
)
from finprobe.benchmarks.findver.prompts import SYSTEM_PROMPT, verification_prompt
from finprobe.benchmarks.findver.scorer import SCORER_VERSION, findver_scorer, rescore, summarize
from finprobe.errors import InputError
from finprobe.progress import preparing
from finprobe.runner import BenchmarkInfo, answer_or_generate, sample_limit


def verifier_baseline(metadata: dict) -> str:
    """The rule-based verifier (imported on first use: every FinProbe task module is
    imported whenever inspect loads FinProbe's entry point)."""
    from finprobe.benchmarks.findver.verifier import verifier_baseline as verify

    return verify(metadata)


BASELINES = {"findver-verifier": verifier_baseline}


def findver_samples(
    data: str | Path,
    reports: str | Path | None = None,
    setting: str = "rag",
    retriever: str = "bm25",
    top_k: int = 10,
    prompt: str = "cot",
    max_context_tokens: int | None = 120_000,
    truncation: str = "head",
    embedding_cache: str | Path | None = None,
    fusion: str | Path | None = None,
    limit: int | None = None,
) -> list[Sample]:
    """One Sample per claim (the first ``limit`` claims only, when given: a run of 5
    claims parses and indexes only their reports); claims are grouped by report so
    each is parsed and indexed once."""
    claims = load_claims(data)
    if limit is not None:
        claims = claims[: max(limit, 0)]
    reports_dir = Path(reports) if reports else default_reports_dir(data)
    builder = EvidenceBuilder(
        setting, retriever, top_k, max_context_tokens, truncation, embedding_cache, fusion
    )

    def prepare() -> list[Sample]:
        return _prepare_samples(claims, reports_dir, builder, setting, prompt)

    if setting == "long-context" or (setting == "rag" and (retriever != "bm25" or fusion)):
        # long-context prompts hold whole reports (86 MB for the dev claims) and come
        # fast from the per-report cache; a dense encoder's output is not keyed here
        return prepare()
    # the whole prepared list is kept on disk by content hash (finprobe.samplecache):
    # a second run of the same claims and reports reads it back at once
    from finprobe.samplecache import cached_samples, samples_key

    paths = sorted({report_path(reports_dir, c.report) for c in claims})
    arguments = {"setting": setting, "retriever": retriever, "top_k": top_k, "prompt": prompt,
                 "max_context_tokens": max_context_tokens, "truncation": truncation,
                 "limit": limit, "reports_dir": os.path.abspath(reports_dir)}  # fmt: skip
    return cached_samples(samples_key("findver", [data, *paths], arguments), prepare)


def _prepare_samples(
    claims: list[FinDVerClaim],
    reports_dir: Path,
    builder: EvidenceBuilder,
    setting: str,
    prompt: str,
) -> list[Sample]:
    order = {c.example_id: i for i, c in enumerate(claims)}
    samples: list[tuple[int, Sample]] = []
    n_reports = len({c.report for c in claims})
    # parsing and indexing reports (dense encoding above all) can take minutes; parsed
    # reports and BM25 indexes are cached on disk (finprobe.diskcache)
    title = f"FinDVer: preparing evidence from {n_reports} report{'s' * (n_reports != 1)}"
    with preparing(title, len(claims), "claims") as advance:
        for claim in sorted(claims, key=lambda c: c.report):
            path = report_path(reports_dir, claim.report)
            passages = report_passages(path)
            evidence = builder.build(claim, passages, str(path))
            metadata = claim_metadata(
                claim, evidence, path, include_passages=setting != "long-context"
            )
            metadata["prompt"] = prompt  # direct replies have their own reference rule
            user = verification_prompt(evidence_text(evidence.passages), claim.statement, prompt)
            label = ("entailed" if claim.label else "refuted") if claim.label is not None else ""
            sample = Sample(
                id=claim.example_id,
                input=[ChatMessageSystem(content=SYSTEM_PROMPT), ChatMessageUser(content=user)],
                target=label,
                metadata=metadata,
            )
            samples.append((order[claim.example_id], sample))
            advance(1)
    return [s for _, s in sorted(samples, key=lambda pair: pair[0])]


def default_data() -> Path:
    """The embedded default: claims built from 3 synthetic reports (no download).

    Written under ``$FINPROBE_HOME`` else a ``finprobe`` folder in the system temp
    dir, rebuilt on each call (about a second) so it never goes stale.
    """
    import os
    import tempfile

    from finprobe.benchmarks.findver.build import build_dataset

    home = os.environ.get("FINPROBE_HOME")
    folder = (
        Path(home) if home else Path(tempfile.gettempdir()) / "finprobe"
    ) / "findver-synthetic"
    out = folder / "claims.json"
    build_dataset([], out, synthetic=3, seed=0)
    return out


@task
def findver(
    data: str | None = None,
    reports: str | None = None,
    setting: str = "rag",
    retriever: str = "bm25",
    top_k: int = 10,
    prompt: str = "cot",
    max_context_tokens: int | None = 120_000,
    truncation: str = "head",
    embedding_cache: str | None = None,
    fusion: str | None = None,
    max_tokens: int = 512,
) -> Task:
    """FinDVer: is a claim about a 10-K/10-Q entailed or refuted by the report?

    Args:
        data: claims JSON (the released testmini/test files or ``finprobe build findver``
            output). Default: claims built from synthetic reports.
        reports: folder of the reports (default: ``reports/`` beside ``data``).
        setting: rag | long-context | oracle.
        retriever: bm25 | bm25-plain | dense | hybrid | hybrid-score | hybrid-rrf (rag
            setting); hybrid is BM25 and dense fused by a fitted model.
        top_k: passages retrieved in the rag setting (the paper: 10).
        prompt: cot (reasoning, then the label) | direct (the label only).
        max_context_tokens: long-context budget (estimated tokens); longer reports are
            cut by ``truncation`` and the cut is recorded per sample.
        truncation: head (keep the report's start) | relevance (keep BM25's best passages).
        embedding_cache: folder for passage embeddings (dense and hybrid retrievers).
        fusion: fusion model JSON for the hybrid retriever (``finprobe findver
            fit-fusion``); default: the shipped one (FinDVer dev + built claims).
        max_tokens: generation limit (the paper: 512).
    """
    if prompt not in ("cot", "direct"):
        raise InputError(None, f"prompt {prompt!r}: use cot or direct")
    path = Path(data) if data else default_data()
    samples = findver_samples(
        path,
        reports,
        setting,
        retriever,
        top_k,
        prompt,
        max_context_tokens,
        truncation,
        embedding_cache,
        fusion,
        limit=sample_limit(),
    )
    return Task(
        dataset=MemoryDataset(samples, name=f"findver:{path.name}:{setting}", location=str(path)),
        solver=answer_or_generate(
            BASELINES, generate(), hidden=HIDDEN_FROM_BASELINES, truncation="keep-head"
        ),
        scorer=findver_scorer(),
        config=GenerateConfig(temperature=0.0, max_tokens=max_tokens),
        version=SCORER_VERSION,
        headline_metric="findver_scorer.correct",  # shown first in the progress display
        metadata={"benchmark": "findver", "scorer_version": SCORER_VERSION, "setting": setting},
    )


BENCHMARK = BenchmarkInfo(
    name="findver",
    task=findver,
    scorer_version=SCORER_VERSION,
    summarize=summarize,
    rescore=rescore,
    baselines=BASELINES,
    default_data=default_data,
)
