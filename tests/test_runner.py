"""End-to-end runs on inspect_ai: baseline model, mockllm, a local OpenAI-compatible server, resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from finprobe.results import load_results
from finprobe.runner import find_resumable_log, log_options, mock_output, run_benchmark

TINY = Path(__file__).parent / "data" / "faith_tiny.json"
GOOD_ANSWER = '```json\n{"results": {"answer": "$1,250.4 million", "scenario": "A", "necessary_metrics": ["Revenue"], "reference": ["Table 0"]}}\n```'


def test_baseline_model_runs_and_writes_results(tiny_baseline_run) -> None:
    results = tiny_baseline_run.results
    assert results["samples"] == 6
    assert (
        results["headline"]["overall"] == 100.0
    )  # the tiny set is all direct lookups and one change
    assert results["scorer_version"].startswith("faith-")
    assert results["dataset"]["fingerprint"]
    assert tiny_baseline_run.results_path.exists()
    assert load_results(tiny_baseline_run.results_path)["model"] == "finprobe/faith-solver"


def test_mockllm_retries_invalid_json_and_counts_unparseable(tmp_path: Path) -> None:
    # sample 1: garbage, garbage, valid (third attempt); samples 2..6: garbage x3 (unparseable)
    outputs = [mock_output("no json here"), mock_output("still none"), mock_output(GOOD_ANSWER)]
    outputs += [mock_output("I cannot answer.") for _ in range(15)]
    outcome = run_benchmark(
        "faith",
        "mockllm/model",
        task_args={"data": str(TINY)},
        runs_dir=tmp_path,
        display="none",
        cache=False,
        model_args={"custom_outputs": outputs},
    )
    results = outcome.results
    assert results["samples"] == 6
    assert results["metrics"]["unparseable_rate"] == pytest.approx(100 * 5 / 6, abs=0.01)
    # samples run concurrently: whichever got the valid reply is scored on it
    from inspect_ai.log import read_eval_log

    samples = read_eval_log(str(outcome.log_path)).samples
    answered = [s for s in samples if s.scores["faith_scorer"].answer]
    assert len(answered) == 1
    assert answered[0].scores["faith_scorer"].answer == "$1,250.4 million"
    expected = 100.0 / 6 if answered[0].id == "tiny-1" else 0.0
    assert results["headline"]["overall"] == pytest.approx(expected, abs=0.01)


def _faith_reply(messages: list) -> str:
    """First reply has no JSON; the re-ask gets one."""
    return "Let me think about the tables." if len(messages) == 1 else GOOD_ANSWER


@pytest.fixture
def fake_server(openai_server):
    openai_server.reply = _faith_reply
    return openai_server


def test_local_openai_compatible_server(tmp_path: Path, fake_server) -> None:
    outcome = run_benchmark(
        "faith",
        "openai-api/local/tiny-model",
        task_args={"data": str(TINY)},
        runs_dir=tmp_path,
        display="none",
        cache=False,
    )
    results = outcome.results
    assert results["samples"] == 6
    assert results["metrics"]["unparseable_rate"] == 0.0
    # every sample needed exactly one re-ask: 6 first calls (1 message) + 6 re-asks (3 messages)
    assert sorted(fake_server.calls) == [1] * 6 + [3] * 6
    # "$1,250.4 million" is right for tiny-1 only
    assert results["headline"]["overall"] == pytest.approx(100 / 6, abs=0.01)


def test_offline_model_skips_the_response_cache_and_per_sample_flushes(
    tmp_path: Path, fake_server
) -> None:
    """A mock's replies are free to remake: no cache, a flush per 100 samples, no live
    buffer; a real model keeps the response cache and flushes every sample."""
    from inspect_ai.log import read_eval_log

    configs = {}
    for model in ("mockllm/model", "openai-api/local/tiny-model"):
        outcome = run_benchmark(
            "faith", model, task_args={"data": str(TINY)}, runs_dir=tmp_path / model[:4],
            display="none", cache=True,
        )  # fmt: skip
        assert outcome.results["samples"] == 6
        log = read_eval_log(str(outcome.log_path), header_only=True)
        configs[model] = (
            log.eval.config.log_buffer,
            log.eval.config.log_realtime,
            log.eval.config.score_display,
            log.plan.config.cache is not None and log.plan.config.cache is not False,
        )
    assert configs["mockllm/model"] == (100, False, False, False)
    assert configs["openai-api/local/tiny-model"] == (1, True, False, True)


def test_only_offline_models_run_without_inspects_control_server() -> None:
    assert log_options("mockllm/model", "rich")["ctl_server"] is False
    assert log_options("finprobe/faith-solver", "none")["ctl_server"] is False
    assert "ctl_server" not in log_options("openai-api/local/tiny-model", "none")


def test_log_options_an_older_inspect_lacks_are_not_passed(monkeypatch) -> None:
    """An inspect_ai without these keywords would take them as generate-config kwargs."""
    import finprobe.runner as runner

    monkeypatch.setattr(runner, "_eval_accepts", lambda name: name != "ctl_server")
    options = log_options("mockllm/model", "none")
    assert "ctl_server" not in options and options["log_realtime"] is False
    assert options["log_buffer"] == 100


def test_killed_run_resumes_without_repeating_samples(tmp_path: Path, fake_server) -> None:
    env = dict(os.environ, FINPROBE_TEST="1")
    command = [
        sys.executable, "-m", "finprobe.cli", "eval", "faith",
        "--model", "openai-api/local/tiny-model",
        "--data", str(TINY), "--runs-dir", str(tmp_path), "--display", "none",
        "--max-connections", "1", "--no-cache",
    ]  # fmt: skip
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    # kill the run once four samples (eight calls) are done
    def kill_when_ready() -> None:
        while len(fake_server.calls) < 8 and child.poll() is None:
            threading.Event().wait(0.02)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)

    killer = threading.Thread(target=kill_when_ready)
    killer.start()
    child.wait(timeout=120)
    killer.join()
    assert child.returncode != 0, "the run should have been killed midway"
    calls_before = len(fake_server.calls)
    from finprobe.benchmarks.faith.task import faith

    args = {"data": str(TINY.resolve())}
    assert find_resumable_log(tmp_path, "faith", "openai-api/local/tiny-model", args, None, faith)

    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resumed" in done.stdout
    # results files are not logs: inspect's recovery never tries to read them
    assert "Recovery failed" not in done.stdout + done.stderr
    calls_after = len(fake_server.calls) - calls_before
    print(f"calls before kill {calls_before}, after resume {calls_after}")
    # 6 samples x 2 calls in all; the resumed run makes at most the unfinished ones' calls
    assert calls_after <= 2 * 6 - 2 * 3, f"resume repeated finished samples ({calls_after} calls)"
    results = [load_results(p) for p in tmp_path.glob("results/*.results.json")]
    assert any(r["samples"] == 6 and r["status"] == "success" for r in results)
