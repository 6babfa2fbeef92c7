"""FAITH solver accuracy that holds on reports it never saw: folds grouped by report.

    python perf/faith_solver_folds.py ../shared/data/faith/pilot-dev.json [built.json ...]

For each file: accuracy (released scorer, ``reference`` mode) per report and per
scenario with every rule on, then grouped folds: for each held-out report, the
rule set (of ``CONFIGS``) with the best accuracy on the *other* reports is chosen
and scored on the held-out one. Built files (``finprobe build faith``) score the
answerable instances; their scenario is the derivation finder's.

Read with care: the solver's rules were written while looking at pilot-dev's
failures, so the pilot figures (folds included) are optimistic; the built files'
figures are on reports the solver's rules never saw.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

from finprobe.benchmarks.faith.dataset import (
    HIDDEN_FROM_BASELINES,
    instance_metadata,
    iter_instances,
    load_faith_reports,
)
from finprobe.benchmarks.faith.scorer import parse_answer, score_answer
from finprobe.benchmarks.faith.solver import SolverOptions, solve_from_tables

CONFIGS = {
    "all rules": SolverOptions(),
    "no measures": SolverOptions(measures=False),
    "no sensitivity/lists": SolverOptions(sensitivity=False),
    "no anchor rules": SolverOptions(anchor_rules=False),
    "lookups and simple derivations only": SolverOptions(False, False, False),
}


def _pct(hits: int, n: int) -> str:
    return f"{100 * hits / n:6.2f} (n={n})" if n else "   -  "


def evaluate(path: str) -> None:
    started = time.perf_counter()
    rows = []  # (report, scenario, {config: correct})
    for report, inst in iter_instances(load_faith_reports(path)):
        if inst.answerability() != "answerable":
            continue
        meta = instance_metadata(report, inst)
        visible = {k: v for k, v in meta.items() if k not in HIDDEN_FROM_BASELINES}
        verdicts = {}
        for name, options in CONFIGS.items():
            parsed = parse_answer(solve_from_tables(visible, options).to_completion())
            answer = parsed["answer"] if parsed else None
            verdicts[name] = bool(score_answer(inst.ground_truth, answer)["correct"])
        rows.append((report.id, inst.mask_type or "none", verdicts))
    print(f"\n== {path}: {len(rows)} spans, {len(CONFIGS)} rule sets, "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    reports = sorted({r for r, _, _ in rows})
    for name in CONFIGS:
        hits = sum(v[name] for _, _, v in rows)
        print(f"  {name:38s} overall {_pct(hits, len(rows))}")
    print("  all rules, by report:")
    for rep in reports:
        group = [v["all rules"] for r, _, v in rows if r == rep]
        print(f"    {rep[:40]:40s} {_pct(sum(group), len(group))}")
    print("  all rules, by scenario:")
    for sc in ("A", "B", "C", "D", "none"):
        group = [v["all rules"] for _, s, v in rows if s == sc]
        if group:
            print(f"    {sc:4s} {_pct(sum(group), len(group))}")
    if len(reports) < 2:
        return
    # grouped folds: choose the rule set on the other reports, score the held-out one
    fold_hits: dict[str, list[bool]] = defaultdict(list)
    chosen = []
    for held in reports:
        train = [v for r, _, v in rows if r != held]
        best = max(CONFIGS, key=lambda name: sum(v[name] for v in train))
        chosen.append(best)
        for r, s, v in rows:
            if r == held:
                fold_hits[s].append(v[best])
    everything = [x for group in fold_hits.values() for x in group]
    print(f"  grouped folds (leave one report out; chosen: {sorted(set(chosen))}):")
    print(f"    overall {_pct(sum(everything), len(everything))}")
    for sc in ("A", "B", "C", "D", "none"):
        if fold_hits.get(sc):
            print(f"    {sc:4s} {_pct(sum(fold_hits[sc]), len(fold_hits[sc]))}")


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["../shared/data/faith/pilot-dev.json"]:
        evaluate(arg)
