"""Build FinAuditing instances from the dev filings and score the non-LLM baselines.

Usage: .venv/bin/python perf/finauditing_dev.py [xbrl-folder] [out-folder]
Prints instance counts, build time and each baseline's headline beside the paper's best.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from finprobe.benchmarks.finauditing.baselines import BASELINES
from finprobe.benchmarks.finauditing.build import build_dataset
from finprobe.benchmarks.finauditing.dataset import HIDDEN_FROM_BASELINES, load_samples
from finprobe.benchmarks.finauditing.scorer import score_completion, summarize
from finprobe.runner import SampleRecord

ROOT = Path(__file__).resolve().parents[1]
XBRL = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "xbrl"
OUT = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/finauditing-dev")


def evaluate(subtask: str, baseline: str, drop_term: bool = False) -> dict:
    records = []
    for sample in load_samples(OUT, subtask):
        visible = {k: v for k, v in sample.metadata.items() if k not in HIDDEN_FROM_BASELINES}
        visible["query"] = sample.input
        if drop_term:  # evidence only: the retriever does not see the queried term
            visible["term"] = " "
        completion = BASELINES[baseline](visible)
        values, meta = score_completion(completion, sample.metadata)
        records.append(SampleRecord(str(sample.id), sample.metadata, completion, values, meta))
    return summarize(records)


def main() -> None:
    start = time.perf_counter()
    manifest = build_dataset(sorted(p for p in XBRL.iterdir() if p.is_dir()), OUT, seed=0)
    print(f"built in {time.perf_counter() - start:.1f}s: {manifest['counts']} "
          f"FinRE labels {manifest['labels']['finre']}")  # fmt: skip
    for subtask, baseline in (("finre", "finre-classifier"), ("finmr", "finmr-solver"),
                              ("finsm", "finsm-retriever")):  # fmt: skip
        out = evaluate(subtask, baseline)
        print(
            subtask, baseline, json.dumps(out["headline"]), json.dumps(out["breakdowns"]["source"])
        )
    blind = evaluate("finsm", "finsm-retriever", drop_term=True)
    print("finsm finsm-retriever without the query term", json.dumps(blind["headline"]))


if __name__ == "__main__":
    main()
