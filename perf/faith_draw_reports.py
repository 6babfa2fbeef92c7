"""The FinDVer draws (10-Ks, and the 10-Qs) the FAITH solver's folds are measured on, rebuilt from scratch.

    python perf/faith_draw_reports.py [REPORTS_DIR] [OUT_DIR]

REPORTS_DIR defaults to ../shared/data/findver/reports, OUT_DIR to
/tmp/finprobe-faith-draws. Writes OUT_DIR/<name>/ (links to the drawn report files)
for four disjoint draws over the sorted 10-K file names and one of the 10-Qs, and prints the build
commands (``finprobe build faith``: about 30 s per 10 reports):

- ``ten``: ``random.Random(10).sample(tenk, 10)`` (scored; the FAITH README's build);
- ``dev15``: ``random.Random(15).sample(others, 15)`` of the other 79 (scored);
- ``more40``: ``random.Random(40).sample(rest, 40)`` of the remaining 64 (train only);
- ``rest24``: the 24 left (train only; it and ``ten`` each hold one of NLIT / NLITW, one
  filing under two tickers, which has no MD&A and gives no instance);
- ``q45``: the 45 10-Qs (round 13: never built before; scored; built with
  ``--include-10q``, and the builder keeps one of the two names of Bank of America's).

Then ``python perf/faith_solver_folds.py ../shared/data/faith/pilot-dev.json
OUT_DIR/ten.json OUT_DIR/dev15.json OUT_DIR/q45.json --train OUT_DIR/more40.json
OUT_DIR/rest24.json``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path


def draws(names: list[str]) -> dict[str, list[str]]:
    """The four disjoint draws over the 10-K file names (sorted first)."""
    tenk = sorted(n for n in names if "_10-K" in n)
    ten = random.Random(10).sample(tenk, 10)
    others = [n for n in tenk if n not in ten]
    dev15 = random.Random(15).sample(others, 15)
    rest = [n for n in others if n not in dev15]
    more40 = random.Random(40).sample(rest, 40)
    rest24 = [n for n in rest if n not in more40]
    tenq = sorted(n for n in names if "_10-Q" in n)
    return {"ten": ten, "dev15": dev15, "more40": more40, "rest24": rest24, "q45": tenq}


def main(argv: list[str]) -> None:
    source = Path(argv[0] if argv else "../shared/data/findver/reports").resolve()
    out = Path(argv[1] if len(argv) > 1 else "/tmp/finprobe-faith-draws")
    if not source.is_dir():
        raise SystemExit(f"error: {source}: no such folder of FinDVer reports")
    for name, group in draws([p.name for p in source.iterdir()]).items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for file in group:
            link = folder / file
            link.unlink(missing_ok=True)
            link.symlink_to(source / file)
        print(f"# {name}: {len(group)} reports: {', '.join(sorted(group))}")
        flag = " --include-10q" if name == "q45" else ""
        print(f"nice finprobe build faith {folder}{flag} --out {out / name}.json")


if __name__ == "__main__":
    main(sys.argv[1:])
