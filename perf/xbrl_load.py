"""Load time of finprobe.xbrl.load_filing on the shared filings (and Arelle's, if installed).

Usage: python perf/xbrl_load.py [DATA_DIR] [--repeat N] [--no-arelle]
Prints per-filing counts and median load time (wall and CPU), the median over
filings, and the speed ratio against Arelle when it is importable. The label linkbase
is read on first access of ``Filing.labels``: "+lab ms" is the CPU time of a load
followed by that first access. Ratios are given on CPU time (stable when other
processes share the cores) and on wall time.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

from finprobe.xbrl.filing import load_filing


def _time(fn, repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def _arelle_loader():
    try:
        from arelle import Cntlr, FileSource  # noqa: F401
    except ImportError:
        return None
    logging.getLogger("arelle").setLevel(logging.CRITICAL)
    cntlr = Cntlr.Cntlr(logFileName="logToBuffer")
    cntlr.webCache.workOffline = True

    def load(instance: Path):
        model = cntlr.modelManager.load(str(instance))
        n = (len(model.facts), len(model.contextDocuments) if hasattr(model, "contextDocuments")
             else len(model.contexts), len(model.units))  # fmt: skip
        cntlr.modelManager.close(model)
        return n

    return load


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "xbrl"
    ap.add_argument("data", nargs="?", type=Path, default=default)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-arelle", action="store_true")
    args = ap.parse_args(argv)
    folders = sorted(p for p in args.data.iterdir() if p.is_dir()) if args.data.is_dir() else []
    if not folders:
        print(f"no filings under {args.data}", file=sys.stderr)
        return 2
    arelle = None if args.no_arelle else _arelle_loader()
    head = (f"{'filing':18} {'facts':>6} {'ctx':>5} {'units':>5} {'calc':>5} {'pres':>5} "
            f"{'def':>5} {'wall ms':>8} {'cpu ms':>7} {'+lab ms':>7} {'nolab ms':>8}")  # fmt: skip
    if arelle:
        head += (f" {'arelle ms':>9} {'a cpu ms':>8} {'ratio':>6} {'cpu ratio':>9} "
                 f"{'arelle facts/ctx/units':>22}")  # fmt: skip
    print(head)
    walls, cpus, ratios, cpu_ratios, nolabs, withlabs = [], [], [], [], [], []
    for folder in folders:
        filing = load_filing(folder)
        load_filing(folder)  # warm the OS cache
        wall, cpu = _time(lambda f=folder: load_filing(f), args.repeat)
        _, withlab = _time(lambda f=folder: load_filing(f).labels, args.repeat)
        _, nolab = _time(lambda f=folder: load_filing(f, labels=False), args.repeat)
        c = filing.counts()
        walls.append(wall)
        cpus.append(cpu)
        nolabs.append(nolab)
        withlabs.append(withlab)
        line = (f"{folder.name:18} {c['facts']:6} {c['contexts']:5} {c['units']:5} "
                f"{c['calc_arcs']:5} {c['pres_arcs']:5} {c['def_arcs']:5} {wall * 1000:8.1f} "
                f"{cpu * 1000:7.1f} {withlab * 1000:7.1f} {nolab * 1000:8.1f}")  # fmt: skip
        if arelle:
            counts = arelle(filing.files.instance)
            a_wall, a_cpu = _time(lambda i=filing.files.instance: arelle(i),
                                  max(1, args.repeat // 2))  # fmt: skip
            ratios.append(a_wall / wall)
            cpu_ratios.append(a_cpu / cpu)
            line += (f" {a_wall * 1000:9.1f} {a_cpu * 1000:8.1f} {a_wall / wall:6.1f} "
                     f"{a_cpu / cpu:9.1f} {'/'.join(map(str, counts)):>22}")  # fmt: skip
        print(line, flush=True)
    print(f"median over {len(folders)} filings: wall {statistics.median(walls) * 1000:.1f} ms, "
          f"cpu {statistics.median(cpus) * 1000:.1f} ms, cpu with labels read "
          f"{statistics.median(withlabs) * 1000:.1f} ms, cpu without labels "
          f"{statistics.median(nolabs) * 1000:.1f} ms")  # fmt: skip
    if ratios:
        print(f"Arelle / finprobe load time: median {statistics.median(ratios):.1f}x "
              f"(min {min(ratios):.1f}x, max {max(ratios):.1f}x); on CPU time: median "
              f"{statistics.median(cpu_ratios):.1f}x (min {min(cpu_ratios):.1f}x, "
              f"max {max(cpu_ratios):.1f}x)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
