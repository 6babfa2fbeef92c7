"""FAITH solver accuracy on reports its weights never saw: folds grouped by report.

    python perf/faith_solver_folds.py [--write] PILOT.json [BUILT.json ...]

The solver scores each candidate with a linear ranker (``faith/ranker.py``). This
script reports, in the released scorer's ``reference`` mode:

- ``hand``: the rule weights written while looking at pilot-dev (a tuned figure);
- ``shipped``: the weights in ``finprobe/data/faith_ranker.json`` (fitted on every
  file given here, so also a tuned figure on them);
- ``folds``: leave one report out. For each report of every file, the ranker is
  fitted on all the *other* reports (of every file given) and scores that report;
  this is the figure to quote;
- ``cross``: fitted only on the other files (e.g. built 10-K instances) and scored
  on this one: weights that never saw this file's source at all.

By report, by scenario (A/B/C/D; built files: the derivation finder's scenario).
``--write`` refits on everything given and writes the shipped weights.

Read with care: the features (and the measure/sensitivity rule families) were
written while looking at pilot-dev's failures, so folds on pilot-dev are still
optimistic; a held-out set of other reports is the real test.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finprobe.benchmarks.faith.context import read_context
from finprobe.benchmarks.faith.dataset import (
    HIDDEN_FROM_BASELINES,
    instance_metadata,
    iter_instances,
    load_faith_reports,
)
from finprobe.benchmarks.faith.ranker import HAND_RANKER, Ranker, fit_ranker, load_ranker
from finprobe.benchmarks.faith.scorer import parse_answer, score_answer
from finprobe.benchmarks.faith.solver import (
    SolverOptions,
    _format_value,
    rank_candidates,
    solve_from_tables,
)

TABLE_KINDS = ("lookup", "change", "pct_change", "share", "ratio", "sum")
SHIPPED = Path(__file__).resolve().parents[1] / "src/finprobe/data/faith_ranker.json"


@dataclass
class Blank:
    source: str  # the file
    report: str
    scenario: str
    truth: str
    visible: dict[str, Any]
    features: list[dict[str, float]] = field(default_factory=list)
    correct: list[bool] = field(default_factory=list)
    verdicts: dict[str, bool] = field(default_factory=dict)
    # the top candidate came from a measure/sensitivity rule: its verdict (these rules
    # place themselves above the best table candidate, whatever the weights)
    override: bool | None = None


def load(path: str) -> list[Blank]:
    """Every answerable blank, with its table candidates' features and correctness."""
    blanks = []
    hand = SolverOptions(ranker=HAND_RANKER)
    for report, inst in iter_instances(load_faith_reports(path)):
        if inst.answerability() != "answerable":
            continue
        meta = instance_metadata(report, inst)
        visible = {k: v for k, v in meta.items() if k not in HIDDEN_FROM_BASELINES}
        blank = Blank(path, f"{Path(path).stem}:{report.id}", inst.mask_type or "none",
                      inst.ground_truth, visible)  # fmt: skip
        context = read_context(visible)
        for i, cand in enumerate(rank_candidates(visible, hand)):
            answer = _format_value(cand.value, cand.percent, context, cand.kind)
            correct = bool(score_answer(inst.ground_truth, answer)["correct"])
            if cand.kind not in TABLE_KINDS or not cand.features:
                if i == 0:
                    blank.override = correct
                continue
            blank.features.append(cand.features)
            blank.correct.append(correct)
        blanks.append(blank)
    return blanks


def quick_verdict(blank: Blank, ranker: Ranker) -> bool:
    """From the cached candidates: the verdict of the best-scored one (an approximation
    where a rule's candidate depends on the table candidates' order)."""
    if blank.override is not None:
        return blank.override
    if not blank.features:
        return False
    scores = [ranker.score(f) for f in blank.features]
    return blank.correct[max(range(len(scores)), key=scores.__getitem__)]


def verdict(blank: Blank, ranker: Ranker) -> bool:
    parsed = parse_answer(solve_from_tables(blank.visible, SolverOptions(ranker=ranker)).to_completion())
    return bool(score_answer(blank.truth, parsed["answer"] if parsed else None)["correct"])


def fit(blanks: list[Blank]) -> Ranker:
    return fit_ranker([(b.features, b.correct) for b in blanks])


def _pct(hits: int, n: int) -> str:
    return f"{100 * hits / n:6.2f} (n={n})" if n else "   -  "


def table(blanks: list[Blank], setups: list[str]) -> None:
    print(f"    {'':10s}" + "".join(f"{s:>20s}" for s in setups))
    for sc in ("all", "A", "B", "C", "D", "none"):
        group = [b for b in blanks if sc == "all" or b.scenario == sc]
        if group:
            cells = [_pct(sum(b.verdicts[s] for b in group), len(group)) for s in setups]
            print(f"    {sc:10s}" + "".join(f"{c:>20s}" for c in cells))
    reports = sorted({b.report for b in blanks})
    for rep in reports:
        group = [b for b in blanks if b.report == rep]
        cells = [_pct(sum(b.verdicts[s] for b in group), len(group)) for s in setups]
        print(f"    {rep.split(':')[-1][:10]:10s}" + "".join(f"{c:>20s}" for c in cells))


def main(argv: list[str]) -> None:
    write = "--write" in argv
    paths = [a for a in argv if a != "--write"] or ["../shared/data/faith/pilot-dev.json"]
    started = time.perf_counter()
    blanks: list[Blank] = []
    for path in paths:
        blanks += load(path)
    print(f"{len(blanks)} blanks from {len(paths)} files, "
          f"features in {time.perf_counter() - started:.0f} s")  # fmt: skip
    shipped = load_ranker(str(SHIPPED)) if SHIPPED.exists() else None
    by_report: dict[str, list[Blank]] = defaultdict(list)
    for b in blanks:
        by_report[b.report].append(b)
    for rep, group in by_report.items():
        fold = fit([b for b in blanks if b.report != rep])
        for b in group:
            b.verdicts["folds"] = verdict(b, fold)
    for path in paths:
        mine = [b for b in blanks if b.source == path]
        others = [b for b in blanks if b.source != path]
        cross = fit(others) if others else None
        for b in mine:
            b.verdicts["hand"] = verdict(b, HAND_RANKER)
            if shipped:
                b.verdicts["shipped"] = verdict(b, shipped)
            if cross:
                b.verdicts["cross"] = verdict(b, cross)
        setups = ["hand"] + (["shipped"] if shipped else []) + ["folds"] + (["cross"] if cross else [])
        print(f"\n== {path}: {len(mine)} answerable blanks; accuracy % (reference mode)")
        table(mine, setups)
    if write:
        ranker = fit(blanks)
        names = sorted({Path(p).name for p in paths})
        data = {**ranker.to_json(), "name": "learned", "fitted_on": names}
        SHIPPED.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {SHIPPED} (fitted on {', '.join(names)})")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
