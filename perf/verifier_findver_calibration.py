"""Nested folds by report over learned defaults for the FinDVer rule verifier.

    python perf/verifier_findver_calibration.py ../shared/data/findver/testmini-dev.json

The verifier runs its rule checks (``RULE_CHECKS``: without the length prior, shipped in
session 8, and the opt-in `support` bet). A calibration maps each
claim's signature (what the checks said, optionally with the subset, the check
kinds that ran or the kind of support a figure found) to the majority label of
the training claims with that signature, where there are at least 5, 10 or 20 of
them (else the rules' answer stands). Outer folds (5, grouped by report) score a
calibration that inner folds (4, grouped by report, training reports only) chose,
or none if none beats the rules there. The figure says how well learning such a
default generalises to other reports; the one learned on the dev claims is
"a claim whose only checks are dates that hold is refuted", kept as the opt-in
`support` check (kinds=WITH_SUPPORT), not a default: an unconfirmed bet on 24 dev
claims (15 refuted / 9 entailed, p = 0.15 against a coin) that is not monotone.
"""

from __future__ import annotations

import argparse
import re
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
from finprobe.benchmarks.findver.verifier import RULE_CHECKS, verify_claim  # noqa: E402
from finprobe.retrieval import in_document_order  # noqa: E402
from finprobe.retrievers import make_retriever  # noqa: E402

# the rule checks without the length prior or the "support" bet: both are answers per
# bucket of what the checks said, which is what this script learns
RULES = RULE_CHECKS
_DERIVED = re.compile(r"minus|plus|change from|% of|divided|sum of|percentage points")


def support_kind(checks: list) -> str:
    """The weakest support of a held number check: prose, a table cell or a derivation."""
    kinds = set()
    for check in checks:
        if check.kind != "number" or not check.passed:
            continue
        if _DERIVED.search(check.detail):
            kinds.add("derived")
        elif " = " in check.detail.split(" gives ")[0]:
            kinds.add("table")
        else:
            kinds.add("prose")
    return next((k for k in ("prose", "table", "derived") if k in kinds), "-")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("claims", type=Path)
    parser.add_argument("--reports", type=Path, default=None)
    args = parser.parse_args()
    claims = [c for c in load_claims(args.claims) if c.label is not None]
    reports = args.reports or default_reports_dir(args.claims)
    by_report: dict[str, list] = defaultdict(list)
    for c in claims:
        by_report[c.report].append(c)
    said: dict[str, bool] = {}
    signature: dict[str, dict[int, tuple]] = {}
    for report, group in by_report.items():
        retriever = make_retriever("bm25")
        retriever.index(report_passages(report_path(reports, report)))
        for c in group:
            evidence = in_document_order(retriever.retrieve(c.statement, 10))
            verdict = verify_claim(c.statement, evidence, kinds=RULES)
            said[c.example_id] = verdict.label == "entailed"
            bucket = "none" if not verdict.checks else "held" if not verdict.failed else "failed"
            kinds = tuple(sorted({check.kind for check in verdict.checks}))
            support = support_kind(verdict.checks)
            signature[c.example_id] = {
                0: (c.subset, bucket),
                1: (c.subset, bucket, kinds),
                2: (bucket, kinds),
                3: (bucket,),
                4: (bucket, kinds, support),
                5: (c.subset, bucket, support),
                6: (bucket, support),
            }
    configs = [(level, least) for level in range(7) for least in (5, 10, 20)]

    def fit(train: list, level: int, least: int):
        counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
        for c in train:
            counts[signature[c.example_id][level]][c.label] += 1

        def predict(c) -> bool:
            refuted, entailed = counts[signature[c.example_id][level]]
            if refuted + entailed < least:
                return said[c.example_id]
            return entailed >= refuted if said[c.example_id] else entailed > refuted

        return predict, counts

    def grouped(items: list, folds: int) -> dict[str, int]:
        names = sorted({c.report for c in items})
        return {name: i % folds for i, name in enumerate(names)}

    outer = grouped(claims, 5)
    right: dict[str, list[bool]] = defaultdict(list)
    chosen: Counter = Counter()
    for k in range(5):
        train = [c for c in claims if outer[c.report] != k]
        test = [c for c in claims if outer[c.report] == k]
        inner = grouped(train, 4)

        def inner_right(config: tuple, train: list = train, inner: dict = inner) -> int:
            total = 0
            for j in range(4):
                predict, _ = fit([c for c in train if inner[c.report] != j], *config)
                total += sum(predict(c) == c.label for c in train if inner[c.report] == j)
            return total

        rules_right = sum(said[c.example_id] == c.label for c in train)
        best = max(configs, key=inner_right)
        if inner_right(best) <= rules_right:
            best = None
        chosen[str(best)] += 1
        predict = fit(train, *best)[0] if best else (lambda c: said[c.example_id])
        for c in test:
            right[c.subset].append(predict(c) == c.label)
    everything = [x for values in right.values() for x in values]
    rules = [said[c.example_id] == c.label for c in claims]
    print(f"{args.claims}: {len(claims)} claims, {len(by_report)} reports")
    print(f"rules without the prior or `support`: {100 * sum(rules) / len(rules):.1f}")
    print(
        f"nested folds by report, learned default: {100 * sum(everything) / len(everything):.1f}  "
        + " ".join(f"{s} {100 * sum(v) / len(v):.1f}" for s, v in sorted(right.items()))
        + f"  chosen (level, minimum): {dict(chosen)}"
    )
    _, counts = fit(claims, 2, 5)
    print("on all claims, (what the checks said, check kinds): entailed / refuted")
    for key, (refuted, entailed) in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {key}: {entailed} / {refuted}")


if __name__ == "__main__":
    main()
