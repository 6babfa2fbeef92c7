"""perf/faith_compare_arms.py: two arms of the solver folds compared blank by blank."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "perf" / "faith_compare_arms.py"


def _verdicts(tmp_path: Path, name: str, folds: list[bool], truth: str = "5%") -> Path:
    records = [
        {
            "file": "q45.json" if i < 4 else "ten.json",
            "report": f"rep{i // 2}",
            "scenario": "A",
            "truth": truth,
            "masked_sentence": f"Sales rose [MASK] ({i}).",
            "verdicts": {"folds": ok, "cross": ok},
        }
        for i, ok in enumerate(folds)
    ]
    path = tmp_path / name
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def test_each_file_gets_its_paired_difference(tmp_path: Path) -> None:
    base = _verdicts(tmp_path, "base.json", [True, False, False, True, True, True])
    arm = _verdicts(tmp_path, "arm.json", [True, True, False, True, False, True])
    done = _run(str(base), str(arm))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[2:]}
    # q45: 2 of 4 -> 3 of 4, one gained; ten: 2 of 2 -> 1 of 2, one lost
    assert rows["q45"][1:5] == ["4", "50.00", "75.00", "+25.00"] and rows["q45"][-2:] == ["1", "0"]
    assert rows["ten"][1:5] == ["2", "100.00", "50.00", "-50.00"] and rows["ten"][-2:] == ["0", "1"]
    # q45's gain sits in one of its two reports: a resample has it zero, one or two times;
    # ten is one report, which gives no interval over reports
    assert rows["q45"][5:7] == ["[+0.00,", "+50.00]"]
    assert rows["ten"][5] == "-"


def test_arms_of_different_blanks_are_refused_with_the_blank_named(tmp_path: Path) -> None:
    base = _verdicts(tmp_path, "base.json", [True, False, False, True])
    other = _verdicts(tmp_path, "other.json", [True, False, False, True], truth="6%")
    done = _run(str(base), str(other))
    assert done.returncode != 0
    assert "blank 0 differs between the arms" in done.stderr
    missing = _run(str(base), str(tmp_path / "nope.json"))
    assert missing.returncode != 0 and "nope.json: cannot read verdicts" in missing.stderr
    no_setup = _run(str(base), str(base), "--setup", "shipped")
    assert (
        no_setup.returncode != 0
        and "base.json: blank 0 has no 'shipped' verdict" in no_setup.stderr
    )
    shorter = _verdicts(tmp_path, "shorter.json", [True, False, False])
    done = _run(str(base), str(shorter))
    assert done.returncode != 0 and "has 4 blanks and" in done.stderr
    (tmp_path / "junk.json").write_text("[1, 2]", encoding="utf-8")
    junk = _run(str(base), str(tmp_path / "junk.json"))
    assert junk.returncode != 0 and "junk.json: blank 0 is not a verdict record" in junk.stderr
    (tmp_path / "empty.json").write_text("[]", encoding="utf-8")
    empty = _run(str(tmp_path / "empty.json"), str(tmp_path / "empty.json"))
    assert empty.returncode != 0 and "not a non-empty list" in empty.stderr
    unknown = _run(str(base), str(base), "--seed", "3")
    assert unknown.returncode != 0 and "--seed: unknown option" in unknown.stderr
    for done in (no_setup, junk, empty, unknown):
        assert "Traceback" not in done.stderr
