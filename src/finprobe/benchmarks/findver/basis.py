"""The scale of a FinDVer report that states none (see ``report_basis``)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from finprobe.benchmarks.findver.table_facts import _SHARE_COUNT, table_facts

# "$2,817,340" in prose, no scale word after it: a figure quoted in whole dollars
_WHOLE_DOLLARS = re.compile(
    r"\$\s?(\d{1,3}(?:,\d{3})+)(?![\d,]|\.\d)(?!\s*(?:thousand|million|billion))"
)
_TABLE_FIGURE = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")


def _prose_quotes_whole_dollars(doc: Any) -> bool:
    """Does the report's prose quote, in whole dollars, a figure of 10,000 or more that
    one of its tables shows? Then its tables are in whole dollars; a report whose prose
    says "$93.7 million" of a table's 93,712 is in thousands."""
    quoted = {m.group(1) for p in doc.paragraphs for m in _WHOLE_DOLLARS.finditer(p.text)} - {
        f"{n:,}" for n in range(1000, 10_000)
    }
    if not quoted:
        return False
    shown = {
        m.group() for t in doc.tables for row in t.cells for x in row
        for m in _TABLE_FIGURE.finditer(str(x))
    }  # fmt: skip
    return bool(quoted & shown)


_NET_RESULT = re.compile(
    r"(?i)^net\s+(?:income|loss|earnings)(?:\s*\(\s*loss\s*\))?"
    r"(?:\s+attributable\s+to\s+[\w\s’']+)?$"
)


def report_basis(doc: Any) -> Decimal | None:
    """The scale of a report that states none: per-share figures fix it, since earnings per
    share times weighted shares is the net result in dollars (ZOM: a loss of $(0.03) on
    978 million shares is $33.6 million, so "Net loss | (33,638)" is in thousands); without
    that, whole dollars when the prose quotes table figures so ("$2,817,340"); else None."""
    ratios = []
    for table in doc.tables:
        facts = table_facts(table, False, Decimal(1))
        if facts is None:
            continue
        rows = list(facts.rows.values())
        net = next((r for r in rows if _NET_RESULT.match(r.label) and r.unit == "money"), None)
        eps = next((r for r in rows if r.unit == "per_share"), None)
        shares = next((r for r in rows if r.unit == "count" and _SHARE_COUNT.search(r.label)), None)
        if not (net and eps and shares):
            continue
        new = facts.periods[0]
        n, e, c = (abs(r.cells[new].value) for r in (net, eps, shares))
        # "(0.03)": within 20%, far from 1,000x; a share count under 100,000 may itself be
        # in thousands, which would make thousands read as dollars
        if n and e >= Decimal("0.01") and c >= 100_000:
            ratios.append(e * c / n)
    # the nearest scale within a decade (EPS of one share class times one class's shares
    # gives 0.2-0.6 of the net result); disagreeing or unplaced ratios say nothing
    nearest = {next((s for s in _BASES if s / 10 < r < s * 10), None) for r in ratios}
    if len(nearest) == 1 and None not in nearest:
        return nearest.pop()
    return Decimal(1) if _prose_quotes_whole_dollars(doc) else None


_BASES = (Decimal(1), Decimal(1000), Decimal(1_000_000))
