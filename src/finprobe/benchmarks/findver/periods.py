"""How a built FinDVer claim names its periods: the span of a quarter's columns ("for the
three months ended March 31"), the dates of balance columns ("at March 31, 2024"; a change
between balances under a year apart "from December 31, 2023 to March 31, 2024"), and a
fiscal year that ends early in the next calendar year as the report names it ("fiscal
2023" for the year ended February 3, 2024, where the report defines it so; else "the
fiscal year ended February 3, 2024"), never by the calendar year of its end. Split out of
``build``; ``table_facts`` (table reading) and ``build`` (claim making) import these from here.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any


def caption_like(line: str) -> bool:
    """A title or a lead-in sentence ("The components of deferred taxes consist of the
    following:"), not a paragraph of prose that happens to mention a quarter or a tax."""
    words = len(line.split())
    return 0 < words <= 15 or (words <= 40 and line.rstrip().endswith(":"))


_WHOLE_YEAR = re.compile(
    r"(?i)\b(?:years?|twelve\s+months|12\s+months|fiscal\s+years?)\s+ended\b|\bfiscal\s+year\b"
)
_MONTH_DAY = re.compile(
    r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
)
MONTHS_ENDED = re.compile(
    r"(?i)\b(three\s+months|six\s+months|nine\s+months|(?:fiscal\s+)?quarter)\s*ended\s*"
    r"((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2}\b)?)"
)  # "ended March 31", "ended December" (of "December 2023"), never "December 20"(23)


def span_of(match: re.Match[str]) -> str:
    return f"{' '.join(match.group(1).lower().split())} ended {match.group(2)}"


def stated_span(table: Any) -> str:
    """The span the header or the lead-in line states when the year columns' own labels do
    not ("Fiscal Quarter Ended December 31," over "2023 | 2022"; "... for the six months
    ended December 31, 2023 and 2022:"); "" if none or more than one."""
    header = " ".join(" ".join(row) for row in table.cells[: table.header_rows])
    if _WHOLE_YEAR.search(header):
        return ""  # "Year Ended December 31,": whatever the prose above says of a quarter
    days = {" ".join(d.lower().split()) for d in _MONTH_DAY.findall(header)}
    if len(days) > 1 and not re.search(r"(?i)\bended\b|\bmonths\b", header):
        return ""  # "March 31 2024 | December 31 2023": balances at two dates, no span
    lines = [ln.strip() for ln in (table.pre_text or "").splitlines() if ln.strip()]
    lead = [ln for ln in lines[-1:] if caption_like(ln)]  # never a paragraph of prose
    found = {span_of(m) for m in MONTHS_ENDED.finditer(header + "\n" + "\n".join(lead))}
    if not found:  # "Period Ended January 31, | Three Months": the two halves apart
        months = set(re.findall(r"(?i)\b(three|six|nine)\s+months\b", header))
        ended = _ENDED.findall(header)
        if len({m.lower() for m in months}) == 1 and len(set(ended)) == 1:
            found = {f"{months.pop().lower()} months ended {ended[0]}"}
    return found.pop() if len(found) == 1 else ""


_ENDED = re.compile(
    r"(?i)\bended\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2}\b)?)"
)


_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_DAY = re.compile(
    r"(?i)\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?\s+(\d{1,2})\b"
)
_SPAN_WORDS = re.compile(r"(?i)\bended\b|\bmonths\b|\bweeks\b|\bquarter\b|\byears?\b")


def _column_dates(labels: dict[str, str]) -> dict[str, date] | None:
    """Year -> the one date a column's label prints ("March 31, 2024"), or None when a
    column prints none, two, or an abbreviated month ("Dec. 31": only a full month name is
    named back)."""
    found: dict[str, date] = {}
    for year, label in labels.items():
        days = _DAY.findall(label)
        if len(days) != 1 or days[0][0].lower() not in _MONTHS:
            return None
        month, day = days[0]
        try:
            found[year] = date(int(year), _MONTHS.index(month.lower()) + 1, int(day))
        except ValueError:
            return None
    return found


def _named(when: date) -> str:
    return f"{_MONTHS[when.month - 1].capitalize()} {when.day}, {when.year}"


# a row or heading of a statement of flows: "INCOME", "Operating expenses:", "Net loss",
# "Cash flows from operating activities", "Total revenues"
FLOW_ROW = re.compile(
    r"(?i)^(?:total\s+)?(?:revenues?|income|(?:operating\s+)?expenses|costs\s+and\s+expenses|"
    r"net\s+(?:income|loss|earnings)|cash\s+flows?\s+(?:from|used|provided)|"
    r"net\s+(?:increase|decrease|change)|(?:operating|investing|financing)\s+activities)\b"
)  # COO 77's cash-flow summary dated "January 31, 2024": "Net increase (decrease) in cash"


# what a balance row names (a stock at a date) and what a flow row names (an amount over a
# period); a row naming both ("Accrued expenses", "Income taxes payable") is a balance
BALANCE_ROW = re.compile(
    r"(?i)\b(?:assets?|liabilit\w*|equity|payables?|receivables?|inventor\w*|deposits?|debt|"
    r"borrowings?|balances?|cash|goodwill|intangibles?|accrued|accumulated|deferred|prepaid|"
    r"unearned|retained|deficit|reserves?|allowances?|securities|investments?|property|"
    r"equipment|notes|loans?|capital|stock|obligations?|leases?|carrying)\b"
)
_STOCK_WORD = re.compile(
    r"(?i)\b(?:assets?|liabilit\w*|payables?|receivables?|accrued|accumulated|deferred|"
    r"prepaid|unearned|retained|allowances?|reserves?)\b"
)
FLOW_WORDS = re.compile(
    r"(?i)\b(?:sales|revenues?|cost\s+of|gross\s+(?:profit|margin)|paid|proceeds|expenses?|"
    r"provisions?|depreciation|amortization|gains?|loss(?:es)?|per\s+share|weighted\s+average|"
    r"income|earnings|cash\s+flows?)\b"
)


def balance_rows(rows: tuple[str, ...]) -> bool:
    """Positive evidence of a balance table: rows naming balances (assets, liabilities,
    equity, cash, debt ...) and few naming flows ("Net sales", "Cost of sales", "Cash paid
    for interest"): at most one flow row to two balance rows (a deferred tax table has its
    "Net operating loss carryforwards" and "Depreciation" among its assets and liabilities)."""
    flows = sum(1 for r in rows if FLOW_WORDS.search(r) and not _STOCK_WORD.search(r))
    stocks = sum(
        1
        for r in rows
        if BALANCE_ROW.search(r) and not (FLOW_WORDS.search(r) and not _STOCK_WORD.search(r))
    )
    return stocks > 0 and flows * 2 <= stocks


def balance_at(
    labels: dict[str, str], header: str, lead: str = "", rows: tuple[str, ...] = ()
) -> dict[str, str]:
    """Year -> "March 31, 2024" for columns of balances (one date each, no span word in the
    header or the lines just before the table, no row of a statement of flows: AMAO's
    statement of operations dated "December 31, 2023 | December 31, 2022" under "INCOME";
    and rows that name balances, ``balance_rows``: a table of "Net sales" and "Cash paid for
    interest" dated by day is no balance): a balance is "at March 31, 2024", never "in 2024"."""
    if _SPAN_WORDS.search(header) or _SPAN_WORDS.search(lead):
        return {}
    flow_row = any(FLOW_ROW.match(row.strip()) and not _STOCK_WORD.search(row) for row in rows)
    if flow_row or not balance_rows(rows):  # "Income tax payable" is a balance
        return {}
    found = _column_dates(labels)
    if not found or len(found) < 2:
        return {}
    return {y: _named(d) for y, d in found.items()}


def balance_dates(labels: dict[str, str], header: str) -> dict[str, str]:
    """Year -> "March 31, 2024" for columns of balances at dates less than a year apart
    ("March 31, 2024 | December 31, 2023" in a 10-Q): "from 2023 to 2024" would read as a
    year over year. {} when the columns are spans, a year apart or not each one date."""
    if _SPAN_WORDS.search(header):
        return {}
    found = _column_dates(labels)
    years = sorted(found or {}, reverse=True)
    if not found or len(years) < 2 or (found[years[0]] - found[years[1]]).days >= 330:
        return {}
    return {y: _named(d) for y, d in found.items()}


# a report's own name for a fiscal year: "the fiscal year ended February 3, 2024 ("Fiscal
# 2023")", "Fiscal 2023 (53 weeks ended February 3, 2024)", "Fiscal year 2023 represented
# the 53 weeks ended February 3, 2024"
_FULL_DATE = (
    r"((?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\s+\d{1,2},?\s+(?:19|20)\d\d)"
)
_FISCAL = r"fiscal(?:\s+year)?\s+((?:19|20)\d\d)"
_WEEKS = r"(?:(?:a|the)\s+)?(?:\d{2}|fifty-\w+)[- ]weeks?\s+(?:period\s+)?"
_DEFINED = (
    re.compile(rf"(?i)\bended\s+{_FULL_DATE}\s*\(\s*(?:the\s+)?[\"“”]?\s*{_FISCAL}"),
    re.compile(rf"(?i)\b{_FISCAL}[\"“”]?\s*[(,]?\s*{_WEEKS}ended\s+{_FULL_DATE}"),
    re.compile(
        rf"(?i)\b{_FISCAL}[\"“”]?\s+(?:represented|represents|refers\s+to|consisted\s+of|was|is)"
        rf"\s+(?:the\s+)?(?:{_WEEKS}|(?:fiscal\s+)?year\s+)?ended\s+{_FULL_DATE}"
    ),
)


def _day_key(text: str) -> str:
    m = _DAY.search(text)
    year = re.search(r"(?:19|20)\d\d", text[m.end() :] if m else "")
    if not m or not year:
        return ""
    return f"{m.group(1).lower()[:3]} {int(m.group(2))} {year.group()}"


def fiscal_years(texts: list[str]) -> dict[str, str]:
    """The report's own names for its fiscal years: "feb 3 2024" -> "fiscal 2023", from the
    sentences that define them; a date the report names two ways is left out."""
    names: dict[str, set[str]] = {}
    for text in texts:
        flat = " ".join(text.split())
        for i, pattern in enumerate(_DEFINED):
            for m in pattern.finditer(flat):
                day, year = (m.group(1), m.group(2)) if i == 0 else (m.group(2), m.group(1))
                names.setdefault(_day_key(day), set()).add(f"fiscal {year}")
    return {k: v.pop() for k, v in names.items() if k and len(v) == 1}


_YEAR_SPAN = re.compile(
    r"(?i)\b(?:years?|twelve\s+months|12\s+months|fiscal\s+years?|(?:52|53|fifty-\w+)[- ]weeks?)"
    r"\s+ended\b|\bfiscal\s+year\b"
)


def fiscal_balance_names(labels: dict[str, str], fiscal: dict[str, str]) -> dict[str, str]:
    """Year -> "fiscal 2023" for balance columns dated at the ends of fiscal years the report
    names ("February 3, 2024 | January 28, 2023" where "fiscal 2023" ended February 3, 2024):
    a change between them says "from fiscal 2022 to fiscal 2023", as the report's flows do,
    not "from 2023 to 2024". {} unless every column's date has the report's name."""
    found = _column_dates(labels)
    if not found or not any(d.month <= 6 for d in found.values()):
        return {}
    keys = {y: f"{_MONTHS[d.month - 1][:3]} {d.day} {d.year}" for y, d in found.items()}
    if set(found) != set(labels) or not all(k in fiscal for k in keys.values()):
        return {}
    return {y: fiscal[k] for y, k in keys.items()}


def fiscal_names(labels: dict[str, str], header: str, fiscal: dict[str, str]) -> dict[str, str]:
    """Year -> how the report names a fiscal year column that ends in the first half of the
    next calendar year ("Fiscal Year Ended | February 3, 2024": "fiscal 2023" where the
    report defines it so, else "the fiscal year ended February 3, 2024"); {} when the
    columns are not whole years or end in the second half of a year (named by its year)."""
    if not _YEAR_SPAN.search(header) or re.search(r"(?i)\b(?:three|six|nine)\s+months\b", header):
        return {}
    found = _column_dates(labels)
    days = {(m.lower(), int(d)) for m, d in _DAY.findall(header)}
    if found is None and len(days) == 1:  # "Fiscal year ended January 31," over "2024 | 2023"
        (month, day) = days.pop()
        if month in _MONTHS and all(
            not _DAY.search(label) or month in label.lower() for label in labels.values()
        ):
            found = _column_dates({y: f"{month} {day}, {y}" for y in labels})
    if not found or not any(d.month <= 6 for d in found.values()):
        return {}
    out = {}
    for year, when in found.items():
        key = f"{_MONTHS[when.month - 1][:3]} {when.day} {when.year}"
        out[year] = fiscal.get(key) or f"the fiscal year ended {_named(when)}"
    return out
