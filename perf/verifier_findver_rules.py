"""The FinDVer verifier's opt-in general checks, each scored on claims it was not written on.

    python perf/verifier_findver_rules.py ../shared/data/findver/testmini-dev.json
    python perf/verifier_findver_rules.py built/claims.json --kind-field kind

For each rule of ``OPT_IN_RULES`` (and all of them together) it prints the accuracy with
and without it, by subset (or by the ``--kind-field``), the verdicts it changes, and
the accuracy with folds grouped by report where each fold's training reports choose
between "off" and "on" (a tie keeps it off). Evidence: BM25 top-10 over the report, as
the task's RAG default and ``perf/verifier_findver.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from finprobe.benchmarks.findver.dataset import (  # noqa: E402
    default_reports_dir,
    load_claims,
    report_passages,
    report_path,
)
from finprobe.benchmarks.findver.verifier import OPT_IN_RULES, verify_claim  # noqa: E402
from finprobe.retrieval import in_document_order  # noqa: E402
from finprobe.retrievers import make_retriever  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("claims", type=Path)
    parser.add_argument("--kind-field", default=None, help="claim field to break accuracy down by")
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    raw = {str(r["example_id"]): r for r in json.loads(args.claims.read_text())}
    claims = [c for c in load_claims(args.claims) if c.label is not None]
    reports = default_reports_dir(args.claims)
    by_report: dict[str, list] = defaultdict(list)
    for c in claims:
        by_report[c.report].append(c)
    variants = [frozenset()] + [frozenset({r}) for r in sorted(OPT_IN_RULES)] + [OPT_IN_RULES]
    right: dict[frozenset, dict[str, bool]] = defaultdict(dict)
    for report, group in by_report.items():
        passages = report_passages(report_path(reports, report))
        retriever = make_retriever("bm25")
        retriever.index(passages)
        for c in group:
            evidence = in_document_order(retriever.retrieve(c.statement, 10))
            for rules in variants:
                said = verify_claim(c.statement, evidence, rules=rules).label == "entailed"
                right[rules][c.example_id] = said == c.label

    def group_of(c) -> str:
        return str(raw[c.example_id].get(args.kind_field)) if args.kind_field else c.subset

    groups = sorted({group_of(c) for c in claims})

    def line(verdicts: dict[str, bool]) -> str:
        overall = 100 * sum(verdicts[c.example_id] for c in claims) / len(claims)
        parts = []
        for g in groups:
            members = [c for c in claims if group_of(c) == g]
            parts.append(
                f"{g} {100 * sum(verdicts[c.example_id] for c in members) / len(members):.1f}"
            )
        return f"{overall:5.1f}  " + "  ".join(parts)

    names = sorted(by_report)
    fold_of = {name: i % args.folds for i, name in enumerate(names)}
    print(f"{args.claims}: {len(claims)} claims, {len(by_report)} reports")
    print(f"{'rules off':34} {line(right[frozenset()])}")
    for rules in variants[1:]:
        name = "+".join(sorted(rules))
        changed = [
            c for c in claims if right[rules][c.example_id] != right[frozenset()][c.example_id]
        ]
        gained = sum(right[rules][c.example_id] for c in changed)
        print(
            f"{name:34} {line(right[rules])}   changes {len(changed)}: +{gained} -{len(changed) - gained}"
        )
        held: dict[str, bool] = {}
        chosen: Counter = Counter()
        for k in range(args.folds):
            train = [c for c in claims if fold_of[c.report] != k]

            def score(v: frozenset, subset=train) -> int:
                return sum(right[v][c.example_id] for c in subset)

            best = rules if score(rules) > score(frozenset()) else frozenset()
            chosen["on" if best else "off"] += 1
            for c in claims:
                if fold_of[c.report] == k:
                    held[c.example_id] = right[best][c.example_id]
        print(f"{'  folds by report (off or on)':34} {line(held)}   chosen {dict(chosen)}")
        for c in changed:
            mark = "+" if right[rules][c.example_id] else "-"
            print(f"    {mark} {c.example_id} [{group_of(c)}] {c.statement[:110]}")


if __name__ == "__main__":
    main()
