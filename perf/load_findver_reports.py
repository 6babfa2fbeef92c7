"""Time loading every FinDVer report and count blocks, tables and MD&A hits.

Usage: python perf/load_findver_reports.py [reports_dir]
(default: ../shared/data/findver/reports beside the repository root)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from finprobe.document import load_findver_report, mdna_blocks


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "findver" / "reports"
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    paths = sorted(folder.glob("*.json*"))
    if not paths:
        sys.exit(f"no reports in {folder}")
    blocks = tables = aligned = 0
    per_type: dict[str, list[int]] = {}  # report type -> [reports, with MD&A]
    mdna_time = 0.0
    t0 = time.perf_counter()
    for path in paths:
        doc = load_findver_report(path)
        blocks += len(doc.blocks)
        tables += len(doc.tables)
        aligned += sum(t.html_cells is not None and t.cells == t.html_cells for t in doc.tables)
        m0 = time.perf_counter()
        found = mdna_blocks(doc)
        mdna_time += time.perf_counter() - m0
        counts = per_type.setdefault(str(doc.metadata.get("report_type")), [0, 0])
        counts[0] += 1
        counts[1] += bool(found)
    total = time.perf_counter() - t0
    n = len(paths)
    print(f"reports: {n}")
    print(
        f"load+mdna total: {total:.2f} s  per report: {1000 * total / n:.0f} ms (mdna alone {1000 * mdna_time / n:.1f} ms)"
    )
    print(
        f"blocks: {blocks}  tables: {tables}  tables aligned with their HTML twin: {aligned} ({aligned / max(tables, 1):.1%})"
    )
    for kind, (count, hits) in sorted(per_type.items()):
        print(f"MD&A found: {kind}: {hits}/{count}")


if __name__ == "__main__":
    main()
