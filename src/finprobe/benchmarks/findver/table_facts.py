"""Reading a FinDVer report's table into figures, and writing those figures in a claim.

``table_facts`` reads a table with period columns into ``TableFacts``: its rows
(``Row``) of cells (``Cell``) as the table means them (parenthesised values negative,
dashes zero, the table's or the report's scale, per-share and count rows told apart
from amounts), the totals whose components sum to them, and how its periods are named.
``amount``, ``stated_value``, ``row_name`` and ``_name`` word a figure and its row as a
claim says them ("$92,291 thousand", "Net loss"). Split out of ``build`` (table reading
and claim making), which builds the claims from these facts; ``basis`` reads tables
through ``table_facts`` too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
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
    PARENT_ROW,
    PART_OF_BUSINESS,
    TOTAL,
    income_in_parens,
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
    span_of,
    stated_span,
)

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


def _q(decimals: int) -> Decimal:
    return Decimal(1).scaleb(-decimals)


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
