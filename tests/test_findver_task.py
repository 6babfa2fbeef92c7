"""FinDVer end to end in inspect: mockllm in every setting, the verifier, the export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from typer.testing import CliRunner

from finprobe.benchmarks.findver.build import build_dataset
from finprobe.benchmarks.findver.task import BENCHMARK, findver
from finprobe.results import results_from_log


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("findver") / "claims.json"
    build_dataset([], out, synthetic=1, seed=5, per_table=1, max_tables=4)
    return out


def _mock(replies: list[str]):
    outputs = []
    for reply in replies:
        output = ModelOutput.from_content(model="mockllm/model", content=reply)
        output.usage = ModelUsage(
            input_tokens=10, output_tokens=5, total_tokens=15
        )  # no tiktoken download
        outputs.append(output)
    return get_model("mockllm/model", custom_outputs=outputs)


@pytest.mark.parametrize("setting", ["rag", "long-context", "oracle"])
def test_mockllm_runs_end_to_end(claims: Path, setting: str, tmp_path: Path) -> None:
    replies = ["1. x\nStep 1: y\nAnswer: not entailed", "Answer: entailed", "@@@ no verdict"] * 4
    [log] = inspect_eval(
        findver(data=str(claims), setting=setting, max_context_tokens=300),
        model=_mock(replies),
        limit=3,
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success"
    results = results_from_log(Path(str(log.location).removeprefix("file://")), BENCHMARK)
    assert results["metrics"]["unparseable"] == 1 and results["metrics"]["n"] == 3
    predicted = [s.scores["findver_scorer"].metadata["predicted"] for s in log.samples]
    assert predicted == ["refuted", "entailed", None]
    prompt = log.samples[0].input[-1].text
    assert "Claim: " in prompt and " | " in prompt  # tables as pipe text
    if setting == "long-context":
        assert results["metrics"]["truncation_rate"] == 100.0  # 300 tokens cannot hold a report


def test_verifier_baseline_and_leaderboard_export(claims: Path, tmp_path: Path) -> None:
    [log] = inspect_eval(
        findver(data=str(claims), setting="oracle"),
        model="finprobe/findver-verifier",
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success"
    results = results_from_log(Path(str(log.location).removeprefix("file://")), BENCHMARK)
    assert results["headline"]["unparseable_rate"] == 0.0
    assert results["headline"]["overall"] >= 70.0

    from finprobe.cli import app

    out = tmp_path / "leaderboard.json"
    result = CliRunner().invoke(
        app,
        [
            "findver",
            "export-leaderboard",
            str(log.location).removeprefix("file://"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())
    assert len(rows) == len(log.samples)
    assert set(rows[0]) == {"example_id", "output_label"}
    assert {r["output_label"] for r in rows} <= {"entailed", "refuted"}


def test_export_of_a_missing_log_exits_2(tmp_path: Path) -> None:
    from finprobe.cli import app

    result = CliRunner().invoke(
        app,
        [
            "findver",
            "export-leaderboard",
            str(tmp_path / "none.eval"),
            "--out",
            str(tmp_path / "o.json"),
        ],
    )
    assert result.exit_code == 2
