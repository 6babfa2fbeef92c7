"""The self-check's period and scope wording checks (see ``selfcheck``): each period a
claim names must be its cited column as the report names it, a quarter's span must be
the table's, and a segment its title names must be named.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from finprobe.benchmarks.findver.selfcheck_read import (
    _MARK,
    _MONTH_DAY,
    _YEAR,
    _captions,
    _clean,
    _prose,
    _RawTable,
)

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_DATED = re.compile(r"(?i)\b(" + "|".join(_MONTH_NAMES) + r")\s+(\d{1,2})\s*,?\s*((?:19|20)\d\d)\b")


def _dates_problem(m: re.Match[str], table: _RawTable) -> str | None:
    """A change between balances at dates under a year apart ("March 31, 2024 | December 31,
    2023") must name the dates, as the header prints them; "from 2023 to 2024" reads as a
    year over year. Dates named on any other table fail too."""
    header = _clean(table.header.replace("|", " "))
    spans = re.search(r"(?i)\bended\b|\bmonths\b|\bweeks\b|\bquarter\b|\byears?\b", header)
    by_year = _header_dates(table)
    old, new = m.group("y1"), m.group("y2")
    at = {y: next(iter(by_year[y])) for y in (old, new) if len(by_year.get(y, ())) == 1}
    close = False
    if not spans and len(at) == 2:
        (mo1, d1), (mo2, d2) = at[old], at[new]
        start = date(int(old), _MONTH_NAMES.index(mo1) + 1, d1)
        close = (date(int(new), _MONTH_NAMES.index(mo2) + 1, d2) - start).days < 330
    said = [m.group("day1"), m.group("day2")]
    if not close:
        return "dates named on columns not balances under a year apart" if any(said) else None
    for day, year in zip(said, (old, new), strict=True):
        if not day:
            return "balance dates not named"
        mo, d = day.split()
        if (mo.lower(), int(d)) != at[year]:
            return "named date is not the column's"
    return None


# ----------------------------------------------------------------------------- span and scope

_CLAIM_SPAN = re.compile(
    r"(?i)\bfor the (three months|six months|nine months|(?:fiscal )?quarter) ended (\w+)"
)
_LENGTHS = re.compile(
    r"(?i)\b(three|six|nine|twelve)\s+months\b|\b(quarter)\b|\b(years?)\s+ended\b"
)


def _lengths(text: str) -> set[str]:
    """The period lengths a header names: {"three"}, {"year"}, {"three", "nine"}."""
    out = set()
    for m in _LENGTHS.finditer(text):
        word = (m.group(1) or m.group(2) or m.group(3)).lower()
        out.add({"quarter": "three", "twelve": "year", "years": "year"}.get(word, word))
    return out


def _span_problem(statement: str, table: _RawTable) -> str | None:
    """The claim's "for the three months ended March 31" must be what the table's header
    or its caption line says; an annual table ("Year Ended December 31,") has no quarter."""
    said = _CLAIM_SPAN.search(statement)
    header = _clean(table.header)
    if not said:
        return None
    length = _lengths(said.group(1)).pop()
    stated = _lengths(header) or _lengths(" ".join(_captions(table.prose)))
    if stated != {length}:
        return "span is not the table's"
    month = said.group(2).lower()[:3]
    where = (header + " " + " ".join(_captions(table.prose))).lower()
    # "EndedMarch 31" (cells run together): no word boundaries around the month
    if not re.search(rf"ended[^|]{{0,40}}?{month}|{month}[a-z]*\.?\s*\d", where):
        return "span is not the table's"
    return None


def _table_lengths(table: _RawTable) -> frozenset[str]:
    """The period lengths of the table's header, or failing that of its caption lines;
    {"balance"} for columns dated at a day with no length ("December 31, | 2023 | 2022"), {}
    when nothing says (a bare "2023 | 2022")."""
    found = _lengths(_clean(table.header)) or _lengths(" ".join(_captions(table.prose)))
    if not found and _MONTH_DAY.search(_clean(table.header)):
        return frozenset({"balance"})
    return frozenset(found)


def _comparable(a: frozenset[str], b: frozenset[str]) -> bool:
    """May two tables' figures for one label and year be the same figure? Same lengths, or
    one table that says nothing beside a year's or a balance's; a balance is never a
    year's flow (a working-capital line "Accounts receivable" of a cash-flow statement is a
    change, not the balance sheet's figure)."""
    return (
        a == b
        or (not a and b <= {"year", "balance"} and len(b) == 1)
        or (not b and a <= {"year", "balance"} and len(a) == 1)
    )


# ----------------------------------------------------------------------------- period names

_NAMED_PERIOD = re.compile(
    r"\b(?:[Ii]n|[Aa]t|from|to) (?:(?P<fiscal>fiscal )|the fiscal year ended (?P<fday>[A-Z][a-z]+ \d{1,2}), "
    r"|(?P<day>[A-Z][a-z]+ \d{1,2}), )?(?P<year>(?:19|20)\d\d)\b"
)
_HEADER_SPAN = re.compile(r"(?i)\bended\b|\bmonths\b|\bweeks\b|\bquarter\b|\byears?\b|\bfiscal\b")


def _header_dates(table: _RawTable) -> dict[str, set[tuple[str, int]]]:
    """Year -> the (month, day) pairs the header prints for it, "| March 31, | December 31, |"
    over "| 2024 | 2023 |" paired in order."""
    header = _clean(table.header.replace("|", " "))
    days = list(re.finditer(r"(?i)\b(" + "|".join(_MONTH_NAMES) + r")\s+(\d{1,2})\b", header))
    years = list(_YEAR.finditer(header))
    one_day = {(d.group(1).lower(), int(d.group(2))) for d in days}
    if len(one_day) == 1 and len(years) >= 2 and days[-1].end() < years[0].start():
        # "Fiscal year ended January 31, | 2024 | 2023": the day over every year
        (mo, d) = one_day.pop()
        printed = {(mo, d, y.group()) for y in years}
    elif len(days) >= 2 and len(days) == len(years) and days[-1].end() < years[0].start():
        printed = {
            (d.group(1).lower(), int(d.group(2)), y.group())
            for d, y in zip(days, years, strict=True)
        }
    else:
        printed = {(mo.lower(), int(d), y) for mo, d, y in _DATED.findall(header)}
    out: dict[str, set[tuple[str, int]]] = {}
    for mo, d, y in printed:
        out.setdefault(y, set()).add((mo, d))
    return out


def _flow_lines(table: _RawTable) -> bool:
    """Does the table read as a statement of flows, whatever its header dates: a line
    "INCOME", "Operating expenses:", "Net loss", "Cash flows from ...", or a span in the
    three lines before it ("... FOR THE YEARS ENDED DECEMBER 31, 2023")?"""
    near = [_clean(ln) for ln in table.prose.splitlines() if ln.strip()][-3:]
    if any(len(ln.split()) <= 40 and _HEADER_SPAN.search(ln) for ln in near):
        return True
    flow = re.compile(
        r"(?i)^(?:total\s+)?(?:revenues?|income|(?:operating\s+)?expenses|costs and expenses|"
        r"net (?:income|loss|earnings)|cash flows? (?:from|used|provided))\b"
    )
    return any(flow.match(_MARK.sub("", label).strip()) for label, _ in table.lines)


# this module's own reading of what a row names, by word stems: a stock held at a date, or
# an amount over a period (a row with a stock's word, "Accrued expenses", is a stock)
_STOCK_STEMS = (
    "asset", "liabilit", "equity", "payable", "receivable", "inventor", "deposit", "debt",
    "borrowing", "balance", "cash", "goodwill", "intangible", "accrued", "accumulated",
    "deferred", "prepaid", "unearned", "retained", "deficit", "reserve", "allowance",
    "securities", "investment", "property", "equipment", "note", "loan", "capital", "stock",
    "obligation", "lease", "carrying",
)  # fmt: skip
_HELD_STEMS = (
    "asset", "liabilit", "payable", "receivable", "accrued", "accumulated", "deferred",
    "prepaid", "unearned", "retained", "allowance", "reserve",
)  # fmt: skip
_FLOW_STEMS = (
    "sales", "revenue", "cost of", "gross profit", "gross margin", "paid", "proceeds",
    "expense", "provision", "depreciation", "amortization", "gain", "loss", "per share",
    "weighted", "income", "earnings", "cash flow", "repayment", "issuance",
    # a cash-flow summary's lines (COO 77 "Operating activities", "Net increase (decrease)
    # in cash ..."): amounts over a period, though they name cash
    "activities", "net increase", "net decrease", "net change", "effect of exchange",
)  # fmt: skip


def _words_of(label: str) -> str:
    return " " + " ".join(re.findall(r"[a-z]+", label.lower())) + " "


def _has(words: str, stems: tuple[str, ...]) -> bool:
    return any(f" {stem}" in words for stem in stems)


def _balance_lines(table: _RawTable) -> bool:
    """Does the table read as balances: lines naming stocks (assets, cash, debt ...), and
    at most one line naming a flow ("Net sales", "Cash paid for interest") to two of them?"""
    stocks = flows = 0
    for label, _ in table.lines:
        words = _words_of(_MARK.sub("", label))
        if _has(words, _FLOW_STEMS) and not _has(words, _HELD_STEMS):
            flows += 1
        elif _has(words, _STOCK_STEMS):
            stocks += 1
    near = [_clean(ln) for ln in table.prose.splitlines() if ln.strip()][-3:]
    span = any(len(ln.split()) <= 40 and _HEADER_SPAN.search(ln) for ln in near)
    return stocks > 0 and 2 * flows <= stocks and not span  # "... FOR THE YEARS ENDED ..."


def _period_problem(claim: dict[str, Any], table: _RawTable, path: str) -> str | None:
    """Each period the claim names must be its cited column as the report names it: a
    balance "at March 31, 2024" (not "in 2024"); a year that ends in the first half of the
    next calendar year ("Fiscal Year Ended | February 3, 2024") not by that calendar year,
    and "fiscal 2023" only where the report's text ties that name to the column's date."""
    statement = claim["statement"]
    periods = [c["period"] for c in claim.get("cells") or []]
    if claim["kind"] in ("change", "pct_change"):
        m = re.search(r" from .*? to .*?(?:,|\.$| \()", statement)
        named = list(_NAMED_PERIOD.finditer(statement[m.start() :])) if m else []
        cited = periods[:2]
    else:
        named = list(_NAMED_PERIOD.finditer(statement))[:1]
        cited = periods[:1]
    if len(named) != len(cited) or not cited:
        return "period unreadable"
    dates = _header_dates(table)
    spans = _HEADER_SPAN.search(_clean(table.header)) or _HEADER_SPAN.search(
        " ".join(_captions(table.prose))
    )
    whole_year = re.search(r"(?i)\byears?\b|\bfiscal\b|\bweeks\b", _clean(table.header))
    months = re.search(r"(?i)\b(?:three|six|nine)\s+months\b", _clean(table.header))
    for m, period in zip(named, cited, strict=True):
        day = m.group("fday") or m.group("day")
        at = dates.get(period, set())
        column = next(iter(at)) if len(at) == 1 else None
        if m.group("fiscal"):
            if column is None:
                return "fiscal year not the column's"
            printed = f"{column[0]} {column[1]}, {period}"
            # no other fiscal year named between ("Fiscal 2024 ends February 1, 2025; fiscal
            # 2023 ended February 3, 2024" ties fiscal 2023, not 2024, to February 3, 2024)
            between = r"(?:(?!fiscal(?: year)? (?:19|20)\d\d|(?:19|20)\d\d).)"
            tie = rf"fiscal(?: year)? {m.group('year')}\W{between}{{0,80}}?{printed}|{printed}{between}{{0,12}}?fiscal(?: year)? {m.group('year')}\b"
            if not re.search(tie, _prose(path).lower().replace(" ,", ",")):
                return "fiscal year not the column's"
            continue
        if m.group("year") != period:
            return "named year is not the column's"
        if day:
            mo, d = day.split()
            if column != (mo.lower(), int(d)):
                return "named date is not the column's"
            single_period = claim["kind"] not in ("change", "pct_change")
            if single_period and m.group("day") and not _balance_lines(table):
                return "a flow stated at a date"  # "Net sales was $80,100 at December 31, 2023"
            continue
        if column is None:
            continue
        single = claim["kind"] not in ("change", "pct_change")
        if (
            single
            and not spans
            and _balance_lines(table)
            and all(len(dates.get(p, ())) == 1 for p in cited)
        ):
            return "balance date not named"  # "in 2024" of a balance at March 31, 2024
        early = not months and _MONTH_NAMES.index(column[0]) < 6
        if early and (whole_year or _named_fiscal_end(path, column, period)):
            # BBW's balances "February 3, | January 28," over "2024 | 2023": fiscal 2023's and
            # fiscal 2022's ends, as the report names them, not "from 2023 to 2024"
            return "fiscal year named by the calendar year of its end"
    return None


def _named_fiscal_end(path: str, column: tuple[str, int], year: str) -> bool:
    """Does the report's text tie a fiscal year's name to this date ("fiscal 2023 ...
    February 3, 2024")?"""
    printed = f"{column[0]} {column[1]}, {year}"
    between = r"(?:(?!fiscal(?: year)? (?:19|20)\d\d|(?:19|20)\d\d).)"
    named = r"fiscal(?: year)? (?:19|20)\d\d"
    tie = rf"{named}\W{between}{{0,80}}?{printed}|{printed}{between}{{0,12}}?{named}\b"
    return bool(re.search(tie, _prose(path).lower().replace(" ,", ",")))


_TITLED_SEGMENT = re.compile(r"\b([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)?)\s+Segment\b(?!s)")


def _title_scope_problem(statement: str, table: _RawTable) -> str | None:
    """A table whose title (the last lines before it, of any length) names a segment in
    capitals ("... Delta Group Segment Operating Income ...") holds that segment's figures:
    the claim must say whose they are."""
    lines = [_clean(ln) for ln in table.prose.splitlines() if ln.strip()][-3:]
    titled = {
        m.group(1).lower()
        for ln in lines
        for m in _TITLED_SEGMENT.finditer(ln)
        if not _describes_segments(m.group(1), ln[m.end() :])
    }
    if not titled:
        return None
    owner = re.match(r"(.{2,60}?)['’]s ", statement)
    said = owner.group(1).lower() if owner else ""
    if any(name in said for name in titled):
        return None
    return "segment in the title not named"


# a title's words that describe segments in general, not one by name ("Single Reportable
# Segment", "Business Segment Information", "Each Segment"), by this module's own list
_DESCRIBING = re.compile(
    r"(?i)^(?:(?:single|sole|one|two|three|each|every|all|our|other|total|the|a|an|by|per|"
    r"reportable|operating|business|geographic(?:al)?|primary|principal|significant|"
    r"multiple|combined|consolidated|new|selected|summary|summarized|reporting)\b\s*)+$"
    r"|\b(?:reportable|operating|business|geographic(?:al)?|single|each)\b"
)


def _describes_segments(name: str, after: str = "") -> bool:
    """A name before "Segment" that is a description, or a title that is a topic
    ("Segment Information", "Segment Data", "Segment Reporting")."""
    topic = re.match(r"(?i)\s*(?:information|data|reporting|results|disclosures?)\b", after)
    return bool(_DESCRIBING.search(name.strip()) or topic)


_CLAIMED_SEGMENT = re.compile(
    r"^(?:The |the )?(?P<a>.{2,50}?) segment['’]s |\bfor the (?P<b>.{2,50}?) segment\.$"
)


def _segment_name_problem(statement: str, path: str) -> str | None:
    """A segment the claim names ("The Delta Group segment's ...") must be a name, not a
    description ("The Single Reportable segment's"), and the report must call it a segment
    outside the table's title too: "Delta Group segment" in its text at least twice."""
    m = _CLAIMED_SEGMENT.search(statement)
    if not m:
        return None
    name = (m.group("a") or m.group("b")).strip()
    if _describes_segments(name):
        return "segment named by a description"
    said = len(re.findall(rf"(?i)\b{re.escape(name)}\s+segments?\b", _prose(path)))
    return None if said >= 2 else "segment name not in the report"
