"""Report assembly: the simulated years rendered as statement tables."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from typing import Any

from finprobe.document import Table
from finprobe.synth.formatting import _fmt_eps, _fmt_int, _round
from finprobe.synth.profiles import (
    _FORMS,
    _FYE,
    _INDUSTRIES,
    _NAME_A,
    _NAME_B,
    _income_lines,
    _Line,
)
from finprobe.synth.records import CellRef
from finprobe.synth.simulate import _r, _simulate


class _Builder:
    def __init__(self, seed: int, periods: int, company: str | None) -> None:
        if periods not in (2, 3):
            raise ValueError(f"periods must be 2 or 3, got {periods}")
        self.seed = seed
        self.rng = rng = random.Random(seed)
        self.ind = ind = rng.choice(_INDUSTRIES)
        self.company = company or (
            f"{rng.choice(_NAME_A)} {rng.choice(_NAME_B[ind.name])} {rng.choice(_FORMS)}"
        )
        self.ticker = (
            "".join(w[0] for w in re.findall(r"[A-Za-z]+", self.company)[:3]).upper() + "X"
        )
        self.in_millions = rng.random() < 0.35
        self.scale = Decimal(10**6) if self.in_millions else Decimal(10**3)
        self.scale_word = "millions" if self.in_millions else "thousands"
        latest = rng.choice((2023, 2024, 2024))
        self.fye, fye_month, fye_day = rng.choice(_FYE)
        self.years = [latest - i for i in range(periods)]  # newest first
        self.periods = [str(x) for x in self.years]
        self.fye_month, self.fye_day = fye_month, fye_day
        filing_month = fye_month + 2 if fye_month <= 10 else fye_month - 10
        filing_year = latest if fye_month <= 10 else latest + 1
        self.filing_date = f"{filing_year}-{filing_month:02d}-{rng.randint(10, 28):02d}"
        self.cik = str(rng.randint(1_000_000, 1_999_999))
        if self.in_millions:
            base = _r(10 ** rng.uniform(2.9, 4.6))  # about $0.8-40 billion
        else:
            base = _r(10 ** rng.uniform(4.6, 6.3))  # about $40 million-$2 billion
        sim = _simulate(rng, ind, periods, base)
        self.prior = sim[0]
        # newest first, keyed by period label
        self.v: dict[str, dict[str, Any]] = {
            self.periods[i]: sim[periods - i] for i in range(periods)
        }
        self.hidden_period = str(self.years[-1] - 1)
        self.income_lines = _income_lines(ind)
        self._segments(base)
        self.tables: dict[str, Table] = {}
        self.rows: dict[str, dict[str, int]] = {}
        self.cols: dict[str, dict[str, int]] = {}

    # -- segments ----------------------------------------------------------

    def _segments(self, base: int) -> None:
        rng = self.rng
        names = list(self.ind.segments)
        k = len(names)
        weights = [rng.uniform(0.5, 1.5) for _ in range(k)]
        self.segment_names = names
        for period in reversed(self.periods):
            total = self.v[period]["revenue"]
            weights = [w * rng.uniform(0.9, 1.12) for w in weights]  # mix drifts year to year
            s = sum(weights)
            amounts = [_r(total * w / s) for w in weights[:-1]]
            amounts.append(total - sum(amounts))  # the last segment closes the total exactly
            self.v[period]["segments"] = amounts

    # -- tables --------------------------------------------------------------

    def _unit_phrase(self, per_share: bool = False) -> str:
        return (
            f"in {self.scale_word}, except per share data" if per_share else f"in {self.scale_word}"
        )

    def _statement_table(
        self, tid: str, name: str, lines: list[_Line], pre_text: str, section: str
    ) -> Table:
        cells = [["", *self.periods]]
        rows: dict[str, int] = {}
        for ln in lines:
            if ln.kind == "header":
                cells.append([ln.label] + [""] * len(self.periods))
                continue
            row = [self._label(ln)]
            for p in self.periods:
                val = self.v[p][ln.key]
                row.append(_fmt_eps(val) if ln.kind == "per_share" else _fmt_int(ln.sign * val))
            rows[ln.key] = len(cells)
            cells.append(row)
        table = Table(id=tid, cells=cells, pre_text=pre_text, section=section)
        self.tables[name] = table
        self.rows[name] = rows
        self.cols[name] = {p: i + 1 for i, p in enumerate(self.periods)}
        return table

    def _label(self, ln: _Line) -> str:
        if ln.key == "net_income" or ln.key == "cf_net_income":
            return (
                "Net income" if all(self.v[p]["net_income"] > 0 for p in self.periods) else ln.label
            )
        profitable = all(
            self.v[p]["net_income"] > 0 and self.v[p]["pretax"] > 0 for p in self.periods
        )
        if ln.key == "operating_income":
            return (
                "Operating income" if all(self.v[p][ln.key] > 0 for p in self.periods) else ln.label
            )
        if ln.key in ("pretax", "eps_basic", "eps_diluted") and profitable:
            return ln.label.replace(" (loss)", "")
        return ln.label

    def _segment_table(self, tid: str, pre_text: str) -> Table:
        head1, head2 = [""], ["Segment"]
        for p in self.periods:
            head1 += [p, p]
            head2 += ["Amount", "% of total"]
        cells = [head1, head2]
        rows: dict[str, int] = {}
        cols: dict[str, int] = {}
        for i, p in enumerate(self.periods):
            cols[p] = 1 + 2 * i
            cols[p + "%"] = 2 + 2 * i
        for j, name in enumerate(self.segment_names):
            row = [name]
            for p in self.periods:
                amt = self.v[p]["segments"][j]
                row += [_fmt_int(amt), self._seg_pct_cell(amt, self.v[p]["revenue"])]
            rows[f"seg{j}"] = len(cells)
            cells.append(row)
        total = ["Total revenue"]
        for p in self.periods:
            total += [_fmt_int(self.v[p]["revenue"]), "100.0%"]
        rows["revenue"] = len(cells)
        cells.append(total)
        table = Table(id=tid, cells=cells, pre_text=pre_text, section="Item 7")
        self.tables["segments"], self.rows["segments"], self.cols["segments"] = table, rows, cols
        return table

    @staticmethod
    def _seg_pct_cell(amount: int, total: int) -> str:
        return f"{_round(Decimal(amount) * 100 / Decimal(total), Decimal('0.1')):.1f}%"

    def _subset_table(
        self, name: str, tid: str, keys: list[str], source: list[_Line], pre_text: str
    ) -> Table:
        lines = [ln for k in keys for ln in source if ln.key == k]
        return self._statement_table(tid, name, lines, pre_text, "Item 7")

    # -- cell references -----------------------------------------------------

    def ref(self, key: str, period: str, table: str | None = None) -> CellRef:
        """CellRef for a metric: the named table, else the first table that shows it."""
        order = (
            [table]
            if table
            else ["results", "segments", "liquidity", "income", "balance", "cashflow"]
        )
        for name in order:
            if name in self.rows and key in self.rows[name] and period in self.cols[name]:
                t = self.tables[name]
                r, c = self.rows[name][key], self.cols[name][period]
                value = self.cell_value(t, r, c)
                return CellRef(t.id, r, c, t.cells[r][0], period, value)
        raise KeyError((key, period, table))

    def cell_value(self, t: Table, r: int, c: int) -> Decimal:
        """Displayed value with the table scale applied (percent and per-share unscaled)."""
        text = t.cells[r][c]
        if text == "—":
            return Decimal(0)
        neg = text.startswith("(")
        body = text.strip("()%").replace(",", "")
        v = Decimal(body)
        if "%" not in text and "per share" not in t.cells[r][0]:
            v *= self.scale
        return -v if neg else v
