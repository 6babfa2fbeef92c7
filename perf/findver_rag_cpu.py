"""CPU time of the FinDVer dev RAG run with mockllm: first run (empty cache), second run,
and --limit 5; the whole process and the preparation before any model call.

Usage: python perf/findver_rag_cpu.py [claims.json] [--prepare-only] [--runner=direct|inspect]
(``--runner``: passed to ``finprobe eval``; default: its own default, direct for mockllm)
(default claims: ../shared/data/findver/testmini-dev.json beside the repository root)

Each figure is user+sys CPU seconds of a child process (what ``/usr/bin/time -v``
reports), with a fresh cache folder for the first run (FINPROBE_CACHE_DIR). The RAG
setting and its default retriever (bm25: the tokenizer of finprobe.retrieval over
bm25s) are the task's defaults; they are also passed explicitly.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREPARE = """
import sys, time
from finprobe.benchmarks.findver.task import findver_samples
start = time.process_time()
samples = findver_samples(sys.argv[1], setting="rag", retriever="bm25", limit=LIMIT)
print(f"{time.process_time() - start:.2f} {len(samples)}")
"""


def _child_cpu(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    prepare_only = "--prepare-only" in sys.argv
    runner = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--runner=")]
    claims = Path(args[0]) if args else ROOT.parent / "shared/data/findver/testmini-dev.json"
    if not claims.is_file():
        sys.exit(f"no claims file {claims}")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("FINPROBE_NO_CACHE", None)
    python = sys.executable
    finprobe = [python, "-m", "finprobe.cli"]
    with tempfile.TemporaryDirectory() as scratch:
        rows = []
        for label, limit, fresh in (
            ("--limit 5, empty cache", 5, True),
            ("full, first run (empty cache)", None, True),
            ("full, second run", None, False),
        ):
            cache = Path(scratch) / ("cache-limit" if limit else "cache")
            env["FINPROBE_CACHE_DIR"] = str(cache)
            code = PREPARE.replace("LIMIT", repr(limit))
            prep, out = _child_cpu([python, "-c", code, str(claims)], env)
            prep_in = float(out.split()[0])
            if fresh:  # the preparation above filled the cache: start the run cold again
                subprocess.run(["rm", "-rf", str(cache)], check=True)
            total = None
            if not prepare_only:
                command = [*finprobe, "eval", "findver", "--data", str(claims), "--model",
                           "mockllm/model", "-T", "setting=rag", "-T", "retriever=bm25",
                           "--runs-dir", str(Path(scratch) / f"runs-{len(rows)}"),
                           "--no-resume", "--display", "none"]  # fmt: skip
                if limit:
                    command += ["--limit", str(limit)]
                if runner:
                    command += ["--runner", runner[0]]
                total, _ = _child_cpu(command, env)
            rows.append((label, prep_in, prep, total))
    print(f"claims: {claims}; runner: {runner[0] if runner else 'default'}")
    print(f"{'run':32} {'prepare (in-process)':>20} {'prepare process':>16} {'finprobe eval':>14}")
    for label, prep_in, prep, total in rows:
        shown = f"{total:.1f} s" if total is not None else "-"
        print(f"{label:32} {prep_in:>18.1f} s {prep:>14.1f} s {shown:>14}")
    print("CPU = user+sys seconds; 'finprobe eval' is the whole command, imports and the")
    print("inspect run of every sample included; 'prepare' is parsing, indexing, retrieval.")


if __name__ == "__main__":
    main()
