"""Two arms of the FAITH solver folds, blank by blank: is a change more than noise?

    python perf/faith_compare_arms.py BASE.json ARM.json [--setup folds] [--resamples N]

BASE.json and ARM.json are written by ``perf/faith_solver_folds.py --verdicts`` from the
same data files (e.g. the ranker without and with a candidate feature). For each file this
prints both accuracies, the blanks each arm gets right alone, and the difference with a 95%
interval over whole reports (``likeness.paired_difference``): spans of one report share its
tables and its writer, and the two arms share every span's difficulty, so the interval of
the paired difference is the one to read, not the two accuracies' intervals side by side.

What the interval covers: which reports were drawn, with each arm's fitted rankers held
fixed. It leaves out the fit's own noise (another bootstrap seed moves pilot-dev's folds by
a blank or so: ``--spread``), so a difference of a blank or two is noise whatever the
interval says. A decision rule should still be declared before the arm is run; the
interval shows how much of a difference five reports (pilot-dev) or a few dozen (``q45``)
can show at all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from finprobe.likeness import BOOTSTRAP_RESAMPLES, PairedDifference, paired_difference

_KEYS = ("file", "report", "truth", "masked_sentence")


def _load(path: str) -> list[dict[str, Any]]:
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise SystemExit(f"{path}: cannot read verdicts ({err})") from None
    if not isinstance(records, list) or not records:
        raise SystemExit(f"{path}: not a non-empty list of blanks (write it with --verdicts)")
    for i, record in enumerate(records):
        if not (
            isinstance(record, dict)
            and all(k in record for k in (*_KEYS, "scenario"))
            and isinstance(record.get("verdicts"), dict)
        ):
            raise SystemExit(
                f"{path}: blank {i} is not a verdict record (write it with --verdicts)"
            )
    return records


def pair(
    base: list[dict[str, Any]], arm: list[dict[str, Any]], setup: str, names: tuple[str, str]
) -> list[dict]:
    """The two files' blanks side by side; they must be the same blanks in the same order."""
    if len(base) != len(arm):
        raise SystemExit(f"{names[0]} has {len(base)} blanks and {names[1]} {len(arm)}: "
                         "the arms scored different blanks")  # fmt: skip
    pairs = []
    for i, (a, b) in enumerate(zip(base, arm, strict=True)):
        if any(a[k] != b[k] for k in _KEYS):
            raise SystemExit(f"blank {i} differs between the arms ({a['file']}, "
                             f"{a['report']}): were they run on the same files?")  # fmt: skip
        for name, record in zip(names, (a, b), strict=True):
            if setup not in record["verdicts"]:
                raise SystemExit(f"{name}: blank {i} has no {setup!r} verdict (it has "
                                 f"{', '.join(sorted(record['verdicts'])) or 'none'})")  # fmt: skip
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
    if "-h" in argv[:1] or "--help" in argv[:1]:
        print(__doc__)
        return
    setup, resamples = "folds", BOOTSTRAP_RESAMPLES
    files = []
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
        elif token.startswith("-"):
            raise SystemExit(f"{token}: unknown option (--setup NAME, --resamples N)")
        else:
            files.append(token)
    if len(files) != 2:
        raise SystemExit("usage: faith_compare_arms.py BASE.json ARM.json [--setup folds] "
                         "[--resamples N]")  # fmt: skip
    pairs = pair(_load(files[0]), _load(files[1]), setup, (files[0], files[1]))
    results = compare(pairs, resamples)
    print(f"{setup}: {files[0]} -> {files[1]} (points; 95% interval over reports)")
    header = f"{'file':<16} {'n':>5} {'base':>7} {'arm':>7} {'diff':>8}  {'interval':<18}"
    print(f"    {header} gained lost")
    for name, d in results.items():
        interval = f"[{d.interval[0]:+.2f}, {d.interval[1]:+.2f}]" if d.interval else "-"
        print(f"    {Path(name).stem:<16} {d.n:>5} {d.first:>7.2f} {d.second:>7.2f} "
              f"{d.difference:>+8.2f}  {interval:<18} {d.gained:>6} {d.lost:>4}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
