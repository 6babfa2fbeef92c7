"""Financial documents as ordered blocks (paragraphs and tables), with loaders.

A :class:`FinancialDocument` is a list of :class:`Paragraph` and :class:`Table`
blocks in reading order. Loaders turn FinDVer report JSON, FAITH report records,
EDGAR-style HTML and plain text / Markdown into that one shape, so retrieval,
dataset builders and scorers never look at source formats.

Tables are normalised on construction: EDGAR splits "$", ")" and "%" into cells
of their own and pads with empty spacer columns; those fragments are merged into
the value cells and the spacers dropped (the original grid stays in
``raw_cells``). Header rows, label columns, the table scale ("in millions") and a
unit hint are then derived from the cells and the surrounding text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import InitVar, dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finprobe.errors import InputError

if TYPE_CHECKING:  # numbers.py is imported lazily: documents load without it
    from finprobe.numbers import ParsedNumber

__all__ = [
    "Block",
    "FinancialDocument",
    "Paragraph",
    "Table",
    "clean_text",
    "load_document",
    "load_faith_report",
    "load_findver_report",
    "load_html",
    "load_text",
    "mdna_blocks",
    "normalize_cells",
    "parse_html_table",
]

# --------------------------------------------------------------------------
# text cleaning

# zero-width characters and BOMs vanish; the various non-breaking and thin
# spaces become plain spaces.
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_SPACES = "\u00a0\u2002\u2003\u2007\u2009\u200a\u202f\u3000\t\r\f\v"
# one translation pass drops the first and spaces the second (disjoint sets)
_CLEAN_TABLE = str.maketrans({**dict.fromkeys(_ZERO_WIDTH), **dict.fromkeys(_SPACES, " ")})
_SPACE_RUN = re.compile(r" {2,}")


def clean_text(text: str, keep_newlines: bool = False) -> str:
    """Drop zero-width characters, turn odd spaces into plain ones, squeeze runs.

    With ``keep_newlines`` lines are cleaned one by one, blank lines dropped and
    the rest joined with "\\n"; otherwise all whitespace collapses to one space.
    """
    if not keep_newlines and text.isascii():
        # the common case, fast: str.split() already treats \t\r\f\v as spaces
        return " ".join(text.split())
    text = text.translate(_CLEAN_TABLE)  # both substitutions in one pass
    if keep_newlines:
        # one pass over the whole text: a run of spaces never spans a newline
        lines = (line.strip() for line in _SPACE_RUN.sub(" ", text).split("\n"))
        return "\n".join(line for line in lines if line)
    return " ".join(text.split())


# --------------------------------------------------------------------------
# cell classification

_DASHES = {
    "—",
    "–",
    "-",
    "−",
    "--",
    "---",
    "$—",
    "$–",
    "$-",
    "$ —",
    "$ -",
    "$ –",
    "nil",
    "n/a",
    "N/A",
}
_PREFIX_FRAGMENTS = {"$", "$(", "(", "€", "£", "¥", "US$", "C$", "A$", "Rs.", "₹"}
# spaces just inside a value's parentheses: "( 92,291 )" reads as "(92,291)"
_PAREN_SPACE = re.compile(r"(\()\s+(?=[$\d.])|(?<=[\d%])\s+(\))")
_SUFFIX_FRAGMENTS = {")", "%", ")%", "%)", "pts", "bps", "x"}


def close_paren_spaces(text: str) -> str:
    """ "( 92,291 )" -> "(92,291)": a value whose parentheses were split across cells."""
    return _PAREN_SPACE.sub(lambda m: m.group(1) or m.group(2), text)


_FOOTNOTE = re.compile(r"^(?:\(\s*(?:\d{1,2}|[a-z]{1,2}|[ivx]{1,4}|\*{1,3})\s*\)|\*{1,3}|†|‡)$")
# "(31)" alone in a cell: a footnote marker or a small negative number. Only
# context decides (see _digit_markers_are_footnotes); other markers are never values.
_DIGIT_MARKER = re.compile(r"^\(\s*(\d{1,2})\s*\)$")
# a digit marker is a footnote only in a table whose values dwarf it
_MARKER_MAX = 30
_LARGE_VALUE = 1000
_TRAILING_FOOTNOTE = re.compile(r"(?<=[\d%)\w])\s*(?:\(\s*(?:\d{1,2}|[a-z])\s*\)|\*{1,3}|†|‡)$")
_NUMERIC = re.compile(
    r"""^[(\-–−]?\s*(?:US\$|C\$|A\$|[$€£¥₹])?\s*\(?\s*[-–−]?\s*
        (?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*\)?\s*
        (?:%|x|pts|bps|million|billion|thousand)?\s*\)?$""",
    re.VERBOSE | re.IGNORECASE,
)
_YEAR = re.compile(r"^(?:FY\s?|fiscal\s+)?(?:19|20)\d{2}[A-Z]?$", re.IGNORECASE)
_PERIOD_WORDS = re.compile(
    r"(?i)\b(?:year|years|quarter|months?|weeks?|ended|ending|period|fiscal|as of|"
    r"january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|q[1-4]|change|"
    r"variance|increase|decrease|total|amount|percent|%)\b"
)


def _is_dash(cell: str) -> bool:
    return cell.strip() in _DASHES


@lru_cache(maxsize=1 << 16)  # tables repeat their cells ("$", "—", years): classify once
def _is_numeric(cell: str) -> bool:
    """A data value: a number or a dash; years count as headers, not values."""
    s = cell.strip()
    if not s:
        return False
    if _is_dash(s):
        return True
    s = _TRAILING_FOOTNOTE.sub("", s)
    return bool(_NUMERIC.match(s)) and not _YEAR.match(s)


def _is_headerish(cell: str) -> bool:
    s = cell.strip()
    return bool(_YEAR.match(s)) or not _is_numeric(s)


@lru_cache(maxsize=1 << 16)
def _magnitude(cell: str) -> float | None:
    """Rough absolute value of a numeric cell (no scale words), None for text/dashes."""
    if not _is_numeric(cell) or _is_dash(cell):
        return None
    digits = re.sub(r"[^\d.]", "", _TRAILING_FOOTNOTE.sub("", cell))
    try:
        return float(digits)
    except ValueError:
        return None


def _values_dwarf_markers(
    cells: Iterable[str], markers: Iterable[str], attached: Iterable[str] = ()
) -> bool:
    """Are the table's numbers large next to these small "(n)" markers?

    A column of "(1)", "(2)" beside values in the thousands reads as footnotes;
    beside values like "(55)" or "744" the same cells are negative amounts.
    Large: the values the markers follow (``attached``) have a median of
    1,000 or more, or at least a quarter of the table's other numbers are that large.
    """
    marks = [int(m.group(1)) for x in markers if (m := _DIGIT_MARKER.match(x))]
    if not marks or max(marks) > _MARKER_MAX:
        return False
    near = sorted(v for x in attached if (v := _magnitude(x)) is not None)
    if near and near[len(near) // 2] >= _LARGE_VALUE:
        return True
    sizes = sorted(v for x in cells if not _DIGIT_MARKER.match(x) and (v := _magnitude(x)))
    return bool(sizes) and sizes[(3 * len(sizes)) // 4] >= _LARGE_VALUE


def _drop_footnote(cell: str) -> str:
    """'1,234 (1)' -> '1,234': a footnote marker after a value is not part of it."""
    return _TRAILING_FOOTNOTE.sub("", cell).strip() if _is_numeric(cell) else cell


# --------------------------------------------------------------------------
# grid normalisation


def _join_cells(a: str, b: str) -> str:
    """Merge two cells that belong together (one may be a "$" or ")" fragment)."""
    if not a:
        return b
    if not b:
        return a
    if a in _PREFIX_FRAGMENTS:
        return a + b
    return a + b if b in _SUFFIX_FRAGMENTS else f"{a} {b}"


def _compatible(a: str, b: str, same_origin: bool, digit_markers: bool = True) -> bool:
    """Can the cell pair (a left, b right) live in one merged column?

    ``digit_markers``: may a "(12)" cell be a footnote marker here (the table's
    values dwarf it)? Without that it is a value and keeps its own column.
    """
    if same_origin or not a or not b:
        return True
    if a == b and a not in _PREFIX_FRAGMENTS and a not in _SUFFIX_FRAGMENTS:
        return True  # a colspan value repeated (origins unknown)
    if a in _PREFIX_FRAGMENTS and b not in _PREFIX_FRAGMENTS and b not in _SUFFIX_FRAGMENTS:
        return _is_numeric(b) or _is_dash(b)
    if b in _SUFFIX_FRAGMENTS and a not in _PREFIX_FRAGMENTS:
        return True
    if _DIGIT_MARKER.match(b) and not digit_markers:
        return False
    return bool(_FOOTNOTE.match(b)) and bool(a)


def _columns_agree(
    left: list[str],
    right: list[str],
    left_origin: list[Any],
    right_origin: list[Any],
    everything: list[str],
    have_origins: bool,
) -> bool:
    """Does every row let the cells of these two neighbouring columns merge?"""
    # "(31)" cells: footnote markers only in a column of markers (every row
    # must agree, below) of a table whose values dwarf them
    markers_ok = any(_DIGIT_MARKER.match(x) for x in right) and _values_dwarf_markers(
        everything,
        right,
        (a for a, b in zip(left, right, strict=True) if _DIGIT_MARKER.match(b)),
    )
    return all(
        _compatible(
            left[r],
            right[r],
            have_origins and left_origin[r] is not None and left_origin[r] == right_origin[r],
            markers_ok,
        )
        for r in range(len(left))
    )


def _merge_fragment_columns(
    grid: list[list[str]], origins: list[list[Any]] | None = None
) -> list[list[str]]:
    """Merge adjacent columns while every row agrees they form one value.

    Two neighbouring columns merge when, in each row, one cell is empty, both
    come from the same spanned source cell, the left one is a "$"-like prefix
    of a number, or the right one is a ")"/"%" suffix or a footnote marker
    ("(a)", "*"; a "(12)" only where the table's values dwarf it).
    A header row with two different labels ("2023", "2022") blocks a merge, so
    real value columns stay apart.
    """
    if not grid or not grid[0]:
        return grid
    n_rows, n_cols = len(grid), len(grid[0])
    everything = [x for row in grid for x in row]
    cols: list[list[str]] = [[grid[r][0] for r in range(n_rows)]]
    col_origin: list[list[Any]] = [[origins[r][0] if origins else None for r in range(n_rows)]]
    for c in range(1, n_cols):
        right = [grid[r][c] for r in range(n_rows)]
        right_origin = [origins[r][c] if origins else None for r in range(n_rows)]
        left, left_origin = cols[-1], col_origin[-1]
        # never let a label column swallow a value column: a merge must be
        # justified by at least one fragment, span or repeat, not only blanks
        # (tested first: most neighbours, spacer columns above all, stop here)
        if any(a and b for a, b in zip(left, right, strict=True)) and _columns_agree(
            left, right, left_origin, right_origin, everything, origins is not None
        ):
            merged = []
            for r in range(n_rows):
                a, b = left[r], right[r]
                same = (
                    origins is not None
                    and left_origin[r] is not None
                    and left_origin[r] == right_origin[r]
                )
                if same or a == b:
                    merged.append(a or b)
                elif _FOOTNOTE.match(b) and a:
                    merged.append(a)  # marker dropped from the value; raw_cells keep it
                else:
                    merged.append(_join_cells(a, b))
            cols[-1] = merged
            col_origin[-1] = [
                lo if lo is not None else ro
                for lo, ro in zip(left_origin, right_origin, strict=True)
            ]
        else:
            cols.append(right)
            col_origin.append(right_origin)
    return [[col[r] for col in cols] for r in range(n_rows)]


def _drop_empty(grid: list[list[str]]) -> list[list[str]]:
    """Drop spacer rows and columns (all cells empty)."""
    rows = [row for row in grid if any(cell for cell in row)]
    if not rows:
        return []
    keep = [c for c in range(len(rows[0])) if any(row[c] for row in rows)]
    return [[row[c] for c in keep] for row in rows]


def _rectangular(cells: Iterable[Sequence[Any]]) -> list[list[str]]:
    rows = [[clean_text(str(c)) if c is not None else "" for c in row] for row in cells]
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows]


def normalize_cells(
    cells: Iterable[Sequence[Any]], origins: list[list[Any]] | None = None
) -> list[list[str]]:
    """Clean text, pad rows, merge EDGAR fragment columns, drop spacers."""
    return _normalize_grid(_rectangular(cells), origins)


def _normalize_grid(grid: list[list[str]], origins: list[list[Any]] | None) -> list[list[str]]:
    """normalize_cells on a grid already cleaned and padded (an HTML grid)."""
    if origins is not None and (
        len(origins) != len(grid)
        or any(len(o) != len(g) for o, g in zip(origins, grid, strict=True))
    ):
        origins = None
    grid = _merge_fragment_columns(grid, origins)
    grid = _drop_empty(grid)
    return [[_drop_footnote(c) for c in row] for row in grid]


# --------------------------------------------------------------------------
# scale and unit hints

_SCALE_HINT = re.compile(
    r"(?i)(?:\bin\s+|\(\s*\$?\s*|\$\s*|dollars\s+)(?:u\.?s\.?\s+)?(?:\$\s*)?"
    r"(thousands?|millions?|billions?|000['’]?s?)(?![\w,.]*\s+(?:of\s+)?(?:barrels|shares|units|tons|ounces|square))\b"
)
_SCALES = {
    "thousand": Decimal(10**3),
    "million": Decimal(10**6),
    "billion": Decimal(10**9),
    "000": Decimal(10**3),
}
_PER_SHARE = re.compile(r"(?i)per\s+(?:common\s+|diluted\s+|basic\s+)?share|\bEPS\b|per\s+unit")
_PERCENT_LABEL = re.compile(r"(?i)%|\bpercent(?:age)?\b|\bmargin\b|\brate\b|\bratio\b")


# unit kinds (finprobe/data/units.json) that a money scale never multiplies
_NON_MONEY_KINDS = frozenset({"energy", "volume", "mass", "area", "rate"})
# where a column header declares a unit: "(MBOE per day)", "per Bbl"
_UNIT_DECLARATION = re.compile(r"\(([^()]*)\)|\bper\s+\S+(?:\s+per\s+\S+)?", re.IGNORECASE)


def _names_non_money_unit(text: str, declared_only: bool = False) -> bool:
    """Does the text name a volume/energy/mass/area/rate unit ("MMBbl", "per BOE")?

    ``declared_only``: look only inside parentheses and at "per ..." phrases,
    where a column header declares its unit ("(MBOE per day)"); a plain
    "Square Feet" header may still be counted in the table's thousands.
    """
    from finprobe.numbers import extract_units, load_unit_groups  # lazy, as in Table.number

    if declared_only:
        text = " ".join(m.group(0) for m in _UNIT_DECLARATION.finditer(text))
        if not text:
            return False
    groups = load_unit_groups()
    return any(
        groups.by_name[u].kind in _NON_MONEY_KINDS
        for u in extract_units(text, groups)
        if u in groups.by_name
    )


def _scale_from_text(text: str) -> tuple[Decimal, str] | None:
    """First scale hint in text: (multiplier, the matched hint text)."""
    m = _SCALE_HINT.search(text)
    if not m:
        return None
    word = m.group(1).lower().rstrip("s").rstrip("'’")
    for key, value in _SCALES.items():
        if word.startswith(key):
            # the surrounding parenthetical/phrase decides the unit hint
            lo = text.rfind("(", 0, m.start() + 1)
            hi = text.find(")", m.end())
            ctx = text[
                lo if lo >= 0 else max(0, m.start() - 30) : hi + 1 if hi >= 0 else m.end() + 40
            ]
            return value, ctx
    return None


# --------------------------------------------------------------------------
# blocks


@dataclass
class Paragraph:
    """A run of prose. ``id`` is stable: from the source, else "p<N>"."""

    id: str
    text: str
    section: str | None = None
    source_id: str | None = None


@dataclass
class Table:
    """A rectangular table with derived header rows, label columns, scale and unit.

    ``cells`` is normalised on construction (fragments merged, spacers
    dropped) unless ``normalize=False``; ``raw_cells`` keeps the input grid.
    ``spans`` lists (row, col, rowspan, colspan) of spanned source cells in
    ``raw_cells`` coordinates (HTML only). ``html_cells`` holds an aligned HTML
    rendering of the same table when the source had one (FinDVer).
    """

    id: str
    cells: list[list[str]]
    pre_text: str = ""
    caption: str = ""
    section: str | None = None
    source_id: str | None = None
    raw_cells: list[list[str]] | None = None
    spans: list[tuple[int, int, int, int]] = field(default_factory=list)
    html_cells: list[list[str]] | None = None
    normalize: InitVar[bool] = True
    header_rows: int = field(init=False, default=0)
    header_cols: int = field(init=False, default=0)
    scale: Decimal = field(init=False, default=Decimal(1))
    unit_hint: str | None = field(init=False, default=None)
    scale_hint: str = field(init=False, default="")
    _parsed: dict[tuple[int, int], Any] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    _row_scales: list[Decimal] | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self, normalize: bool) -> None:
        if self.raw_cells is None:
            self.raw_cells = [list(map(str, row)) for row in self.cells]
        self.cells = normalize_cells(self.cells) if normalize else _rectangular(self.cells)
        self.pre_text = clean_text(self.pre_text, keep_newlines=True)
        self.caption = clean_text(self.caption)
        self.refresh()

    # -- derived structure -------------------------------------------------

    @property
    def n_rows(self) -> int:
        return len(self.cells)

    @property
    def n_cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def refresh(self) -> None:
        """Recompute header rows/cols, scale and unit (after editing cells)."""
        self._parsed.clear()
        self._row_scales = None
        self.header_cols = self._detect_header_cols()
        self.header_rows = self._detect_header_rows()
        self.scale, self.unit_hint, self.scale_hint = self._detect_scale_unit()

    def _detect_header_cols(self) -> int:
        """Left columns whose body cells are mostly text are row labels."""
        if self.n_cols <= 1:
            return 0 if self.n_cols == 0 or any(_is_numeric(r[0]) for r in self.cells) else 1
        # judge columns on body-like rows only (some value cell), so header text
        # such as "(in millions)" above a value column does not make it a label
        body = [row for row in self.cells if any(_is_numeric(x) for x in row)] or self.cells
        n = 0
        for c in range(self.n_cols - 1):  # at least one value column stays
            col = [row[c] for row in body if row[c]]
            if not col:
                if c == 0:
                    n = 1  # an all-empty first column still holds the labels' place
                    continue
                break
            text_share = sum(not _is_numeric(x) or bool(_YEAR.match(x)) for x in col) / len(col)
            if text_share >= 0.6 and not all(_YEAR.match(x) for x in col):
                n = c + 1
            else:
                break
        return n

    def _detect_header_rows(self) -> int:
        """Top rows whose value cells are mostly headers (text, years, periods)."""
        hc = self.header_cols
        n = 0
        for r, row in enumerate(self.cells):
            values = [x for x in row[hc:] if x]
            if not values:
                if any(row[:hc]):
                    break  # a label with empty values ("Revenues:") starts the body
                n = r + 1  # empty row inside the header block
                continue
            header_share = sum(_is_headerish(x) for x in values) / len(values)
            if header_share > 0.5:
                n = r + 1
            else:
                break
        if n >= self.n_rows:  # a table with no numeric body: only the first row is a header
            return 1 if self.n_rows > 1 else 0
        return n

    def _detect_scale_unit(self) -> tuple[Decimal, str | None, str]:
        candidates = [self.caption]
        candidates += [cell for row in self.cells[: max(self.header_rows, 1)] for cell in row]
        candidates += [row[0] for row in self.cells[:4] if row]
        # prose before the table: only its tail, where "(in millions)" lines sit
        candidates.append(self.pre_text[-250:])
        scale, hint = Decimal(1), ""
        for text in candidates:
            if text and (found := _scale_from_text(text)):
                scale, hint = found
                break
        body = [c for row in self.cells[self.header_rows :] for c in row[self.header_cols :] if c]
        unit: str | None = None
        lowered = hint.lower()
        if "$" in hint or "dollar" in lowered or "usd" in lowered or any("$" in c for c in body):
            unit = "usd"
        elif body and sum("%" in c for c in body) / len(body) > 0.5:
            unit = "percent"
        elif "shares" in lowered and "per share" not in lowered:
            unit = "shares"
        elif scale != 1:
            unit = None  # a scale without a currency word: leave the unit open
        return scale, unit, hint

    # -- values ------------------------------------------------------------

    def number(self, r: int, c: int) -> ParsedNumber | None:
        """The cell parsed by finprobe.numbers.parse_number; table scale NOT applied."""
        key = (r, c)
        if key not in self._parsed:
            from finprobe.numbers import parse_number  # lazy: numbers is optional here

            # "( 92,291" + ")" from split cells: a negative, spaces or not
            cell = close_paren_spaces(self.cells[r][c])
            self._parsed[key] = None if not cell or _is_dash(cell) else parse_number(cell)
        return self._parsed[key]

    def is_per_share_or_percent(self, r: int, c: int) -> bool:
        """Cells that the table scale must not touch (per-share amounts, percents)."""
        cell = self.cells[r][c]
        if "%" in cell:
            return True
        label = self.row_label(r)
        if _PER_SHARE.search(label) or _PERCENT_LABEL.search(label):
            return True
        col = self.column_label(c)
        return bool(_PER_SHARE.search(col) or re.search(r"%|\bpercent", col, re.I))

    def is_body_heading(self, r: int) -> bool:
        """A body row that only names what follows ("Revenues (in millions):").

        It has text but no value: its value cells are empty or repeat text.
        """
        if r < self.header_rows or r >= self.n_rows:
            return False
        row = self.cells[r]
        return any(row) and not any(_is_numeric(x) for x in row[self.header_cols :])

    def _headings_above(self, r: int) -> list[int]:
        """The nearest block of consecutive body heading rows above row r."""
        h = min(r, self.n_rows) - 1
        while h >= self.header_rows and not self.is_body_heading(h):
            h -= 1
        block = []
        while h >= self.header_rows and self.is_body_heading(h):
            block.append(h)
            h -= 1
        return block

    def _heading_text(self, r: int) -> str:
        return " ".join(dict.fromkeys(x for x in self.cells[r] if x))

    def row_scale(self, r: int) -> Decimal:
        """The scale for row r's values: the table scale unless a body heading says otherwise.

        A body heading with a scale phrase ("Oil, gas, and NGL production
        revenue (in millions):") sets the scale of the rows beneath it until
        the next heading; a heading without one returns to the table scale
        (a sub-heading right under a heading keeps that heading's scale). A
        row whose own label carries a scale phrase uses that.
        """
        if self._row_scales is None:
            scales: list[Decimal] = []
            current = self.scale
            for i in range(self.n_rows):
                if i < self.header_rows:
                    scales.append(self.scale)
                    continue
                if self.is_body_heading(i):
                    found = _scale_from_text(self._heading_text(i))
                    if found:
                        current = found[0]
                    elif not self.is_body_heading(i - 1):  # a sub-heading keeps its parent's
                        current = self.scale
                    scales.append(current)
                    continue
                own = _scale_from_text(self.row_label(i))
                scales.append(own[0] if own else current)
            self._row_scales = scales
        return self._row_scales[r]

    def names_non_money_unit(self, r: int, c: int) -> bool:
        """Does the row label, its body headings or the column label name a non-money unit?

        Volumes, energy, mass, area and rates ("Oil (MMBbl)", "Gas (Bcf)",
        "(MBOE per day)", "(per BOE)", "per Bbl"): a money scale such as
        "in millions" must not multiply these values. Column labels count
        only where they declare the unit in parentheses or with "per".
        """
        texts = [self.row_label(r)] + [self._heading_text(h) for h in self._headings_above(r)]
        if any(_names_non_money_unit(t) for t in texts if t):
            return True
        return _names_non_money_unit(self.column_label(c), declared_only=True)

    def scaled_value(self, r: int, c: int) -> Decimal | None:
        """Cell value times its row's scale (``row_scale``).

        Not scaled: percent and per-share cells, and cells whose row, heading
        or column names a non-money unit (barrels, Bcf, BOE per day, ...).
        A dash ("—") in the body reads as zero; header, label and body heading
        cells give None. A cell with its own scale word ("$1.2 million") keeps it.
        """
        if r < self.header_rows or c < self.header_cols or self.is_body_heading(r):
            return None
        cell = self.cells[r][c]
        if _is_dash(cell):
            return Decimal(0)
        n = self.number(r, c)
        if n is None:
            return None
        units = getattr(n, "units", frozenset())
        if "percent" in units or "per_share" in units or n.scale != 1:
            return n.value
        if self.is_per_share_or_percent(r, c):
            return n.value
        if own := _scale_from_text(self.row_label(r)):  # "Production (in thousands)"
            return n.value * own[0]
        if self.names_non_money_unit(r, c):
            return n.value
        return n.value * self.row_scale(r)

    # -- labels and rendering ---------------------------------------------

    def row_label(self, r: int) -> str:
        parts: list[str] = []
        for cell in self.cells[r][: self.header_cols]:
            if cell and cell not in parts:
                parts.append(cell)
        return " ".join(parts)

    def column_label(self, c: int) -> str:
        parts: list[str] = []
        for row in self.cells[: self.header_rows]:
            cell = row[c]
            if cell and cell not in parts:
                parts.append(cell)
        return " ".join(parts)

    def to_pipe_text(self) -> str:
        return "\n".join(" | ".join(row) for row in self.cells)

    def to_markdown(self) -> str:
        if not self.cells:
            return ""

        def esc(s: str) -> str:
            return s.replace("|", "\\|")

        hr = max(self.header_rows, 1)
        head = [
            esc(" ".join(dict.fromkeys(row[c] for row in self.cells[:hr] if row[c])))
            for c in range(self.n_cols)
        ]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * self.n_cols]
        lines += ["| " + " | ".join(esc(x) for x in row) + " |" for row in self.cells[hr:]]
        return "\n".join(lines)

    def text(self) -> str:
        return self.to_pipe_text()


Block = Paragraph | Table


@dataclass
class FinancialDocument:
    id: str
    blocks: list[Block]
    metadata: dict = field(default_factory=dict)

    @property
    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]

    @property
    def paragraphs(self) -> list[Paragraph]:
        return [b for b in self.blocks if isinstance(b, Paragraph)]

    def block(self, block_id: str) -> Block:
        for b in self.blocks:
            if b.id == block_id:
                return b
        raise KeyError(block_id)

    def blocks_from_source(self, source_id: str | int) -> list[Block]:
        """All blocks cut from one source unit (a FinDVer context id)."""
        sid = str(source_id)
        return [b for b in self.blocks if b.source_id == sid]

    def text(self) -> str:
        return "\n\n".join(
            b.text if isinstance(b, Paragraph) else b.to_pipe_text() for b in self.blocks
        )


# --------------------------------------------------------------------------
# sections and MD&A

_ITEM_HEADING = re.compile(
    r"(?im)^[ \t]*(?:part\s+i{1,2}\s*[,.\-–—:]?\s*)?item[ \t]*(\d{1,2}[a-c]?)\b[ \t]*[.:\-–—]?\s*(?-i:(?=[A-Z\[(“\"]))"
)
_MDNA_TITLE = re.compile(r"(?i)^management[’'`]?s?(?:\s+discussion\s+and\s+analysis|\s*$|\s*\n)")
# MD&A without its item heading usually opens with this sentence
_MDNA_INTRO = re.compile(
    r"(?im)^[ \t]*(?:the\s+following\s+)?(?:management[’'`]?s\s+)?discussion\s+and\s+analysis\s+of\s+"
    r"(?:our\s+|the\s+company[’']?s\s+)?(?:consolidated\s+)?(?:financial|results)"
)
# line-start titles that end MD&A when the item headings themselves are missing
_MDNA_END_TITLE = re.compile(
    r"(?im)^[ \t]*(?:quantitative\s+and\s+qualitative\s+disclosures?\s+about\s+market\s+risk|"
    r"financial\s+statements\s+and\s+supplementary\s+data|"
    r"report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm)"
)
_BROKEN_WORD = re.compile(r"(?<=[A-Za-z])\n(?=[a-z])")


def _heading_view(text: str) -> str:
    """Text with words re-joined where conversion broke them ("It\nem 7. Mana\ngement")."""
    return _BROKEN_WORD.sub("", text)


def _item_headings(text: str) -> list[tuple[int, str, str]]:
    """(offset, item token, following text) for each line-start "Item N." heading."""
    return [
        (m.start(), m.group(1).upper(), text[m.end() : m.end() + 120])
        for m in _ITEM_HEADING.finditer(text)
    ]


def _assign_sections(blocks: list[Block]) -> None:
    """Give blocks without a section the last "Item N" heading seen."""
    current: str | None = None
    for b in blocks:
        if isinstance(b, Paragraph):
            heads = _item_headings(_heading_view(b.text))
            if heads and b.section is None:
                # a heading at the very start names this block's section
                if heads[0][0] < 40:
                    current = f"Item {heads[0][1]}"
                b.section = current
                current = f"Item {heads[-1][1]}"
                continue
        if b.section is None:
            b.section = current


def _block_text(b: Block) -> str:
    return _heading_view(b.text) if isinstance(b, Paragraph) else b.to_pipe_text()


def mdna_blocks(doc: FinancialDocument) -> list[Block]:
    """MD&A blocks: from "Item 7. Management's Discussion..." to Item 7A/8.

    10-Q filings carry MD&A as Part I "Item 2"; that is found the same way.
    Every line-start heading "Item N. Management's Discussion" is a candidate
    start; its end is the next line-start heading of another item. Tables of
    contents list the items close together, so the candidate followed by the
    most text wins. Without any such heading, a line opening with "(The
    following) discussion and analysis of our financial condition ..." starts
    MD&A. Blocks are returned whole (the first and last may carry a little text
    from the neighbouring items). [] when no MD&A is found, or when it holds
    under 300 characters (a table-of-contents line, or "incorporated by
    reference").
    """
    texts = [_block_text(b) for b in doc.blocks]
    starts: list[tuple[int, int, str]] = []  # (block index, offset, item)
    for i, (b, t) in enumerate(zip(doc.blocks, texts, strict=True)):
        if isinstance(b, Paragraph):
            for off, item, rest in _item_headings(t):
                if _MDNA_TITLE.match(
                    " ".join(rest.split()) if not rest.startswith(("M", "m")) else rest
                ):
                    starts.append((i, off, item))
    if not starts:
        for i, (b, t) in enumerate(zip(doc.blocks, texts, strict=True)):
            if isinstance(b, Paragraph):
                starts.extend((i, m.start(), "") for m in _MDNA_INTRO.finditer(t))
    best: tuple[int, int, int] | None = None  # (content chars, first, last exclusive)
    for i, off, item in starts:
        content, j, pos = 0, i, off + 10
        end_block = len(doc.blocks)
        while j < len(doc.blocks):
            t = texts[j]
            stops = [o for o, tok, _ in _item_headings(t) if (j > i or o >= pos) and tok != item]
            stops += [m.start() for m in _MDNA_END_TITLE.finditer(t) if j > i or m.start() >= pos]
            stop = min(stops, default=None)
            if stop is not None:
                content += stop - (pos if j == i else 0)
                # a block that opens with the next item is not part of MD&A
                end_block = (j + 1 if stop > 40 else j) if j > i else i + 1
                break
            content += len(t) - (pos if j == i else 0)
            j += 1
        if best is None or content > best[0]:
            best = (content, i, end_block)
    if best is None or best[0] < 300:
        return []
    return doc.blocks[best[1] : best[2]]


# --------------------------------------------------------------------------
# pipe tables (FinDVer context text, Markdown)

_PIPE_SEP = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")


def _pipe_row(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [clean_text(c.replace("\\|", "|")) for c in re.split(r"(?<!\\)\|", s)]


def _glue_pipe_row(cells: Sequence[str]) -> list[tuple[int, str]]:
    """Non-empty cells after the label with "$"/")"/"%" fragments glued on.

    Each value keeps the raw column index of its first fragment.
    """
    vals: list[tuple[int, str]] = []
    for c, cell in enumerate(cells, start=1):
        if not cell:
            continue
        if vals and (vals[-1][1] in _PREFIX_FRAGMENTS or cell in _SUFFIX_FRAGMENTS):
            vals[-1] = (vals[-1][0], _join_cells(vals[-1][1], cell))
        else:
            vals.append((c, cell))
    return vals


def _digit_markers_are_footnotes(
    glued: list[tuple[list[str], list[tuple[int, str]]]],
) -> set[tuple[int, int]]:
    """Which "(n)" cells of pipe rows are footnote markers, as (row, position) pairs.

    ``glued`` holds each raw row with its values from _glue_pipe_row.

    A lone "(31)" is a negative value unless the context says otherwise:
    - the row: without its "(n)" cells it has the table's usual number of
      values, with them more than any other row ("Assets | 8,650 | (3) | 14,908");
    - the column: every cell in that raw pipe column is a marker and the
      table's other numbers dwarf them (a footnote column beside thousands).
    A row that already has the usual number of values keeps them all
    ("Other, net | (55) | (31) | (30)").
    """
    cands = {  # only whole pipe cells: "( 23" + ")" glued is a value
        r: [i for i, (c, v) in enumerate(vals) if _DIGIT_MARKER.match(v) and cells[c] == v]
        for r, (cells, vals) in enumerate(glued)
    }

    def size(vals: list[tuple[int, str]]) -> int:  # "(a)", "*" are never values
        return sum(not _FOOTNOTE.match(v) or bool(_DIGIT_MARKER.match(v)) for _, v in vals)

    counts = [size(vals) for r, (_, vals) in enumerate(glued) if vals and not cands[r]]
    usual = max(set(counts), key=lambda n: (counts.count(n), n)) if counts else None
    longest = max(counts, default=0)
    by_col: dict[int, list[str]] = {}
    before: dict[int, list[str]] = {}  # the values each column's markers follow
    for _, vals in glued:
        for i, (c, v) in enumerate(vals):
            by_col.setdefault(c, []).append(v)
            if i and _DIGIT_MARKER.match(v):
                before.setdefault(c, []).append(vals[i - 1][1])
    every = [v for _, vals in glued for _, v in vals]
    marker_cols = {
        c
        for c, col in by_col.items()
        if all(_FOOTNOTE.match(v) for v in col)
        and _values_dwarf_markers(every, col, before.get(c, ()))
    }
    out: set[tuple[int, int]] = set()
    for r, idx in cands.items():
        if not idx:
            continue
        n_keep = size(glued[r][1])
        n_drop = n_keep - len(idx)
        if usual is not None and n_keep == usual:
            continue
        if usual is not None and n_drop == usual and n_keep > longest:
            out.update((r, i) for i in idx)  # with its markers the row is too long
        else:
            out.update((r, i) for i in idx if glued[r][1][i][0] in marker_cols)
    return out


def _compact_pipe_rows(rows: list[list[str]]) -> list[list[str]]:
    """Align ragged pipe rows (colspans were lost when the text was made).

    Within each row fragments are glued ("$" + "3,035", "(1,360" + ")") and
    empty cells dropped, keeping the first cell as the row label. Footnote
    markers in cells of their own are dropped when they follow the label or a
    value ("(a)", "*"); a "(12)" only when its context marks it as a footnote
    (see _digit_markers_are_footnotes), else it is a negative value. Rows with
    fewer values are right-aligned (financial tables drop leading columns
    far more often than trailing ones); a single text value spans the row.
    """
    glued = [(row, _glue_pipe_row(row[1:])) for row in rows]
    footnotes = _digit_markers_are_footnotes(glued)
    compact: list[list[str]] = []
    for r, (row, cells) in enumerate(glued):
        label = row[0] if row else ""
        vals: list[str] = []
        for i, (_, cell) in enumerate(cells):
            if (r, i) in footnotes:
                continue
            if (
                _FOOTNOTE.match(cell)
                and not _DIGIT_MARKER.match(cell)
                and (not vals or _is_numeric(vals[-1]))
                and (vals or any(_is_numeric(v) for _, v in cells))
            ):
                continue  # "(a)", "*": a footnote on the label or the value before it
            vals.append(cell)
        compact.append([label, *vals])
    width = max((len(r) for r in compact), default=0)
    out = []
    for row in compact:
        label, vals = row[0], row[1:]
        k, n = len(vals), width - 1
        if k == n:
            out.append(row)
        elif k == 1 and not _is_numeric(vals[0]):
            out.append([label] + vals * n)
        elif k and sum(_is_numeric(v) for v in vals) * 2 >= k:
            out.append([label] + [""] * (n - k) + vals)
        else:
            out.append([label] + vals + [""] * (n - k))
    return out


def _squash(s: str) -> str:
    return re.sub(r"[\s$()%,]", "", s)


def _html_matches_pipe(html_grid: list[list[str]], pipe_rows: list[list[str]]) -> bool:
    """Same rows, same text per row (ignoring spacing and fragments)?"""
    pipe = [r for r in pipe_rows if any(r)]
    if not html_grid or len(html_grid) != len(pipe):
        return False
    same = 0
    for h, p in zip(html_grid, pipe, strict=True):
        hs, ps = _squash("".join(h)), _squash("".join(p))
        same += hs == ps
    return same >= 0.9 * len(pipe)


def _split_mixed(text: str) -> list[tuple[str, Any]]:
    """Split text into ("p", prose) and ("t", pipe rows) parts, in order."""
    parts: list[tuple[str, Any]] = []
    prose: list[str] = []
    rows: list[list[str]] = []

    def flush_prose() -> None:
        t = clean_text("\n".join(prose), keep_newlines=True)
        if t:
            parts.append(("p", t))
        prose.clear()

    def flush_rows() -> None:
        if rows:
            parts.append(("t", list(rows)))
        rows.clear()

    for line in text.split("\n"):
        # only a line with a "|" can be a pipe row (cleaning adds none): prose lines are
        # cleaned once, with their paragraph
        stripped = clean_text(line) if "|" in line else ""
        if stripped.startswith("|") and stripped.count("|") >= 2:
            flush_prose()
            if not _PIPE_SEP.match(stripped):
                rows.append(_pipe_row(stripped))
        else:
            flush_rows()
            prose.append(line)
    flush_prose()
    flush_rows()
    return parts


# --------------------------------------------------------------------------
# HTML


def _html_parser():  # lxml is imported on demand: plain-text users need not pay for it
    from lxml import html as lhtml

    # no_network: never fetch; HTML parsing never expands external entities
    return lhtml.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, recover=True)


def _span(value: str | None) -> int:
    if value is None:  # most cells: no span attribute (and no exception to pay for)
        return 1
    try:
        return min(max(int(str(value).strip() or 1), 1), 200)
    except ValueError:
        return 1


def _table_rows(table_el) -> list:
    rows = []
    for child in table_el.iterchildren("tr", "thead", "tbody", "tfoot"):
        if child.tag == "tr":
            rows.append(child)
        else:
            rows.extend(child.iterchildren("tr"))
    return rows


def _grid_from_table_element(
    table_el,
) -> tuple[list[list[str]], list[list[Any]], list[tuple[int, int, int, int]]]:
    """Resolve colspan/rowspan into a grid; each grid cell knows its source cell."""
    grid: list[list[str | None]] = []
    origin: list[list[Any]] = []
    spans: list[tuple[int, int, int, int]] = []
    for r, tr in enumerate(_table_rows(table_el)):
        while len(grid) <= r:
            grid.append([])
            origin.append([])
        c = 0
        row, row_origin = grid[r], origin[r]
        for k, td in enumerate(tr.iterchildren("td", "th")):  # elements only, in order
            while c < len(row) and row[c] is not None:
                c += 1
            text = clean_text(td.text_content())
            rs, cs = _span(td.get("rowspan")), _span(td.get("colspan"))
            if rs == 1 and cs == 1 and c == len(row):  # most cells: append, no loops
                row.append(text)
                row_origin.append((r, k))
                c += 1
                continue
            if rs > 1 or cs > 1:
                spans.append((r, c, rs, cs))
            while len(grid) < r + rs:
                grid.append([])
                origin.append([])
            for rr in range(r, r + rs):  # the cs columns from c on, in each spanned row
                cells, cells_origin = grid[rr], origin[rr]
                if len(cells) < c + cs:
                    cells.extend([None] * (c + cs - len(cells)))
                    cells_origin.extend([None] * (c + cs - len(cells_origin)))
                cells[c : c + cs] = [text] * cs
                cells_origin[c : c + cs] = [(r, k)] * cs
            c += cs
    width = max((len(row) for row in grid), default=0)
    out = [[x or "" for x in row] + [""] * (width - len(row)) for row in grid]
    org = [row + [None] * (width - len(row)) for row in origin]
    return out, org, spans


def parse_html_table(html_or_element, table_id: str = "t0", **kwargs: Any) -> Table:
    """One <table> (markup or lxml element) as a normalised Table."""
    if isinstance(html_or_element, str):
        from lxml import html as lhtml

        root = lhtml.fromstring(html_or_element, parser=_html_parser())
        el = root if root.tag == "table" else next(root.iter("table"), None)
        if el is None:
            raise ValueError("no <table> element")
    else:
        el = html_or_element
    raw, origins, spans = _grid_from_table_element(el)
    cells = normalize_cells(raw, origins)
    cap = el.find("caption")
    kwargs.setdefault("caption", clean_text(cap.text_content()) if cap is not None else "")
    return Table(id=table_id, cells=cells, raw_cells=raw, spans=spans, **kwargs)


_BLOCK_TAGS = {
    "p", "div", "table", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
    "section", "article", "blockquote", "pre", "body", "center", "dl", "dt", "dd", "hr", "form",
}  # fmt: skip
_SKIP_TAGS = {"script", "style", "head", "title", "noscript", "template", "ix:header"}


def _html_blocks(root) -> list[Block]:
    # elements with a block descendant are containers, the rest are inline runs
    has_block: set = set()
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.lower() in _BLOCK_TAGS:
            for anc in el.iterancestors():
                if anc in has_block:
                    break
                has_block.add(anc)
    blocks: list[Block] = []
    counters = {"p": 0, "t": 0}
    last_text = [""]

    def emit_paragraph(pieces: list[str]) -> None:
        text = clean_text("".join(pieces), keep_newlines=True)
        pieces.clear()
        if text:
            blocks.append(Paragraph(id=f"p{counters['p']}", text=text))
            counters["p"] += 1
            last_text[0] = text

    def walk(el) -> None:
        buf: list[str] = [el.text or ""]
        for child in el:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if not tag or tag in _SKIP_TAGS:
                pass
            elif tag == "table":
                emit_paragraph(buf)
                raw, origins, spans = _grid_from_table_element(child)
                cells = normalize_cells(raw, origins)
                if cells:
                    cap = child.find("caption")
                    blocks.append(
                        Table(
                            id=f"t{counters['t']}",
                            cells=cells,
                            raw_cells=raw,
                            spans=spans,
                            pre_text=last_text[0],
                            caption=clean_text(cap.text_content()) if cap is not None else "",
                        )
                    )
                    counters["t"] += 1
            elif tag == "br":
                buf.append("\n")
            elif tag in _BLOCK_TAGS or child in has_block:
                emit_paragraph(buf)
                walk(child)
            else:
                buf.append(child.text_content())
            buf.append(child.tail or "")
        emit_paragraph(buf)

    walk(root)
    return blocks


def _read_source(path_or_text: str | Path, suffixes: tuple[str, ...]) -> tuple[str, Path | None]:
    """Text of a file, or the argument itself when it is already content."""
    if isinstance(path_or_text, Path) or (
        "\n" not in path_or_text
        and len(path_or_text) < 1024
        and (path_or_text.lower().endswith(suffixes) or Path(path_or_text).exists())
    ):
        path = Path(path_or_text)
        return _read_file_text(path), path
    return path_or_text, None


def _read_file_text(path: Path) -> str:
    from finprobe.files import read_bytes

    data = read_bytes(path)
    if b"\x00" in data[:4096]:
        raise InputError(path, "binary file, expected text, HTML or JSON")
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def load_html(path_or_text: str | Path) -> FinancialDocument:
    """EDGAR-style HTML: paragraphs (p/div/li text) and tables in reading order."""
    from lxml import etree
    from lxml import html as lhtml

    text, path = _read_source(path_or_text, (".htm", ".html", ".xhtml"))
    if text.lstrip().startswith("<?xml"):
        text = re.sub(
            r"^\s*<\?xml[^>]*\?>", "", text
        )  # lxml refuses str with an encoding declaration
    try:
        root = lhtml.document_fromstring(text, parser=_html_parser())
    except (etree.ParserError, ValueError) as exc:
        raise InputError(path or "<html>", f"cannot parse HTML ({exc})") from None
    body = root.find("body")
    blocks = _html_blocks(body if body is not None else root)
    if not blocks:
        raise InputError(path or "<html>", "HTML holds no text or tables")
    _assign_sections(blocks)
    title = root.findtext(".//title") or ""
    meta: dict[str, Any] = {"source": str(path) if path else None, "format": "html"}
    if title.strip():
        meta["title"] = clean_text(title)
    return FinancialDocument(id=path.stem if path else "html", blocks=blocks, metadata=meta)


# --------------------------------------------------------------------------
# plain text and Markdown

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def load_text(path_or_text: str | Path, markdown: bool = True) -> FinancialDocument:
    """Paragraphs split on blank lines; with markdown, pipe tables and "# headings"."""
    text, path = _read_source(path_or_text, (".txt", ".md", ".markdown", ".text"))
    blocks: list[Block] = []
    section: str | None = None
    n_p = n_t = 0
    for chunk in re.split(r"\n[ \t\u00a0\u200b]*\n", text.replace("\r\n", "\n")):
        if not clean_text(chunk):
            continue
        lines = chunk.split("\n")
        if markdown:
            rest: list[str] = []
            for line in lines:
                m = _MD_HEADING.match(line.strip())
                if m:
                    if rest:
                        for kind, payload in _split_mixed("\n".join(rest)):
                            if kind == "p":
                                blocks.append(
                                    Paragraph(id=f"p{n_p}", text=payload, section=section)
                                )
                                n_p += 1
                            else:
                                blocks.append(_markdown_table(payload, f"t{n_t}", blocks, section))
                                n_t += 1
                        rest = []
                    section = clean_text(m.group(2)) or section
                else:
                    rest.append(line)
            lines = rest
            parts = _split_mixed("\n".join(lines)) if lines else []
        else:
            parts = [("p", clean_text(chunk, keep_newlines=True))]
        for kind, payload in parts:
            if kind == "p":
                blocks.append(Paragraph(id=f"p{n_p}", text=payload, section=section))
                n_p += 1
            else:
                blocks.append(_markdown_table(payload, f"t{n_t}", blocks, section))
                n_t += 1
    if not blocks:
        raise InputError(path or "<text>", "no text found")
    fmt = "markdown" if markdown else "text"
    return FinancialDocument(
        id=path.stem if path else fmt,
        blocks=blocks,
        metadata={"source": str(path) if path else None, "format": fmt},
    )


def _markdown_table(
    rows: list[list[str]], table_id: str, blocks: list[Block], section: str | None
) -> Table:
    pre = next((b.text for b in reversed(blocks) if isinstance(b, Paragraph)), "")
    return Table(id=table_id, cells=rows, pre_text=pre, section=section)


# --------------------------------------------------------------------------
# FinDVer reports

_FINDVER_NAME = re.compile(
    r"^(?P<ticker>[A-Za-z0-9.\-]+?)-(?P<date>\d{4}-\d{2}-\d{2})_(?P<form>[\w\-/]+?)$"
)


def _load_json(path: Path) -> Any:
    text = _read_file_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"invalid JSON ({exc.msg} at line {exc.lineno})") from None


def _doc_stem(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def load_findver_report(path: str | Path) -> FinancialDocument:
    """A FinDVer report ({url, report_type, context, html_tables}) as blocks.

    Each context entry keeps its id as ``source_id``. A pure paragraph entry
    becomes block "c<id>"; an entry that mixes prose and pipe tables is cut
    into parts "c<id>.p0", "c<id>.t1", ... numbered in order. The i-th pipe
    table of the report is paired with the i-th ``html_tables`` entry; when
    both show the same rows the HTML grid (exact columns) becomes the cells,
    else the pipe text stays primary and the HTML grid is kept as html_cells.
    """
    path = Path(path)
    data = _load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("context"), list):
        raise InputError(path, "not a FinDVer report: expected an object with a 'context' list")
    html_tables = data.get("html_tables") or []
    blocks: list[Block] = []
    pipe_index = 0
    last_text = ""
    for entry in data["context"]:
        if not isinstance(entry, dict) or "context" not in entry:
            raise InputError(path, "context entry without 'context' text")
        sid = str(entry.get("id", len(blocks)))
        parts = _split_mixed(str(entry["context"]))
        if not parts:
            continue
        single = len(parts) == 1 and parts[0][0] == "p"
        for k, (kind, payload) in enumerate(parts):
            bid = f"c{sid}" if single else f"c{sid}.{kind}{k}"
            if kind == "p":
                blocks.append(Paragraph(id=bid, text=payload, source_id=sid))
                last_text = payload
                continue
            html = html_tables[pipe_index] if pipe_index < len(html_tables) else None
            pipe_index += 1
            blocks.append(_findver_table(bid, sid, payload, html, last_text))
    if not blocks:
        raise InputError(path, "report has no text")
    _assign_sections(blocks)
    stem = _doc_stem(path)
    meta: dict[str, Any] = {
        "source": str(path),
        "format": "findver",
        "url": data.get("url"),
        "report_type": data.get("report_type"),
        "n_html_tables": len(html_tables),
    }
    if m := _FINDVER_NAME.match(stem):
        meta.update(company=m["ticker"], ticker=m["ticker"], filing_date=m["date"])
        meta["report_type"] = meta["report_type"] or m["form"]
    if (url := data.get("url")) and (cik := re.search(r"/edgar/data/(\d+)/", str(url))):
        meta["cik"] = cik.group(1)
    return FinancialDocument(id=stem, blocks=blocks, metadata=meta)


def _findver_table(bid: str, sid: str, rows: list[list[str]], html: Any, pre_text: str) -> Table:
    grid = origins = None
    if isinstance(html, str) and "<t" in html:
        try:
            from lxml import html as lhtml

            root = lhtml.fromstring(html, parser=_html_parser())
            el = root if root.tag == "table" else next(root.iter("table"), None)
            if el is not None:
                grid, origins, spans = _grid_from_table_element(el)
        except Exception:  # a broken HTML twin must not lose the pipe table
            grid = None
    if grid is not None and origins is not None:
        # the grid's cells are clean_text'ed and its rows padded: no second pass
        html_cells = _normalize_grid(grid, origins)
        if _html_matches_pipe(_row_texts(grid, origins), rows):
            return Table(
                id=bid, cells=html_cells, raw_cells=grid, spans=spans, html_cells=html_cells,
                pre_text=pre_text, source_id=sid, normalize=False,
            )  # fmt: skip
    else:
        html_cells = None
    return Table(
        id=bid,
        cells=_compact_pipe_rows(rows),
        raw_cells=[list(r) for r in rows],
        pre_text=pre_text,
        source_id=sid,
        html_cells=html_cells,
    )


def _row_texts(grid: list[list[str]], origins: list[list[Any]]) -> list[list[str]]:
    """Each non-empty HTML row as its source cells' texts (a span counted once)."""
    out = []
    for row, org in zip(grid, origins, strict=True):
        seen, texts = set(), []
        for text, o in zip(row, org, strict=True):
            if o in seen:
                continue
            seen.add(o)
            if text:
                texts.append(text)
        if texts:
            out.append(texts)
    return out


# --------------------------------------------------------------------------
# FAITH reports


def load_faith_report(record: dict, doc_id: str) -> FinancialDocument:
    """One entry of a FAITH json list: tables "t<table_index>" with their pre-texts.

    FAITH ships only the tables (the sentences live in ``instances``), so the
    document has one block per table, in the order given.
    """
    if not isinstance(record, dict) or not isinstance(record.get("tables"), list):
        raise InputError(
            doc_id, "not a FAITH report record: expected an object with a 'tables' list"
        )
    blocks: list[Block] = []
    for i, t in enumerate(record["tables"]):
        if not isinstance(t, dict) or not isinstance(t.get("cells"), list):
            raise InputError(doc_id, f"FAITH table {i} has no 'cells' grid")
        idx = t.get("table_index", i)
        blocks.append(
            Table(
                id=f"t{idx}",
                cells=t["cells"],
                pre_text=str(t.get("pre_text") or ""),
                source_id=str(idx),
            )
        )
    meta = dict(record.get("metadata") or {})
    meta.update(format="faith", n_instances=len(record.get("instances") or []))
    return FinancialDocument(id=doc_id, blocks=blocks, metadata=meta)


# --------------------------------------------------------------------------
# sniffing

_FORMATS = {"findver", "faith", "html", "htm", "md", "markdown", "txt", "text"}


def load_document(path: str | Path, format: str | None = None) -> FinancialDocument:
    """Load a document, the format taken from ``format`` or sniffed.

    Formats: findver (.json/.json.gz report), faith (a FAITH json file with one
    report, or one record), html/htm, md/markdown, txt/text.
    """
    path = Path(path)
    fmt = format.lower() if format else None
    if fmt is not None and fmt not in _FORMATS:
        raise InputError(
            path, f"unknown format {format!r} (expected one of {', '.join(sorted(_FORMATS))})"
        )
    if not path.exists():
        raise InputError(path, "file not found")
    if fmt is None:
        fmt = _sniff(path)
    if fmt == "findver":
        return load_findver_report(path)
    if fmt == "faith":
        data = _load_json(path)
        records = data if isinstance(data, list) else [data]
        if len(records) != 1:
            raise InputError(
                path, f"FAITH file holds {len(records)} reports: load one with load_faith_report"
            )
        return load_faith_report(records[0], _doc_stem(path))
    if fmt in ("html", "htm"):
        return load_html(path)
    return load_text(path, markdown=fmt in ("md", "markdown"))


def _sniff(path: Path) -> str:
    name = path.name.lower()
    inner = name[:-3] if name.endswith(".gz") else name
    if inner.endswith((".htm", ".html", ".xhtml")):
        return "html"
    if inner.endswith((".md", ".markdown")):
        return "md"
    if inner.endswith(".json"):
        return _sniff_json(path)
    text = _read_file_text(path)
    head = text.lstrip()[:2000].lower()
    if head.startswith(("{", "[")):
        return _sniff_json(path)
    if head.startswith(("<!doctype html", "<html", "<?xml")) or re.search(
        r"<(?:table|p|div|body)\b", head
    ):
        return "html"
    if inner.endswith((".txt", ".text")) or "\n" in text or len(text) < 100_000:
        return "md" if re.search(r"(?m)^\s*(?:#{1,6}\s|\|.*\|\s*$)", text) else "txt"
    raise InputError(path, "unrecognised document format")


def _sniff_json(path: Path) -> str:
    data = _load_json(path)
    if isinstance(data, dict) and isinstance(data.get("context"), list):
        return "findver"
    records = data if isinstance(data, list) else [data]
    if records and all(isinstance(r, dict) and "tables" in r for r in records):
        return "faith"
    raise InputError(path, "JSON is neither a FinDVer report nor a FAITH report")
