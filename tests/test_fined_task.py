"""FinED end to end in inspect: mockllm under all eight prompting strategies, and the rule baseline."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from finprobe.benchmarks.fined.dataset import AnnotatedError, FinEDDocument, save_dataset
from finprobe.benchmarks.fined.prompts import ALL_STRATEGIES, Strategy, build_jobs, chunk_text
from finprobe.benchmarks.fined.task import BENCHMARK, fined
from finprobe.runner import SampleRecord, mock_output

GOOD = "On April 31, 2024, the Company repaid the loan."
FILLER = "The Company operates stores in several states and reviews them each year."


def _dataset(tmp_path: Path) -> Path:
    text = "\n".join([FILLER] * 3 + [GOOD] + [FILLER] * 3)
    doc = FinEDDocument(
        id="d1",
        text=text,
        scene="annual_report",
        language="en",
        errors=[
            AnnotatedError(
                GOOD,
                "illegal_time",
                "On April 30, 2024, the Company repaid the loan.",
                text.index(GOOD),
            )
        ],
    )
    clean = FinEDDocument(id="d2", text=FILLER, scene="annual_report", language="en")
    return save_dataset(tmp_path / "fined.json", [doc, clean])


def _outputs():
    answer = json.dumps([{"error_type": "Illegal Time", "sentences": [GOOD]}])
    for _ in itertools.count():
        yield mock_output("Reasoning... " + answer)


def _mock():
    return get_model("mockllm/model", custom_outputs=_outputs())


def _records(log) -> list[SampleRecord]:
    return [
        SampleRecord(
            id=str(s.id),
            metadata=s.metadata,
            completion=s.output.completion,
            score=next(iter(s.scores.values())).value,
            score_metadata=next(iter(s.scores.values())).metadata or {},
        )
        for s in log.samples
    ]


@pytest.mark.parametrize("strategy", ALL_STRATEGIES, ids=lambda s: s.name)
def test_mockllm_end_to_end_each_strategy(tmp_path: Path, strategy: Strategy) -> None:
    data = _dataset(tmp_path)
    [log] = inspect_eval(
        fined(data=str(data), strategy=strategy.name, chunk_words=30),
        model=_mock(),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    by_id = {str(s.id): s for s in log.samples}
    # the mock flags GOOD in every query; in d2 it quotes a sentence that isn't there
    expected_queries = len(build_jobs(by_id["d1"].metadata["text"], "en", strategy, 30))
    assert by_id["d1"].metadata["queries"] == expected_queries
    summary = BENCHMARK.summarize(_records(log))
    assert summary["overall"]["recall"] == 1.0
    assert summary["counts"]["errors"] == 1
    # one true positive in d1 (repeats across chunks/types merged), one false positive in d2
    assert summary["breakdowns"]["subtype"]["illegal_time"]["n_pred"] == 2
    assert summary["overall"]["precision"] == 0.5


def test_chunking_keeps_lines_whole() -> None:
    text = "\n".join(f"line {i} has some words here" for i in range(20))
    chunks = chunk_text(text, max_words=20)
    assert "".join(chunks) == text and len(chunks) > 1
    assert len(build_jobs(text, "en", Strategy("chunk", "single", "zero"), 20)) == len(chunks) * 15


def test_detector_baseline_in_inspect(tmp_path: Path) -> None:
    data = _dataset(tmp_path)
    [log] = inspect_eval(
        fined(data=str(data)),
        model="finprobe/fined-detector",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    summary = BENCHMARK.summarize(_records(log))
    assert summary["breakdowns"]["subtype"]["illegal_time"]["tp"] == 1
    assert summary["overall"]["precision"] == 1.0
    # the baseline never sees the answer key
    assert BENCHMARK.rescore(log.samples[0].output.completion, log.samples[0].metadata)["tp"] == 1.0
