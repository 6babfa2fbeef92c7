"""A quick command line: `--help`, `--version`, `list` and `check` never import inspect_ai.

The start-up figures are in perf/cli_startup.py; these tests guard the cause (an eager
import of the runner, results, report or a benchmark's task module), so a later import
added at module level fails here instead of slowing every command by seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from finprobe.benchmark import BENCHMARK_NAMES, benchmark_info
from finprobe.defaults import CATALOG

HEAVY = ("inspect_ai", "openai", "numpy", "sklearn", "finprobe.runner", "finprobe.results",
         "finprobe.report", "finprobe._registry")  # fmt: skip

# imports finprobe.cli, runs main() on ARGV, then prints which heavy modules were loaded
PROBE = """
import json, sys
argv = json.loads(sys.argv[1])
heavy = json.loads(sys.argv[2])
import finprobe.cli
if argv is not None:
    sys.argv = ["finprobe", *argv]
    try:
        finprobe.cli.main()
    except SystemExit:
        pass
loaded = sorted(m for m in heavy if m in sys.modules
                or any(k.startswith(m + ".") for k in sys.modules))
print("LOADED=" + json.dumps(loaded), file=sys.stderr)
"""


def _loaded_after(argv: list[str] | None, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(heavy)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    line = [x for x in done.stderr.splitlines() if x.startswith("LOADED=")]
    assert line, done.stderr
    return json.loads(line[-1][len("LOADED=") :])


def test_importing_the_cli_imports_no_heavy_module() -> None:
    assert _loaded_after(None, (*HEAVY, "lxml", "finprobe.model_calls", "finprobe.benchmark")) == []


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["list"], ["build", "--help"],
                                  ["check", "--help"], ["eval", "--help"]])  # fmt: skip
def test_quick_commands_import_no_heavy_module(argv: list[str]) -> None:
    assert _loaded_after(argv) == []


def test_check_on_a_filing_imports_no_heavy_module(tmp_path: Path) -> None:
    from finprobe.synth import make_report
    from finprobe.xbrl.synth_export import export_report

    filing = export_report(make_report(seed=3), tmp_path / "synth")
    assert _loaded_after(["check", str(filing)]) == []


def test_check_and_list_load_no_other_benchmark_and_no_pydantic(tmp_path: Path) -> None:
    """`check` needs finauditing's commands only, `list` none; neither runs pydantic (typer
    0.29 builds a pydantic TypeAdapter for every parameter it coerces: pyproject pins < 0.29)."""
    from finprobe.synth import make_report
    from finprobe.xbrl.synth_export import export_report

    others = tuple(
        f"finprobe.benchmarks.{n}.commands" for n in BENCHMARK_NAMES if n != "finauditing"
    )
    filing = export_report(make_report(seed=3), tmp_path / "synth")
    assert _loaded_after(["check", str(filing)], others) == []
    assert _loaded_after(["list"], ("finprobe.benchmarks",)) == []
    import typer

    if tuple(int(p) for p in typer.__version__.split(".")[:2]) < (0, 29):
        assert _loaded_after(["check", str(filing)], ("pydantic",)) == []
        assert _loaded_after(["list"], ("pydantic",)) == []


def test_version_prints_without_a_command() -> None:
    done = subprocess.run([sys.executable, "-m", "finprobe.cli", "--version"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    from finprobe import __version__

    assert done.returncode == 0 and done.stdout.strip() == f"finprobe {__version__}"


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
def test_the_light_catalogue_matches_each_benchmark(name: str) -> None:
    """`list` and `--task` read finprobe.defaults; the benchmarks define the real thing."""
    assert tuple(CATALOG) == BENCHMARK_NAMES
    info = benchmark_info(name)
    tasks = tuple(task for task, _ in CATALOG[name])
    assert tasks == (info.subtasks or (name,))
    listed = {b for _, baselines in CATALOG[name] for b in baselines}
    assert listed == set(info.baselines)
    if name == "finauditing":  # which baseline answers which sub-task
        from finprobe.benchmarks.finauditing.task import SUBTASK_BASELINES

        assert {t: set(b) for t, b in CATALOG[name]} == {
            t: set(b) for t, b in SUBTASK_BASELINES.items()
        }


def test_runner_defaults_are_the_cli_defaults() -> None:
    import inspect

    from finprobe import model_calls, runner
    from finprobe.defaults import (
        DEFAULT_FAIL_ON_ERROR,
        DEFAULT_MAX_RETRIES,
        DEFAULT_RUNS_DIR,
        DEFAULT_TIMEOUT,
    )

    params = inspect.signature(runner.run_benchmark).parameters
    assert params["runs_dir"].default == DEFAULT_RUNS_DIR
    assert params["fail_on_error"].default == DEFAULT_FAIL_ON_ERROR
    limits = model_calls.RequestLimits()
    assert (limits.max_retries, limits.timeout) == (DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT)


def test_main_loads_only_the_commands_a_command_line_names() -> None:
    from finprobe.cli import _commands_needed

    assert _commands_needed(["list"]) == ()
    assert _commands_needed(["--version"]) == ()
    assert _commands_needed(["--debug", "eval", "faith", "-m", "x"]) == ()
    assert _commands_needed(["check", "f"]) == ("finauditing",)
    assert _commands_needed(["taxonomy", "search"]) == ("finauditing",)
    assert _commands_needed(["fined", "export-sft"]) == ("fined",)
    assert _commands_needed(["build", "faith"]) == BENCHMARK_NAMES
    assert _commands_needed([]) == BENCHMARK_NAMES  # the help lists every command
    assert _commands_needed(["--help"]) == BENCHMARK_NAMES


def test_commands_left_out_by_main_still_load_for_a_later_caller(capsys, monkeypatch) -> None:
    from typer.testing import CliRunner

    from finprobe.cli import app, main

    monkeypatch.setattr(sys, "argv", ["finprobe", "list"])
    with pytest.raises(SystemExit):
        main()
    assert "finprobe/findver-verifier" in capsys.readouterr().out
    shown = CliRunner().invoke(app, ["build", "findver", "--help"])
    assert shown.exit_code == 0 and "--synthetic" in shown.output
