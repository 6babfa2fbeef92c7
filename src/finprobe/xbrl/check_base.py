"""What every filing check shares: the Finding record, severities, summation
arithmetic (XBRL 2.1, Calculations 1.1 and the DQC convention) and the fact indices.

The rules themselves live in ``calc_checks`` (calculations, duplicates, values) and
``dqc_rules`` (the XBRL US DQC rules); ``checks`` holds the registry and ``run_checks``.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING, Any

from finprobe.xbrl.filing import Context, Fact, Filing
from finprobe.xbrl.segment import classify_role, split_definition

if TYPE_CHECKING:
    from finprobe.xbrl.taxonomy import TaxonomyIndex

# "error": a genuine inconsistency an auditor must act on; "incomplete": a check that
# could not be completed (a calculation whose children are not all reported in the
# context); "info": a rule of thumb, worth a look but not a rule violation
SEVERITIES = ("info", "incomplete", "error")


def severity_rank(severity: str) -> int:
    return SEVERITIES.index(severity) if severity in SEVERITIES else 0


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: str  # one of SEVERITIES
    concepts: tuple[str, ...]
    contexts: tuple[str, ...]
    values: tuple[str, ...]
    message: str
    role: str | None = None
    rule_version: str | None = None  # the published rule version the check follows
    element_id: str | None = None  # the rule element id ("DQC.US.0137.9838")
    period: str | None = None
    dimensions: tuple[tuple[str, str], ...] = ()
    details: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict:
        return {
            "rule_id": self.rule_id, "severity": self.severity,
            "rule_version": self.rule_version, "element_id": self.element_id,
            "concepts": list(self.concepts), "contexts": list(self.contexts),
            "period": self.period, "dimensions": dict(self.dimensions),
            "values": list(self.values), "message": self.message, "role": self.role,
            "details": self.details,
        }  # fmt: skip

    def to_text(self) -> str:
        where = f" [{self.role}]" if self.role else ""
        return f"{self.rule_id} {self.severity}{where}: {self.message}"


def findings_to_json(findings: Iterable[Finding], coverage: dict | None = None,
                     not_shown: dict | None = None) -> str:  # fmt: skip
    """The findings as JSON: a list, or {"coverage", "findings"} when coverage is given,
    with "not_shown" (what a severity filter left out) when that is given."""
    rows = [f.to_dict() for f in findings]
    if coverage is None:
        return json.dumps(rows, indent=1)
    out: dict[str, Any] = {"coverage": coverage, "findings": rows}
    if not_shown is not None:
        out["not_shown"] = not_shown
    return json.dumps(out, indent=1)


def fact_where(ctx: Context | None) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """(period text, sorted dimension pairs) of a context, for a Finding."""
    if ctx is None:
        return None, ()
    return ctx.period_text(), tuple(sorted(ctx.dims.items()))


# --- summation arithmetic ------------------------------------------------------------


def round_to_decimals(value: Decimal, decimals: float | None) -> Decimal:
    """Round half-even to ``decimals`` places (negative: tens, thousands ...)."""
    if decimals is None or math.isinf(decimals):
        return value
    return value.quantize(Decimal(1).scaleb(-int(decimals)), rounding=ROUND_HALF_EVEN)


@dataclass(frozen=True)
class SummationResult:
    consistent: bool
    reported: Decimal  # the summation item as reported
    computed: Decimal  # weighted sum of the contributing items, unrounded
    compared: tuple[Decimal, Decimal]  # (reported, computed) as compared after rounding
    decimals: float | None  # the decimals used for the comparison
    mode: str


def check_summation(
    total: tuple[Decimal, float | None],
    items: Iterable[tuple[Decimal, float | None, float]],
    mode: str = "xbrl21",
) -> SummationResult:
    """Is ``total`` = sum(weight * item)?  ``total`` is (value, decimals); each item
    is (value, decimals, weight).

    Modes:
    * ``xbrl21``: XBRL 2.1 5.2.5.2. Each item is rounded to its own decimals, the
      weighted sum is rounded to the total's decimals and must equal the total
      rounded to its decimals.
    * ``min``: the DQC convention. Total and sum are both rounded to the smallest
      decimals among the total and its items.
    * ``calc11``: Calculations 1.1. Each value stands for the interval it rounds
      from; consistent when the total's interval meets the interval of the sum.
    """
    value, dec = total
    items = list(items)
    if mode == "xbrl21":
        computed = sum((_dw(w) * v for v, _, w in items), Decimal(0))
        rounded_sum = sum((_dw(w) * round_to_decimals(v, d) for v, d, w in items), Decimal(0))
        a, b = round_to_decimals(value, dec), round_to_decimals(rounded_sum, dec)
        return SummationResult(a == b, value, computed, (a, b), dec, mode)
    if mode == "min":
        decs = [d for d in [dec] + [d for _, d, _ in items] if d is not None]
        use = min(decs) if decs else None
        computed = sum((_dw(w) * v for v, _, w in items), Decimal(0))
        a, b = round_to_decimals(value, use), round_to_decimals(computed, use)
        return SummationResult(a == b, value, computed, (a, b), use, mode)
    if mode == "calc11":

        def half(d: float | None) -> Decimal:
            if d is None or math.isinf(d):
                return Decimal(0)
            return Decimal(1).scaleb(-int(d)) / 2

        lo = hi = Decimal(0)
        for v, d, w in items:
            wd = _dw(w)
            ends = (wd * (v - half(d)), wd * (v + half(d)))
            lo += min(ends)
            hi += max(ends)
        t_lo, t_hi = value - half(dec), value + half(dec)
        computed = sum((_dw(w) * v for v, _, w in items), Decimal(0))
        ok = t_lo <= hi and lo <= t_hi
        return SummationResult(ok, value, computed, (value, computed), dec, mode)
    raise ValueError(f"unknown summation mode {mode!r}")


# --- shared indices ----------------------------------------------------------------------


@dataclass
class CheckContext:
    filing: Filing
    taxonomy: TaxonomyIndex | None = None
    calc_mode: str | None = None  # None: each arcrole's own rule; "xbrl21" | "calc11"
    _numeric: dict | None = field(default=None, repr=False)
    _kinds: dict | None = field(default=None, repr=False)

    def numeric(self) -> dict[tuple[str, str, str], list[Fact]]:
        """(concept, context, unit) -> non-nil numeric facts (duplicates kept)."""
        if self._numeric is None:
            index: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
            for fact in self.filing.facts:
                if fact.unit_id is not None and not fact.is_nil and fact.number is not None:
                    index[(fact.concept, fact.context_id, fact.unit_id)].append(fact)
            self._numeric = dict(index)
        return self._numeric

    def role_kinds(self) -> dict[str, str]:
        if self._kinds is None:
            roles = set(self.filing.pres.roles()) | set(self.filing.calc.roles())
            self._kinds = {r: classify_role(self._definition(r), r) for r in roles}
        return self._kinds

    def _definition(self, role: str) -> str:
        rt = self.filing.role_types.get(role)
        return rt.definition if rt else role

    def definition(self, role: str) -> str:
        return self._definition(role)

    def is_statement(self, role: str) -> bool:
        _, category, _ = split_definition(self._definition(role))
        return category == "statement" or (not category and "statement" in role.lower())


def pick_fact(facts: list[Fact]) -> tuple[Fact | None, bool]:
    """Resolve duplicates: (the most precise fact, True) when all agree after rounding
    to the smallest decimals, else (None, False)."""
    if len(facts) == 1:
        return facts[0], True
    decs = [f.decimals for f in facts if f.decimals is not None]
    use = min(decs) if decs else None
    values = {round_to_decimals(f.number, use) for f in facts if f.number is not None}
    if len(values) > 1:
        return None, False
    best = max(facts, key=lambda f: -math.inf if f.decimals is None else f.decimals)
    return best, True


def _fmt(value: Decimal) -> str:
    if value == value.to_integral_value():
        return f"{value.quantize(Decimal(1)):,}"
    return str(value)


def _dw(weight: float) -> Decimal:
    """A weight as Decimal, without a spurious '.0' that would leak into sums."""
    return Decimal(int(weight)) if float(weight).is_integer() else Decimal(str(weight))


def _is_current(ctx: Context, period_end: str | None) -> bool:
    """Current reporting period: instants at the period end and durations ending there."""
    if period_end is None:
        return True
    return (ctx.end or "")[:10] == period_end
