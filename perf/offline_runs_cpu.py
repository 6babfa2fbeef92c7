"""CPU time of offline `finprobe eval` runs, median of repeats, on one or more source trees.

Usage: python perf/offline_runs_cpu.py [--repeat N] [--src LABEL=PATH ...] [--only NAME ...]
       [--claims FINDVER_CLAIMS.json]

Each run is a child process (``python -m finprobe.cli eval ...``); CPU = its user+sys
seconds. Runs alternate between the trees (``--src``, default this tree) so that a change
in the machine's load touches each alike; the load average is printed before and after.
The FinDVer row is the dev RAG run with mockllm on ../shared (skipped when absent), with
its report cache warmed once first (FINPROBE_CACHE_DIR if set, else a scratch folder):
the "second run" of perf/findver_rag_cpu.py. The others run on the embedded synthetic data.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ROOT.parent / "shared/data/findver/testmini-dev.json"
RUNS = {
    "findver-rag-mockllm": ["findver", "--data", str(CLAIMS), "--model", "mockllm/model",
                            "-T", "setting=rag", "-T", "retriever=bm25"],
    "faith-solver": ["faith", "--model", "finprobe/faith-solver"],
    "finsm-retriever": ["finauditing", "--task", "finsm", "--model", "finprobe/finsm-retriever"],
    "fined-detector": ["fined", "--model", "finprobe/fined-detector"],
    "faith-mockllm": ["faith", "--model", "mockllm/model"],
}  # fmt: skip


def _cpu(command: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _values(flag: str) -> list[str]:
    return [sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == flag]


def main() -> None:
    repeat = int((_values("--repeat") or ["3"])[0])
    trees = dict(v.split("=", 1) for v in _values("--src")) or {"this": str(ROOT / "src")}
    names = _values("--only") or list(RUNS)
    claims = Path((_values("--claims") or [str(CLAIMS)])[0])
    RUNS["findver-rag-mockllm"][2] = str(claims)
    if not claims.is_file():
        names = [n for n in names if not n.startswith("findver")]
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as scratch:
        cache = os.environ.get("FINPROBE_CACHE_DIR") or str(Path(scratch) / "cache")
        base = {**os.environ, "FINPROBE_CACHE_DIR": cache}
        base.pop("FINPROBE_NO_CACHE", None)
        times: dict[tuple[str, str], list[float]] = {}
        for name in names:
            for src in trees.values():  # warm the caches (reports, synthetic data)
                env = {**base, "PYTHONPATH": src}
                command = [sys.executable, "-m", "finprobe.cli", "eval", *RUNS[name],
                           "--runs-dir", str(Path(scratch) / "runs"), "--no-resume",
                           "--display", "none"]  # fmt: skip
                _cpu(command, env)
            for _ in range(repeat):
                for label, src in trees.items():
                    env = {**base, "PYTHONPATH": src}
                    times.setdefault((name, label), []).append(_cpu(command, env))
    print(f"load average after: {os.getloadavg()}")
    print(f"{'run':22} {'tree':10} {'median CPU':>10}  all (s)")
    for (name, label), values in times.items():
        shown = " ".join(f"{v:.1f}" for v in values)
        print(f"{name:22} {label:10} {statistics.median(values):>8.1f} s  {shown}")


if __name__ == "__main__":
    main()
