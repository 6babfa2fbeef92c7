"""Every table value of one report, and the simple computations over them, sorted for the
derivation finder's range search; and the rule by which a value supports a span."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

from finprobe.benchmarks.faith.cells import Cell, numeric_cells, same_period_length
from finprobe.document import Table
from finprobe.numbers import ParsedNumber

_HUNDRED = Decimal(100)


@dataclass
class _Computed:
    kind: str
    scenario: str
    cells: tuple[int, ...]  # indexes into DerivationIndex.cells


def _cell_precision(cell: Cell) -> Decimal:
    """Place value of the cell's last written digit, on the cell's value footing."""
    number = cell.table.number(cell.row, cell.col)
    if number is None:
        return Decimal(1)
    # value / raw is the table (or section) scale that numeric_cells applied
    factor = cell.value / cell.raw if cell.raw else Decimal(1)
    return number.precision * factor


_PERCENT_HEADER = re.compile(r"%|\bpercent", re.I)
_CATEGORY_NOISE = re.compile(
    r"\b(?:19|20)\d{2}\b|year|years|ended|ending|month|months|three|six|nine|twelve|fiscal|"
    r"quarter|as of|for the|period|december|june|september|march|\d{1,2},|[,():$]",
    re.I,
)


def _category(column_label: str) -> str:
    """A column label without its period words: "Year Ended December 31, 2023 Funds" -> "funds"."""
    return " ".join(_CATEGORY_NOISE.sub(" ", column_label).lower().split())


def _percent_flags(cells: list[Cell]) -> list[bool]:
    """Percent cells, plus plain numbers in a percent column.

    A column is a percent column when its header says so, or when its first
    value carries "%" and no value carries "$" (tables often mark only the
    first row: "1.1%", then "9.8", "2"...).
    """
    columns: dict[tuple[str, int], list[Cell]] = {}
    for c in cells:
        columns.setdefault((c.table_index, c.col), []).append(c)
    percent_cols = set()
    for key, members in columns.items():
        first = min(members, key=lambda c: c.row)
        if _PERCENT_HEADER.search(first.col_text) or (
            "%" in first.text and not any("$" in c.text for c in members)
        ):
            percent_cols.add(key)
    return [
        c.percent or ((c.table_index, c.col) in percent_cols and "$" not in c.text) for c in cells
    ]


class DerivationIndex:
    """Every table value and simple computation of one report, sorted for range search.

    Two pools keep percent and money apart: ``pct`` holds fractions (percent
    cells / 100, percentage changes, ratios, shares), ``amount`` holds base
    values (cells with the table scale applied, changes, sums). Lookups keep
    their written precision; computed values are exact. Column pairs are
    bounded by the table's size, so 30 tables stay in the hundreds of
    thousands of entries.
    """

    def __init__(
        self, tables: Sequence[Table], max_pairs_per_column: int = 60, *, annual: bool = False
    ) -> None:
        self.tables = list(tables)
        # the report is a 10-K: its text that names no period length speaks of a year
        # (``find_derivation``); the builder says so from the report's form
        self.annual = annual
        self.cells: list[Cell] = []
        for i, table in enumerate(self.tables):
            index = str(table.id[1:] if re.fullmatch(r"t\d+", table.id) else i)
            self.cells.extend(numeric_cells(table, index))
        self.percent = _percent_flags(self.cells)
        self.precision = [
            self.raw_precision(k) if self.percent[k] else _cell_precision(c)
            for k, c in enumerate(self.cells)
        ]
        # signed values: a change from -$3.5 billion to $2.6 billion is $6.1 billion
        self.val: list[Decimal] = []
        for k, cell in enumerate(self.cells):
            number = cell.table.number(cell.row, cell.col)
            sign = -1 if number is not None and number.sign < 0 else 1
            value = cell.raw if self.percent[k] and not cell.percent else cell.value
            self.val.append(sign * value)
        self.category = [_category(c.col_text) for c in self.cells]
        self.lookups: dict[str, tuple[list[float], list[int]]] = {}
        self.computed: dict[str, tuple[list[float], list[_Computed]]] = {}
        self.by_row: dict[tuple[str, int], list[int]] = {}
        by_col: dict[tuple[str, int], list[int]] = {}
        for k, cell in enumerate(self.cells):
            self.by_row.setdefault((cell.table_index, cell.row), []).append(k)
            if not cell.change_column:
                by_col.setdefault((cell.table_index, cell.col), []).append(k)
        look: dict[str, list[tuple[float, int]]] = {"pct": [], "amount": [], "raw": []}
        comp: dict[str, list[tuple[float, _Computed]]] = {"pct": [], "amount": []}
        for k, cell in enumerate(self.cells):
            if self.percent[k]:
                look["pct"].append((float(abs(self.val[k]) / _HUNDRED), k))
                continue
            look["amount"].append((float(cell.value), k))
            if cell.raw != cell.value:  # per-share and physical amounts under a money scale
                look["raw"].append((float(cell.raw), k))
        # B: one metric across two periods of the same row and category
        for ids in self.by_row.values():
            dated = [k for k in ids if self.cells[k].years and not self.cells[k].change_column]
            for i, a in enumerate(dated):
                for b in dated[i + 1 :]:
                    ca, cb = self.cells[a], self.cells[b]
                    if ca.years == cb.years or self.percent[a] != self.percent[b]:
                        continue
                    if self.category[a] != self.category[b]:
                        continue  # "2023 Core" against "2022 Funds" is no change of one metric
                    if not same_period_length(ca, cb):
                        continue  # a quarter against nine months is no change of one metric
                    new, old = (a, b) if max(ca.years) > max(cb.years) else (b, a)
                    vn, vo = self.val[new], self.val[old]
                    if self.percent[a]:  # percentage points between two percent cells
                        comp["pct"].append(
                            (float(abs(vn - vo) / 100), _Computed("pp_change", "B", (new, old)))
                        )
                        continue
                    comp["amount"].append(
                        (float(abs(vn - vo)), _Computed("change", "B", (new, old)))
                    )
                    if vo:
                        comp["pct"].append(
                            (float(abs((vn - vo) / vo)), _Computed("pct_change", "B", (new, old)))
                        )
        # C: two metrics of the same column (ratio, share of a total, sum)
        for ids in by_col.values():
            plain = [k for k in ids if not self.percent[k]][:max_pairs_per_column]
            for i, a in enumerate(plain):
                va = self.val[a]
                for b in plain[i + 1 :]:
                    vb = self.val[b]
                    comp["amount"].append((float(abs(va + vb)), _Computed("sum", "C", (a, b))))
                    for x, vx, y, vy in ((a, va, b, vb), (b, vb, a, va)):
                        if vy:
                            kind = "share" if abs(vx) < abs(vy) else "ratio"
                            comp["pct"].append((float(abs(vx / vy)), _Computed(kind, "C", (x, y))))
        for pool, items in look.items():
            items.sort(key=lambda t: t[0])
            self.lookups[pool] = ([v for v, _ in items], [k for _, k in items])
        for pool, entries in comp.items():
            entries.sort(key=lambda t: t[0])
            self.computed[pool] = ([v for v, _ in entries], [c for _, c in entries])

    def raw_precision(self, k: int) -> Decimal:
        cell = self.cells[k]
        number = cell.table.number(cell.row, cell.col)
        return number.precision if number is not None else Decimal(1)

    def __len__(self) -> int:
        return sum(len(v[0]) for v in self.lookups.values()) + sum(
            len(v[0]) for v in self.computed.values()
        )

    # -- exact values of candidates ----------------------------------------

    def exact(self, kind: str, ids: tuple[int, ...]) -> Decimal:
        """The candidate's exact magnitude: fraction for the percent pool, base value otherwise.

        Magnitudes, because the sentence's words carry the sign ("decreased $2.0 million");
        ``signed`` keeps the sign the formula gives, which the recorded formula writes out."""
        return abs(self.signed(kind, ids))

    def signed(self, kind: str, ids: tuple[int, ...]) -> Decimal:
        """The candidate's value with the sign its formula gives on the signed cells."""
        v = [self.val[k] for k in ids]
        with localcontext() as ctx:
            ctx.prec = 40
            if kind == "lookup":
                return v[0] / _HUNDRED if self.percent[ids[0]] else v[0]
            if kind == "raw_lookup":
                return self.cells[ids[0]].raw
            if kind == "change":
                return v[0] - v[1]
            if kind == "pp_change":
                return (v[0] - v[1]) / _HUNDRED
            if kind == "pct_change":
                return (v[0] - v[1]) / v[1]
            if kind in ("ratio", "share"):
                return v[0] / v[1]
            if kind == "sum":
                return v[0] + v[1]
            if kind == "ratio_change":  # (a1 / b1) - (a2 / b2), in fraction points
                return v[0] / v[1] - v[2] / v[3]
        raise ValueError(kind)


def _round_half_up(x: Decimal, step: Decimal) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 60
        return (x / step).quantize(Decimal(1), rounding=ROUND_HALF_UP)


def supports(span_value: Decimal, span_precision: Decimal, value: Decimal) -> bool:
    """A table value supports a span when, rounded to the span's own precision, it equals it.

    The sentence rounds the table, never the other way: a cell's digits are all
    exact, an integer cell's trailing zeros too ("10" in millions is not "$13
    million", "50%" is not "45.4%"). Magnitudes: the sentence's words carry the sign.
    """
    if span_precision <= 0:
        return abs(span_value) == abs(value)
    return _round_half_up(abs(value), span_precision) * span_precision == abs(span_value)


def rounds_or_truncates(number: ParsedNumber, value: Decimal) -> bool:
    """A companion figure may round or cut the table's digits ("$18.6 million" for 18,650,336)."""
    ref, step = abs(number.as_fraction()), number.fraction_precision()
    if supports(ref, step, value) or step <= 0:
        return supports(ref, step, value)
    return ref <= abs(value) < ref + step
