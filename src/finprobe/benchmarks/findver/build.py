"""``finprobe build findver``: claims with evidence and explanations, from any report.

From each table with period columns, entailed claims state a **lookup** (a cell), a
**change** or a **pct_change** between the two latest periods, a **share** of a total
that contains the row (the block's total row, whose components sum to it), or a
named **margin** (gross, operating or net income over revenue); refuted claims
perturb one of them: a number (same precision and form), a period (another
column's different value), a direction, or an entity (another row's different
value).

Numbers are read as the table means them: parenthesised values are negative (also
when the parentheses sit in neighbouring cells), dashes are zero, and the table's
scale ("in thousands") is written into the claim ("$92,291 thousand"); a
per-share row keeps its own unit. For rows shown negative in both periods
(expenses, losses, outflows) "increased / decreased" speak of the amount's size,
and losses "narrowed / widened"; a cash row whose only direction word is "used in" gives
its outflow by size ("Net cash used in investing activities was $79,728"). A change between
balances at dates under a year apart names the dates ("from December 31, 2023 to March
31, 2024"), not the years; a balance is "at March 31, 2024" and a fiscal year ending early
in the next calendar year is named as the report names it ("fiscal 2023"; see ``periods``). A report that states no scale is read in the
scale its per-share figures (or its prose quotes) show; where they show none,
only per-share figures, percentage changes and shares are claimed. A row whose
label another table of the report shows with another figure for the same period
(a subsidiary's or a segment's beside the group's) is not claimed unless its table
names whose figures it holds. How a claim names its row (section, measure,
scope) is in ``names``.

Every claim is then re-verified by ``selfcheck`` (a separate reader of the report
file); claims that fail are dropped and counted in the data card (``card``).
Output: a claims JSON in the FinDVer format (plus ``kind``, ``perturbation`` and the
cited ``cells``), ``reports/`` beside it, and the data card ``<out>.card.json``.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from finprobe.benchmarks.findver.names import (
    CASH_TOTAL,
    CHANGES_HEADING,
    CLASSIFIED,
    DEFERRED_TAX,
    FOOTNOTE,
    GENERIC_LABEL,
    LOSS,
    MEASURE,
    OPPOSITE,
    PARENT_ROW,
    PART_OF_BUSINESS,
    PROSE_SCALE,
    TOTAL,
    direction_word,
    income_in_parens,
    mark_ambiguous,
    owed_sign,
    proper_name,
    reconciling_lines,
    repeats_title,
    row_needs,
    row_negative_name,
    section_heading,
    table_scope,
)
from finprobe.benchmarks.findver.periods import (
    MONTHS_ENDED,
    balance_at,
    balance_dates,
    caption_like,
    fiscal_balance_names,
    fiscal_names,
    fiscal_years,
    span_of,
    stated_span,
)
from finprobe.errors import InputError
from finprobe.inputs import collect_inputs

KINDS = ("lookup", "change", "pct_change", "share", "margin")
PERTURBATIONS = ("number", "period", "direction", "entity")
_YEAR = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")
_DASH_CELL = re.compile(r"^\$?\s*[—–\-−]+$")
_PER_SHARE = re.compile(
    r"(?i)\bper\s+(?:[\w’'.-]+\s+){0,3}?(?:share|unit)s?\b|\bEPS\b"  # "per Company’s common share"
)
# a share count whose label speaks of a per-share figure ("Denominator for basic net loss
# per share", "Weighted average shares used in computing net loss per share")
_SHARE_COUNT = re.compile(
    r"(?i)\bdenominator\b|\bweighted[- ]average\b[^,;]{0,40}\bshares\b|\bshares used\b"
)
# ... but a price, value or cost per share is a per-share amount ("Weighted average price
# per share of shares repurchased")
_PRICE_PER_SHARE = re.compile(r"(?i)\b(?:price|value|cost)s?\b.*?\bper\s+share\b")
# "(in thousands, except share and per share data)": share counts are not scaled
# ("except per common share amounts" excepts per-share figures only: no "per" before it)
_EXCEPT_SHARES = re.compile(r"(?i)\bexcept\b(?:(?!\bper\b)[^)]){0,60}?\bshares?\b")
_COUNT = re.compile(
    r"(?i)\bshares\b|\bunits outstanding\b|number of|\bemployees\b|\bcustomers\b|\bstores\b"
)
# ... but an amount that speaks of shares is money: "Comprehensive loss attributable to the
# Company's common shares", "Dividends on common shares", "Proceeds from issuance of shares"
# a statement of cash flows: its share lines ("Redemption of ordinary shares") are amounts
_CASH_FLOW_TOTAL = re.compile(r"(?i)^net\s+cash\b.*\bactivities\b")
_MONEY_OF_SHARES = re.compile(
    r"(?i)\b(?:income|loss(?:es)?|earnings|profits?|dividends?|proceeds|payments?|value|"
    r"costs?|expenses?|compensation|premium|capital|amount|attributable)\b"
)
_SKIP_ROW = re.compile(
    r"(?i)%|percent|\bratio\b|\bmargin\b|\brate\b|\bdays\b|\byears?\b|\bmonths?\b|\bin (?:thousands|millions|billions|whole units|units|dollars)\b"
)
_PHYSICAL = re.compile(
    r"(?i)\b(?:feet|foot|tons?|tonnes?|barrels?|gallons?|ounces?|pounds|lbs|mbf|msf|mmbtu|mcf|"
    r"bcf|boe|mwh|kwh|acres?|square\s+feet)\b"
)
_ADJUSTMENT = re.compile(r"(?i)^(?:less|add|plus|deduct)\b\s*:?")
# "Net loss used to compute basic and diluted loss per share": an amount whose purpose is
# a per-share figure, not a per-share figure
_FOR_PER_SHARE = re.compile(
    r"(?i)\b(?:used\s+(?:to\s+comput|in\s+comput|in\s+(?:the\s+)?calculat|for)|"
    r"for\s+(?:comput|calculat)|numerator|in\s+computing)\w*\b.*\bper\s+(?:common\s+)?share"
)


_SCALE_WORDS = {
    Decimal(1): "",
    Decimal(1000): "thousand",
    Decimal(1_000_000): "million",
    Decimal(1_000_000_000): "billion",
}
# named ratios: (name, numerator row, denominator row)
_REVENUE = re.compile(
    r"(?i)^(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:revenues?|sales)(?:,?\s+net)?$|^total net (?:revenues?|sales)$"
)
_MARGINS = (
    ("gross margin", re.compile(r"(?i)^gross (?:profit|margin)$")),
    ("operating margin", re.compile(r"(?i)^(?:operating income|income from operations)$")),
    ("net margin", re.compile(r"(?i)^net income$")),
)


def _q(decimals: int) -> Decimal:
    return Decimal(1).scaleb(-decimals)


def _pct(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Cell:
    row_label: str
    period: str
    value: Decimal  # as the table means it (sign, dash = 0), table scale not applied
    text: str  # the cell as printed
    decimals: int  # digits after the point, as printed


@dataclass
class Row:
    label: str
    index: int  # table row
    cells: dict[str, Cell]  # period -> cell
    unit: str  # "money" | "per_share" | "count"
    scale: Decimal
    heading: str = ""  # the body heading the row sits under ("Revenues:"), if any
    # what the label alone leaves unsaid, so that only its heading can say it: "measure" (a
    # name, "Variable Prepaid Forward", measures nothing), "deferred tax" (a component of a
    # deferred tax table), "segment" ("Segment sales" of an unnamed segment); "" if nothing
    needs: str = ""
    # the report shows this label with another figure for the same period elsewhere (a
    # subsidiary's, a segment's summary): whose figure it is, the table does not say
    ambiguous: bool = False
    scaled: bool = True  # False: no scale established; only scale-free claims (shares, %)
    reconciling: bool = False  # a line of the cash-flow reconciliation (``reconciling_lines``)

    @property
    def name(self) -> str:
        """The row as a claim names it: a bare label ("United States") keeps its heading,
        and so does a label that needs it to say what it measures."""
        short = len(self.label.split()) <= 3 and not TOTAL.search(self.label)
        change_line = CHANGES_HEADING.match(self.heading) and not CASH_TOTAL.match(self.label)
        if self.heading and (short or self.needs or change_line):
            return f"{self.label} ({self.heading})"
        return self.label

    @property
    def named(self) -> bool:
        """The row names a metric: "Other" or "Total" alone (no heading) names nothing,
        nor does a label that needs a heading it lacks."""
        if _ADJUSTMENT.match(self.label):
            return False  # "Less: Current portion": an adjustment to the rows around it
        if self.needs in ("segment", "asset class") or self.ambiguous:
            return False  # which segment's sales? whose net loss? the table does not say
        if self.needs == "measure" and not MEASURE.search(self.heading):
            return False
        if self.needs == "deferred tax" and not DEFERRED_TAX.search(self.heading):
            return False
        return not GENERIC_LABEL.fullmatch(self.name.strip(" :"))

    @property
    def negative(self) -> bool:
        """Shown negative (in parentheses) and never positive: an expense, loss or outflow."""
        values = [c.value for c in self.cells.values()]
        return any(v < 0 for v in values) and not any(v > 0 for v in values)

    @property
    def mixed(self) -> bool:
        values = [c.value for c in self.cells.values()]
        return any(v < 0 for v in values) and any(v > 0 for v in values)


@dataclass
class TableFacts:
    table_id: str
    evidence_id: str
    periods: list[str]  # newest first
    rows: dict[str, Row]
    dollars: bool
    scale_source: str  # "table", "whole dollars"
    totals: dict[str, list[str]] = field(default_factory=dict)  # total -> component labels
    span: str = ""  # "three months ended March 31" when the columns are not whole years
    scope: str = ""  # "the B2B segment", "the parent company": whose figures, when not the group's
    dates: dict[str, str] = field(default_factory=dict)  # year -> "March 31, 2024" (balances)
    # year -> how a single-period claim names the column: "at March 31, 2024" (a balance),
    # "in fiscal 2023" (the report's name for the year ended February 3, 2024)
    at: dict[str, str] = field(default_factory=dict)
    fiscal: dict[str, str] = field(default_factory=dict)  # year -> "fiscal 2023", for changes
    average: bool = False  # "Average Balance | Interest | Yield": averages, not balances

    def when(self, end: str = ".") -> str:
        """The sentence's end, naming the span of a quarter's columns."""
        return f", for the {self.span}{end}" if self.span else end

    def on(self, year: str) -> str:
        """A single period as a claim names it: "in 2024", "at March 31, 2024", "in fiscal 2023"."""
        return self.at.get(year, f"in {year}")

    def said(self, year: str) -> str:
        """A period in an explanation, as the claim names it: "for 2024", "for fiscal 2023",
        "at March 31, 2024"."""
        on = self.on(year)
        if on.startswith("at ") and year in self.fiscal:  # a change names the fiscal year
            return f"{on} (the end of {self.fiscal[year]})"
        return on if on.startswith("at ") else "for " + on.removeprefix("in ")

    def called(self, year: str) -> str:
        """A period in "from X to Y": "2024", "March 31, 2024" (balances under a year apart),
        "fiscal 2023"."""
        return self.dates.get(year) or self.fiscal.get(year) or year


def _percent_column(table: Any, c: int) -> bool:
    body = [table.cells[r][c] for r in range(table.header_rows, table.n_rows) if table.cells[r][c]]
    return bool(body) and sum("%" in x for x in body) * 2 > len(body)


def _decimals(text: str) -> int:
    m = re.search(r"\.(\d+)", text)
    return len(m.group(1)) if m else 0


def _cell_value(table: Any, r: int, c: int) -> tuple[Decimal, str] | None:
    """The cell as the table means it: negative in parentheses, a dash is zero."""
    text = table.cells[r][c].strip()
    if not text:
        return None
    if _DASH_CELL.match(text):
        return Decimal(0), text
    number = table.number(r, c)
    if number is None or number.units - {"usd"} or number.scale != 1:
        return None
    return number.value, text


def _end_of_first_table(table: Any) -> int:
    """The row where a second table's header starts inside the same grid (EDGAR entries
    may hold several tables: "(in thousands) | 2024 | 2025 | 2026 | Total" under a
    2023/2022 header): rows below it sit under other columns."""
    body = False
    for r in range(table.header_rows, table.n_rows):
        values = [str(cell).strip() for cell in table.cells[r][table.header_cols :]]
        filled = [v for v in values if v and v not in ("$", "\u200b")]
        dated = [v for v in filled if _YEAR.search(v)]
        if len(dated) >= 2 and all(_YEAR.search(v) or not re.search(r"\d", v) for v in filled):
            return r
        # a header without years ("(In thousands) | Obligations | Instruments | Total"):
        # words, no figures, in the value columns once figures have begun
        worded = [v for v in filled if _COLUMN_WORDS.search(v) and not _NOT_APPLICABLE.match(v)]
        if body and worded and not any(re.search(r"\d", v) for v in filled):
            return r
        body = body or any(re.search(r"\d", v) for v in filled)
    return table.n_rows


_COLUMN_WORDS = re.compile(r"[A-Za-z]{3,}")
_SCHEDULE = re.compile(r"(?i)\bthereafter\b|\bremainder\s+of\b|\bbeyond\b")
_NOT_APPLICABLE = re.compile(r"(?i)^\(?(?:n/?a|n/?m|nil|none|not\s+\w+)\)?\*?$")


def _sub_columns(table: Any) -> bool:
    """Several figure columns under each year ("2023" over "Pre-tax | Tax impact | Net of
    tax", twice): the lowest header row repeats words that are not a percentage or change,
    of which there are two or more; which column is the year's figure, nothing says."""
    heads = [
        str(table.cells[table.header_rows - 1][c]).strip()
        for c in range(table.header_cols, table.n_cols)
    ]
    words = [
        h
        for h in heads
        if _COLUMN_WORDS.search(h) and not _YEAR.search(h) and not _RATE_HEAD.search(h)
    ]
    return len(set(words)) >= 2 and len(words) > len(set(words))


_AVERAGE_BALANCE = re.compile(r"(?i)\baverage\s+(?:daily\s+)?(?:balances?|outstanding)\b")
_RATE_HEAD = re.compile(r"(?i)%|\bpercent|\bchange\b|\bvariance\b")


def table_facts(
    table: Any,
    report_states_scale: bool = False,
    basis: Decimal | None = None,
    fiscal: dict[str, str] | None = None,
) -> TableFacts | None:
    """Rows of numbers under year columns, or None when the table has no such shape.

    A table that states no scale has its money rows read in the report's ``basis``
    (whole dollars, or thousands whose caption was lost: see ``report_basis``) only
    when the report states no scale anywhere (``report_states_scale`` False: else
    the table lost its own caption); with no basis established (a hotel REIT's
    "Total debt | 3,377,028", no scale stated anywhere) money rows are kept unscaled,
    for percentage changes and shares only. ``fiscal``: the report's own names of its
    fiscal years by end date (``periods.fiscal_years``).
    """
    if table.header_rows < 1 or len(table.cells) < 3:
        return None
    columns: dict[int, str] = {}
    headers: dict[str, str] = {}  # year -> the column's header, for balance dates
    spans: set[str] = set()
    for c in range(table.header_cols, table.n_cols):
        label = table.column_label(c)
        years = _YEAR.findall(label)
        if len(set(years)) != 1 or re.search(r"(?i)change|%|percent|variance", label):
            continue
        if _percent_column(table, c):
            continue
        if years[0] in columns.values():
            return None  # two columns of one year (quarter and year to date, segments): ambiguous
        columns[c] = years[0]
        headers[years[0]] = label
        if m := MONTHS_ENDED.search(label):
            spans.add(span_of(m))
    periods = sorted(set(columns.values()), reverse=True)
    if len(periods) < 2 or len(spans) > 1 or _sub_columns(table):
        return None
    header = " ".join(table.column_label(c) for c in range(table.header_cols, table.n_cols))
    if _SCHEDULE.search(header):
        return None  # "Remainder of 2024 | 2025 | ... | Thereafter": maturities, not periods
    labels = [FOOTNOTE.sub("", table.row_label(r)).strip() for r in range(table.n_rows)]
    caption = (table.pre_text or "") + " " + " ".join(" ".join(row) for row in table.cells[:3])
    # the text before the table (read line by line three ways below) and the header rows
    pre_lines = (table.pre_text or "").splitlines()
    header_lines = [" ".join(row) for row in table.cells[: table.header_rows]]
    # the title and lead-in (the last lines before the table) and the header: what the
    # table measures ("SCHEDULE OF DEFERRED TAX ASSETS")
    title = "\n".join(
        [
            ln
            for ln in [x.strip() for x in pre_lines if x.strip()][-2:]
            if caption_like(ln)  # a long paragraph mentioning "deferred tax" is no caption
        ]
        + header_lines
    )
    scope = table_scope(table.pre_text or "")
    if not scope and any(PARENT_ROW.match(label) for label in labels):
        scope = "the parent company"  # "Equity in undistributed income of subsidiaries"
    lead = [ln for ln in pre_lines if ln.strip()][-2:]
    if PART_OF_BUSINESS.search("\n".join(lead)):
        return None  # "operations outside of its insurance segment": whose, unnamed
    if _AVERAGE_BALANCE.search(" ".join(header_lines)):
        return None  # "Average Balance | Yield": averages over the year, said as balances
    if CLASSIFIED.search("\n".join(lead)):
        return None  # "Current assets | 5.0": where the titled securities sit, not current assets
    # the table's name: its header and the short lines just before it (a title, not prose)
    named_as = " ".join([ln for ln in pre_lines if 0 < len(ln.split()) <= 15][-2:] + header_lines)
    rows: dict[str, Row] = {}
    reconciling = reconciling_lines(labels)
    cash_flow = any(_CASH_FLOW_TOTAL.match(lb.strip()) for lb in labels)  # amounts throughout
    for r in range(table.header_rows, _end_of_first_table(table)):
        label = labels[r]
        if not label or len(label) > 90 or labels.count(label) > 1:
            continue  # a duplicated label cannot name its row in a claim
        if _YEAR.search(label) or label.startswith("(") or _SKIP_ROW.search(label):
            continue
        if table.is_body_heading(r):
            continue
        if any(table.names_non_money_unit(r, c) for c in columns) or _PHYSICAL.search(label):
            continue  # "I-joists (1,000 equivalent lineal feet)": a volume, never "$90 thousand"
        cells: dict[str, Cell] = {}
        for c, period in columns.items():
            read = _cell_value(table, r, c)
            if read is not None:
                cells[period] = Cell(label, period, read[0], read[1], _decimals(read[1]))
        if set(cells) != set(periods) or all(cell.value == 0 for cell in cells.values()):
            continue
        priced = bool(_PRICE_PER_SHARE.search(label))
        per_share = (
            bool(_PER_SHARE.search(label))
            and (priced or not _SHARE_COUNT.search(label))
            and not _FOR_PER_SHARE.search(label)
        )
        # a row whose own cells show "$" is an amount, whatever its label says of shares
        # ("Issuance of common shares for service | $ | 285,000")
        dollar_row = any("$" in cell for cell in table.cells[r][1:])
        counted = not per_share and (
            _SHARE_COUNT.search(label)
            or re.search(r"(?i)\bnumber\s+of\b", label)  # "Number of shares of capital stock"
            or (
                _COUNT.search(label)
                and not _MONEY_OF_SHARES.search(label)
                and not dollar_row
                and not cash_flow  # HHGCW "Redemption of ordinary shares | (361,224)": dollars
            )
        )
        unit = "per_share" if per_share else "count" if counted else "money"
        scale = Decimal(1) if per_share else table.row_scale(r)
        if counted and re.search(r"(?i)\bshares?\b", label) and _EXCEPT_SHARES.search(caption):
            scale = Decimal(1)
        if scale not in _SCALE_WORDS:
            continue
        needs = row_needs(label, title, scope)
        # a row that repeats the table's title ("Income tax provision" of "SCHEDULE OF
        # INCOME TAX PROVISION") is its grand total, in no section
        heading = "" if repeats_title(label, named_as) else section_heading(table, r)
        if re.match(r"(?i)denominator\b", heading):
            continue  # "Dilutive effect of stock options" under "Denominator:": shares, not $
        rows[label] = Row(label, r, cells, unit, scale, heading, needs)
        rows[label].reconciling = r in reconciling
    text = " ".join(" ".join(row) for row in table.cells) + " " + (table.pre_text or "")
    dollars = "$" in text or table.unit_hint == "usd"
    scale_source = "table"
    if table.scale == 1 and not any(r.scale != 1 for r in rows.values()):
        # no scale stated: the report's basis, where it is established (see above)
        if report_states_scale:
            rows = {k: v for k, v in rows.items() if v.unit == "per_share"}
        elif basis is None:  # no scale established: shares and % changes only (RHP's
            for row in rows.values():  # "Weighted average shares | 55,140" is thousands)
                row.scaled = row.unit == "per_share"
        elif basis != 1:
            for row in rows.values():
                if row.unit == "money":
                    row.scale = basis
        scale_source = "whole dollars" if basis == 1 else "report basis"
    if len(rows) < 2:
        return None
    evidence_id = table.source_id if table.source_id is not None else table.id
    facts = TableFacts(table.id, str(evidence_id), periods, rows, dollars, scale_source)
    facts.span = next(iter(spans), "") or stated_span(table)
    facts.scope = scope
    facts.average = bool(re.search(r"(?i)\baverage\b", " ".join(header_lines)))
    if not facts.span:
        columns_named = {p: headers[p] for p in periods[:2]}
        head = " ".join(header_lines)
        captions = "\n".join(
            ln for ln in [x.strip() for x in pre_lines if x.strip()][-2:] if caption_like(ln)
        )
        facts.dates = balance_dates(columns_named, head)
        # the lines just before the table, short or long ("STATEMENTS OF OPERATIONS ... FOR THE
        # YEARS ENDED DECEMBER 31, 2023, 2022 AND 2021" is no caption by length)
        near = "\n".join(
            ln for ln in [x.strip() for x in pre_lines if x.strip()][-3:] if len(ln.split()) <= 40
        )
        balances = balance_at(columns_named, head, near, tuple(labels))
        facts.at = {y: f"at {d}" for y, d in balances.items()}
        if balances and not facts.dates:  # a year apart: named as the report names the years
            facts.fiscal = fiscal_balance_names(columns_named, fiscal or {})
        if not balances:
            named = fiscal_names(columns_named, head + "\n" + captions, fiscal or {})
            # columns dated at fiscal year ends, with no span word: the report's names
            named = named or fiscal_balance_names(columns_named, fiscal or {})
            facts.fiscal = named
            facts.at = {y: f"in {n}" for y, n in named.items()}
    facts.totals = _totals(table, facts, periods)
    return facts


def _totals(table: Any, facts: TableFacts, periods: list[str]) -> dict[str, list[str]]:
    """Total rows and the rows just above them that sum to them in every period."""
    by_index = {row.index: row for row in facts.rows.values()}
    out: dict[str, list[str]] = {}
    for total in facts.rows.values():
        if not TOTAL.search(total.label) or total.unit != "money":
            continue
        block: list[Row] = []
        i = total.index - 1
        while i >= table.header_rows and not table.is_body_heading(i):
            row = by_index.get(i)
            if row is None or row.unit != total.unit or row.scale != total.scale:
                break
            block.insert(0, row)
            if len(block) >= 2 and all(
                _sums_to([b.cells[p] for b in block], total.cells[p]) for p in periods
            ):
                out[total.label] = [b.label for b in block]
                break
            i -= 1
    return out


def _sums_to(parts: list[Cell], total: Cell) -> bool:
    slack = _q(max([total.decimals] + [p.decimals for p in parts])) * len(parts)
    return total.value != 0 and abs(sum(p.value for p in parts) - total.value) <= slack


# ----------------------------------------------------------------------------- wording


def _digits(value: Decimal, decimals: int) -> str:
    return f"{abs(value):,.{decimals}f}"


def amount(facts: TableFacts, row: Row, value: Decimal, decimals: int) -> str:
    """A figure in the row's unit and scale, unsigned: "$92,291 thousand", "$1.27 per share"."""
    digits = _digits(value, decimals)
    scale = _SCALE_WORDS[row.scale]
    if row.unit == "per_share":
        return f"{'$' if facts.dollars else ''}{digits} per share"
    if row.unit == "count":
        return f"{digits} {scale}".rstrip() + (" shares" if "share" in row.label.lower() else "")
    text = f"{'$' if facts.dollars else ''}{digits}"
    return f"{text} {scale}" if scale else text


def stated_value(facts: TableFacts, row: Row, value: Decimal, decimals: int) -> str | None:
    """A lookup's figure as an analyst says it: a negative is an outflow, a loss or "negative";
    None where no sign reading is safe (a liability or expense row that names both sides)."""
    text = amount(facts, row, value, decimals)
    if value >= 0:
        return text
    if row.reconciling or income_in_parens(row):
        return None  # a gain deducted, income in parentheses: the sign is not the item's
    if row.negative and row_negative_name(row) is not None:
        return text  # expenses, losses and outflows in parentheses: their size, under their name
    if LOSS.search(row.label):
        return f"a loss of {text}"
    owed = owed_sign(row)
    if owed == "size":
        return text  # "Deferred tax liabilities, net | (2,708,887)": a liability of 2,708,887
    if owed == "none":
        return None  # "Total other income (expense)", "Accounts payable" under "Changes in"
    return f"negative {text}"


def row_name(row: Row) -> str:
    """The row as a claim names it; a row negative in both periods by what its amount is
    ("Net income (loss)" at a loss in both periods: "Net loss")."""
    named = row_negative_name(row) if row.negative else None
    return named[0] + row.name[len(row.label) :] if named else row.name


def _name(label: str) -> str:
    """A row label inside a sentence: lower-cased unless it starts with a name or acronym,
    or is a name itself ("Gaylord Texan", "Viator": capitals throughout, as written)."""
    first = label.split()[0] if label.split() else ""
    if (first.isupper() and len(first) > 1) or any(ch.isupper() for ch in first[1:]):
        return label  # "EBITDA", "IoT data" (not "ioT data")
    head = label.split(" (")[0]
    if len(head.split()) == 1 and MEASURE.search(head):
        return label[0].lower() + label[1:]  # "Cash (Current assets)": a measure, not a name
    if proper_name(head) and not TOTAL.search(head):
        return label
    return label[0].lower() + label[1:]


# ----------------------------------------------------------------------------- claims


@dataclass
class BuiltClaim:
    statement: str
    label: bool
    kind: str
    perturbation: str | None
    cited: list[tuple[Row, str]]  # (row, period) the claim speaks of
    steps: list[str]
    facts: TableFacts

    def explanation(self) -> str:
        lines = ["Extracted information:"]
        scale = next((r.scale for r, _ in self.cited if r.scale != 1), None)
        note = f" (amounts in {_SCALE_WORDS[scale]}s)" if scale else ""
        for i, (row, period) in enumerate(self.cited, 1):
            cell = row.cells[period]
            lines.append(
                f"{i}. Table {self.facts.evidence_id}{note} reports {row.label} of {cell.text} "
                f"{self.facts.said(period)}."
            )
        lines.append("Reasoning:")
        lines += [f"Step {i}: {step}" for i, step in enumerate(self.steps, 1)]
        lines.append(f"Label: {'entailed' if self.label else 'refuted'}")
        return "\n".join(lines)

    def cells(self) -> list[dict[str, str]]:
        # the figure as the table means it (sign, dash 0; scale not applied), for the
        # self-check to hold against its own reading of the cell
        return [
            {"row": row.label, "period": period, "value": str(row.cells[period].value)}
            for row, period in self.cited
        ]


def _perturbed(
    value: Decimal, decimals: int, rng: random.Random, below: Decimal | None = None
) -> Decimal | None:
    """A different figure of the same form: 8-30% off, at the same precision, never zero
    (and under ``below``: a decrease of 120% gives itself away)."""
    if value == 0:
        return None
    factors = [
        "0.7",
        "0.75",
        "0.8",
        "0.85",
        "0.9",
        "0.92",
        "1.08",
        "1.1",
        "1.15",
        "1.2",
        "1.25",
        "1.3",
    ]
    rng.shuffle(factors)
    for f in factors:
        new = (value * Decimal(f)).quantize(_q(decimals), rounding=ROUND_HALF_UP)
        if below is not None and new >= below:
            continue
        if new != 0 and abs(new - value) >= abs(value) * Decimal("0.05") and new != value:
            return new
    return None


def _far(a: Decimal, b: Decimal) -> bool:
    """Do two figures differ clearly (not a rounding)?"""
    return abs(a - b) > max(abs(a), abs(b)) * Decimal("0.02")


def _lookup(
    facts: TableFacts, row: Row, new: str, old: str, refute: bool, rng: random.Random, subj: str
) -> BuiltClaim | None:
    cell = row.cells[new]
    if cell.value == 0:
        return None  # "was $0" from a dash: true, but says nothing
    value, stated_row, perturbation = cell.value, row, None
    if refute:
        options = ["number", "period", "entity"]
        rng.shuffle(options)
        for perturbation in options:
            if perturbation == "number":
                got = _perturbed(cell.value, cell.decimals, rng)
                if got is not None:
                    value = got
                    break
            elif perturbation == "period":
                other = row.cells[old]
                if (
                    _far(other.value, cell.value)
                    and (other.value < 0) == (cell.value < 0)
                    and other.value != 0
                ):
                    value = other.value
                    break
            else:
                others = [
                    r for r in facts.rows.values()
                    if r is not row and r.unit == row.unit and r.scale == row.scale
                    and _far(r.cells[new].value, cell.value) and r.cells[new].value != 0
                    and (r.cells[new].value < 0) == (cell.value < 0) and r.negative == row.negative
                    and r.named and r.scaled
                ]  # fmt: skip
                if others:
                    stated_row = rng.choice(others)
                    break
        else:
            return None
    decimals = cell.decimals
    said = stated_value(facts, stated_row, value, decimals)
    if said is None:
        return None
    statement = f"{subj}{_name(row_name(stated_row))} was {said} {facts.on(new)}{facts.when()}"
    truth = stated_row.cells[new]
    steps = [
        f"The claim gives {said} for {stated_row.label} {facts.on(new)}; the table shows {truth.text}, "
        f"that is {stated_value(facts, stated_row, truth.value, truth.decimals) or truth.text}.",
        "The figures agree." if not refute else "The figures do not agree.",
    ]
    return BuiltClaim(
        statement, not refute, "lookup", perturbation, [(stated_row, new)], steps, facts
    )


def _change(
    facts: TableFacts,
    row: Row,
    new: str,
    old: str,
    refute: bool,
    rng: random.Random,
    subj: str,
    pct: bool,
) -> BuiltClaim | None:
    if row.mixed:
        return None  # a sign change has no size to grow or shrink
    subject, loss = row_name(row), False
    if row.negative:
        named = row_negative_name(row)
        if named is None:
            return None  # a negative EBITDA grows as its size shrinks: neither reading is safe
        loss = named[1]
    a, b = row.cells[new], row.cells[old]
    size_new, size_old = abs(a.value), abs(b.value)
    if size_new == size_old or (pct and size_old == 0):
        return None
    if size_new == 0 and (pct or loss):
        # gone to zero: "decreased by 100.00%" and "the loss narrowed by $X" say it in a
        # way no analyst would; the lookup of the old figure and "decreased by $X" remain
        return None
    grew = size_new > size_old
    direction = direction_word(loss, grew)
    decimals = shown = max(a.decimals, b.decimals)  # shown: the cells' own precision
    if pct:
        true_value = _pct(abs(size_new - size_old) / size_old * 100)
        decimals = 2
    else:
        true_value = abs(size_new - size_old)
    value, said_direction, perturbation = true_value, direction, None
    if refute:
        perturbation = rng.choice(("number", "direction"))
        if perturbation == "direction" and pct and grew and true_value >= 100:
            perturbation = "number"  # "decreased by 140%" cannot be true: it gives itself away
        if perturbation == "number":
            # a shrinking amount cannot shrink by 100% or more, nor can a perturbed one
            below = Decimal(100) if pct and not grew else None
            got = _perturbed(true_value, decimals, rng, below)
            if got is None:
                return None
            value = got
        else:
            said_direction = OPPOSITE[direction]
    figure = f"{_digits(value, 2)}%" if pct else amount(facts, row, value, decimals)
    statement = (
        f"{subj}{_name(subject)} {said_direction} by {figure} from "
        f"{facts.called(old)} to {facts.called(new)}{facts.when()}"
    )
    size = "amount"
    if row.negative:
        size = _name(subject) if subject != row.name else "amount's size"
    truth = f"{_digits(true_value, 2)}%" if pct else amount(facts, row, true_value, decimals)
    steps = [
        f"The table shows {a.text} {facts.said(new)} and {b.text} {facts.said(old)}: the {size} went from "
        f"{amount(facts, row, size_old, shown)} to {amount(facts, row, size_new, shown)}.",
        f"So it {direction} by {truth}.",
        f"The claim says it {said_direction} by {figure}, which "
        f"{'matches' if not refute else 'does not match'}.",
    ]
    kind = "pct_change" if pct else "change"
    return BuiltClaim(
        statement, not refute, kind, perturbation, [(row, old), (row, new)], steps, facts
    )


def _ratio(
    facts: TableFacts,
    part: Row,
    whole: Row,
    period: str,
    refute: bool,
    rng: random.Random,
    company: str,
    name: str | None,
) -> BuiltClaim | None:
    a, b = part.cells[period].value, whole.cells[period].value
    if a <= 0 or b <= 0 or a > b:
        return None  # never a share of a loss, never above the whole
    share = _pct(a / b * 100)
    if share <= 0 or share >= 100:
        return None  # 100.00%: the other parts are zero; "made up all of" says nothing
    value, perturbation = share, None
    if refute:
        perturbation = "number"
        got = _perturbed(share, 2, rng)
        if got is None or got > 100 or abs(got - share) < 1:
            got = (
                _pct(share * Decimal("0.8"))
                if share > 50
                else _pct(min(share * Decimal("1.3"), share + 20))
            )
        value = got
    of = f" for {company}" if company else ""
    if name and facts.on(period).startswith("at "):
        return None  # a margin is of a period's flows, never "at December 31, 2023"
    if name:
        statement = f"{facts.on(period)}{facts.when(',')} the {name}{of} ({_name(part.name)} over {_name(whole.name)}) was {value}%."
        kind = "margin"
    else:
        statement = f"{facts.on(period)}{facts.when(',')} {_name(part.name)} made up {value}% of {_name(whole.name)}{of}."
        kind = "share"
    steps = [
        f"{part.label} is {part.cells[period].text} and {whole.label} is {whole.cells[period].text} {facts.on(period)}.",
        f"{part.cells[period].text} / {whole.cells[period].text} = {share}%.",
        f"The claim says {value}%, which {'matches' if not refute else 'does not match'}.",
    ]
    return BuiltClaim(
        statement, not refute, kind, perturbation, [(part, period), (whole, period)], steps, facts
    )


def _ratio_candidates(facts: TableFacts) -> list[tuple[str, str, str | None]]:
    """(part, whole, margin name or None) pairs that mean something."""
    pairs: list[tuple[str, str, str | None]] = [
        (part, total, None) for total, parts in facts.totals.items() for part in parts
    ]
    revenue = next((lb for lb in facts.rows if _REVENUE.match(lb)), None)
    if revenue and facts.rows[revenue].unit == "money":
        for name, pattern in _MARGINS:
            for lb, row in facts.rows.items():
                if (
                    pattern.match(lb)
                    and row.unit == "money"
                    and row.scale == facts.rows[revenue].scale
                ):
                    pairs.append((lb, revenue, name))
    return pairs


def _share_named(part: Row, whole: Row) -> bool:
    """Both rows of a share named: "Gaylord Texan made up 19.55% of total Hospitality
    segment revenues" takes its measure from the whole."""
    if not whole.named:
        return False
    return part.named or (part.needs == "measure" and bool(MEASURE.search(whole.label)))


def _claims_from_table(
    facts: TableFacts, company: str, rng: random.Random, per_table: int
) -> list[BuiltClaim]:
    new, old = facts.periods[0], facts.periods[1]
    labels = list(facts.rows)
    ratios = _ratio_candidates(facts)
    if facts.scope:  # a segment's or the parent's table: the claim names whose figures
        company = facts.scope
    # "Bagger Dave’s total liabilities", not "Bagger Dave’s's"
    subj = f"{company} " if re.search(r"['’]s$", company) else f"{company}'s " if company else ""
    out: list[BuiltClaim] = []
    for _ in range(per_table * 3):  # some draws make no claim (a zero, no change)
        if len(out) >= per_table:
            break
        kinds = ["lookup", "change", "pct_change"] + (["ratio"] if ratios else [])
        kind = rng.choice(kinds)
        refute = rng.random() < 0.5
        claim: BuiltClaim | None
        if kind == "ratio":
            part, whole, name = rng.choice(ratios)
            if not _share_named(facts.rows[part], facts.rows[whole]):
                continue
            claim = _ratio(
                facts, facts.rows[part], facts.rows[whole], new, refute, rng, company, name
            )
        else:
            row = facts.rows[rng.choice(labels)]
            if not row.named:
                continue  # "Other decreased by 92.52%": the claim names no metric
            if not row.scaled and kind != "pct_change":
                continue  # "$3,377,028" of what? a percentage needs no scale
            if kind == "lookup":
                claim = _lookup(facts, row, new, old, refute, rng, subj)
            else:
                claim = _change(facts, row, new, old, refute, rng, subj, kind == "pct_change")
        if claim is not None and all(claim.statement != c.statement for c in out):
            out.append(claim)
    return out


def build_claims_for_document(
    doc: Any, report_name: str, seed: int = 0, per_table: int = 2, max_tables: int = 8
) -> list[dict[str, Any]]:
    """FinDVer-format claims (plus ``kind``, ``perturbation``, ``cells``) for one document."""
    rng = random.Random(f"{seed}:{report_name}")
    company = str(doc.metadata.get("company_name") or doc.metadata.get("company") or "").rstrip(".")
    if re.fullmatch(r"[A-Z0-9.\-]{1,12}", company):  # "KCAC-UN"
        company = ""  # a ticker reads badly as a subject
    # a scale stated by a table or by the prose ("(In thousands, except per share data)"
    # heading the notes): a table without one has lost its caption, not its scale
    states_scale = any(t.scale != 1 for t in doc.tables) or any(
        PROSE_SCALE.search(p.text) for p in doc.paragraphs
    )
    from finprobe.benchmarks.findver.basis import report_basis  # it reads tables by table_facts

    basis = None if states_scale else report_basis(doc)
    fiscal = fiscal_years([p.text for p in doc.paragraphs] + [t.pre_text or "" for t in doc.tables])
    filed = re.search(r"-((?:19|20)\d\d)-\d\d-\d\d_", report_name)
    all_facts = [
        f
        for f in (table_facts(t, states_scale, basis, fiscal) for t in doc.tables)
        if f is not None and not (filed and f.periods[0] > filed.group(1))
    ]  # a year after the filing's is a maturity or a forecast, not a period reported
    mark_ambiguous(all_facts)
    rng.shuffle(all_facts)
    rows = []
    for facts in all_facts[:max_tables]:
        for claim in _claims_from_table(facts, company, rng, per_table):
            statement = claim.statement[0].upper() + claim.statement[1:]
            evidence = facts.evidence_id
            rows.append(
                {
                    "example_id": f"built-{Path(report_name).stem}-{len(rows)}",
                    "subset": "ie" if claim.kind == "lookup" else "math",
                    "split": "built",
                    "statement": statement,
                    "entailment_label": claim.label,
                    "explanation": claim.explanation(),
                    "relevant_context": [int(evidence) if evidence.isdigit() else evidence],
                    "report": report_name,
                    "kind": claim.kind,
                    "perturbation": claim.perturbation,
                    "cells": claim.cells(),
                }
            )
    return rows


def build_dataset(
    reports: Iterable[Path],
    out: Path,
    synthetic: int = 0,
    seed: int = 0,
    per_table: int = 2,
    max_tables: int = 8,
    limit: int | None = None,
    probe: bool = True,
) -> dict[str, Any]:
    """Write the self-checked claims to ``out``, their reports to ``reports/`` and the data card.

    Returns the data card (see ``card.data_card``).
    """
    from finprobe.benchmarks.findver.card import data_card
    from finprobe.benchmarks.findver.selfcheck import self_check
    from finprobe.document import load_findver_report
    from finprobe.files import write_json_atomic

    files = collect_inputs(reports, (".json", ".json.gz"))[: limit or None]
    if not files and not synthetic:
        raise InputError(
            None, "no reports given: pass report files or folders and/or --synthetic N"
        )
    reports_dir = out.parent / "reports"
    reports_dir.mkdir(parents=True, exist_ok=True)
    built: list[dict[str, Any]] = []
    sources: dict[str, Path] = {}
    for path in files:
        doc = load_findver_report(path)
        name = path.name.removesuffix(".gz")
        claims = build_claims_for_document(doc, name, seed, per_table, max_tables)
        if claims:
            target = reports_dir / (name + ".gz")
            if path.resolve() != target.resolve():
                if path.suffix == ".gz":
                    shutil.copyfile(path, target)
                else:
                    target.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
            sources[name] = target
        built += claims
    if synthetic:
        from finprobe.synth import make_corpus, to_findver_json

        for i, report in enumerate(make_corpus(synthetic, seed=seed)):
            name = f"synth-{seed}-{i}.json"
            target = reports_dir / (name + ".gz")
            target.write_bytes(gzip.compress(json.dumps(to_findver_json(report)).encode(), mtime=0))
            doc = load_findver_report(target)
            doc.metadata["company_name"] = report.company
            built += build_claims_for_document(doc, name, seed, per_table, max_tables)
            sources[name] = target
    checks = [self_check(claim, sources[claim["report"]]) for claim in built]
    claims = [c for c, check in zip(built, checks, strict=True) if check.passed]
    if not claims:
        raise InputError(None, "no claims built: no table with numbers under two year columns")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, claims)
    card = data_card(claims, built, checks, probe=probe)
    card["out"] = str(out)
    write_json_atomic(card_path(out), card)
    return card


def card_path(out: Path) -> Path:
    """The data card beside a claims file: ``claims.json`` -> ``claims.card.json``."""
    return out.with_name(out.name.removesuffix(".json") + ".card.json")
