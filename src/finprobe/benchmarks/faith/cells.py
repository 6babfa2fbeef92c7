"""Reading FAITH tables: numeric cells with their labels, periods and scales."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from finprobe.benchmarks.faith.sentence import _YEAR, _tokens, period_months
from finprobe.document import Table
from finprobe.document.pipes import CHANGE_TITLE

# the words of a column header that say only when (years, months, days, period lengths:
# "Fifty-Three Weeks Ended March 31, 2024"), how a period's figures were reported
# ("As Restated", "Successor"), footnote marks and the table's scale and currency marks
_PERIOD_HEADER_WORDS = re.compile(
    r"\([a-z\d]{1,2}\)|\b(?:\d{0,2}(?:19|20)\d{2}|fiscal|years?|quarters?|months?|weeks?|ended"
    r"|ending|end|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|twenty|thirty|forty|fifty|sixty|first|second|third|fourth|q[1-4]|as of|at"
    r"|for the|period|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
    r"|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{1,3}|in"
    r"|thousands|millions|billions|from|through|to|unaudited|amounts?|dollars?|total|as"
    r"|restated|adjusted|reported|recast|revised|successor|predecessor|actual)\b\.?"
    r"|[,():$%*\-–—]",
    re.I,
)
# beyond the document layer's change titles: "2023 versus 2022", "2023/2022"
_MORE_CHANGE_MARKS = re.compile(r"\bversus\b|/", re.I)


def _change_header(label: str) -> bool:
    """A column header of changes: a change word, or two years ("2023 vs. 2022")."""
    if CHANGE_TITLE.search(label) or _MORE_CHANGE_MARKS.search(label):
        return True
    return len(set(_YEAR.findall(label))) >= 2


def _level_columns(table: Table) -> list[int]:
    """The table's value columns that hold one period's levels, not changes."""
    return [
        c for c in range(table.header_cols, table.n_cols)
        if not _change_header(table.column_label(c))
    ]  # fmt: skip


# a heading or column of a whole, not one of its parts: "Total", "Totals", "Consolidated",
# "Total Company"; never "Total International", "Sub-total" or "Total return swaps"
_WHOLE_HEADS = frozenset(["total", "totals", "consolidated"])
_WHOLE_WORDS = _WHOLE_HEADS | {"company", "segments", "reportable"}


def names_whole(label: str) -> bool:
    """The label, its period words aside, names a whole ("Total", "Consolidated 2024")."""
    words = {
        w for w in re.findall(r"[a-z]+|\d+", label.lower())
        if w in _WHOLE_WORDS or not _PERIOD_HEADER_WORDS.fullmatch(w)
    }  # fmt: skip
    return words <= _WHOLE_WORDS and not words.isdisjoint(_WHOLE_HEADS)


def whole_headings(headings: Iterable[str]) -> set[str]:
    """The body headings of a table that name a whole: a bare total ("Total"), or a total
    of two or more parts that other headings name ("Total Homebuilding Regions" over
    "Northern Region" and "Southern Region"; "Total Specialty" over "Specialty casualty"
    and "Specialty financial"). "Total International" beside "United States" is a part,
    "Total return swaps" beside one "Interest rate swaps" another line (beside two other
    kinds of swaps it would pass: a known limit of reading words alone)."""
    named = {h: set(_tokens(h)) for h in set(headings) if h}
    wholes = set()
    for heading, words in named.items():
        rest = words - {"total"}
        parts = [h for h, other in named.items() if h != heading and rest & other]
        if names_whole(heading) or (heading.lower().startswith("total ") and len(parts) >= 2):
            wholes.add(heading)
    return wholes


@dataclass
class Cell:
    table: Table
    table_index: str
    row: int
    col: int
    value: Decimal  # magnitude, table scale applied (percent stays in points)
    percent: bool
    text: str
    raw: Decimal = Decimal(0)  # magnitude as written in the cell, no table scale
    heading: str = ""  # the body heading row above ("Total International", "Nutritionals —")
    table_years: frozenset[str] = frozenset()
    negative: bool = False  # written as a negative ("(5,019)"): a change across zero is a sum
    whole_heading: bool = False  # its heading names the whole of the table's parts

    @property
    def signed(self) -> Decimal:
        return -self.value if self.negative else self.value

    @cached_property
    def row_tokens(self) -> set[str]:
        return set(_tokens(self.table.row_label(self.row)))

    @cached_property
    def heading_tokens(self) -> set[str]:
        return set(_tokens(self.heading)) - self.row_tokens

    @cached_property
    def col_text(self) -> str:
        return self.table.column_label(self.col)

    @cached_property
    def is_whole(self) -> bool:
        """The cell sits under a whole's heading (``whole_headings``) or in a whole's
        column ("Total")."""
        return self.whole_heading or names_whole(self.col_text)

    @cached_property
    def period_months(self) -> int | None:
        """The length of the column's period in months ("Three Months Ended": 3), if said.
        In a table of quarters beside years-to-date, a change column that does not say
        ("Increase / (Decrease)" after two quarter columns) is as long as the periods it
        compares; where every period is as long, its length tells no column apart."""
        own = period_months(self.col_text)
        if own is not None or not _change_header(self.col_text):
            return own
        table = self.table
        levels = {period_months(table.column_label(c)) for c in _level_columns(table)} - {None}
        if len(levels) < 2:
            return None
        lengths = {period_months(table.column_label(c)) for c in self.compared_columns} - {None}
        return lengths.pop() if len(lengths) == 1 else None

    @cached_property
    def compared_columns(self) -> list[int]:
        """The level columns a change column compares: the run of level columns just before
        its own block of change columns ("Q1 2024 | Q1 2023 | $ Change | % Change | ...").
        Where the changes of several periods stand together after all of them ("Q1 2024 |
        Q1 2023 | YTD 2024 | YTD 2023 | $ Change | $ Change"), the run holds them all and
        which two a change compares is not said."""
        table, run = self.table, []
        for c in range(self.col - 1, table.header_cols - 1, -1):
            if _change_header(table.column_label(c)):
                if run:
                    break
                continue
            run.append(c)
        return run

    @cached_property
    def years(self) -> set[str]:
        own = set(_YEAR.findall(self.col_text))
        if own:
            return own
        # "Total International | 2023 vs. 2022 | (3.3)": the period is in the row label
        in_row = set(_YEAR.findall(self.table.row_label(self.row)))
        if in_row and not self.table_years:
            return in_row
        # "2023 | 2022 | Total Change | Impact of Exchange": a value column without a
        # year in a table of periods belongs to the table's latest period
        if self.table_years:
            return {max(self.table_years)}
        return set()

    @cached_property
    def change_column(self) -> bool:
        """A column of changes between periods ("2023 vs. 2022 Change", "Increase (Decrease)");
        a cell written in basis points is a move whatever its header says."""
        return (
            _change_header(self.col_text)
            or len(self.years) >= 2
            or bool(re.search(r"bps|basis\s*points?", self.text, re.I))
        )

    @cached_property
    def category(self) -> str:
        """What the column holds besides its period: "average balance" and "interest" in a
        rate/volume table, "americas rac" in a segment's column; "" for a bare period."""
        text = re.sub(r"([a-z])([A-Z])", r"\1 \2", self.col_text)  # "EndedDecember"
        return " ".join(_PERIOD_HEADER_WORDS.sub(" ", text).lower().split())

    @cached_property
    def in_points(self) -> bool:
        """A rate, or a rate's move in points: a percent cell of a level column, or a change
        column's cell in a row whose level cells are rates ("Operating profit % | 3.9% |
        0.2% | 370bps"); not the "% change" of a row of amounts ("Net sales | $693.7 |
        $875.6 | (20.8%)")."""
        if not self.percent:
            return False
        if not self.change_column or re.search(r"bps|basis", self.text, re.I):
            return True
        table = self.table
        levels = [
            table.cells[self.row][c]
            for c in _level_columns(table)
            if c != self.col and any(ch.isdigit() for ch in table.cells[self.row][c])
        ]
        # every level is a rate: a row of amounts with a "% of net sales" column beside
        # them changes by a relative "% Change", not by points
        return bool(levels) and all("%" in text for text in levels)

    @cached_property
    def physical_unit(self) -> bool:
        """Row labels like "Oil (MMBbl)" or "(per BOE)" name a non-money unit."""
        label = self.table.row_label(self.row)
        return bool(
            re.search(
                r"\((?:mm|m|b)?(?:boe|bbl|bcf|mcf|btu|boe per day|mboe per day)[^)]*\)|per boe|per day",
                label,
                re.I,
            )
        )

    @property
    def amount(self) -> bool:
        """A sum of money as the table writes it: a currency sign, or a figure read at the
        table's scale ("(in thousands)"), in a cell not read as a percent. A rate row the
        table does not mark as one ("Yield on loans | 5.12" under "(in millions)") reads as
        an amount here, as it already did in its value."""
        return not self.percent and ("$" in self.text or self.value != self.raw)

    @cached_property
    def count_row(self) -> bool:
        """A row or column of counts, not money: "Outstanding Common Shares", "Gross
        Leasable Area", "Number of employees", "square feet"."""
        if "$" in self.text:
            return False
        label = self.table.row_label(self.row)
        if _PER_SHARE_ROW.search(label) or re.search(r"\$|dollars|amount|value", label, re.I):
            return False
        if _MONEY_HEAD.match(label) and not _SAYS_COUNT.search(label):
            return False  # "Repurchases of common shares": the head noun is the money
        return bool(
            _COUNT_LABEL.search(label)
            or _COUNT_LABEL.search(self.col_text)
            and not re.search(r"\$|dollars|amount|rent|value|cost", self.col_text, re.I)
        )

    @cached_property
    def counts(self) -> bool:
        """A row that says it counts ("Number of shares repurchased", "Weighted average
        diluted shares", "Square feet", "Employees", a "(in shares)" column): the hard
        rule's narrow test (``count_row`` is the ranker's broader feature). "Dividends paid
        on common shares" is money; when unsure, not a count."""
        if "$" in self.text:
            return False
        label = self.table.row_label(self.row)
        if re.search(r"\$|dollars|\bper\b|amount|value", label, re.I):
            return False
        if _SAYS_COUNT.search(label):
            return True
        if _COUNT_UNIT.search(label):
            return not _MONEY_WORDS.search(label)
        return bool(
            (_SAYS_COUNT.search(self.col_text) or _COUNT_UNIT.search(self.col_text))
            and not re.search(r"\$|dollars|amount|rent|value", self.col_text, re.I)
            and not _MONEY_WORDS.search(self.col_text)
        )


# a label that says outright it counts
_SAYS_COUNT = re.compile(
    r"\bnumber of\b|\bweighted[- ]average (?:number of )?(?:basic |diluted )?(?:common )?shares\b|"
    r"\(in shares\)|\bin (?:thousands|millions) of shares\b|\bshares \(in (?:thousands|millions)\)",
    re.I,
)
# a counted unit: a count unless the label also names money ("Salaries of employees")
_COUNT_UNIT = re.compile(
    r"\b(?:common |ordinary |preferred )?shares (?:issued and )?outstanding\b|"
    r"\boutstanding (?:common |ordinary |op )?(?:shares|units)\b|\bunits outstanding\b|"
    r"\bsquare f(?:ee|oo)t\b|\bsq\.? ?ft\b|\bgross leasable area\b|\bheadcount\b|\bemployees\b",
    re.I,
)
_MONEY_WORDS = re.compile(
    r"\b(?:paid|pay|proceeds|repurchase[sd]?|purchases?d?|costs?|dividends?|price|salar\w*|wages|"
    r"expenses?|compensation|issuance|sales?|revenues?|cash|rent)\b",
    re.I,
)


# a label whose first word is a money noun: what follows says what the money was for
_MONEY_HEAD = re.compile(
    r"\s*(?:repurchases?|purchases?|dividends?|proceeds|payments?|issuances?|costs?|cash)\b",
    re.I,
)
_COUNT_LABEL = re.compile(
    r"\b(?:number of|(?:common |ordinary |preferred )?shares outstanding|outstanding (?:common |"
    r"ordinary )?(?:shares|units|op units)|(?:common |op |ordinary )?units outstanding|"
    r"square f(?:ee|oo)t|sq\.? ?ft|gla|gross leasable area|headcount|employees|"
    r"(?:weighted[- ]average )?(?:basic |diluted )?shares\b(?! of)(?!holder))",
    re.I,
)


_SCALE_WORDS = {"thousand": Decimal(1000), "million": Decimal(10) ** 6, "billion": Decimal(10) ** 9}
_SECTION_SCALE = re.compile(r"\(\s*(?:\$|dollars)?\s*in (thousand|million|billion)s?", re.I)


def section_scales(table: Table) -> dict[int, Decimal]:
    """Rows under a body heading like "Revenue (in millions):" take that heading's scale."""
    scales: dict[int, Decimal] = {}
    current: Decimal | None = None
    for r in range(table.header_rows, table.n_rows):
        row = table.cells[r]
        values = row[table.header_cols :]
        label = table.row_label(r)
        is_heading = not any(any(ch.isdigit() for ch in v) for v in values if v not in label)
        if is_heading:
            match = _SECTION_SCALE.search(label)
            current = (
                _SCALE_WORDS[match.group(1).lower()]
                if match
                else (None if label.endswith(":") else current)
            )
            continue
        if current is not None:
            scales[r] = current
    return scales


_PER_SHARE_ROW = re.compile(
    r"\bper\b.*\bshare|\bper (?:diluted |basic )?share|\bEPS\b|\bper (?:boe|bbl|mcf|unit)\b", re.I
)


# a scale note ("(in thousands, except per share amounts)") names per share without being
# the heading of per-share rows
_SCALE_NOTE = re.compile(r"\b(?:except|excluding|other than)\b", re.I)


def per_share_heading(heading: str) -> bool:
    """A body heading over per-share rows ("Diluted per share amounts:")."""
    return bool(_PER_SHARE_ROW.search(heading)) and not _SCALE_NOTE.search(heading)


def per_share_cell(cell: Cell) -> bool:
    """The cell is a per-share (per-unit) figure: its row, heading or column says so."""
    label = cell.table.row_label(cell.row)
    return bool(
        _PER_SHARE_ROW.search(label) or per_share_heading(cell.heading)
        or _PER_SHARE_ROW.search(cell.col_text)
    )  # fmt: skip


def _per_share_values(table: Table, r: int) -> bool:
    """The row's figures read as per-share amounts: each written with decimals and under
    1,000, and the label no share count ("Weighted average shares outstanding")."""
    if re.search(r"\bshares\b|\bweighted\b", table.row_label(r), re.I):
        return False
    numbers = [
        table.number(r, c)
        for c in range(table.header_cols, table.n_cols)
        if any(ch.isdigit() for ch in table.cells[r][c])
    ]
    return bool(numbers) and all(
        n is not None and n.precision < 1 and abs(n.value) < 1000 for n in numbers
    )


def period_length_fits(cells: list[Cell], months: int | None) -> bool | None:
    """Whether the cells' periods are as long as the sentence's (``months``); None when
    either length is unsaid."""
    lengths = {c.period_months for c in cells} - {None}
    if not lengths or months is None:
        return None
    return lengths == {months}


def same_period_length(a: Cell, b: Cell) -> bool:
    """Two columns whose periods are equally long, or whose lengths are not both said: a
    10-Q's "Three Months Ended" against its "Nine Months Ended" compares no one metric."""
    months = a.period_months, b.period_months
    return None in months or months[0] == months[1]


def _is_heading_row(table: Table, r: int) -> bool:
    label = table.row_label(r)
    values = table.cells[r][table.header_cols :]
    return bool(label) and not any(any(ch.isdigit() for ch in v) for v in values if v not in label)


def _headings(table: Table) -> dict[int, str]:
    """The body heading ("Total International", "Oil (per Bbl):") that each row sits under."""
    out: dict[int, str] = {}
    current = ""
    for r in range(table.header_rows, table.n_rows):
        if _is_heading_row(table, r):
            current = table.row_label(r).rstrip(":—- ")
            continue
        if not any(table.cells[r]):
            continue
        out[r] = current
    return out


def _first_value(table: Table, c: int) -> str:
    """The column's first body cell with a digit ("" if none)."""
    for r in range(table.header_rows, table.n_rows):
        if any(ch.isdigit() for ch in table.cells[r][c]):
            return table.cells[r][c]
    return ""


def _percent_columns(table: Table) -> set[int]:
    """Columns whose first value carries "%" and the rest are bare ("1.1%" then "9.8")."""
    cols = set()
    for c in range(table.header_cols, table.n_cols):
        values = [
            table.cells[r][c]
            for r in range(table.header_rows, table.n_rows)
            if any(ch.isdigit() for ch in table.cells[r][c])
        ]
        if values and "%" in values[0] and not any("$" in v for v in values):
            cols.add(c)
    return cols


def numeric_cells(table: Table, index: str, implied_scale: Decimal = Decimal(1)) -> list[Cell]:
    cells = []
    local = section_scales(table) if table.scale == 1 else {}
    headings = _headings(table)
    wholes = whole_headings(headings.values())
    percent_cols = _percent_columns(table)
    # a column of dollar amounts under a header that also names "%" ("Amount%", two
    # header cells run together) holds amounts: its bare cells are not percents. Its
    # first value says so, as for percent columns (a "%" column may hold one "$" row)
    money_cols = {
        c
        for c in range(table.header_cols, table.n_cols)
        if (first := _first_value(table, c)) and "$" in first and "%" not in first
    }
    years = frozenset(y for c in range(table.n_cols) for y in _YEAR.findall(table.column_label(c)))
    for r in range(table.header_rows, table.n_rows):
        label = table.row_label(r)
        # "Net earnings" under "Diluted per share amounts:" is a per-share figure too, when
        # its values are written as one (an EPS note's "Net income | 45,210" is an amount)
        per_unit = bool(_PER_SHARE_ROW.search(label)) or (
            per_share_heading(headings.get(r, "")) and _per_share_values(table, r)
        )
        for c in range(table.header_cols, table.n_cols):
            raw = table.cells[r][c]
            if not raw or not any(ch.isdigit() for ch in raw):
                continue
            number = table.number(r, c)
            value = table.scaled_value(r, c)
            if number is None or value is None:
                continue
            if _YEAR.fullmatch(raw.strip()):
                continue
            bps = "bps" in number.units  # "-130bps": a move of 1.30 points
            percent = (
                "percent" in number.units
                or bps
                or c in percent_cols
                or table.is_per_share_or_percent(r, c)
                and ("%" in raw or "%" in table.column_label(c) and c not in money_cols)
            )
            if bps:
                value = number.value / 100
            elif per_unit or percent:
                value = number.value  # per-share and per-unit amounts are never scaled
            elif c in money_cols and number.scale == 1 and "%" in table.column_label(c):
                # the "%" in the header kept the table's money scale off the amount
                value = number.value * table.row_scale(r)
            elif _rate_named_amount(table, r, c, number):
                # "Total Debt - Variable Rate | $426,380": a rate in the label, an amount
                # in the cells; the table's money scale applies
                value = number.value * table.row_scale(r)
            elif r in local and number.scale == 1:
                value = number.value * local[r]
            elif table.scale == 1 and number.scale == 1 and not local:
                value = number.value * implied_scale
            cells.append(
                Cell(
                    table,
                    index,
                    r,
                    c,
                    abs(value),
                    bool(percent),
                    raw,
                    abs(number.value),
                    headings.get(r, ""),
                    years,
                    value < 0,
                    headings.get(r, "") in wholes,
                )
            )
    return cells


def _rate_named_amount(table: Table, r: int, c: int, number: Any) -> bool:
    """A row whose label names a rate ("Fixed Rate Debt") but whose cells are amounts:
    no "%" anywhere, and a "$" in the row or values too large for a rate."""
    if table.scale == 1 or number.scale != 1 or number.units - {"usd"}:
        return False
    label = table.row_label(r)
    if not re.search(r"\b(?:rate|ratio|margin)\b", label, re.I):
        return False
    if re.search(r"%|\bpercent", label + " " + table.column_label(c), re.I):
        return False
    if _PER_SHARE_ROW.search(label) or table.names_non_money_unit(r, c):
        return False
    row = table.cells[r][table.header_cols :]
    if any("%" in v for v in row):
        return False
    return any("$" in v for v in row) or abs(number.value) >= 1000


def implied_scale(table: Table, anchors: list[Any], *more: list[Any]) -> Decimal:
    """A table with no stated scale whose cells match the sentence's money figures only
    when read in thousands (or millions) is in thousands: "$426.4 million" ~ 426,380.

    ``more``: further figures (the neighbouring sentences'), asked in turn only when
    the ones before give no evidence either way.
    """
    for group in (anchors, *more):
        found = _scale_evidence(table, group)
        if found is not None:
            return found
    return Decimal(1)


def _scale_evidence(table: Table, anchors: list[Any]) -> Decimal | None:
    if table.scale != 1:
        return Decimal(1)
    money = [
        a for a in anchors if "usd" in a.units and a.scale >= 1000 and "percent" not in a.units
    ]
    if not money:
        return None
    for factor in (Decimal(1000), Decimal(10) ** 6):
        for r in range(table.header_rows, table.n_rows):
            for c in range(table.header_cols, table.n_cols):
                number = table.number(r, c)
                if number is None or number.scale != 1 or "percent" in number.units:
                    continue
                value = abs(number.value)
                if any(_near(value, a) for a in money):
                    return Decimal(1)  # already matches as written
                if any(
                    _near(value * factor, a) and a.precision <= value * factor / 100 for a in money
                ):
                    return factor
    return None


def _near(value: Decimal, anchor: Any) -> bool:
    """The table value rounds to the anchor as written ("$1.7 million" ~ 1,744,488)."""
    target = abs(anchor.value)
    tolerance = max(anchor.precision / 2, abs(target) * Decimal("0.0005"))
    return abs(value - target) <= tolerance
