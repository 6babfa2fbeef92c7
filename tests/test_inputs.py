"""Malformed inputs exit 2 with one line naming the file, the record and the field."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from finprobe.cli import main
from finprobe.errors import InputError
from finprobe.files import read_json, write_text_atomic
from finprobe.schemas import FaithReportRecord, validate_records

TINY = Path(__file__).parent / "data" / "faith_tiny.json"


def _tiny() -> list[dict]:
    return json.loads(TINY.read_text())


def _cli(capsys, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["finprobe", *args])
    with pytest.raises(SystemExit) as done:
        main()
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.err.strip()


def _faith_case(tmp_path: Path, edit) -> Path:
    data = _tiny()
    edit(data)
    path = tmp_path / "faith.json"
    path.write_text(json.dumps(data))
    return path


def _set(path: tuple, value):
    def edit(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


CASES = {
    "tables null": (_set((0, "tables"), None), "report 0, field tables: null is not allowed"),
    "instances are strings": (
        _set((0, "instances"), ["a", "b"]),
        "report 0, field instances[0]: input should be a valid dictionary",
    ),
    "null ground truth": (
        _set((0, "instances", 1, "ground_truth"), None),
        "field instances[1].ground_truth: null is not allowed (expected text or a number)",
    ),
    "cells as a string": (
        _set((0, "tables", 0, "cells"), "| a | b |"),
        "field tables[0].cells: input should be a valid list",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_malformed_faith_dataset_exits_2_naming_the_field(
    tmp_path: Path, capsys, monkeypatch, case: str
) -> None:
    edit, expected = CASES[case]
    path = _faith_case(tmp_path, edit)
    code, err = _cli(capsys, monkeypatch, "eval", "faith", "--model", "finprobe/faith-solver",
                     "--data", str(path), "--runs-dir", str(tmp_path / "runs"))  # fmt: skip
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert str(path) in err and expected in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "expected"),
    [("[]", "no reports (the list is empty)"),
     ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
     ('"just text"', "expected a JSON list of FAITH reports")],
)  # fmt: skip
def test_empty_deep_or_wrong_json_exits_2(tmp_path, capsys, monkeypatch, text, expected) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, err = _cli(capsys, monkeypatch, "eval", "faith", "--model", "finprobe/faith-solver",
                     "--data", str(path), "--runs-dir", str(tmp_path / "runs"))  # fmt: skip
    assert code == 2 and expected in err and str(path) in err, err


def test_giant_record_is_refused_before_prompts_are_built(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FINPROBE_MAX_RECORD_CHARS", "10000")
    data = _tiny()
    data[0]["tables"][0]["cells"] = [["x" * 20_000]]
    with pytest.raises(InputError, match="report 0 .* over 10,000 characters"):
        validate_records("big.json", data, FaithReportRecord, "report")


def test_task_must_be_a_task(tmp_path, capsys, monkeypatch) -> None:
    code, err = _cli(capsys, monkeypatch, "eval", "finauditing", "--task", "__init__",
                     "--model", "finprobe/finre-classifier")  # fmt: skip
    assert code == 2 and "--task '__init__'" in err and "finsm, finre, finmr" in err


def test_out_that_is_a_folder_exits_2(tmp_path, capsys, monkeypatch, tiny_baseline_run) -> None:
    code, err = _cli(capsys, monkeypatch, "report", str(tiny_baseline_run.results_path),
                     "--out", str(tmp_path))  # fmt: skip
    assert code == 2 and str(tmp_path) in err and "is a folder" in err
    with pytest.raises(InputError, match="is a folder"):
        write_text_atomic(tmp_path, "x")


@pytest.mark.parametrize(
    ("content", "expected"),
    [({"benchmark": "faith", "model": "m", "headline": "high"},
      "field headline: input should be a valid dictionary"),
     ({"benchmark": "faith", "model": "m", "headline": {"overall": "ninety"}},
      "field headline.overall"),
     ({"benchmark": 5, "model": "m"}, "field benchmark"),
     ([1, 2], "not a FinProbe results file")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["results", "report"])
def test_wrong_typed_results_exit_2(tmp_path, capsys, monkeypatch, content, expected, command):
    path = tmp_path / "run.results.json"
    path.write_text(json.dumps(content))
    extra = ["--out", str(tmp_path / "r.html")] if command == "report" else []
    code, err = _cli(capsys, monkeypatch, command, str(path), *extra)
    assert code == 2 and str(path) in err and expected in err, err


def test_gz_over_the_size_limit_is_refused(tmp_path, monkeypatch) -> None:
    import gzip

    path = tmp_path / "big.json.gz"
    path.write_bytes(gzip.compress(b"[" + b" " * (3 << 20) + b"]"))
    monkeypatch.setenv("FINPROBE_MAX_INPUT_MB", "2")
    with pytest.raises(InputError, match="unpacks to over 2 MB"):
        read_json(path)
