"""Figures of an evidence passage (tables and prose) as the FinDVer verifier reads them.

Each figure carries the groups it may be combined in (a table row, a column, a
paragraph), its years, its row label, whether it sits in a change column, and the
rounding its written digits carry.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import Decimal

from finprobe.document import close_paren_spaces
from finprobe.numbers import NumberSpan, find_numbers
from finprobe.retrieval import Passage

__all__ = ["YEAR", "Figure", "digit_unit", "passage_figures", "written_precision"]

YEAR = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")
_STATED_SCALE = re.compile(r"(?i)\bin\s+(?:u\.?s\.?\s+)?(?:\$\s*)?(thousands|millions|billions)\b")
_SCALE_OF = {"thousands": Decimal(1000), "millions": Decimal(10**6), "billions": Decimal(10**9)}
_MANTISSA = re.compile(r"\d[\d,]*(?:\.\d+)?")


def written_precision(span: NumberSpan) -> Decimal:
    """Half a unit of the last written digit; trailing zeros of a whole number count.

    ``find_numbers`` reads "20%" as precise to 10 and "$700 million" to 100 million;
    a claim that writes them means 20 and 700 million (a perturbed 18% or $600 million
    must fail), so a whole mantissa is precise to one unit of its scale word.
    """
    precision = span.number.precision
    match = _MANTISSA.search(span.text)
    if match is None or "." in match.group() or len(match.group()) > 3:
        return precision  # "$280,000" may well be rounded
    mantissa = Decimal(match.group())
    if mantissa == 0:
        return precision
    scale = abs(span.number.value / mantissa)
    return min(precision, scale) if scale >= 1 else precision


def digit_unit(span: NumberSpan) -> Decimal:
    """One unit of the last digit a figure writes, at its scale word: "7.4" 0.1,
    "96,020" 1 (a table cell is exact to its last digit), "$0.3 million" 100,000."""
    match = _MANTISSA.search(span.text)
    if match is None:
        return span.number.precision
    mantissa = Decimal(match.group().replace(",", ""))
    places = len(match.group().partition(".")[2])
    scale = abs(span.number.value / mantissa) if mantissa else Decimal(1)
    return Decimal(1).scaleb(-places) * scale


@dataclass(frozen=True)
class Figure:
    value: Decimal
    percent: bool
    passage_id: str
    group: (
        str  # figures in one group may be combined: "row:<pid>:<r>", "col:<pid>:<c>", "text:<pid>"
    )
    years: frozenset[str]  # years of the figure's column (tables) or sentence (text)
    text: str
    label: str = ""  # the table row's label; "" for prose
    change: bool = False  # in a column headed "Change", "Increase (decrease)", "Variance"
    negative_row: bool = False  # the row's period figures are all negative (costs, losses)
    signed: bool = True  # a change figure whose sign says which way the row moved
    units: frozenset[str] = frozenset()  # what the figure counts ("units", "months"), not $ or %
    scale: Decimal | None = None  # the table's stated scale ("in thousands"), if one
    unit: Decimal = Decimal(0)  # one unit of its last written digit ("7.4": 0.1); 0 unknown


def _pipe_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if "|" in line:
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _cell_number(cell: str) -> NumberSpan | None:
    cell = close_paren_spaces(cell)  # "( 92,291)": split across cells, still negative
    spans = [s for s in find_numbers(cell) if s.kind not in ("year", "date", "ordinal")]
    return spans[0] if len(spans) == 1 else None


# a header cell over a change between periods; a bare "%" may be a share of revenue
_CHANGE_HEADER = re.compile(r"\b(?:change|increase|decrease|variance|difference)\b", re.I)
# "Favorable (Unfavorable)": the sign says better or worse, which is "down" for a cost
_UNSIGNED_HEADER = re.compile(r"\b(?:favou?rable|unfavou?rable|better|worse)\b", re.I)


def _column_positions(
    values: list[tuple[int, NumberSpan]],
    row: list[str],
    columns: dict[int, frozenset[str] | None],
) -> list[frozenset[str] | None | bool]:
    """For each figure of a data row: its column's years, None for a change column,
    False when unknown. A row's value cells (figures, dashes, "n/m", "*") line up with
    the header's columns counted from the right; "$" and blank spacer cells do not
    count. Where they do not fit, the figures alone are lined up."""
    positions = sorted(columns)
    slots = [c for c in range(1, len(row)) if row[c].strip() not in ("", "$", "%", ")")]
    if positions and len(slots) <= len(positions) and all(c in slots for c, _ in values):
        start = len(positions) - len(slots)
        return [columns[positions[start + slots.index(c)]] for c, _ in values]
    if not positions or len(values) > len(positions):
        return [False] * len(values)
    start = len(positions) - len(values)
    return [columns[positions[start + rank]] for rank in range(len(values))]


def _column_header(
    values: list[tuple[int, NumberSpan]], row: list[str], positions: list[int], cell: int
) -> int | None:
    """The header column position a data row's cell lines up with (as _column_positions)."""
    slots = [c for c in range(1, len(row)) if row[c].strip() not in ("", "$", "%", ")")]
    if positions and len(slots) <= len(positions) and cell in slots:
        return positions[len(positions) - len(slots) + slots.index(cell)]
    ranks = [c for c, _ in values]
    if positions and len(values) <= len(positions) and cell in ranks:
        return positions[len(positions) - len(values) + ranks.index(cell)]
    return None


def passage_figures(passage: Passage) -> list[Figure]:
    """Every figure of a passage with the groups it may combine in and its years."""
    figures: list[Figure] = []
    prose_lines = [line for line in passage.text.splitlines() if "|" not in line]
    prose = "\n".join(prose_lines)
    for span in find_numbers(prose):
        if span.kind in ("year", "date", "ordinal"):
            continue
        sentence_start = max(prose.rfind(".", 0, span.start), prose.rfind("\n", 0, span.start)) + 1
        sentence_end = prose.find(". ", span.end)
        sentence = prose[sentence_start : sentence_end if sentence_end > 0 else len(prose)]
        figures.append(
            Figure(
                span.number.value,
                "percent" in span.number.units,
                passage.id,
                f"text:{passage.id}",
                frozenset(YEAR.findall(sentence)),
                span.text,
                units=_counted(span),
                unit=digit_unit(span),
            )
        )
    rows = _pipe_rows(passage.text)
    # what each header column holds: the years it names, or a change between periods
    columns: dict[int, frozenset[str] | None] = {}  # None: a change column
    unsigned: set[int] = set()  # change columns whose sign is not the row's direction
    for r, row in enumerate(rows):
        numeric = [(c, _cell_number(cell)) for c, cell in enumerate(row)]
        numbers = [(c, s) for c, s in numeric if s is not None]
        if not numbers or all(YEAR.fullmatch(row[c].strip()) for c, _ in numbers):
            # a header row: remember the years (or the change) over each column position
            for c, cell in enumerate(row):
                if c > 0 and _CHANGE_HEADER.search(cell):
                    columns[c] = None
                    if _UNSIGNED_HEADER.search(cell):
                        unsigned.add(c)
                elif YEAR.search(cell) and columns.get(c, frozenset()) is not None:
                    columns[c] = columns.get(c, frozenset()) | frozenset(YEAR.findall(cell))
            continue
        # a number in the row label ("Note 11", "Tier 1") is not one of the row's columns
        values = [(c, s) for c, s in numbers if c > 0] or numbers
        for c, span in numbers:
            if (c, span) not in values:  # still a figure the claim may name ("Note 11")
                figures.append(
                    Figure(
                        span.number.value,
                        False,
                        passage.id,
                        f"label:{passage.id}:{r}",
                        frozenset(),
                        span.text,
                    )
                )
        where = _column_positions(values, row, columns)
        periods = [s.number.value for (c, s), info in zip(values, where, strict=True) if info]
        negative_row = bool(periods) and all(v < 0 for v in periods)
        # the row's own move (newer - older), when two period columns of distinct years say it
        dated = [
            (max(info), s.number.value)
            for (c, s), info in zip(values, where, strict=True)
            if info and len(info) == 1
        ]
        moved = (
            max(dated)[1] - min(dated)[1]
            if len(dated) == 2 and dated[0][0] != dated[1][0]
            else None
        )
        header_at = sorted(columns)
        for rank, ((c, span), info) in enumerate(zip(values, where, strict=True)):
            is_change = info is None and bool(columns) and where.count(None) < len(where)
            # a change column whose sign disagrees with the row's own periods follows
            # another convention (favourable/unfavourable): its sign gives no direction
            signed = not (
                is_change
                and (
                    _column_header(values, row, header_at, c) in unsigned
                    or (moved is not None and moved != 0 and (moved > 0) != (span.number.value > 0))
                )
            )
            in_row = Figure(
                span.number.value,
                "percent" in span.number.units or "%" in "".join(row[c : c + 2]),
                passage.id,
                # a change column's figure is not a period's: it joins no row derivation
                f"chg:{passage.id}:{r}:{c}" if is_change else f"row:{passage.id}:{r}",
                info or frozenset(),
                f"{row[0]} = {span.text}" if c > 0 else span.text,
                row[0] if c > 0 else "",
                is_change,
                negative_row,
                signed,
                _counted(span),
                unit=digit_unit(span),
            )
            # the same cell as a member of its column (never a percentage there)
            in_column = dataclasses.replace(
                in_row,
                percent=False,
                group=f"col:{passage.id}:{rank - len(values)}",
                text=f"{row[0]} = {span.text}",
            )
            figures += [in_row, in_column]
    stated = {m.lower() for m in _STATED_SCALE.findall(passage.text)}
    if len(stated) == 1:  # one scale for the whole table: its figures are at that scale
        scale = _SCALE_OF[stated.pop()]
        figures = [
            f if f.group.startswith(("text:", "label:")) else dataclasses.replace(f, scale=scale)
            for f in figures
        ]
    return figures


def _counted(span: NumberSpan) -> frozenset[str]:
    """What a figure counts, beyond money and percent: "units", "locations", "months"."""
    return frozenset(span.number.units - {"usd", "percent", "multiple"})
