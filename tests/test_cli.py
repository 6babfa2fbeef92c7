"""The command line: help, bad input (one line, exit 2), results/compare/report on a real run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import SHARED

TINY = Path(__file__).parent / "data" / "faith_tiny.json"


def finprobe(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "finprobe.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_help_lists_the_commands() -> None:
    result = finprobe("--help")
    assert result.returncode == 0
    for command in ("eval", "results", "compare", "report", "demo", "build", "list", "check"):
        assert command in result.stdout


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("", "file is empty"),
        ("{not json", "not valid JSON"),
        ('{"a": 1}', "FAITH format"),
    ],
)
def test_bad_data_file_is_one_line_and_exit_2(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    path = tmp_path / "data.json"
    if content is not None:
        path.write_text(content)
    result = finprobe(
        "eval",
        "faith",
        "--model",
        "finprobe/faith-solver",
        "--data",
        str(path),
        "--runs-dir",
        str(tmp_path),
    )
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert str(path.name) in lines[0] and problem in lines[0]
    assert "Traceback" not in result.stderr


def test_unknown_option_is_a_usage_error_with_exit_2() -> None:
    result = finprobe("eval", "findver", "--model", "finprobe/findver-verifier", "--bogus")
    assert result.returncode == 2
    assert "No such option: --bogus" in result.stderr
    assert "NoSuchOption" not in result.stderr and "Traceback" not in result.stderr


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    result = finprobe("--debug", "results", str(tmp_path / "missing.results.json"))
    assert result.returncode != 0
    assert "Traceback" in result.stderr


def test_unknown_benchmark_and_bad_results_file(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = finprobe("eval", "nope", "--model", "finprobe/faith-solver", "--runs-dir", str(runs))
    assert result.returncode == 2 and "unknown benchmark" in result.stderr
    assert not runs.exists()  # a refused run leaves nothing behind
    bad = tmp_path / "x.results.json"
    bad.write_text('{"hello": 1}')
    result = finprobe("results", str(bad))
    assert result.returncode == 2 and "not a FinProbe results file" in result.stderr


def test_results_compare_report_on_a_run(tmp_path: Path, tiny_baseline_run) -> None:
    outcome = tiny_baseline_run
    shown = finprobe("results", str(outcome.results_path))
    assert (
        shown.returncode == 0
        and "finprobe/faith-solver" in shown.stdout
        and "100.00" in shown.stdout
    )
    compared = finprobe(
        "compare", str(outcome.results_path), "--published", "--split", "pilot", "--top", "3"
    )
    assert compared.returncode == 0
    assert "Gemini-2.5-pro (published)" in compared.stdout and "95.00" in compared.stdout
    rescored = finprobe("results", str(outcome.log_path), "--rescore", "--json")
    assert rescored.returncode == 0 and '"rescored": true' in rescored.stdout
    out = tmp_path / "report.html"
    report = finprobe("report", str(outcome.results_path), "-o", str(out))
    assert report.returncode == 0
    page = out.read_text()
    assert page.count("data:image/png;base64,") == 2
    assert "GPT-4.1-mini (published)" in page and "finprobe/faith-solver" in page


def test_check_exit_code_says_whether_findings_were_found(tmp_path: Path) -> None:
    from finprobe.synth import make_report
    from finprobe.xbrl.synth_export import export_report

    filing = export_report(make_report(seed=3), tmp_path / "synth")
    clean = finprobe("check", str(filing))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    shared = SHARED / "data" / "xbrl" / "aeon-10q-2023"
    if shared.is_dir():  # one genuine calculation error: every child reported, sum differs
        found = finprobe("check", str(shared))
        assert found.returncode == 1 and "XBRL.calc: 1 error" in found.stdout
