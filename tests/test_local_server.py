"""FinDVer against a local OpenAI-compatible server, in each evidence setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from finprobe.runner import run_benchmark


@pytest.mark.parametrize("setting", ["rag", "long-context", "oracle"])
def test_findver_settings_against_a_local_server(
    tmp_path: Path, openai_server, setting: str
) -> None:
    # a chain-of-thought reply that ends with the label, as the prompt asks
    openai_server.reply = lambda messages: (
        "1. The report gives the figure.\\nTherefore, the claim is refuted."
    )
    outcome = run_benchmark(
        "findver",
        "openai-api/local/tiny-model",
        task_args={"setting": setting},
        limit=4,
        runs_dir=tmp_path,
        display="none",
        cache=False,
    )
    results = outcome.results
    assert results["status"] == "success"
    assert results["samples"] == 4
    assert len(openai_server.calls) == 4
    assert results["metrics"]["unparseable_rate"] == 0.0
    # every answer is "refuted": accuracy is the share of refuted claims among the four
    from inspect_ai.log import read_eval_log

    samples = read_eval_log(str(outcome.log_path)).samples
    refuted = sum(1 for s in samples if s.metadata["label"] is False)
    assert results["headline"]["overall"] == pytest.approx(100.0 * refuted / 4)
