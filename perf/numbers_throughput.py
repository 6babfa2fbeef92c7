"""Throughput of finprobe.numbers: parse-and-match pairs/s and find_numbers sentences/s.

Run: .venv/bin/python perf/numbers_throughput.py [--repeat N]
Figures are printed both cold (caches cleared before each pass over distinct
strings) and warm (the parse cache hit, as when a run re-scores the same answers).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from finprobe import numbers
from finprobe.numbers import find_numbers, precision_relaxed_match, reference_scorer_match

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "numbers_match.jsonl"
PILOT = ROOT.parent / "shared" / "data" / "faith" / "pilot-dev.json"


def _clear_caches() -> None:
    numbers._parse_cached.cache_clear()
    numbers._find_cached.cache_clear()
    numbers._extract_units_cached.cache_clear()


def _pairs_per_second(pairs: list[tuple[str, str]], repeat: int, cold: bool) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        if cold:
            _clear_caches()
        for ref, pred in pairs:
            precision_relaxed_match(ref, pred)
            reference_scorer_match(ref, pred)
    return len(pairs) * repeat / (time.perf_counter() - start)


def _sentences_per_second(sentences: list[str], repeat: int, cold: bool) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        if cold:
            _clear_caches()
        for s in sentences:
            find_numbers(s)
    return len(sentences) * repeat / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args()

    with open(GOLDEN, encoding="utf-8") as f:
        pairs = [(c["reference"], c["prediction"]) for c in map(json.loads, f) if c]
    find_numbers("warm up the unit tables: $1.2 million")

    print(f"golden pairs: {len(pairs)}, repeat {args.repeat} (each pair: paper + reference match)")
    print(f"  cold parse: {_pairs_per_second(pairs, args.repeat, cold=True):,.0f} pairs/s")
    print(f"  warm cache: {_pairs_per_second(pairs, args.repeat, cold=False):,.0f} pairs/s")

    if not PILOT.is_file():
        print(f"pilot data not found at {PILOT}: skipping find_numbers figures")
        return
    records = json.loads(PILOT.read_text(encoding="utf-8"))
    sentences: list[str] = []
    for rec in records:
        for inst in rec["instances"]:
            sentences += [inst["sentence"], inst["pre_sentence"], inst["post_sentence"]]
    sentences = [s for s in sentences if isinstance(s, str) and s]
    chars = sum(map(len, sentences)) / len(sentences)
    print(f"pilot sentences: {len(sentences)} (mean {chars:.0f} chars), repeat {args.repeat}")
    print(
        f"  cold find_numbers: {_sentences_per_second(sentences, args.repeat, cold=True):,.0f} sentences/s"
    )
    print(
        f"  warm find_numbers: {_sentences_per_second(sentences, args.repeat, cold=False):,.0f} sentences/s"
    )


if __name__ == "__main__":
    main()
