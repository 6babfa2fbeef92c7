"""One way to pass inputs: every `finprobe build` takes its documents as positional paths
(files or folders, several), `--reports` still works (hidden, deprecated), and a missing or
unreadable input is one line on stderr naming the file, exit status 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.errors import InputError
from finprobe.inputs import collect_inputs

REPORTS = SHARED / "data" / "findver" / "reports"
# two small 10-Ks from which every builder makes instances (FinDVer needs two-year tables)
SMALL = ("HGYN-2024-04-09_10-K.json.gz", "MCCX-2024-04-15_10-K.json.gz")


def test_collect_inputs_files_folders_suffixes_and_order(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("b.json", "a.JSON", "c.txt", "notes.csv"):
        (folder / name).write_text("{}")
    (folder / "sub").mkdir()  # folders are not walked into
    single = tmp_path / "z.json"
    single.write_text("{}")
    got = collect_inputs([single, folder], (".json",))
    assert got == [single, folder / "a.JSON", folder / "b.json"]
    assert collect_inputs([folder], (".json", ".txt"))[-1] == folder / "c.txt"
    with pytest.raises(InputError, match="no such file or folder") as missing:
        collect_inputs([folder, tmp_path / "gone.json"], (".json",))
    assert "gone.json" in str(missing.value)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="folder holds no .json files") as none:
        collect_inputs([empty], (".json",))
    assert "empty" in str(none.value)


@pytest.fixture
def two_reports(tmp_path: Path) -> tuple[Path, list[Path]]:
    if not all((REPORTS / name).is_file() for name in SMALL):
        pytest.skip("shared FinDVer reports not present")
    folder = tmp_path / "reports"
    folder.mkdir()
    files = [Path(shutil.copy(REPORTS / name, folder / name)) for name in SMALL]
    return folder, files


def _reports_in(benchmark: str, out: Path) -> set[str]:
    """Which source reports a built dataset drew on."""
    data = json.loads(out.read_text())
    if benchmark == "faith":
        return {r["metadata"]["report_id"] for r in data}
    if benchmark == "findver":
        return {r["report"] for r in data}
    return {d["id"].split(":")[0] for d in data["documents"]}  # fined


def _build(benchmark: str, args: list[str], out: Path) -> tuple[int, str]:
    from finprobe.cli import app

    extra = {"faith": ["--max-sentences", "3"], "fined": ["--no-probe", "--sample", "0"]}
    res = CliRunner().invoke(app, ["build", benchmark, *args, "--out", str(out),
                                   *extra.get(benchmark, [])])  # fmt: skip
    return res.exit_code, res.output


@pytest.mark.parametrize("benchmark", ["faith", "findver", "fined"])
def test_build_takes_files_and_folders_as_arguments(
    benchmark: str, two_reports: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    folder, files = two_reports
    by_folder = tmp_path / "folder" / "out.json"
    code, output = _build(benchmark, [str(folder)], by_folder)
    assert code == 0, output
    by_files = tmp_path / "files" / "out.json"
    code, output = _build(benchmark, [str(f) for f in files], by_files)
    assert code == 0, output
    drawn = _reports_in(benchmark, by_folder)
    assert len(drawn) == 2 and drawn == _reports_in(benchmark, by_files)


@pytest.mark.parametrize("benchmark", ["findver", "fined"])
def test_the_old_reports_option_still_works(
    benchmark: str, two_reports: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    folder, files = two_reports
    out = tmp_path / "old" / "out.json"
    code, output = _build(benchmark, ["--reports", str(files[0])], out)
    assert code == 0, output
    assert "--reports is deprecated" in output  # said on stderr, which CliRunner mixes in
    assert len(_reports_in(benchmark, out)) == 1
    from finprobe.cli import app

    shown = CliRunner().invoke(app, ["build", benchmark, "--help"])
    assert "--reports" not in shown.output  # hidden: one documented way


def _stderr_of_build(benchmark: str, path: Path, tmp_path: Path) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-m", "finprobe.cli", "build", benchmark, str(path),
         "--out", str(tmp_path / f"{benchmark}-out.json")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return done.returncode, [line for line in done.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("benchmark", ["faith", "findver", "fined", "finauditing"])
def test_a_missing_or_unreadable_input_is_one_line_naming_it(
    benchmark: str, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-report.json.gz"
    code, lines = _stderr_of_build(benchmark, missing, tmp_path)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error:") and "no-such-report.json.gz" in lines[0]
    assert "no such file or folder" in lines[0]
    corrupt = tmp_path / "corrupt-report.json.gz"
    corrupt.write_bytes(b"not gzip at all")
    code, lines = _stderr_of_build(benchmark, corrupt, tmp_path)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error:") and "corrupt-report.json.gz" in lines[0]
    assert "Traceback" not in lines[0]


def test_eval_data_missing_is_one_line_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "built.json"
    done = subprocess.run(
        [sys.executable, "-m", "finprobe.cli", "eval", "faith", "--model",
         "finprobe/faith-solver", "--data", str(missing), "--runs-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1
    assert "built.json" in lines[0] and "no such file or folder" in lines[0]
