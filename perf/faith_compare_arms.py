"""Two arms of the FAITH solver folds, blank by blank: is a change more than noise?

    python perf/faith_compare_arms.py BASE.json ARM.json [--setup folds] [--resamples N]

BASE.json and ARM.json are written by ``perf/faith_solver_folds.py --verdicts`` from the
same data files (e.g. the ranker without and with a candidate feature). For each file this
prints both accuracies, the blanks each arm gets right alone, and the difference with a 95%
interval over whole reports (``likeness.paired_difference``): spans of one report share its
tables and its writer, and the two arms share every span's difficulty, so the interval of
the paired difference is the one to read, not the two accuracies' intervals side by side.

A decision rule should still be declared before the arm is run; the interval says how much
of a difference five reports (pilot-dev) or forty (``q45``) can show at all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from finprobe.likeness import BOOTSTRAP_RESAMPLES, PairedDifference, paired_difference


def _load(path: str) -> list[dict[str, Any]]:
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise SystemExit(f"{path}: cannot read verdicts ({err})") from None
    if not isinstance(records, list):
        raise SystemExit(f"{path}: not a list of blanks (write it with --verdicts)")
    return records


def pair(base: list[dict[str, Any]], arm: list[dict[str, Any]], setup: str) -> list[dict]:
    """The two files' blanks side by side; they must be the same blanks in the same order."""
    if len(base) != len(arm):
        raise SystemExit(f"the arms scored different blanks: {len(base)} against {len(arm)}")
    pairs = []
    for i, (a, b) in enumerate(zip(base, arm, strict=True)):
        same = all(a.get(k) == b.get(k) for k in ("file", "report", "truth", "masked_sentence"))
        if not same:
            raise SystemExit(f"blank {i} differs between the arms ({a.get('file')}, "
                             f"{a.get('report')}): were they run on the same files?")  # fmt: skip
        if setup not in a["verdicts"] or setup not in b["verdicts"]:
            raise SystemExit(f"blank {i}: no {setup!r} verdict (setups: "
                             f"{', '.join(sorted(a['verdicts']))})")  # fmt: skip
        pairs.append({"file": a["file"], "report": a["report"], "scenario": a["scenario"],
                      "first": bool(a["verdicts"][setup]), "second": bool(b["verdicts"][setup])})  # fmt: skip
    return pairs


def compare(pairs: list[dict], resamples: int = BOOTSTRAP_RESAMPLES) -> dict[str, PairedDifference]:
    """Each file's paired difference (insertion order: the order the files were scored)."""
    out: dict[str, PairedDifference] = {}
    for name in dict.fromkeys(p["file"] for p in pairs):
        mine = [p for p in pairs if p["file"] == name]
        out[name] = paired_difference(
            mine, lambda p: p["report"], lambda p: p["first"], lambda p: p["second"], resamples
        )
    return out


def main(argv: list[str]) -> None:
    if len(argv) < 2 or "-h" in argv or "--help" in argv:
        print(__doc__)
        raise SystemExit(0 if "-h" in argv or "--help" in argv else 2)
    setup, resamples = "folds", BOOTSTRAP_RESAMPLES
    rest = []
    it = iter(argv)
    for token in it:
        if token in ("--setup", "--resamples"):
            value = next(it, None)
            if value is None:
                raise SystemExit(f"{token} needs a value")
            if token == "--setup":
                setup = value
            elif value.isdigit() and int(value) > 0:
                resamples = int(value)
            else:
                raise SystemExit(f"--resamples {value}: not a positive whole number")
        else:
            rest.append(token)
    if len(rest) != 2:
        raise SystemExit("give two verdict files: BASE.json ARM.json")
    results = compare(pair(_load(rest[0]), _load(rest[1]), setup), resamples)
    print(f"{setup}: {rest[0]} -> {rest[1]} (points; 95% interval over reports)")
    print(
        f"    {'file':<16} {'n':>5} {'base':>7} {'arm':>7} {'diff':>7}  {'interval':<16} gained lost"
    )
    for name, d in results.items():
        interval = f"[{d.interval[0]:+.2f}, {d.interval[1]:+.2f}]" if d.interval else "-"
        print(f"    {Path(name).stem:<16} {d.n:>5} {d.first:>7.2f} {d.second:>7.2f} "
              f"{d.difference:>+7.2f}  {interval:<16} {d.gained:>6} {d.lost:>4}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
