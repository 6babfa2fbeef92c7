"""The direct runner (finprobe.direct_run) against inspect's runner: the same log.

For every benchmark task, with mockllm and with a baseline, both runners evaluate the
same first samples; the logs must agree on every sample (input messages, metadata,
messages, output, scores, usage), the EvalSpec and EvalPlan, the metric values in
EvalResults and the reductions, and ``results_from_log`` must give the same record.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log
from log_parity import comparable_log, comparable_results
from typer.testing import CliRunner

from finprobe.errors import InputError
from finprobe.runner import choose_runner, find_resumable_log, mock_output, run_benchmark

TINY = Path(__file__).parent / "data" / "faith_tiny.json"
SRC = Path(__file__).resolve().parents[1] / "src"
FAITH_REPLY = (
    '```json\n{"results": {"answer": "$1,250.4 million", "scenario": "A", '
    '"necessary_metrics": ["Revenue"], "reference": ["Table 0"]}}\n```'
)


def _replies(text: str) -> Iterator:
    """One reply to every request (samples may run in any order on inspect)."""
    while True:
        yield mock_output(text)


@pytest.fixture(scope="module")
def findver_claims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from finprobe.benchmarks.findver.build import build_dataset

    out = tmp_path_factory.mktemp("findver") / "claims.json"
    build_dataset([], out, synthetic=1, seed=5, per_table=1, max_tables=4)
    return out


@pytest.fixture(scope="module")
def finauditing_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from finprobe.benchmarks.finauditing.build import build_dataset
    from finprobe.synth import make_report
    from finprobe.xbrl.synth_export import export_report

    root = tmp_path_factory.mktemp("fa")
    filing = export_report(make_report(seed=5), root / "filing")
    build_dataset([filing], root / "data", seed=0, run_checks_as_messages=False, finmr=2,
                  finre_per_label=1, finsm=1)  # fmt: skip
    return root / "data"


def _both(tmp_path: Path, benchmark: str, model: str, reply: str | None = None, **kw) -> tuple:
    """The same run on each runner: (direct outcome, inspect outcome)."""
    outcomes = []
    for runner in ("direct", "inspect"):
        model_args = {"custom_outputs": _replies(reply)} if reply is not None else None
        outcomes.append(
            run_benchmark(
                benchmark,
                model,
                runs_dir=tmp_path / runner,
                display="none",
                runner=runner,
                model_args=model_args,
                **kw,
            )
        )
    return tuple(outcomes)


def _assert_same(direct, inspect_run) -> None:
    a, b = read_eval_log(str(direct.log_path)), read_eval_log(str(inspect_run.log_path))
    assert a.samples and len(a.samples) == len(b.samples)
    left, right = comparable_log(a), comparable_log(b)
    for key in left:  # one key at a time: a failure names the part that differs
        assert left[key] == right[key], key
    assert comparable_results(direct.results) == comparable_results(inspect_run.results)
    assert direct.log_path.parent == inspect_run.log_path.parent.parent / "direct"


CASES = [
    # benchmark, task, model, reply (mockllm) or None (baseline), task args
    ("faith", None, "mockllm/model", FAITH_REPLY, {}),
    ("faith", None, "finprobe/faith-solver", None, {}),
    ("findver", None, "mockllm/model", "1. x\nStep 1: y\nAnswer: entailed", {"setting": "rag"}),
    ("findver", None, "mockllm/model", "Answer: refuted",
     {"setting": "long-context", "max_context_tokens": 300}),
    ("findver", None, "finprobe/findver-verifier", None, {"setting": "rag"}),
    ("fined", None, "mockllm/model", '```json\n[{"type": "FRE", "sentences": ["x"]}]\n```', {}),
    ("fined", None, "finprobe/fined-detector", None, {}),
    ("finauditing", "finsm", "mockllm/model", '["us-gaap:Revenues"]', {}),
    ("finauditing", "finsm", "finprobe/finsm-retriever", None, {}),
    ("finauditing", "finre", "mockllm/model", "Answer: Combination Error", {}),
    ("finauditing", "finre", "finprobe/finre-classifier", None, {}),
    ("finauditing", "finmr", "mockllm/model",
     '{"extracted_value": "1", "calculated_value": "2"}', {}),
    ("finauditing", "finmr", "finprobe/finmr-solver", None, {}),
]  # fmt: skip


@pytest.mark.parametrize(("benchmark", "task", "model", "reply", "args"), CASES)
def test_direct_and_inspect_runners_write_the_same_log(
    benchmark, task, model, reply, args, tmp_path, findver_claims, finauditing_data
) -> None:
    data = {"faith": TINY, "findver": findver_claims, "finauditing": finauditing_data}
    task_args = dict(args)
    if benchmark in data:
        task_args["data"] = str(data[benchmark])
    direct, inspect_run = _both(
        tmp_path, benchmark, model, reply, task_args=task_args, limit=3, task_name=task
    )
    _assert_same(direct, inspect_run)
    assert 1 <= direct.results["samples"] <= 3 and direct.results["finished"]


def _raise_on(sample_ids: set[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The faith-solver baseline fails on these samples (a bad sample in a run)."""
    from finprobe.benchmarks.faith import task as faith_task

    real = faith_task.BASELINES["faith-solver"]

    def failing(metadata: dict) -> str:
        if metadata.get("uid") in sample_ids:
            raise ValueError(f"table missing for {metadata['uid']}")
        return real(metadata)

    monkeypatch.setitem(faith_task.BASELINES, "faith-solver", failing)


def _uids() -> list[str]:
    from finprobe.benchmarks.faith.task import faith

    return [str(s.id) for s in faith(data=str(TINY)).dataset]


def test_a_failing_sample_is_an_error_and_the_run_goes_on(tmp_path, monkeypatch) -> None:
    bad = _uids()[1]
    _raise_on({bad}, monkeypatch)
    direct, inspect_run = _both(
        tmp_path, "faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
        fail_on_error=0.5,
    )  # fmt: skip
    _assert_same(direct, inspect_run)
    log = read_eval_log(str(direct.log_path))
    assert log.status == "success"
    [failed] = [s for s in log.samples if s.error]
    assert failed.id == bad and "table missing" in failed.error.message
    assert "ValueError" in failed.error.traceback and not failed.scores
    results = direct.results
    assert results["errors"] == 1 and results["scored_samples"] == 5
    assert results["status"] == "success_with_errors"


def test_errors_past_fail_on_error_stop_the_run_which_never_looks_finished(
    tmp_path, monkeypatch
) -> None:
    uids = _uids()
    _raise_on({uids[0], uids[1]}, monkeypatch)
    direct, inspect_run = _both(
        tmp_path, "faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
        fail_on_error=0.2,
    )  # fmt: skip
    for outcome in (direct, inspect_run):
        log = read_eval_log(str(outcome.log_path))
        assert log.status == "error" and "table missing" in log.error.message
        assert not outcome.results["finished"] and outcome.results["status"] == "failed"
    # a stopped run is found again for resume, as inspect's is
    from finprobe.benchmarks.faith.task import faith

    found = find_resumable_log(
        tmp_path / "direct", "faith", "finprobe/faith-solver", {"data": str(TINY)}, None, faith
    )
    assert found == direct.log_path


def test_choose_runner_defaults_and_refusals() -> None:
    assert choose_runner(None, "mockllm/model", {}) == "direct"
    assert choose_runner(None, "finprobe/faith-solver", {}) == "direct"
    assert choose_runner(None, "openai/gpt-4.1-mini", {}) == "inspect"
    assert choose_runner(None, "finprobe/finmr-solver", {"judge": "openai/gpt-4o"}) == "inspect"
    assert choose_runner("inspect", "mockllm/model", {}) == "inspect"
    with pytest.raises(InputError, match="offline models"):
        choose_runner("direct", "openai/gpt-4.1-mini", {})
    with pytest.raises(InputError, match="judge"):
        choose_runner("direct", "mockllm/model", {"judge": "openai/gpt-4o"})
    with pytest.raises(InputError, match="direct or inspect"):
        choose_runner("fast", "mockllm/model", {})


def test_cli_runner_option_and_report_of_a_direct_log(tmp_path) -> None:
    from finprobe.cli import app

    refused = subprocess.run(
        [sys.executable, "-m", "finprobe.cli", "eval", "faith", "--model", "openai/gpt-4.1-mini",
         "--runner", "direct", "--runs-dir", str(tmp_path)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    assert refused.returncode == 2
    assert "--runner direct runs only offline models" in " ".join(refused.stderr.split())
    assert len(refused.stderr.strip().splitlines()) <= 3  # one message (wrapped), no traceback
    cli = CliRunner()
    done = cli.invoke(
        app, ["eval", "faith", "--model", "finprobe/faith-solver", "--data", str(TINY),
              "--runs-dir", str(tmp_path), "--display", "none"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    [log] = tmp_path.glob("*.eval")
    assert read_eval_log(str(log)).status == "success"
    report = cli.invoke(app, ["report", str(log), "--out", str(tmp_path / "r.html")])
    assert report.exit_code == 0, report.output
    assert "finprobe/faith-solver" in (tmp_path / "r.html").read_text()


def test_a_task_with_features_the_direct_runner_lacks_goes_to_inspect(tmp_path, monkeypatch):
    from finprobe.benchmarks.faith import task as faith_task
    from finprobe.direct_run import unsupported_reason

    assert unsupported_reason(faith_task.faith(data=str(TINY))) is None
    real = faith_task.faith
    builds: list[int] = []

    def scoring_failures(**kwargs):
        builds.append(1)
        task = real(**kwargs)
        task.score_on_error = True
        return task

    import dataclasses

    import finprobe.runner

    patched = dataclasses.replace(faith_task.BENCHMARK, task=scoring_failures)
    monkeypatch.setattr(finprobe.runner, "benchmark_info", lambda name: patched)
    assert "score_on_error" in unsupported_reason(scoring_failures(data=str(TINY)))
    continuing = real(data=str(TINY))
    continuing.continue_on_fail = True  # inspect's runner honours it; the direct one does not
    assert "continue_on_fail" in unsupported_reason(continuing)
    with pytest.raises(InputError, match="score_on_error"):
        run_benchmark("faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
                      runs_dir=tmp_path, display="none", runner="direct")  # fmt: skip
    builds.clear()
    outcome = run_benchmark("faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
                            runs_dir=tmp_path, display="none", limit=2)  # fmt: skip
    log = read_eval_log(str(outcome.log_path))
    assert log.status == "success" and log.samples[0].events  # inspect's runner keeps events
    assert builds == [1]  # the task the direct runner refused, never built (prepared) twice


def _direct(task, tmp_path: Path, model: str = "mockllm/model", reply: str = FAITH_REPLY, **kw):
    from finprobe.direct_run import run_direct

    model_args = {"custom_outputs": _replies(reply)} if model.startswith("mockllm/") else {}
    options = dict(generate_args={"cache": False}, eval_config={}, limit=2, fail_on_error=0.2)
    return run_direct(task, model, model_args=model_args, log_dir=tmp_path, **(options | kw))


def test_solver_writes_never_reach_the_tasks_own_dataset(tmp_path) -> None:
    from finprobe.benchmarks.faith.task import faith

    task = faith(data=str(TINY))
    before = [dict(s.metadata or {}) for s in task.dataset[:2]]
    log = _direct(task, tmp_path)
    assert [dict(s.metadata or {}) for s in task.dataset[:2]] == before
    # the logged sample still has what the solver wrote (as on inspect's runner)
    assert "generate_attempts" in log.samples[0].metadata


def _one_arg_eval_error(exception):  # as if a later inspect_ai re-signed eval_error
    raise AssertionError("never called: load() refuses it")


@pytest.mark.parametrize("change", ["missing", "signature"])
def test_changed_inspect_internals_send_the_run_to_inspect(tmp_path, monkeypatch, capsys, change):
    import inspect_ai._eval.task.results
    import inspect_ai.log._log

    import finprobe.inspect_internals as internals
    from finprobe.cli import main

    monkeypatch.setattr(internals, "_LOADED", None)
    if change == "missing":
        monkeypatch.delattr(inspect_ai._eval.task.results, "eval_results")
    else:
        monkeypatch.setattr(inspect_ai.log._log, "eval_error", _one_arg_eval_error)
    with pytest.raises(internals.DirectUnavailable, match="internals changed"):
        internals.load()
    outcome = run_benchmark("faith", "finprobe/faith-solver", task_args={"data": str(TINY)},
                            runs_dir=tmp_path / "default", display="none", limit=2)  # fmt: skip
    log = read_eval_log(str(outcome.log_path))
    assert log.status == "success" and log.samples[0].events  # inspect's runner keeps events
    monkeypatch.setattr(sys, "argv", [
        "finprobe", "eval", "faith", "--model", "finprobe/faith-solver", "--data", str(TINY),
        "--runs-dir", str(tmp_path / "direct"), "--display", "none", "--runner", "direct",
    ])  # fmt: skip
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    [line] = capsys.readouterr().err.strip().splitlines()  # one line, no traceback
    assert line.startswith("error: --runner direct: inspect_ai internals changed")
    assert not list((tmp_path / "direct").glob("*.eval"))


_CTRL_C_RUN = """
import os, signal, sys
from finprobe.benchmarks.faith import task as faith_task
from finprobe.runner import run_benchmark

real = faith_task.BASELINES["faith-solver"]
answered = []

def interrupted_at_the_third(metadata):
    answered.append(metadata["uid"])
    if len(answered) == 3:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the third sample runs
    return real(metadata)

faith_task.BASELINES["faith-solver"] = interrupted_at_the_third
# a run started from a terminal has Python's Ctrl-C handler; one started as a background
# job (CI under nohup, `cmd &`) inherits SIGINT ignored and would never see the interrupt
signal.signal(signal.SIGINT, signal.default_int_handler)
try:
    run_benchmark("faith", "finprobe/faith-solver", task_args={"data": sys.argv[1]},
                  runs_dir=sys.argv[2], display="none")
except KeyboardInterrupt:
    print("interrupted after", len(answered))
    sys.exit(130)
print("finished after", len(answered))
"""


def test_ctrl_c_stops_a_baseline_run_mid_way_as_cancelled(tmp_path) -> None:
    # in a fresh process, as a user's run from a terminal: no state of earlier tests
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run([sys.executable, "-c", _CTRL_C_RUN, str(TINY), str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert done.returncode == 130, done.stdout + done.stderr  # the interrupt propagated
    assert done.stdout.strip() == "interrupted after 3"  # stopped at the next sample, not the end
    [path] = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "cancelled" and len(log.samples) == 3
    assert not list(tmp_path.glob("*.json")) and not list(tmp_path.glob(".*partial"))


def test_a_tool_call_inside_a_guarded_generate_goes_to_inspect(tmp_path) -> None:
    from inspect_ai.model import ModelOutput, ModelUsage

    def tool_calls() -> Iterator:  # one tool call, then answers (inspect loops on tools)
        output = ModelOutput.for_tool_call("mockllm/model", "calc", {"x": 1})
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        yield output  # (with usage set mockllm counts no tokens: it stays offline)
        yield from _replies(FAITH_REPLY)

    run = dict(task_args={"data": str(TINY)}, display="none", limit=1)
    with pytest.raises(InputError, match="the model called a tool"):
        run_benchmark("faith", "mockllm/model", runs_dir=tmp_path / "direct", runner="direct",
                      model_args={"custom_outputs": tool_calls()}, **run)  # fmt: skip
    assert not list((tmp_path / "direct").glob("*.eval"))
    outcome = run_benchmark("faith", "mockllm/model", runs_dir=tmp_path / "default",
                            model_args={"custom_outputs": tool_calls()}, **run)  # fmt: skip
    log = read_eval_log(str(outcome.log_path))
    assert log.samples[0].events  # inspect's runner (which keeps events) ran it


def test_progress_shows_the_headline_metric_so_far(tmp_path, capsys) -> None:
    from finprobe.benchmarks.faith.task import faith

    log = _direct(faith(data=str(TINY)), tmp_path, show_progress=True, limit=None)
    lines = capsys.readouterr().err.splitlines()
    final = [line for line in lines if "samples (100%)" in line]
    assert len(final) == 1 and len(final[0]) <= 80
    # the same figure the run's results give (FAITH's headline: faith_scorer's correct)
    [score] = [s for s in log.results.scores if s.name == "correct"]
    assert final[0].endswith(f"correct mean {score.metrics['mean'].value:.3f}"), final[0]


def test_model_database_read_with_libyaml_is_inspects_own(monkeypatch) -> None:
    import yaml
    from inspect_ai.model import _model_info
    from inspect_ai.model._model_data import model_data

    from finprobe.inspect_internals import preload_model_info

    monkeypatch.setattr(_model_info, "_model_info_cache", None)
    assert preload_model_info() is True
    ours, theirs = _model_info._model_info_cache, model_data.read_model_info()
    assert model_data.yaml is yaml  # inspect's own parser is back in place
    assert list(ours) == list(theirs) and len(ours) > 100
    for key, info in ours.items():
        assert info.model_dump() == theirs[key].model_dump(), key
        assert info.__pydantic_private__ == theirs[key].__pydantic_private__, key
    assert preload_model_info() is False  # already loaded: left as it is
