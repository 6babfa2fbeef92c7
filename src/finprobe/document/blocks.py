"""The document model: Paragraph and Table blocks (a table's header rows, label columns,
scale and unit derived from its cells) and FinancialDocument."""

from __future__ import annotations

import re
from dataclasses import InitVar, dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from finprobe.document.cells import (
    _YEAR,
    _is_dash,
    _is_headerish,
    _is_numeric,
    _rectangular,
    clean_text,
    close_paren_spaces,
    normalize_cells,
)

if TYPE_CHECKING:  # numbers.py is imported lazily: documents load without it
    from finprobe.numbers import ParsedNumber

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
        return pipe_text(self.cells)

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


def pipe_text(cells: list[list[str]]) -> str:
    """Rows of cells as text: one line a row, cells joined by " | "."""
    return "\n".join(" | ".join(row) for row in cells)


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
