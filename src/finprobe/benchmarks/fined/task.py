"""The FinED-Bench inspect task: ``inspect eval finprobe/fined`` and ``finprobe eval fined``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from finprobe.benchmarks.fined.dataset import FinEDDocument, length_bucket, load_dataset, word_count
from finprobe.benchmarks.fined.prompts import DEFAULT_CHUNK_WORDS, Strategy, build_jobs
from finprobe.benchmarks.fined.scorer import (
    SCORER_VERSION,
    Detection,
    detections_to_json,
    fined_scorer,
    normalize_sentence,
    parse_detections,
    rescore,
    summarize,
)
from finprobe.runner import REASK_JSON, BenchmarkInfo, answer_or_generate, generate_checked

# The answer key never reaches a baseline.
HIDDEN_FROM_BASELINES = ("errors",)


def document_metadata(doc: FinEDDocument) -> dict[str, Any]:
    words = word_count(doc.text)
    return {
        "doc_id": doc.id,
        "title": doc.title,
        "scene": doc.scene or "unknown",
        "language": doc.language,
        "text": doc.text,
        "words": words,
        "length_bucket": length_bucket(words),
        "errors": [e.to_dict() for e in doc.errors],
    }


def fined_samples(data: str | Path, strategy: Strategy = Strategy()) -> list[Sample]:
    samples = []
    for doc in load_dataset(data):
        meta = document_metadata(doc)
        first = build_jobs(doc.text, doc.language, strategy)[0]
        samples.append(Sample(id=doc.id, input=first.prompt, target="", metadata=meta))
    return samples


@solver
def detect_errors(
    strategy: Strategy, chunk_words: int = DEFAULT_CHUNK_WORDS, max_attempts: int = 3
) -> Solver:
    """Run every query of the strategy (chunks x type groups) and merge the detections."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        jobs = build_jobs(state.metadata["text"], state.metadata["language"], strategy, chunk_words)
        merged: list[Detection] = []
        seen: set[tuple[str, str | None]] = set()
        raw: list[str] = []
        unparsed = 0
        for job in jobs:
            messages: list[Any] = [ChatMessageUser(content=job.prompt)]
            detections = None
            for attempt in range(1, max_attempts + 1):
                out = await generate_checked(model, messages, state.metadata, "keep-head")
                raw.append(out.completion)
                detections = parse_detections(out.completion)
                if detections is not None:
                    break
                if attempt < max_attempts:
                    messages += [out.message, ChatMessageUser(content=REASK_JSON)]
            if detections is None:
                unparsed += 1
                continue
            for d in detections:
                key = (normalize_sentence(d.sentence), d.subtype)
                if key not in seen:
                    seen.add(key)
                    merged.append(d)
        if len(jobs) == 1 and unparsed == 0:
            completion = raw[-1]  # keep the model's own answer (with its reasoning) in the log
        elif unparsed == len(jobs):
            completion = raw[-1] if raw else ""
        else:
            completion = detections_to_json(merged)
        state.metadata["queries"] = len(jobs)
        state.metadata["unparsed_queries"] = unparsed
        state.output = ModelOutput.from_content(model=str(model), content=completion)
        state.messages.append(state.output.message)
        return state

    return solve


def fined_detector(metadata: dict[str, Any]) -> str:
    """The rule-based detector (imported on first use: every FinProbe task module is
    imported whenever inspect loads FinProbe's entry point)."""
    from finprobe.benchmarks.fined.detector import fined_detector as detect

    return detect(metadata)


BASELINES = {"fined-detector": fined_detector}


def default_data(n_reports: int = 6, seed: int = 0) -> Path:
    """The embedded default: rule-injected errors in synthetic 10-K reports (no LLM)."""
    from finprobe.benchmarks.fined.dataset import save_dataset
    from finprobe.benchmarks.fined.inject import inject_rules, source_from_document
    from finprobe.files import cache_dir
    from finprobe.synth import make_corpus

    counts: Counter = Counter()
    docs = []
    for report in make_corpus(n_reports, seed=seed):
        doc = inject_rules(
            source_from_document(report.document), seed=seed, max_errors=4, global_counts=counts
        )
        if doc.errors:
            docs.append(doc)
    path = cache_dir() / f"fined-synthetic-{seed}-{n_reports}.json"
    return save_dataset(
        path, docs, {"seed": seed, "source": "finprobe.synth", "reports": n_reports}
    )


@task
def fined(
    data: str | None = None,
    strategy: str = "whole-multi-few",
    chunk_words: int = DEFAULT_CHUNK_WORDS,
    max_attempts: int = 3,
) -> Task:
    """FinED-Bench: find the erroneous sentences of a financial document and name each error's type.

    Args:
        data: a FinED dataset JSON (``finprobe build fined`` output, the released
            FinED-Bench JSON or the released fine-tuning JSON).
        strategy: <whole|chunk>-<multi|single>-<few|zero> (the paper's Table 6); the
            paper's best is whole-multi-few.
        chunk_words: chunk size for the chunk strategies.
        max_attempts: generations per query when the reply has no JSON answer.
    """
    strat = Strategy.parse(strategy)
    path = Path(data) if data else default_data()
    return Task(
        dataset=MemoryDataset(
            fined_samples(path, strat), name=f"fined:{path.name}", location=str(path)
        ),
        solver=answer_or_generate(
            BASELINES,
            detect_errors(strat, chunk_words, max_attempts),
            hidden=HIDDEN_FROM_BASELINES,
            truncation="keep-head",
        ),
        scorer=fined_scorer(),
        config=GenerateConfig(temperature=0.0, max_tokens=2048),
        version=SCORER_VERSION,
        headline_metric="fined_scorer.f1",  # shown first in the progress display
        metadata={"benchmark": "fined", "scorer_version": SCORER_VERSION, "strategy": strat.name},
    )


BENCHMARK = BenchmarkInfo(
    name="fined",
    task=fined,
    scorer_version=SCORER_VERSION,
    summarize=summarize,
    rescore=rescore,
    baselines=BASELINES,
    default_data=default_data,
)
