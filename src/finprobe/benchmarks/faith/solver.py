"""``finprobe/faith-solver``: answer FAITH spans from the tables, without an LLM.

It sees only what a model sees (tables with pre-texts, the masked sentence, its
neighbours and the unit hint). It proposes candidates (every numeric cell, and
simple derivations: change, percentage change, ratio, share of total, sum) and
ranks them by how well they fit the sentence:

- words near the mask against the candidate's row label, column label and table
  pre-text (weighted by rarity across the document's labels);
- periods named in the sentence against the column headers;
- anchors: other numbers of the sentence found in the tables pull candidates from
  the same row or column, and an anchor's own value is not the answer;
- the hint's unit type (percent, money, plain number, physical unit);
- a prior that favours direct lookups, as real MD&A text does.

Measures the sentence defines in words are computed from the statement lines they
name and placed above the table candidates when the hint's unit fits: named ratios
("gross margin", "operating margin", "effective tax rate", "current ratio", "return
on average equity"), "X, or [MASK] of revenue" and "X as a percentage of Y", listed
items "together"/"combined" (a sum, or a sum's share of a base line), "defined as A
less B", "excluding S, revenue grew", compound annual growth, and the change of any of
these between periods (points for a ratio). A per-share anchor ("or $6.86 per diluted
share") explains its own row: the blank is the amount, not a per-share figure. Reason
clauses ("reflecting higher subscription renewals") do not name the blank's row, and
synonyms ("capital expenditures") reach the tables' spelling. What-if sentences ("a 10
percent decrease in prices would have reduced revenue by [MASK]", "a one percent change
in the effective tax rate", "a 100-basis-point increase" on variable-rate debt) are the
shock times its base (expense / rate for a tax rate; debt rows for interest rates), or,
with the shock blank, the stated effect over a base when that is a round percentage.
Parallel lists ("31.8%, [MASK] and 26.0% ... in the New York, Southeast, and Northeast
regions"; "oil, gas, and NGL revenues by $X, [MASK], and $Z, respectively") give the
blank its item's row. An anchor named by its own clause ("premium of $0.2 million") is
that row's figure for the blank's period, so the row's other periods are not the blank;
"[MASK], of which $X was variable-rate" names the part after "of which", not the blank.
A money blank is never a share count, area or headcount row.

Table reading rules: per-share and per-unit rows are never scaled; a body heading
"Revenue (in millions):" scales the rows under it; a table with no stated scale
whose cells match the sentence's money figures only in thousands is read in
thousands; a row naming a rate whose cells are amounts ("Total Debt - Variable Rate |
$426,380") takes the table's money scale; a row label "2023 vs. 2022" gives its cells'
periods; a column whose first value has "%" is a percent column; year-less
columns belong to the table's latest period; acronyms ("R&D") and word prefixes
("excluding" / "Excl.") reach the tables' spelling.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Any

from finprobe.document import Table
from finprobe.numbers import find_numbers, parse_number

_WORD = re.compile(r"[a-z][a-z&'-]*|\d{4}")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "and",
        "or",
        "in",
        "on",
        "for",
        "to",
        "from",
        "by",
        "with",
        "as",
        "at",
        "our",
        "we",
        "its",
        "their",
        "this",
        "that",
        "these",
        "those",
        "was",
        "were",
        "is",
        "are",
        "be",
        "been",
        "has",
        "have",
        "had",
        "which",
        "who",
        "than",
        "compared",
        "versus",
        "vs",
        "respectively",
        "during",
        "year",
        "years",
        "ended",
        "ending",
        "period",
        "periods",
        "total",
        "primarily",
        "due",
        "mainly",
        "million",
        "billion",
        "thousand",
        "percent",
        "approximately",
        "about",
        "increase",
        "increased",
        "decrease",
        "decreased",
        "change",
        "changed",
    ]
)
_INCREASE = re.compile(
    r"\b(increas|decreas|grew|growth|declin|rose|fell|higher|lower|up|down|chang|improv|drop|reduc)\w*",
    re.I,
)
_SHARE = re.compile(
    r"\b(of (?:our |the )?total|percent of|% of|share of|represent|accounted for|portion)", re.I
)
_RATIO = re.compile(r"\b(margin|ratio|rate|as a percent|as a percentage|yield|per)\b", re.I)


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _tokens(text: str) -> list[str]:
    out = []
    for w in _WORD.findall(text.lower()):
        if w in _STOP:
            continue
        out.append(_stem(w))
        if "-" in w:  # "variable-rate" also names a "Variable Rate" row
            out.extend(_stem(p) for p in w.split("-") if len(p) > 2 and p not in _STOP)
    return out


_COLUMN_NOISE = frozenset(
    _tokens(
        "months month quarter three six nine twelve fiscal december june september march ended as of amount change between dollar dollars percent in thousands millions"
    )
) | {"$", "%", "vs", "chang"}


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
        """A column of changes between periods ("2023 vs. 2022 Change", "Increase (Decrease)")."""
        text = self.col_text.lower()
        return (
            bool(re.search(r"chang|increase|decrease|variance|\bvs\.?\b|\bversus\b|/", text))
            or len(self.years) >= 2
        )

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

    @cached_property
    def count_row(self) -> bool:
        """A row or column of counts, not money: "Outstanding Common Shares", "Gross
        Leasable Area", "Number of employees", "square feet"."""
        if "$" in self.text:
            return False
        label = self.table.row_label(self.row)
        if _PER_SHARE_ROW.search(label) or re.search(r"\$|dollars|amount|value", label, re.I):
            return False
        return bool(
            _COUNT_LABEL.search(label)
            or _COUNT_LABEL.search(self.col_text)
            and not re.search(r"\$|dollars|amount|rent|value|cost", self.col_text, re.I)
        )


_COUNT_LABEL = re.compile(
    r"\b(?:number of|(?:common |ordinary |preferred )?shares outstanding|outstanding (?:common |"
    r"ordinary )?(?:shares|units|op units)|(?:common |op |ordinary )?units outstanding|"
    r"square f(?:ee|oo)t|sq\.? ?ft|gla|gross leasable area|headcount|employees|"
    r"(?:weighted[- ]average )?(?:basic |diluted )?shares\b(?! of)(?!holder))",
    re.I,
)


@dataclass
class Candidate:
    value: Decimal
    percent: bool
    kind: str  # lookup | change | pct_change | ratio | share | sum
    scenario: str
    cells: list[Cell]
    formula: str
    score: float = 0.0
    notes: list[str] = field(default_factory=list)


@dataclass
class SolverAnswer:
    answer: str
    scenario: str
    metrics: list[str]
    tables: list[str]
    reasoning: str

    def to_completion(self) -> str:
        block = {
            "results": {
                "answer": self.answer,
                "scenario": self.scenario,
                "necessary_metrics": self.metrics,
                "reference": self.tables,
            }
        }
        return f"{self.reasoning}\n\n```json\n{json.dumps(block, indent=2)}\n```"


KIND_SCENARIO = {
    "lookup": "A",
    "change": "B",
    "pct_change": "B",
    "ratio": "C",
    "share": "C",
    "sum": "C",
}
# Log-prior of each kind: most MD&A figures are read straight from a table.
KIND_PRIOR = {
    "lookup": 0.0,
    "change": -1.6,
    "pct_change": -1.4,
    "share": -2.0,
    "ratio": -2.4,
    "sum": -2.6,
}


@dataclass
class Context:
    """What the sentence says about the masked value."""

    left: list[str]
    right: list[str]
    sentence: list[str]
    neighbours: list[str]
    years: list[str]
    anchors: list[Decimal]
    hint_units: frozenset[str]
    wants_percent: bool
    wants_money: bool
    wants_plain: bool
    direction: bool
    share_words: bool
    ratio_words: bool
    role: str  # "change" | "older" | "newer" | "level"
    physical_unit: bool  # the hint names a non-money unit (MMBOE, Bcf, ...)
    year_slot: str | None  # the period a "respectively" list assigns to the mask
    target_year: str | None = None  # the period the blank belongs to, when it can be told
    per_share_blank: bool = False  # "[MASK] per diluted share"
    paired: bool = False  # the blank is paired with an anchor: "from [MASK] to $X", "$X, or [MASK]"


def read_context(metadata: dict[str, Any]) -> Context:
    masked = metadata["masked_sentence"]
    before, _, after = masked.partition("[MASK]")
    # "revenue rose [MASK], reflecting higher subscription renewals": the reason names
    # other lines, not the blank's
    reason = _REASON.search(after)
    because = after[reason.start() :] if reason else ""
    if reason:
        after = after[: reason.start()]
        masked = before + "[MASK]" + after
    left = _tokens(before)[-8:]
    if re.search(r"\bof which\s*(?:approximately\s+|about\s+)?$", before, re.I):
        left = []  # "$1.9 billion, of which [MASK] was variable-rate": the part is named after
    right = _tokens(re.split(r",?\s*of which\b", after, maxsplit=1, flags=re.I)[0])[:8]
    hint = metadata.get("hint", "")
    units: set[str] = set()
    if "percent" in hint or "%" in hint:
        units.add("percent")
    if "$" in hint or "dollar" in hint:
        units.add("usd")
    if "per-share" in hint:
        units.add("per_share")
    match = re.search(r"expressed in ([A-Z0-9 ]+)", hint)
    if match:
        units.add(match.group(1).strip().lower())
    anchors = []
    for span in find_numbers(masked.replace("[MASK]", " ")):
        if getattr(span, "kind", "") in ("year", "date", "ordinal"):
            continue
        anchors.append(span.number)
    near = before[-60:] + " " + after[:60]
    years = _YEAR.findall(masked)
    return Context(
        left=left,
        right=right,
        sentence=_tokens(masked),
        neighbours=_tokens(
            metadata.get("pre_sentence", "") + " " + metadata.get("post_sentence", "") + because
        ),
        years=years,
        anchors=anchors,
        hint_units=frozenset(units),
        wants_percent="percent" in units,
        wants_money="usd" in units or "per_share" in units,
        wants_plain="plain number" in hint,
        direction=bool(_INCREASE.search(near)),
        share_words=bool(_SHARE.search(after[:40])),
        ratio_words=bool(_RATIO.search(near)),
        role=mask_role(before, after),
        physical_unit=bool(units - {"usd", "percent", "per_share"}),
        year_slot=_respectively_slot(before, after, years),
        target_year=_target_year(before, after, mask_role(before, after)),
        per_share_blank="per_share" in units or bool(re.match(r"\s*per\b", after)),
        paired=bool(
            _CHANGE_PAIR_BEFORE.search(before.rstrip())
            or re.match(r"\s*(?:to|,?\s*or)\s+\$?\d", after)
            or re.search(
                r"\b(?:from|to)\s+\$?[\d.,]+\s*(?:million|billion|thousand|%|percent)?\s*(?:to|from)?\s*$",
                before,
            )
        ),
    )


_CLAUSE_BREAK = re.compile(
    r"compared (?:with|to)|as compared|versus|\bvs\.?|\bfrom\b|\bwhile\b|;|, and\b|, or\b|\. ",
    re.I,
)


def _target_year(before: str, after: str, role: str) -> str | None:
    """The year of the blank's own clause: "[MASK] for 2022", "In 2022, sales fell [MASK]".

    The clause runs from the last comparison word before the blank to the next one
    after it, so "$68.2 million for 2023, compared to a loss of [MASK] for 2022"
    gives 2022.
    """
    if role == "older":
        # "from [MASK] to $8.7 million for 2023 compared to 2022": the blank's year is
        # the one named with the comparison, not the newer figure's
        compared = re.search(r"(?:compared (?:with|to)|versus|\bvs\.?)(.*)", after, re.I)
        years = _YEAR.findall(compared.group(1)) if compared else []
        return years[0] if years else None
    breaks = list(_CLAUSE_BREAK.finditer(before))
    own_before = before[breaks[-1].end() :] if breaks else before
    stop = _CLAUSE_BREAK.search(after)
    own_after = after[: stop.start()] if stop else after
    later = _YEAR.findall(own_after)
    if later:
        return later[0]
    earlier = _YEAR.findall(own_before)
    if earlier:
        return earlier[-1]
    if not breaks:
        # the sentence's opening period ("For 2023, revenue was [MASK]")
        years = _YEAR.findall(before)
        if years:
            return years[-1]
    return None


_CHANGE_WORD = (
    r"(?:increas|decreas|grew|grow|declin|rose|fell|chang|improv|reduc|drop|offset|higher|lower"
    r"|rise)\w*"
)
_CHANGE_BEFORE = re.compile(
    _CHANGE_WORD + r"(?:\s+(?:by|of|favorably|unfavorably|approximately|about|nearly|roughly|"
    r"more than|over|\$))*\s*$",
    re.I,
)
# "increased $894 million, or [MASK]": the second figure of a change
_CHANGE_PAIR_BEFORE = re.compile(
    _CHANGE_WORD + r"\s+(?:(?:by|of)\s+)?(?:approximately\s+)?\$?\s?[\d.,]+\s*(?:%|percent|million|"
    r"billion|thousand)?,?\s+or\s*$",
    re.I,
)
_FROM_BEFORE = re.compile(r"\bfrom\s*(?:approximately\s+|about\s+)?$", re.I)
_COMPARED_BEFORE = re.compile(
    r"(compared (?:with|to)|versus|vs\.?|from|prior year(?:'s)?|as compared to)"
    r"(?:\s+(?:approximately|about|a|an|net|\w+\s+of))*\s*$",
    re.I,
)
_CHANGE_AFTER = re.compile(
    r"\s*(?:,?\s*(?:and|or)\s+[\d.,]+\s*(?:%|percent)?\s*)?(?:\w+\s+)?"
    r"(?:increase|decrease|change|growth|decline|rise|reduction|more|less|higher|lower|"
    r"improvement|drop)s?\b",
    re.I,
)


def mask_role(before: str, after: str) -> str:
    """What the blank is, from the words around it ("increased [MASK]" is a change)."""
    before = before.rstrip()
    if _FROM_BEFORE.search(before) and re.match(r"\s*to\b", after):
        return "older"
    if re.search(r"\b(?:by|of)\s*(?:approximately\s+|about\s+)?$", before) and re.search(
        _CHANGE_WORD + r"\s+(?:by|of)\s*(?:approximately\s+|about\s+)?$", before, re.I
    ):
        return "change"  # "decreased by [MASK] to $13.26 billion"
    if _CHANGE_BEFORE.search(before):
        return "change"  # "increased [MASK] to 152.0" is the change, too
    if re.search(
        _CHANGE_WORD
        + r"(?:\s+(?:[a-z][\w.'-]*|U\.S\.)){1,4}\s+by(?:\s+approximately|\s+about)?\s*$",
        before,
        re.I,
    ) and not re.search(r"\b(?:offset|driven|caused|impacted|affected)\s+by\s*$", before, re.I):
        return "change"  # "decreased total international sales by [MASK]"
    if _CHANGE_PAIR_BEFORE.search(before):
        return "change"
    if _CHANGE_AFTER.match(after):
        return "change"
    if _COMPARED_BEFORE.search(before):
        return "older"
    return "level"


def _respectively_slot(before: str, after: str, years: list[str]) -> str | None:
    """In "2023 and 2022 were $X and [MASK], respectively" the blank belongs to 2022."""
    if "respectively" not in after or len(years) < 2:
        return None
    slots = len(
        re.findall(r"\d[\d,.]*|\[MASK\]", before + "[MASK]" + after.split("respectively")[0])
    )
    position = len(find_numbers(before.split(years[-1])[-1])) if years[-1] in before else 0
    ordered = [y for y in dict.fromkeys(years)]
    if position < len(ordered) and slots >= 2:
        return ordered[position]
    return None


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
    percent_cols = _percent_columns(table)
    years = frozenset(y for c in range(table.n_cols) for y in _YEAR.findall(table.column_label(c)))
    for r in range(table.header_rows, table.n_rows):
        label = table.row_label(r)
        per_unit = bool(_PER_SHARE_ROW.search(label))
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
            percent = (
                "percent" in number.units
                or c in percent_cols
                or table.is_per_share_or_percent(r, c)
                and "%" in (raw + table.column_label(c))
            )
            if per_unit or percent:
                value = number.value  # per-share and per-unit amounts are never scaled
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


def implied_scale(table: Table, anchors: list[Any]) -> Decimal:
    """A table with no stated scale whose cells match the sentence's money figures only
    when read in thousands (or millions) is in thousands: "$426.4 million" ~ 426,380."""
    if table.scale != 1:
        return Decimal(1)
    money = [
        a for a in anchors if "usd" in a.units and a.scale >= 1000 and "percent" not in a.units
    ]
    if not money:
        return Decimal(1)
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
    return Decimal(1)


_ACRONYM = re.compile(r"\b[A-Z][A-Z&]{1,6}\b")
_MINOR = frozenset(["and", "of", "the", "for", "in", "on", "to", "&"])


def _initials(label: str) -> str:
    words = re.findall(r"[A-Za-z]+", label)
    return "".join(w[0].upper() for w in words if w.lower() not in _MINOR)


def expand_context(context: Context, tables: list[Table], masked: str) -> None:
    """Let the sentence's words reach the tables' spelling: "R&D" names a row
    "Research and development", "excluding" a column "Excl. Exchange"."""
    labels: set[str] = set()
    vocabulary: set[str] = set()
    for table in tables:
        for r in range(table.n_rows):
            label = table.row_label(r)
            labels.add(label)
            vocabulary.update(_tokens(label))
        for c in range(table.header_cols, table.n_cols):
            vocabulary.update(_tokens(table.column_label(c)))
    before, _, after = masked.partition("[MASK]")
    near_text = before[-80:] + " " + after[:80]
    for acronym in set(_ACRONYM.findall(masked)):
        letters = acronym.replace("&", "")
        if len(letters) < 2:
            continue
        for label in labels:
            words = re.findall(r"[A-Za-z]+", label)
            if _initials(label) == letters and len(words) <= 2 * len(letters) + 2:
                expansion = _tokens(label)
                context.sentence.extend(expansion)
                if acronym in near_text:
                    context.left.extend(expansion)
    # "capital expenditures" is spelled "Purchases of property and equipment" in the tables
    lowered = masked.lower()
    for pattern, concept in _LINE_SYNONYMS:
        match = pattern.search(lowered)
        if not match:
            continue
        test = _MEASURE_ROWS[concept]
        for label in labels:
            if test(_label(label)):
                expansion = _tokens(label)
                context.sentence.extend(expansion)
                if match.group(0) in near_text.lower():
                    context.left.extend(expansion)
    own = set(context.sentence)
    for token in list(own - vocabulary):
        if len(token) < 4:
            continue
        for word in vocabulary:
            if len(word) >= 4 and (word.startswith(token) or token.startswith(word)):
                context.sentence.append(word)
                if token in context.left or token in context.right:
                    context.left.append(word)


_LINE_SYNONYMS = [
    (re.compile(p), concept)
    for p, concept in [
        (r"capital expenditures|\bcapex\b|capital spending", "capex"),
        (r"operating cash flows?|cash (?:flows? )?(?:provided by|from|generated (?:by|from)) operati",
         "operating_cash_flow"),
        (r"pre-?tax (?:income|earnings)", "pretax_income"),
        (r"tax provision|income tax expense|provision for income taxes", "income_tax"),
        (r"\bcost of (?:revenues?|sales|goods sold)", "cost_of_revenue"),
    ]
]  # fmt: skip
_EXCLUDING = frozenset({"excl", "exclud", "excluding", "ex", "adjusted", "adjust"})


class Scorer:
    """Lexical fit between the sentence and a table location, rarity-weighted."""

    def __init__(self, tables: list[Table], context: Context) -> None:
        self.context = context
        counts: Counter[str] = Counter()
        documents = 0
        for table in tables:
            for r in range(table.n_rows):
                counts.update(set(_tokens(table.row_label(r))))
                documents += 1
        self.idf = {w: math.log((documents + 1) / (n + 0.5)) for w, n in counts.items()}
        self.default_idf = math.log(documents + 1)
        # the report's own period: the latest year its tables show most often
        latest: Counter[str] = Counter()
        for table in tables:
            years = _YEAR.findall(" ".join(table.column_label(c) for c in range(table.n_cols)))
            if years:
                latest[max(years)] += 1
        self.current_year = latest.most_common(1)[0][0] if latest else None

    def column_fit(self, cell: Cell) -> float:
        """Column headers naming a segment or category the sentence names ("for the Funds")."""
        tokens = set(_tokens(re.sub(_YEAR, " ", cell.col_text))) - _COLUMN_NOISE
        if not tokens:
            return 0.0
        hits = tokens & set(self.context.sentence)
        score = 1.5 * len(hits) - 0.4 * len(tokens - hits)
        # constant-currency / adjusted figures: "excluding" names the "Excl." column
        sentence_excludes = bool(set(self.context.sentence) & _EXCLUDING)
        if tokens & _EXCLUDING:
            score += 1.5 if sentence_excludes else -1.0
        return score

    def weight(self, tokens: set[str] | list[str]) -> float:
        return sum(self.idf.get(t, self.default_idf) for t in tokens)

    def label_fit(self, row_tokens: set[str], heading_tokens: set[str] = frozenset()) -> float:
        if not row_tokens:
            return 0.0
        ctx = self.context
        near = set(ctx.left) | set(ctx.right)
        sentence = set(ctx.sentence)
        hit_near = self.weight(row_tokens & near)
        hit_sentence = self.weight(row_tokens & sentence)
        hit_neighbours = self.weight(row_tokens & set(ctx.neighbours))
        total = self.weight(row_tokens)
        coverage = self.weight(row_tokens & (sentence | set(ctx.neighbours))) / total
        missing = self.weight(row_tokens - sentence - set(ctx.neighbours))
        # a heading above the row ("Structural Heart", "Total International") counts half
        heading = 0.5 * self.weight(heading_tokens & sentence) + 0.3 * self.weight(
            heading_tokens & near
        )
        return (
            0.6 * hit_near
            + 0.35 * hit_sentence
            + 0.1 * hit_neighbours
            + 3.0 * coverage
            - 0.15 * missing
            + heading
        )

    def table_fit(self, table: Table) -> float:
        tokens = set(_tokens(table.pre_text[-300:]))
        return 0.15 * self.weight(tokens & set(self.context.sentence))

    def year_fit(self, years: set[str]) -> float:
        if not self.context.years or not years:
            return 0.0
        first = self.context.years[0]
        if first in years:
            return 2.0
        if years & set(self.context.years):
            return 1.0
        return -1.5


def _near(value: Decimal, anchor: Any) -> bool:
    """The table value rounds to the anchor as written ("$1.7 million" ~ 1,744,488)."""
    target = abs(anchor.value)
    tolerance = max(anchor.precision / 2, abs(target) * Decimal("0.0005"))
    return abs(value - target) <= tolerance


def _matches_anchor(cell_or_value: Cell | Decimal, anchors: list[Any], percent: bool) -> bool:
    for anchor in anchors:
        anchor_percent = "percent" in anchor.units
        if anchor_percent != percent:
            continue
        if isinstance(cell_or_value, Cell):
            if _near(cell_or_value.value, anchor) or _near(cell_or_value.raw, anchor):
                return True
        elif _near(cell_or_value, anchor):
            return True
    return False


def _derived(
    cells_by_row: dict[tuple[str, int], list[Cell]], rows: list[tuple[str, int]]
) -> list[Candidate]:
    out: list[Candidate] = []
    for key in rows:
        row_cells = [c for c in cells_by_row.get(key, []) if not c.percent and c.years]
        for i, a in enumerate(row_cells):
            for b in row_cells[i + 1 :]:
                if a.years == b.years:
                    continue
                newer, older = (a, b) if max(a.years) > max(b.years) else (b, a)
                label = newer.table.row_label(newer.row)
                out.append(
                    Candidate(
                        abs(newer.value - older.value),
                        False,
                        "change",
                        "B",
                        [newer, older],
                        f"{label}: {newer.col_text} - {older.col_text}",
                    )
                )
                if older.value:
                    out.append(
                        Candidate(
                            abs(newer.value - older.value) / older.value * 100,
                            True,
                            "pct_change",
                            "B",
                            [newer, older],
                            f"{label}: ({newer.col_text} - {older.col_text}) / {older.col_text}",
                        )
                    )
    return out


def _pairwise(top: list[Cell]) -> list[Candidate]:
    """Ratios, shares and sums of the best-fitting cells of one column."""
    out: list[Candidate] = []
    for i, a in enumerate(top):
        for b in top:
            if a is b or a.table is not b.table or a.col != b.col or a.percent or b.percent:
                continue
            if b.value and a.value < b.value:
                out.append(
                    Candidate(
                        a.value / b.value * 100,
                        True,
                        "share",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} / {b.table.row_label(b.row)}",
                    )
                )
            elif b.value:
                out.append(
                    Candidate(
                        a.value / b.value * 100,
                        True,
                        "ratio",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} / {b.table.row_label(b.row)}",
                    )
                )
        for b in top[i + 1 :]:
            if a.table is b.table and a.col == b.col and not a.percent and not b.percent:
                out.append(
                    Candidate(
                        a.value + b.value,
                        False,
                        "sum",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} + {b.table.row_label(b.row)}",
                    )
                )
    return out


# -- measures named in words: margins, rates, totals, definitions -------------------


def _label(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip(" :")


def _is_total_tax(label: str) -> bool:
    return (
        "income tax" in label
        and not re.search(r"before|deferred|payable|paid|receivable|net of|benefit plan", label)
        and not label.startswith("net income")
    )


# the standard statement lines, by the way 10-K tables spell them
_MEASURE_ROWS: dict[str, Any] = {
    "revenue": lambda s: bool(
        re.fullmatch(
            r"(?:total )?(?:net )?(?:operating )?(?:revenues?|sales)(?:, net)?(?: \([^)]*\))?",
            s,
        )
    ),
    "cost_of_revenue": lambda s: bool(
        re.match(r"(?:total )?costs? of (?:revenues?|sales|goods sold|products sold)", s)
    ),
    "gross_profit": lambda s: bool(re.fullmatch(r"gross (?:profit|margin)(?: \(loss\))?", s)),
    "operating_expenses": lambda s: bool(
        re.fullmatch(r"total (?:operating )?(?:costs and )?expenses", s)
    ),
    "operating_income": lambda s: bool(
        re.fullmatch(
            r"(?:total )?(?:operating (?:income|profit|earnings)(?: \(loss\))?"
            r"|(?:income|earnings)(?: \(loss\))? from operations)",
            s,
        )
    ),
    "pretax_income": lambda s: bool(
        re.search(r"(?:income|earnings)(?: \(loss\))?.* before (?:provision for )?income tax", s)
    ),
    "income_tax": _is_total_tax,
    "net_income": lambda s: bool(
        re.fullmatch(r"net (?:income|earnings)(?: \(loss\))?(?: attributable to [\w .,']+)?", s)
    ),
    "current_assets": lambda s: s == "total current assets",
    "current_liabilities": lambda s: s == "total current liabilities",
    "total_assets": lambda s: s == "total assets",
    "equity": lambda s: bool(
        re.fullmatch(r"total (?:stockholders|shareholders|shareowners|share owners)'? equity", s)
    ),
    "operating_cash_flow": lambda s: s.startswith("net cash") and "operating activities" in s,
    "capex": lambda s: bool(
        re.match(
            r"(?:capital expenditures|(?:purchases?|additions|acquisitions?|payments for)"
            r" (?:of|to) (?:property|premises|fixed assets|capital assets))",
            s,
        )
    ),
    "cash": lambda s: s in ("cash and cash equivalents", "cash"),
    "debt": lambda s: bool(re.fullmatch(r"(?:total )?(?:long-term )?debt(?:, net)?", s)),
}
# words a sentence uses for those lines
_MEASURE_NAMES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), name)
    for p, name in [
        (r"^(?:total |net |consolidated )*(?:revenues?|sales|net sales)$", "revenue"),
        (r"^costs? of (?:revenues?|sales|goods sold)$", "cost_of_revenue"),
        (r"^capital expenditures$|^capex$", "capex"),
        (r"^(?:net )?cash (?:provided by|from|generated by|generated from) operati\w+(?: activities)?$"
         r"|^operating cash flows?$", "operating_cash_flow"),
        (r"^current assets$", "current_assets"),
        (r"^current liabilities$", "current_liabilities"),
        (r"^(?:pre-?tax income|income before (?:income )?taxes)$", "pretax_income"),
    ]
]  # fmt: skip


@dataclass
class Measure:
    """A figure per period: one statement line, or a combination of lines."""

    name: str
    values: dict[str, Decimal]
    cells: dict[str, list[Cell]]
    unit: str = "money"  # money | percent | plain


def _table_of(measure: Measure) -> str:
    return next(iter(measure.cells.values()))[0].table_index


def _row_measure(cells: list[Cell]) -> Measure | None:
    values: dict[str, Decimal] = {}
    used: dict[str, list[Cell]] = {}
    for cell in cells:
        if cell.percent or cell.change_column or len(cell.years) != 1:
            continue
        (year,) = cell.years
        if year not in values:
            values[year] = cell.value
            used[year] = [cell]
    if not values:
        return None
    first = cells[0]
    return Measure(first.table.row_label(first.row), values, used)


def _combine(name: str, parts: list[Measure], op: str, unit: str = "money") -> Measure | None:
    years = set.intersection(*(set(p.values) for p in parts))
    values: dict[str, Decimal] = {}
    used: dict[str, list[Cell]] = {}
    ordered = sorted(years)
    for i, year in enumerate(ordered):
        xs = [p.values[year] for p in parts]
        cells = [c for p in parts for c in p.cells[year]]
        if op == "sum":
            value = sum(xs, Decimal(0))
        elif op == "diff":
            value = xs[0] - sum(xs[1:], Decimal(0))
        elif op == "ratio":
            if not xs[1]:
                continue
            value = xs[0] / xs[1] * (100 if unit == "percent" else 1)
        elif op == "return_avg":  # x / average of y over this and the prior period
            if i == 0:
                continue
            prior = parts[1].values[ordered[i - 1]]
            if not xs[1] + prior:
                continue
            value = xs[0] / ((xs[1] + prior) / 2) * 100
            cells = cells + parts[1].cells[ordered[i - 1]]
        else:
            raise ValueError(op)
        values[year] = value
        used[year] = cells
    return Measure(name, values, used, unit) if values else None


# measures a sentence names: (phrase, operation, lines, unit)
_NAMED_MEASURES: list[tuple[re.Pattern[str], str, tuple[str, ...], str]] = [
    (re.compile(p, re.I), op, lines, unit)
    for p, op, lines, unit in [
        (r"gross (?:profit )?margin", "ratio", ("gross_profit", "revenue"), "percent"),
        (r"operating (?:profit |income )?margin|operating income as a percent(?:age)? of",
         "ratio", ("operating_income", "revenue"), "percent"),
        (r"net (?:profit |income )?margin|profit margin|net (?:income|earnings) as a percent(?:age)? of",
         "ratio", ("net_income", "revenue"), "percent"),
        (r"effective (?:income )?tax rate", "ratio", ("income_tax", "pretax_income"), "percent"),
        (r"current ratio", "ratio", ("current_assets", "current_liabilities"), "plain"),
        (r"debt[- ]to[- ]equity(?: ratio)?", "ratio", ("debt", "equity"), "plain"),
        (r"working capital", "diff", ("current_assets", "current_liabilities"), "money"),
        (r"free cash flow", "diff", ("operating_cash_flow", "capex"), "money"),
        (r"return on average (?:(?:stockholders|shareholders|shareowners)'?\s+|common |total )*equity",
         "return_avg", ("net_income", "equity"), "percent"),
        (r"return on (?:(?:stockholders|shareholders|shareowners)'?\s+|common |total )*equity",
         "ratio", ("net_income", "equity"), "percent"),
        (r"return on average (?:total )?assets", "return_avg", ("net_income", "total_assets"), "percent"),
        (r"return on (?:total )?assets", "ratio", ("net_income", "total_assets"), "percent"),
    ]
]  # fmt: skip

_REASON = re.compile(
    r"\b(?:reflecting|due to|driven by|primarily|mainly|as a result of|led by|offset by|"
    r"attributable to|resulting from|because)\b",
    re.I,
)
_SUM_WORDS = re.compile(r"\b(?:together|combined|in total|in the aggregate|aggregate)\b", re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}


class MeasureReader:
    """Reads which statement lines a sentence combines, and how."""

    def __init__(self, by_row: dict[tuple[str, int], list[Cell]], scorer: Scorer) -> None:
        self.scorer = scorer
        self.rows: list[tuple[str, Measure]] = []
        for group in by_row.values():
            measure = _row_measure(group)
            if measure is not None:
                self.rows.append((_label(measure.name), measure))

    def line(self, name: str) -> Measure | None:
        """The statement line; the one with most periods when several tables show it."""
        test = _MEASURE_ROWS[name]
        found = [m for label, m in self.rows if test(label)]
        if not found:
            return None
        return max(found, key=lambda m: len(m.values))

    def phrase(
        self, text: str, exclude: tuple[Measure, ...] = (), table: str | None = None
    ) -> tuple[Measure, float] | None:
        """The line a short phrase names ("accounts receivable", "capital expenditures")."""
        text = re.sub(r"^(?:our|the|its|total|net|consolidated)\s+", "", text.strip().lower())
        for pattern, name in _MEASURE_NAMES:
            if pattern.search(text):
                line = self.line(name)
                if line is not None and line not in exclude:
                    return line, 1.0
        words = set(_tokens(text)) - {"net"}
        if not words:
            return None
        best: tuple[Measure, float] | None = None
        for label, measure in self.rows:
            if measure in exclude:
                continue
            row = set(_tokens(label)) - {"net"}
            if not row:
                continue
            fit = len(words & row) / len(words | row)
            # "inventories" / "inventory"
            fit = max(fit, self._prefix_fit(words, row))
            # ties go to the plainer label: "Cash and cash equivalents" over "Net increase in cash and cash equivalents"
            raw_words, raw_row = set(re.findall(r"[a-z]+", text)), set(re.findall(r"[a-z]+", label))
            fit += 0.01 * len(raw_words & raw_row) / len(raw_words | raw_row)
            if table is not None and _table_of(measure) == table:
                fit += 0.05  # the other items' table: one statement, not a mix
            if best is None or fit > best[1] + 1e-9:
                best = (measure, fit)
        return best if best and best[1] >= 0.5 else None

    @staticmethod
    def _prefix_fit(words: set[str], row: set[str]) -> float:
        hits = sum(1 for w in words if any(r[:5] == w[:5] and len(w) >= 5 for r in row))
        return hits / max(len(words), len(row)) if hits == len(words) else 0.0

    def items(self, text: str) -> list[Measure]:
        """ "Cash and cash equivalents, accounts receivable and inventories": three lines."""
        pieces = [p for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
        if len(pieces) < 2 or len(pieces) > 7:
            return []
        best: tuple[float, list[Measure]] = (0.0, [])
        # every way to glue neighbouring pieces back together ("cash" + "cash equivalents")
        for mask in range(1 << (len(pieces) - 1)):
            groups, current = [], [pieces[0]]
            for i, piece in enumerate(pieces[1:]):
                if mask >> i & 1:
                    current.append(piece)
                else:
                    groups.append(" and ".join(current))
                    current = [piece]
            groups.append(" and ".join(current))
            if len(groups) < 2:
                continue
            found: list[Measure] = []
            total = 0.0
            for group in groups:
                hit = self.phrase(group, tuple(found))
                if hit is None:
                    break
                found.append(hit[0])
                total += hit[1]
            else:
                home = Counter(_table_of(m) for m in found).most_common(1)[0][0]
                again = [self.phrase(group, (), home) for group in groups]
                if all(again) and len({id(h[0]) for h in again if h}) == len(groups):
                    found = [h[0] for h in again if h]
                score = total / len(groups) + 0.01 * len(groups)
                if score > best[0]:
                    best = (score, found)
        return best[1]


def _subject(before: str) -> str:
    """The noun phrase ahead of the blank's verb: "Cost of revenue and X together represented"."""
    text = re.sub(
        r"\s*(?:,\s*)?(?:together|combined|in total|in the aggregate)?\s*(?:totaled|totalled|total|"
        r"were|was|represented|amounted to|accounted for|comprised|of|equaled|reached)?"
        r"\s*(?:approximately|about|roughly|nearly)?\s*\$?\s*$",
        "",
        before,
        flags=re.I,
    )
    text = re.sub(
        r"^.*?\b(?:in|for|during|at|as of)\s+(?:fiscal\s+(?:year\s+)?)?(?:19|20)\d{2},\s*",
        "",
        text,
        flags=re.I,
    )
    text = re.sub(r"\s*(?:together|combined)$", "", text, flags=re.I)
    return text.strip(" ,")


def measure_candidates(
    metadata: dict[str, Any],
    context: Context,
    reader: MeasureReader,
    current_year: str | None,
) -> list[Candidate]:
    """Candidates the sentence's own words define: "gross margin", "X, or [MASK] of revenue",
    "A, B and C together totaled [MASK]", "defined as A less B", "excluding S, revenue grew"."""
    masked = metadata["masked_sentence"].replace("’", "'")
    before, _, after = masked.partition("[MASK]")
    mask_at = len(before)
    found: list[tuple[Measure, str, float]] = []  # measure, how it was read, confidence

    # a measure the sentence names ("Operating margin was [MASK]"), nearest to the blank
    named: list[tuple[int, Measure]] = []
    for pattern, op, lines, unit in _NAMED_MEASURES:
        for match in pattern.finditer(masked):
            distance = (
                mask_at - match.end() if match.end() <= mask_at else match.start() - mask_at - 6
            )
            if distance > 90 or distance < -40:
                continue
            parts = [reader.line(name) for name in lines]
            if any(p is None for p in parts):
                continue
            measure = _combine(match.group(0), parts, op, unit)  # type: ignore[arg-type]
            if measure is not None:
                named.append((abs(distance), measure))
    if named:
        named.sort(key=lambda t: t[0])
        found.append((named[0][1], named[0][1].name, 3.0))

    # "defined as A less B"
    definition = re.search(
        r"defined? as ([^,;]+?)\s+(less|minus|plus|net of)\s+([^,;.]+)", masked, re.I
    )
    if definition:
        a = reader.phrase(definition.group(1))
        b = reader.phrase(definition.group(3), (a[0],) if a else ())
        if a and b:
            op = "sum" if definition.group(2).lower() == "plus" else "diff"
            measure = _combine(definition.group(0), [a[0], b[0]], op)
            if measure is not None:
                found.append((measure, "definition", 3.5))

    subject = _subject(before)
    # "A, B and C together totaled [MASK]"
    listed = reader.items(subject) if subject else []
    whole = reader.phrase(subject) if listed else None
    if whole and whole[1] >= 0.8:
        listed = []  # "Cash and cash equivalents" is one line, not two
    if listed and (
        _SUM_WORDS.search(before[-60:] + after[:20]) or re.search(r"\btotal(?:ed|led)?\s*$", before)
    ):
        measure = _combine(subject, listed, "sum")
        if measure is not None:
            found.append((measure, "sum", 3.0))

    # "X, or [MASK] of revenue" / "X as a percentage of Y was [MASK]"
    of_total = re.match(
        r"\s*(?:of|as a percent(?:age)? of)\s+(?:our\s+|the\s+|its\s+|total\s+|consolidated\s+)*"
        r"((?:19|20)\d{2}\s+)?([a-z][a-z &'-]*?)\s*(?=,|\.|;|$|\bin\b|\bfor\b|\bduring\b|\bcompared\b|\bat\b|\bas of\b)",
        after,
        re.I,
    )
    as_pct = re.search(
        r"(.+?)\s+as a percent(?:age)? of\s+(?:total\s+)?(.+?)\s+(?:was|were)\s*$", before, re.I
    )
    if (context.wants_percent or context.wants_plain) and (of_total or as_pct):
        base_phrase = of_total.group(2) if of_total else as_pct.group(2)  # type: ignore[union-attr]
        base = reader.phrase(base_phrase)
        part: Measure | None = None
        if base is not None:
            if as_pct:
                hit = reader.phrase(_subject(as_pct.group(1)), (base[0],))
                part = hit[0] if hit else None
            else:
                listed = reader.items(subject) if subject else []
                if listed and base[0] not in listed:
                    part = _combine(subject, listed, "sum")
                else:
                    part = _anchored_part(reader, context, before, base[0])
        if base is not None and part is not None:
            measure = _combine("share", [part, base[0]], "ratio", "percent")
            if measure is not None:
                found.append((measure, "share", 2.5 * base[1]))

    # "revenue grew at a compound annual rate of [MASK]": the growth of the line named
    if re.search(r"compound annual (?:growth )?rate|\bCAGR\b", masked, re.I) and not found:
        clause = re.split(r"[,;]", before)[-1]
        noun = re.split(_CHANGE_WORD + r"|\bgrowth\b", clause, flags=re.I)[0]
        hit = reader.phrase(" ".join(noun.split()[-4:])) if noun.strip() else None
        if hit:
            found.append((hit[0], "growth", 3.0))

    out: list[Candidate] = []
    for measure, how, confidence in found:
        out.extend(_measure_values(measure, how, confidence, context, current_year, masked))

    # "Excluding S, revenue grew [MASK]": the total without that line
    excluding = re.search(r"\bexcluding\s+(?:the\s+)?([^,]+),\s*(.*)$", before, re.I)
    if excluding and context.role == "change":
        left = reader.phrase(excluding.group(1))
        rest = re.sub(_CHANGE_WORD + r".*$", "", excluding.group(2), flags=re.I)
        total = reader.phrase(rest) if rest.strip() else None
        if left and total and left[1] >= 0.6 and left[0] is not total[0]:
            measure = _combine(
                f"{total[0].name} excluding {left[0].name}", [total[0], left[0]], "diff"
            )
            if measure is not None:
                out.extend(
                    _measure_values(measure, "excluding", 3.0, context, current_year, masked)
                )
    return out


def _anchored_part(
    reader: MeasureReader, context: Context, before: str, base: Measure
) -> Measure | None:
    """The part of "X were $3.2 billion, or [MASK] of revenue": the line the figure is read from,
    else the line the subject names."""
    for anchor in context.anchors:
        if "percent" in anchor.units:
            continue
        for _, measure in reader.rows:
            if measure is base:
                continue
            if any(_near(v, anchor) for v in measure.values.values()):
                return measure
    subject = _subject(re.split(r",\s*or\s*$", before.rstrip())[0])
    subject = re.sub(r"\s+(?:were|was|of|totaled|totalled)\s.*$", "", subject, flags=re.I)
    hit = reader.phrase(subject, (base,)) if subject else None
    return hit[0] if hit else None


def _measure_values(
    measure: Measure,
    how: str,
    confidence: float,
    context: Context,
    current_year: str | None,
    masked: str,
) -> list[Candidate]:
    """The measure's value for the blank: its level in the blank's period, its change, or its
    compound growth."""
    years = sorted(measure.values)
    if not years:
        return []
    target = context.year_slot or context.target_year or current_year or years[-1]
    if target not in measure.values:
        target = (
            years[-1]
            if not context.years
            else next((y for y in context.years if y in measure.values), years[-1])
        )
    out: list[Candidate] = []
    value = measure.values[target]

    def make(v: Decimal, percent: bool, kind: str, formula: str, cells: list[Cell]) -> None:
        scenario = "D" if kind == "multi_step" or len(cells) > 2 else "C"
        out.append(Candidate(abs(v), percent, kind, scenario, cells, formula))

    growth = re.search(r"compound annual (?:growth )?rate|\bCAGR\b", masked, re.I)
    if growth and measure.unit == "money" and len(years) >= 2:
        span = re.search(r"\b(?:last|past|prior)\s+(\w+)\s+(?:fiscal\s+)?years\b", masked, re.I)
        n = _NUMBER_WORDS.get(span.group(1).lower(), 0) if span else 0
        start = str(int(target) - n) if n else years[0]
        if start in measure.values and measure.values[start] > 0 and int(target) > int(start):
            ratio = float(value / measure.values[start])
            rate = Decimal(str((ratio ** (1 / (int(target) - int(start))) - 1) * 100))
            make(rate, True, "multi_step", f"CAGR of {measure.name} {start}-{target}",
                 measure.cells[target] + measure.cells[start])  # fmt: skip
    if context.role == "change":
        older = [y for y in context.years if y in measure.values and y < target]
        prior = older[0] if older else max((y for y in years if y < target), default=None)
        if prior is not None:
            old = measure.values[prior]
            cells = measure.cells[target] + measure.cells[prior]
            kind = "multi_step"
            if measure.unit == "money":
                make(value - old, False, kind, f"change in {measure.name} {prior}-{target}", cells)
                if old:
                    make((value - old) / abs(old) * 100, True, kind,
                         f"percentage change in {measure.name} {prior}-{target}", cells)  # fmt: skip
            else:  # a change of a ratio is in points
                make(value - old, measure.unit == "percent", kind,
                     f"change in {measure.name} {prior}-{target}", cells)  # fmt: skip
    else:
        kind = {"share": "share", "sum": "sum"}.get(
            how, "ratio" if measure.unit != "money" else "sum"
        )
        if len(measure.cells[target]) > 2 and kind != "share":
            kind = "multi_step" if measure.unit != "money" else "sum"
        make(
            value,
            measure.unit == "percent",
            kind,
            f"{measure.name} {target}",
            measure.cells[target],
        )
    for cand in out:
        cand.score = confidence
    return out


def _anchor_rows(
    masked: str,
    anchor: Any,
    hits: set[tuple[str, int]],
    by_row: dict[tuple[str, int], list[Cell]],
    scorer: Scorer,
) -> set[tuple[str, int]]:
    """The rows an anchor is the figure of, by the words around it in its own clause
    ("unamortized premium of $0.2 million", "$1,454.7 million ... was fixed")."""
    at = masked.find(anchor.text)
    if at < 0 or not hits:
        return set()
    end = at + len(anchor.text)
    after = masked[end : end + 60].split("[MASK]")[0]
    before = masked[max(0, at - 40) : at].split("[MASK]")[-1]
    named = set(_tokens(before + " " + after))
    fit = {k: scorer.weight(by_row[k][0].row_tokens & named) for k in hits}
    best = max(fit.values())
    top = {k for k, v in fit.items() if v == best}
    return top if best > 0 and len(top) <= 2 else set()


def rank_candidates(metadata: dict[str, Any]) -> list[Candidate]:
    """Every candidate with its fit score, best first."""
    tables = [
        (
            str(t["index"]),
            Table(id=f"t{t['index']}", cells=t["cells"], pre_text=t.get("pre_text", "")),
        )
        for t in metadata.get("tables", [])
    ]
    context = read_context(metadata)
    masked = metadata["masked_sentence"]
    expand_context(context, [t for _, t in tables], masked)
    scorer = Scorer([t for _, t in tables], context)
    cells: list[Cell] = []
    for index, table in tables:
        cells.extend(numeric_cells(table, index, implied_scale(table, context.anchors)))
    if not cells:
        return []

    by_row: dict[tuple[str, int], list[Cell]] = {}
    for cell in cells:
        by_row.setdefault((cell.table_index, cell.row), []).append(cell)
    row_fit = {
        key: scorer.label_fit(group[0].row_tokens, group[0].heading_tokens)
        + scorer.table_fit(group[0].table)
        for key, group in by_row.items()
    }
    # an anchor that matches few cells is a precise pointer; "1%" matching dozens is noise
    anchor_rows: dict[tuple[str, int], float] = {}
    anchor_cols: dict[tuple[str, str], float] = {}
    explained: set[tuple[str, int]] = set()
    same_measure: set[tuple[str, int, str]] = set()
    for anchor in context.anchors:
        hits = {(c.table_index, c.row) for c in cells if _matches_anchor(c, [anchor], c.percent)}
        if "per_share" in anchor.units and not context.per_share_blank:
            # "Net income of [MASK], or $6.86 per diluted share": the anchor explains its
            # own per-share row; the blank is the amount it is per share of
            explained |= {key for key in by_row if _PER_SHARE_ROW.search(key_label(by_row, key))}
            continue
        for key in hits:
            anchor_rows[key] = anchor_rows.get(key, 0.0) + 6.0 / (1 + len(hits))
        # "premium of $0.2 million and loan costs of [MASK]" (one period): the anchor is
        # its row's figure for the blank's period, so the blank is another row; the
        # row's other periods in the anchor's column are not the blank either
        target = context.year_slot or context.target_year or scorer.current_year
        own = _anchor_rows(masked, anchor, hits, by_row, scorer)
        if context.role == "level" and target and 0 < len(own) <= 2:
            for c in cells:
                if (
                    (c.table_index, c.row) in own
                    and target in c.years
                    and _matches_anchor(c, [anchor], c.percent)
                ):
                    same_measure.add((c.table_index, c.row, _column_key(c)))
        # "31.8%, [MASK] and 26.0%": listed figures sit in one column of one table
        if 0 < len(hits) <= 3:
            for c in cells:
                if (c.table_index, c.row) in hits and _matches_anchor(c, [anchor], c.percent):
                    key = ("", _column_key(c))
                    anchor_cols[key] = anchor_cols.get(key, 0.0) + 1.5 / len(hits)

    candidates = [
        Candidate(
            c.raw if context.physical_unit and not context.wants_money else c.value,
            c.percent,
            "lookup",
            "A",
            [c],
            f"{c.table.row_label(c.row)}, {c.col_text}",
        )
        for c in cells
    ]
    ranked_rows = sorted(row_fit, key=row_fit.get, reverse=True)[:12]
    candidates += _derived(by_row, list(dict.fromkeys([*anchor_rows, *ranked_rows])))
    best_cells = sorted(
        cells,
        key=lambda c: row_fit[(c.table_index, c.row)] + scorer.year_fit(c.years),
        reverse=True,
    )[:10]
    # a share's part is often the sentence's own figure ("$768.1 million, or [MASK] of total")
    anchored = [
        c
        for c in cells
        if (c.table_index, c.row) in anchor_rows
        and c not in best_cells
        and _matches_anchor(c, context.anchors, c.percent)
    ]
    candidates += _pairwise(best_cells + anchored[:6])

    for cand in candidates:
        cand.score = _score(cand, context, scorer, row_fit, anchor_rows)
        if any((c.table_index, c.row) in explained for c in cand.cells):
            cand.score -= 8.0
        if cand.kind == "lookup":
            first = cand.cells[0]
            cand.score += anchor_cols.get(("", _column_key(first)), 0.0)
            if (first.table_index, first.row, _column_key(first)) in same_measure:
                cand.score -= 4.0
        elif any((c.table_index, c.row) == key[:2] for c in cand.cells for key in same_measure):
            cand.score -= 4.0

    listed = _listed_items(masked)
    if listed:
        # the blank's item of a parallel list names its row; the other items do not
        slot, names = listed
        for cand in candidates:
            if cand.kind != "lookup":
                continue
            label = cand.cells[0].table.row_label(cand.cells[0].row)
            others = any(_names_item(label, n) for n in names if n != names[slot])
            if _names_item(label, names[slot]) and not others:
                cand.score += 3.0
            elif others and not _names_item(label, names[slot]):
                cand.score -= 3.0  # the other items' rows hold the other listed figures
    candidates.sort(key=lambda c: c.score, reverse=True)
    top = candidates[0].score if candidates else 0.0
    reader = MeasureReader(by_row, scorer)
    measured = []
    for cand in measure_candidates(metadata, context, reader, scorer.current_year):
        if not _fits_hint(cand, context):
            continue
        cand.score = top + cand.score - 2.0
        measured.append(cand)
    measured += sensitivity_candidates(masked, context, candidates, by_row)
    if measured:
        candidates = sorted(candidates + measured, key=lambda c: c.score, reverse=True)
    return candidates


_SHOCK_SIZE = r"(\d+(?:\.\d+)?|one|two|three|five|ten|\[MASK\])"
_SHOCK = re.compile(
    r"\b(?:a|an)\s+(?:hypothetical\s+|immediate\s+)?" + _SHOCK_SIZE + r"(?:\s*|-)"
    r"(percent(?:age)?(?:[- ]points?)?|%|basis[- ]points?|bps?|(?<=\[MASK\]))\s+(?:\w+\s+)?"
    r"(?:increase|decrease|change|decline|rise|drop|reduction|movement|fluctuation)",
    re.I,
)
_DEBT_ROW = re.compile(r"\b(?:debt|borrowings?|loans?|notes|credit facility|indebtedness)\b", re.I)
_PRETAX_ROW = re.compile(
    r"(?:income|earnings|loss) before (?:provision for )?(?:income )?tax|pre-?tax (?:income|earn)",
    re.I,
)


_VALUE_ITEM = re.compile(
    r"\$?\d[\d,.]*(?:\s*(?:million|billion|thousand|percent|%))?|\[MASK\]", re.I
)


def _listed_items(masked: str) -> tuple[int, list[str]] | None:
    """Parallel lists: "oil, gas, and NGL revenues by $181.4 million, [MASK], and $22.2
    million, respectively" or "31.8%, [MASK] and 26.0% of rents in the New York,
    Southeast, and Northeast regions": the blank's slot (1) and the items' last words."""
    lists = list(re.finditer(r"\b([a-z][\w-]*),\s+([\w-]+),?\s+and\s+([\w-]+)", masked, re.I))
    for listed in reversed(lists):
        names = [n.lower() for n in listed.groups()]
        if len(set(names)) < 3 or any(_YEAR.fullmatch(n) or n[0].isdigit() for n in names):
            continue
        after = masked[listed.end() :].split("respectively")[0]
        before = masked[: listed.start()]
        for values in (
            _VALUE_ITEM.findall(after) if "respectively" in masked else [],
            _VALUE_ITEM.findall(re.split(r"\.\s", before)[-1])[-3:],
        ):
            values = [v for v in values if not _YEAR.fullmatch(v.strip())]
            if len(values) == 3 and "[MASK]" in values:
                return values.index("[MASK]"), names
    return None


def _names_item(label: str, name: str) -> bool:
    """A label word that is the item's word or its prefix ("NGLs" ~ "NGL", "metropolitan"
    ~ "Metro")."""
    name = name.lower().rstrip("s")
    return any(
        word.startswith(name) or len(word) >= 4 and name.startswith(word)
        for word in re.findall(r"[a-z]+", label.lower())
    )


def sensitivity_candidates(
    masked: str,
    ctx: Context,
    ranked: list[Candidate],
    by_row: dict[tuple[str, int], list[Cell]],
) -> list[Candidate]:
    """What-if figures: "a 10 percent decrease in realized prices would have reduced
    revenue by [MASK]" is 10% of revenue; a one-point change in the effective tax rate
    moves tax expense by 1% of pre-tax income (expense / rate); 100 basis points on
    variable-rate debt is 1% of that debt. With the shock itself blank ("a [MASK]
    decrease ... would have reduced revenue by $181.4 million") it is the stated effect
    over the base, when that is a round percentage."""
    if "would" not in masked.lower() and "hypothetical" not in masked.lower():
        return []
    match = _SHOCK.search(masked)
    if not match:
        return []
    size, unit = match.group(1), match.group(2).lower() or "percent"
    words = {"one": 1, "two": 2, "three": 3, "five": 5, "ten": 10}
    divisor = Decimal(10000) if unit.startswith(("basis", "bp")) else Decimal(100)
    shock_blank = size == "[MASK]"
    if not shock_blank and "[MASK]" in match.group(0):
        return []
    rate_text = masked[match.end() : match.end() + 60].lower()
    # bases: money levels the sentence names, best fit first
    bases = [
        c
        for c in ranked
        if c.kind == "lookup"
        and not c.percent
        and not c.cells[0].change_column
        and not c.cells[0].count_row
        and not c.cells[0].physical_unit
        and not _PER_SHARE_ROW.search(c.formula)
        and c.value > 0
    ]
    if re.search(r"interest rate|basis[- ]point|\bbps?\b", masked, re.I):
        debt = [c for c in bases if _DEBT_ROW.search(c.formula)]
        bases = debt or bases
    out: list[Candidate] = []
    if shock_blank:
        if ctx.wants_money:
            return []
        for rank, base in enumerate(bases[:60]):
            for anchor in ctx.anchors:
                if "usd" not in anchor.units:
                    continue
                points = abs(anchor.value) / base.value * divisor
                nearest = points.to_integral_value()
                if nearest in (1, 2, 5, 10, 15, 20, 25, 50, 100) and abs(points - nearest) <= max(
                    nearest / 200, anchor.precision / base.value * divisor
                ):
                    value = nearest / 100 if ctx.wants_plain and divisor == 100 else nearest
                    return [
                        Candidate(
                            value,
                            False,
                            "multi_step",
                            "C",
                            base.cells,
                            f"{anchor.text} / {base.formula} = {points:.2f} {unit}",
                            ranked[0].score + 1.0 - 0.01 * rank,
                        )
                    ]
        return []
    items = _listed_items(masked)
    if items:
        # "oil, gas, and NGL revenues by $X, [MASK], and $Z, respectively": the slot's item
        slot, names = items

        def named(c: Candidate, name: str) -> bool:
            return _names_item(c.cells[0].table.row_label(c.cells[0].row), name)

        own = [
            c
            for c in bases
            if named(c, names[slot]) and not any(named(c, n) for n in names if n != names[slot])
        ]
        bases = own or bases
    if not ctx.wants_money:
        return []
    fraction = Decimal(words.get(size.lower(), 0) if size.isalpha() else size) / divisor
    if fraction <= 0:
        return []
    if "tax rate" in rate_text:
        # expense / rate is the pre-tax base the rate applies to
        rates = [
            c
            for c in ranked
            if c.kind == "lookup" and c.percent and "tax rate" in c.formula.lower() and c.value > 0
        ]
        pretax = [c for c in bases if _PRETAX_ROW.search(c.formula)]
        if rates:
            rate = rates[0]
            expense = [
                c
                for c in bases
                if c.cells[0].table_index == rate.cells[0].table_index
                and c.cells[0].col == rate.cells[0].col
            ]
            if expense:
                base_value = expense[0].value / (rate.value / 100)
                return [
                    Candidate(
                        base_value * fraction,
                        False,
                        "multi_step",
                        "C",
                        [expense[0].cells[0], rate.cells[0]],
                        f"{fraction} x {expense[0].formula} / {rate.formula}",
                        expense[0].score + 4.0,
                    )
                ]
        bases = pretax or bases
    # the sentence's other effects ("$32.8 million, and $22.2 million, respectively") are
    # the shock on sibling lines: those lines are not the blank's base
    siblings = {
        (c.cells[0].table_index, c.cells[0].row)
        for c in bases
        for a in ctx.anchors
        if "usd" in a.units and _near(c.value * fraction, a)
    }
    for base in bases[:6]:
        if (base.cells[0].table_index, base.cells[0].row) in siblings:
            continue
        out.append(
            Candidate(
                base.value * fraction,
                False,
                "multi_step",
                "C",
                base.cells,
                f"{fraction} x {base.formula}",
                base.score + 4.0,
            )
        )
        break
    return out


def _fits_hint(cand: Candidate, ctx: Context) -> bool:
    """A measure's unit against the hint: percent, money, or a plain ratio."""
    if cand.percent:
        return ctx.wants_percent or ctx.wants_plain
    if ctx.wants_money:
        return cand.kind in ("sum", "multi_step") and cand.value >= 1
    return ctx.wants_plain and cand.kind in ("ratio", "multi_step")


def key_label(by_row: dict[tuple[str, int], list[Cell]], key: tuple[str, int]) -> str:
    cell = by_row[key][0]
    return cell.table.row_label(cell.row)


def _column_key(cell: Cell) -> str:
    """A column's label without its periods: the same measure across years."""
    return _YEAR.sub("", cell.col_text).strip() or str(cell.col)


def _score(
    cand: Candidate,
    ctx: Context,
    scorer: Scorer,
    row_fit: dict[tuple[str, int], float],
    anchor_rows: dict[tuple[str, int], float],
) -> float:
    first = cand.cells[0]
    key = (first.table_index, first.row)
    score = row_fit[key] + KIND_PRIOR[cand.kind]
    if cand.kind in ("ratio", "share", "sum"):
        other = cand.cells[1]
        score = 0.5 * (score + row_fit[(other.table_index, other.row)]) + KIND_PRIOR[cand.kind]

    # periods: the blank's period against the cell's column
    if cand.kind == "lookup":
        score += _period_fit(first, ctx, scorer) + scorer.column_fit(first)
    elif cand.kind in ("change", "pct_change"):
        years = set().union(*(c.years for c in cand.cells))
        score += 1.5 if ctx.years and set(ctx.years[:2]) <= years else (-1.0 if ctx.years else 0.0)
    else:
        score += scorer.year_fit(first.years)

    # what the blank is: a change, or a level of one period
    is_change = cand.kind in ("change", "pct_change") or (
        cand.kind == "lookup" and first.change_column
    )
    if ctx.role == "change":
        score += 3.0 if is_change else -2.5
    else:
        score += -3.0 if is_change else 0.0

    # unit type from the hint
    if ctx.wants_percent != cand.percent:
        score -= 4.0
        if ctx.wants_plain and cand.kind in ("share", "ratio"):
            score += 3.0  # a share written as a fraction ("0.62")
    if ctx.wants_money and any(c.physical_unit for c in cand.cells):
        score -= 2.0
    if ctx.wants_money and any(c.count_row for c in cand.cells):
        score -= 5.0  # a dollar figure is never a share count, an area or a headcount
    if ctx.physical_unit and not ctx.wants_money:
        score += 1.0 if first.physical_unit else 0.0

    # anchors: the sentence's other numbers locate the row, but are not the answer;
    # "from [MASK] to $8.7 million" names the blank's own row twice as surely
    # "from [MASK] to $8.7 million" and "increased $1.95 billion, or [MASK]" name the
    # blank's own row twice as surely
    paired = ctx.role == "older" or ctx.role == "change" and ctx.paired
    score += anchor_rows.get(key, 0.0) * (2.0 if paired else 1.0)
    if (
        cand.kind == "lookup"
        and _matches_anchor(first, ctx.anchors, cand.percent)
        or cand.kind != "lookup"
        and _matches_anchor(cand.value, ctx.anchors, cand.percent)
    ):
        score -= 6.0
    if cand.kind == "share" and ctx.share_words:
        score += 2.5
    elif ctx.share_words and cand.kind == "lookup" and not cand.percent:
        score -= 2.0  # "[MASK] of our total": a part of the total, not an amount
    if cand.kind == "ratio" and ctx.ratio_words:
        score += 0.5
    if cand.value == 0:
        score -= 1.0
    return score


def _period_fit(cell: Cell, ctx: Context, scorer: Scorer) -> float:
    """How well a level cell's period fits the blank's period."""
    target = ctx.year_slot or ctx.target_year
    if not cell.years:
        return -0.5 if target or ctx.years else 0.0
    if target is None and ctx.role == "older" and scorer.current_year:
        target = str(int(scorer.current_year) - 1)
    if target is None and ctx.role == "level":
        target = scorer.current_year
    if target is None:
        return scorer.year_fit(cell.years)
    return 2.5 if target in cell.years else -1.5


def _format_value(value: Decimal, percent: bool, ctx: Context, kind: str) -> str:
    if percent and ctx.wants_plain:
        value = value / 100
        percent = False
        return _plain(value, 8)
    if percent:
        return f"{_plain(value, 4)}%"
    text = _plain(value, 2 if ctx.wants_money else 4)
    if ctx.wants_money:
        return f"${text}"
    extra = sorted(u for u in ctx.hint_units if u not in ("usd", "percent", "per_share"))
    return f"{text} {extra[0].upper()}" if extra else text


def _plain(value: Decimal, places: int) -> str:
    try:
        quantized = value.quantize(Decimal(1).scaleb(-places))
    except InvalidOperation:
        return str(value)
    if quantized == quantized.to_integral_value():
        return f"{int(quantized):,}"
    text = f"{quantized:,.{places}f}".rstrip("0").rstrip(".")
    return text


def solve_from_tables(metadata: dict[str, Any]) -> SolverAnswer:
    """The best candidate as a FAITH answer, with a short account of how it was found."""
    context = read_context(metadata)
    candidates = rank_candidates(metadata)
    if not candidates:
        return SolverAnswer(
            "0", "A", [], [], "No numeric table cell was found; no answer can be derived."
        )
    best = candidates[0]
    answer = _format_value(best.value, best.percent, context, best.kind)
    used = [
        f"Table {c.table_index}, row '{c.table.row_label(c.row)}', column '{c.col_text}' = {c.text}"
        for c in best.cells
    ]
    runner_up = candidates[1] if len(candidates) > 1 else None
    reasoning = (
        f"Best fit ({best.kind}, score {best.score:.2f}): {best.formula}.\n"
        + "\n".join(f"- {line}" for line in used)
        + (
            f"\nRunner-up ({runner_up.kind}, score {runner_up.score:.2f}): {runner_up.formula}."
            if runner_up
            else ""
        )
    )
    metrics = list(dict.fromkeys(c.table.row_label(c.row) for c in best.cells))
    tables = list(dict.fromkeys(f"Table {c.table_index}" for c in best.cells))
    return SolverAnswer(answer, best.scenario, metrics, tables, reasoning)


def parse_hint_units(ground_truth: str) -> frozenset[str]:
    parsed = parse_number(ground_truth)
    return parsed.units if parsed else frozenset()
