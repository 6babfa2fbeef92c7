"""Per-blank verdicts of the FAITH solver, and what changed between two code versions.

    python perf/faith_verdicts.py run OUT.json FILE.json [FILE.json ...]
    python perf/faith_verdicts.py diff BEFORE.json AFTER.json

``run`` solves every answerable blank of each built file with the shipped weights
(``s``) and the hand weights (``h``) and writes, per blank (``file:report:uid``), both
verdicts and answers; it prints the counts per file. ``diff`` lists the blanks each
weight set gained and lost between two runs.

This is how a reading (a hard rule, a change to what the solver reads in the sentence)
is judged on the train-only files (``more40``, ``rest24``; see the FAITH README): run
before and after the change, from a copy of the source so an edit in progress never
mixes in (``PYTHONPATH=<copy>/src``), and keep the reading only if it gains with no loss.
"""

from __future__ import annotations

import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from finprobe.benchmarks.faith.dataset import (
    HIDDEN_FROM_BASELINES,
    instance_metadata,
    iter_instances,
    load_faith_reports,
)
from finprobe.benchmarks.faith.ranker import HAND_RANKER, load_ranker
from finprobe.benchmarks.faith.scorer import parse_answer, score_answer
from finprobe.benchmarks.faith.solver import SolverOptions, solve_from_tables
from finprobe.files import write_text_atomic


def verdicts(path: str) -> dict[str, dict[str, Any]]:
    """Per answerable blank of one file: verdict and answer under each weight set."""
    options = {"s": SolverOptions(ranker=load_ranker()), "h": SolverOptions(ranker=HAND_RANKER)}
    out: dict[str, dict[str, Any]] = {}
    for report, inst in iter_instances(load_faith_reports(path)):
        if inst.answerability() != "answerable":
            continue
        meta = instance_metadata(report, inst)
        visible = {k: v for k, v in meta.items() if k not in HIDDEN_FROM_BASELINES}
        entry: dict[str, Any] = {"scenario": inst.mask_type}
        for key, option in options.items():
            parsed = parse_answer(solve_from_tables(visible, option).to_completion())
            answer = parsed["answer"] if parsed else None
            entry[key] = bool(score_answer(inst.ground_truth, answer)["correct"])
            entry[key + "_answer"] = answer
        out[f"{Path(path).name}:{report.id}:{inst.uid}"] = entry
    return out


def run(out: str, paths: list[str]) -> None:
    with Pool(min(2, len(paths))) as pool:
        parts = pool.map(verdicts, paths)
    merged = {k: v for part in parts for k, v in part.items()}
    write_text_atomic(Path(out), json.dumps(merged, indent=0) + "\n")
    for path in paths:
        mine = [v for k, v in merged.items() if k.startswith(Path(path).name + ":")]
        print(f"{Path(path).name}: {len(mine)} blanks; shipped {sum(v['s'] for v in mine)},"
              f" hand {sum(v['h'] for v in mine)}")  # fmt: skip


def diff(before_path: str, after_path: str) -> None:
    before = json.loads(Path(before_path).read_text())
    after = json.loads(Path(after_path).read_text())
    common = [k for k in before if k in after]
    if len(common) < len(before) or len(common) < len(after):
        print(f"note: {len(before)} and {len(after)} blanks; {len(common)} in both are compared")
    for key, name in (("s", "shipped"), ("h", "hand")):
        gained = [k for k in common if after[k][key] and not before[k][key]]
        lost = [k for k in common if before[k][key] and not after[k][key]]
        print(f"{name}: gained {len(gained)}, lost {len(lost)}")
        for sign, keys in (("+", gained), ("-", lost)):
            for k in keys:
                print(f"  {sign} {k}: {before[k][key + '_answer']} -> {after[k][key + '_answer']}")


def main(argv: list[str]) -> None:
    if len(argv) >= 3 and argv[0] == "run":
        run(argv[1], argv[2:])
    elif len(argv) == 3 and argv[0] == "diff":
        diff(argv[1], argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
