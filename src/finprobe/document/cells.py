"""Cell text: cleaning, classifying (values, dashes, footnote markers) and normalising
a grid (EDGAR's "$", ")" and "%" fragment columns merged, spacer rows and columns dropped)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

# --------------------------------------------------------------------------
# text cleaning

# zero-width characters and BOMs vanish; the various non-breaking and thin
# spaces become plain spaces.
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_SPACES = "\u00a0\u2002\u2003\u2007\u2009\u200a\u202f\u3000\t\r\f\v"
# one translation pass drops the first and spaces the second (disjoint sets)
_CLEAN_TABLE = str.maketrans({**dict.fromkeys(_ZERO_WIDTH), **dict.fromkeys(_SPACES, " ")})
_SPACE_RUN = re.compile(r" {2,}")
_ZERO_WIDTH_CHAR = re.compile(f"[{_ZERO_WIDTH}]")
_ODD_CHAR = re.compile(f"[{_ZERO_WIDTH}{_SPACES}]")


def clean_text(text: str, keep_newlines: bool = False) -> str:
    """Drop zero-width characters, turn odd spaces into plain ones, squeeze runs.

    With ``keep_newlines`` lines are cleaned one by one, blank lines dropped and
    the rest joined with "\\n"; otherwise all whitespace collapses to one space.
    """
    if not keep_newlines:
        # str.split() already treats the odd spaces (and \t\r\f\v) as whitespace: only
        # zero-width characters need removing, and ASCII text has none
        if not text.isascii() and _ZERO_WIDTH_CHAR.search(text):
            text = _ZERO_WIDTH_CHAR.sub("", text)
        return " ".join(text.split())
    if _ODD_CHAR.search(text):  # translate is slow on non-ASCII text: only when needed
        text = text.translate(_CLEAN_TABLE)  # both substitutions in one pass
    if "  " in text:  # one pass over the whole text: a run of spaces never spans a newline
        text = _SPACE_RUN.sub(" ", text)
    lines = (line.strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


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


@lru_cache(maxsize=1 << 16)  # cells repeat ("", "$", "—", years): each read once
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
    markers_ok = any(map(_DIGIT_MARKER.match, right)) and _values_dwarf_markers(
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
    n_rows = len(grid)
    everything = list(chain.from_iterable(grid))
    # the grid is rectangular: its columns (and the origins') by one transposition
    grid_cols: list[Sequence[str]] = list(zip(*grid, strict=True))
    no_origins = [None] * n_rows  # never mutated: a merge makes a new list
    origin_cols: list[Sequence[Any]] = (
        list(zip(*origins, strict=True)) if origins else [no_origins] * len(grid_cols)
    )
    cols: list[Sequence[str]] = [grid_cols[0]]
    col_origin: list[Sequence[Any]] = [origin_cols[0]]
    for right, right_origin in zip(grid_cols[1:], origin_cols[1:], strict=True):
        left, left_origin = cols[-1], col_origin[-1]
        # never let a label column swallow a value column: a merge must be
        # justified by at least one fragment, span or repeat, not only blanks
        # (tested first: most neighbours, spacer columns above all, stop here;
        # all((a, b)): both cells non-empty, tested in C)
        if any(map(all, zip(left, right, strict=True))) and _columns_agree(
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
                elif _FOOTNOTE.match(b) and a and a not in _PREFIX_FRAGMENTS:
                    # marker dropped from the value; raw_cells keep it. After a bare "$"
                    # a "(43)" is the value itself: "$ | (43)" is -43
                    merged.append(a)
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
    return [list(row) for row in zip(*cols, strict=True)]


def _drop_empty(grid: list[list[str]]) -> list[list[str]]:
    """Drop spacer rows and columns (all cells empty)."""
    rows = [row for row in grid if any(row)]
    if not rows:
        return []
    keep = [c for c, col in enumerate(zip(*rows, strict=True)) if any(col)]
    if len(keep) == len(rows[0]):
        return [list(row) for row in rows]
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
    return [list(map(_drop_footnote, row)) for row in grid]
