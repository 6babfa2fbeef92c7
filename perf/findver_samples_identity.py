"""Prepared FinDVer samples, byte for byte: dump them, or compare two dumps.

Usage:
  python perf/findver_samples_identity.py dump OUT.json [claims.json] [--limit N]
  python perf/findver_samples_identity.py compare A.json B.json

``dump`` prepares every sample of the RAG setting (bm25, the task's defaults) with the disk
cache off (FINPROBE_NO_CACHE=1: reports parsed and indexed afresh) and writes, per sample,
its id, each prompt message's text, the target and the full metadata (retrieved passage
ids and passages included), as canonical JSON; it prints the count and a SHA-256 of the
file. A change to parsing, tables or retrieval that is meant to be a speed-up only must
leave the dump byte-identical: dump before and after, then ``compare``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CLAIMS = ROOT.parent / "shared/data/findver/testmini-dev.json"


def samples_text(samples: list) -> str:
    """The samples as canonical JSON (tests/test_findver_prepared_samples.py: the same)."""
    rows = [{"id": s.id, "input": [m.text for m in s.input], "target": s.target,
             "metadata": s.metadata} for s in samples]  # fmt: skip
    return json.dumps(rows, sort_keys=True, default=str, ensure_ascii=False, indent=0)


def dump(out: Path, claims: Path, limit: int | None) -> None:
    os.environ["FINPROBE_NO_CACHE"] = "1"
    from finprobe.benchmarks.findver.task import findver_samples

    samples = findver_samples(claims, setting="rag", retriever="bm25", limit=limit)
    text = samples_text(samples)
    out.write_text(text, encoding="utf-8")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    print(f"{len(samples)} samples -> {out} sha256 {digest}")


def compare(a: Path, b: Path) -> int:
    left, right = json.loads(a.read_text("utf-8")), json.loads(b.read_text("utf-8"))
    same = a.read_bytes() == b.read_bytes()
    differ = [x["id"] for x, y in zip(left, right, strict=False) if x != y]
    print(f"{len(left)} vs {len(right)} samples; byte-identical: {same}; samples that "
          f"differ: {len(differ)} {differ[:10]}")  # fmt: skip
    return 0 if same else 1


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    limit = None
    if "--limit" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--limit") + 1])
        args.remove(str(limit))
    if args[:1] == ["dump"] and len(args) in (2, 3):
        dump(Path(args[1]), Path(args[2]) if len(args) == 3 else DEFAULT_CLAIMS, limit)
    elif args[:1] == ["compare"] and len(args) == 3:
        sys.exit(compare(Path(args[1]), Path(args[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
