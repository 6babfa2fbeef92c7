"""Runs against a failing model server end by themselves and say what happened.

The fake server (tests/fake_openai_server.py) injects one fault at a time; each
run must end, count its errors by cause, keep errors out of the headline, and
say in its status that it failed or had errors.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from finprobe.errors import InputError
from finprobe.model_calls import (
    ModelCallError,
    RequestLimits,
    check_output,
    classify_exception,
    error_cause,
    plain_error,
)
from finprobe.runner import RunLock, run_benchmark, run_key

TINY = Path(__file__).parent / "data" / "faith_tiny.json"
GOOD_ANSWER = '```json\n{"results": {"answer": "$1,250.4 million", "scenario": "A", "necessary_metrics": ["Revenue"], "reference": ["Table 0"]}}\n```'
FAST = RequestLimits(max_retries=0, timeout=20)  # room for a loaded test machine


def _run(tmp_path: Path, **kwargs):
    options = dict(
        task_args={"data": str(TINY)}, runs_dir=tmp_path, display="none", cache=False,
        limits=FAST, max_context_tokens=100_000,
    )  # fmt: skip
    options.update(kwargs)
    return run_benchmark("faith", "openai-api/local/tiny-model", **options)


@pytest.mark.parametrize(
    ("mode", "cause"),
    [("429", "rate_limited"), ("500", "server_error"), ("empty-choices", "bad_response"),
     ("bad-body", "bad_response"), ("hang", "timeout")],
)  # fmt: skip
def test_a_failing_server_fails_the_run_with_its_cause(
    tmp_path: Path, openai_server, mode: str, cause: str
) -> None:
    openai_server.mode = mode
    start = time.monotonic()
    limits = RequestLimits(max_retries=0, timeout=2) if mode == "hang" else FAST
    results = _run(tmp_path, limits=limits).results
    assert time.monotonic() - start < 60
    assert results["status"] == "failed" and results["finished"] is False
    assert results["errors"] >= 1
    assert set(results["error_causes"]) <= {cause, "stopped", "cancelled"}
    assert cause in results["error_causes"]
    assert openai_server.base_url in results["error_examples"][cause]
    assert results["headline"] == {}  # no sample was answered: no figure at all


def test_flaky_server_errors_are_counted_beside_the_headline(tmp_path: Path, openai_server) -> None:
    # 40% of prompts always fail; the others get a JSON answer
    from fake_openai_server import fails_flaky

    openai_server.mode = "flaky"
    openai_server.reply = lambda messages: GOOD_ANSWER
    outcome = _run(tmp_path, fail_on_error=False)
    results = outcome.results
    from inspect_ai.log import read_eval_log

    samples = read_eval_log(str(outcome.log_path)).samples
    failing = {
        s.id for s in samples if fails_flaky([{"role": "user", "content": s.input}])
    }  # the same prompt the server saw
    assert 0 < len(failing) < 6
    assert results["status"] == "success_with_errors"
    assert results["errors"] == len(failing)
    assert results["error_causes"] == {"server_error": len(failing)}
    assert results["scored_samples"] == 6 - len(failing)
    # the headline is over the scored samples: tiny-1's answer is the only right one
    right = 0 if "tiny-1" in failing else 1
    assert results["headline"]["overall"] == pytest.approx(100 * right / (6 - len(failing)))
    assert results["metrics"]["unparseable_rate"] == 0.0


def test_context_overflow_from_the_server_is_an_error_not_an_answer(
    tmp_path: Path, openai_server
) -> None:
    openai_server.mode = "context"
    openai_server.context_tokens = 50  # every tiny FAITH prompt is longer
    try:
        results = _run(tmp_path, fail_on_error=False).results
    finally:
        openai_server.context_tokens = 8192
    assert results["error_causes"] == {"context_overflow": 6}
    assert results["status"] == "success_with_errors"
    assert results["headline"] == {}
    assert len(openai_server.calls) == 6  # asked once each, never re-asked


def test_prompt_over_the_context_is_refused_before_sending(tmp_path: Path, openai_server) -> None:
    openai_server.reply = lambda messages: GOOD_ANSWER
    results = _run(tmp_path, max_context_tokens=1_200, fail_on_error=False).results
    assert openai_server.calls == []
    assert results["error_causes"] == {"context_overflow": 6}
    assert "does not fit the 1,200-token context" in results["error_examples"]["context_overflow"]
    assert results["prompt_fit"]["refused"] == 6


def test_fined_cuts_a_long_document_and_records_it(tmp_path: Path, openai_server) -> None:
    openai_server.reply = lambda messages: '```json\n{"errors": []}\n```'
    outcome = run_benchmark(
        "fined", "openai-api/local/tiny-model", limit=2, runs_dir=tmp_path, display="none",
        cache=False, limits=FAST, max_context_tokens=4_000,
    )  # fmt: skip
    results = outcome.results
    assert results["errors"] == 0
    assert results["prompt_fit"]["truncated"] == 2
    assert results["prompt_fit"]["policy"] == "keep-head"
    # what was sent fits the budget: 4,000 less the reply's 2,048 and a 64-token margin,
    # at 3 characters a token
    assert max(openai_server.sent_chars) <= (4_000 - 2_048 - 64) * 3


def test_dead_server_trips_the_breaker(tmp_path: Path, openai_server, monkeypatch) -> None:
    # one request at a time; after 5 failures in a row, with no success, the rest fail unsent
    from finprobe.model_calls import BREAKER

    monkeypatch.setattr(BREAKER, "threshold", 5)  # 10 by default; the tiny set has 6 samples
    openai_server.mode = "500"
    results = _run(tmp_path, fail_on_error=False, max_connections=1).results
    assert len(openai_server.calls) == 5
    assert results["error_causes"] == {"server_error": 5, "stopped": 1}


def test_closed_port_fails_before_the_run(tmp_path: Path, monkeypatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    monkeypatch.setenv("DEAD_API_KEY", "x")
    monkeypatch.setenv("DEAD_BASE_URL", url)
    with pytest.raises(ModelCallError) as caught:
        run_benchmark("faith", "openai-api/dead/m", task_args={"data": str(TINY)},
                      runs_dir=tmp_path, display="none")  # fmt: skip
    assert caught.value.cause == "connection"
    assert url in str(caught.value)


def test_cli_stopped_run_exits_1_with_one_line_and_no_headline(
    tmp_path: Path, openai_server
) -> None:
    openai_server.mode = "500"
    env = dict(os.environ, LOCAL_BASE_URL=openai_server.base_url, LOCAL_API_KEY="x")
    command = [sys.executable, "-m", "finprobe.cli", "eval", "faith",
               "--model", "openai-api/local/tiny-model", "--data", str(TINY),
               "--runs-dir", str(tmp_path), "--display", "none", "--no-cache",
               "--max-retries", "0", "--timeout", "5"]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "headline" not in done.stdout
    first = done.stderr.splitlines()[0]
    assert first.startswith("error: run stopped:") and "server_error" in first
    assert openai_server.base_url in first


def test_second_identical_run_is_refused_while_the_first_holds_the_lock(tmp_path: Path) -> None:
    from finprobe.benchmark import benchmark_info
    from finprobe.runner import _with_defaults

    args = _with_defaults(benchmark_info("faith").task, {"data": str(TINY)})
    key = run_key("faith", "finprobe/faith-solver", args, None)
    with RunLock(tmp_path, key), pytest.raises(InputError, match="already in progress"):
        run_benchmark("faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
                          runs_dir=tmp_path, display="none")  # fmt: skip
    # released: the same run now goes ahead
    outcome = run_benchmark("faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
                            runs_dir=tmp_path, display="none")  # fmt: skip
    assert outcome.results["status"] == "success"


def test_results_files_are_not_inspect_logs(tiny_baseline_run) -> None:
    from inspect_ai.log import list_eval_logs

    runs = tiny_baseline_run.log_path.parent
    logs = list_eval_logs(str(runs))
    assert len(logs) == 1 and logs[0].name.endswith(".eval")
    assert tiny_baseline_run.results_path.exists()
    assert tiny_baseline_run.results_path.parent.name == "results"


# ----------------------------------------------------------------------------- units


def test_error_causes_from_exceptions_and_replies() -> None:
    class Status(Exception):
        def __init__(self, status: int, text: str) -> None:
            super().__init__(text)
            self.status_code = status

    assert classify_exception(Status(400, "maximum context length is 8192 tokens"))[0] == (
        "context_overflow"
    )
    assert classify_exception(Status(429, "slow down"))[0] == "rate_limited"
    assert classify_exception(Status(503, "overloaded"))[0] == "server_error"
    assert classify_exception(Status(401, "bad key"))[0] == "auth"
    assert classify_exception(Status(400, "unknown field"))[0] == "bad_request"
    assert classify_exception(TimeoutError())[0] == "timeout"
    assert classify_exception(IndexError("list index out of range"))[0] == "bad_response"
    assert classify_exception(ValueError("x"))[0] == "other"
    assert error_cause("ModelCallError('refused: blocked (http://x)')") == "refused"
    assert error_cause("server_error: HTTP 500") == "server_error"
    assert error_cause("KeyError: 'x'") == "other"
    assert error_cause("CancelledError('Cancelled via cancel scope 7f60')") == "cancelled"
    assert (
        plain_error("ModelCallError('refused: blocked (http://x)')")
        == "refused: blocked (http://x)"
    )

    from inspect_ai.model import ModelOutput

    too_long = ModelOutput.from_content("m", "maximum context length", stop_reason="model_length")
    with pytest.raises(ModelCallError, match="context_overflow"):
        check_output(too_long)
    refused = ModelOutput.from_content("m", "blocked", stop_reason="content_filter")
    with pytest.raises(ModelCallError, match="refused"):
        check_output(refused)
    check_output(ModelOutput.from_content("m", "The claim is refuted."))  # a real answer


def test_context_window_asked_of_the_server_or_known(openai_server) -> None:
    from finprobe.model_calls import known_context_window

    assert known_context_window("openai-api/local/tiny-model", openai_server.base_url) == 8192
    assert known_context_window("openai/gpt-4o-mini") == 128_000
    assert known_context_window("hf/some/unknown-model") is None
