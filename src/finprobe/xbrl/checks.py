"""Deterministic filing checks modelled on the XBRL US DQC rules FinAuditing uses.

Each rule is a function ``(ctx) -> list[Finding]``; ``run_checks`` runs a chosen
set. The calculation arithmetic (``check_summation``) implements the XBRL 2.1
summation-item rule, the Calculations 1.1 interval rule, and the DQC variant
that rounds everything to the smallest decimals involved.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING

from finprobe.xbrl.dqc_resources import load_dqc_resources
from finprobe.xbrl.filing import Context, Fact, Filing
from finprobe.xbrl.linkbase import (
    DIMENSION_DOMAIN,
    DOMAIN_MEMBER,
    HYPERCUBE_DIMENSION,
    SUMMATION_ARCROLES,
    SUMMATION_ITEM_CALC11,
    Arc,
)
from finprobe.xbrl.segment import classify_role, split_definition

if TYPE_CHECKING:
    from finprobe.xbrl.taxonomy import TaxonomyIndex


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: str  # "error" | "warning"
    concepts: tuple[str, ...]
    contexts: tuple[str, ...]
    values: tuple[str, ...]
    message: str
    role: str | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        for key in ("concepts", "contexts", "values"):
            d[key] = list(d[key])
        return d

    def to_text(self) -> str:
        where = f" [{self.role}]" if self.role else ""
        return f"{self.rule_id} {self.severity}{where}: {self.message}"


def findings_to_json(findings: Iterable[Finding]) -> str:
    return json.dumps([f.to_dict() for f in findings], indent=1)


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


# --- calculation rules ------------------------------------------------------------------


def _calc_findings(
    c: CheckContext,
    rule_id: str,
    roles: list[str],
    context_ok: Callable[[Context], bool],
    mode_for: Callable[[Arc], str],
) -> list[Finding]:
    f = c.filing
    numeric = c.numeric()
    out: list[Finding] = []
    by_concept: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for concept, ctx_id, unit_id in numeric:
        by_concept[concept].append((ctx_id, unit_id))
    for role in roles:
        parents: dict[str, list[Arc]] = defaultdict(list)
        for arc in f.calc.arcs_in(role, SUMMATION_ARCROLES):
            parents[arc.source].append(arc)
        for parent, arcs in parents.items():
            for ctx_id, unit_id in by_concept.get(parent, ()):
                ctx = f.contexts.get(ctx_id)
                if ctx is None or not context_ok(ctx):
                    continue
                total, ok = pick_fact(numeric[(parent, ctx_id, unit_id)])
                if not ok or total is None:
                    continue  # inconsistent duplicates: reported by XBRL.duplicates
                items = []
                skip = False
                for arc in arcs:
                    group = numeric.get((arc.target, ctx_id, unit_id))
                    if not group:
                        continue
                    item, ok = pick_fact(group)
                    if not ok or item is None:
                        skip = True
                        break
                    items.append((arc, item))
                if skip or not items:
                    continue
                mode = mode_for(arcs[0])
                res = check_summation(
                    (total.number, total.decimals),
                    [
                        (it.number, it.decimals, arc.weight if arc.weight is not None else 1.0)
                        for arc, it in items
                    ],  # fmt: skip
                    mode,
                )
                if res.consistent:
                    continue
                terms = "; ".join(
                    f"{'+' if (a.weight or 1) >= 0 else '-'}{abs(a.weight or 1):g} x "
                    f"{a.target} {_fmt(it.number)}"
                    for a, it in items
                )
                out.append(
                    Finding(
                        rule_id=rule_id,
                        severity="error",
                        concepts=(parent,) + tuple(a.target for a, _ in items),
                        contexts=(ctx_id,),
                        values=(str(total.number), str(res.computed)),
                        message=(
                            f"In {c.definition(role)}, {parent} is reported as "
                            f"{_fmt(total.number)} for {ctx.period_text()}"
                            f"{'' if not ctx.has_dims else ' (' + ctx.dims_text() + ')'} but "
                            f"its calculation children sum to {_fmt(res.computed)} "
                            f"(compared at decimals {res.decimals if res.decimals is None else int(res.decimals) if not math.isinf(res.decimals) else 'INF'}, "
                            f"{mode}): {terms}."
                        ),
                        role=role,
                    )
                )
    return out


def rule_xbrl_calc(c: CheckContext) -> list[Finding]:
    """XBRL 2.1 / Calc 1.1 calculation consistency over every role and context."""
    return _calc_findings(
        c,
        "XBRL.calc",
        c.filing.calc.roles(),
        lambda ctx: True,
        lambda arc: "calc11" if arc.arcrole == SUMMATION_ITEM_CALC11 else "xbrl21",
    )


def rule_dqc_0126(c: CheckContext) -> list[Finding]:
    """DQC_0126: statement calculations (balance sheet, income, cash flow) on
    non-dimensional facts of the current period, for statements without tables."""
    f = c.filing
    end = f.period_end()
    kinds = c.role_kinds()
    roles = []
    for role in f.calc.roles():
        if not c.is_statement(role):
            continue
        if kinds.get(role) not in ("balance_sheet", "income_statement", "cash_flow"):
            continue
        if f.defn.arcs_in(role):
            continue  # a dimensional statement: DQC_0117 covers it
        roles.append(role)
    return _calc_findings(
        c, "DQC_0126", roles, lambda ctx: not ctx.has_dims and _is_current(ctx, end),
        lambda arc: "min",
    )  # fmt: skip


def rule_duplicates(c: CheckContext) -> list[Finding]:
    """Duplicate facts (same concept, context, unit) whose values disagree."""
    out = []
    for (concept, ctx_id, unit_id), facts in c.numeric().items():
        if len(facts) > 1 and not pick_fact(facts)[1]:
            out.append(
                Finding(
                    "XBRL.duplicates",
                    "error",
                    (concept,),
                    (ctx_id,),
                    tuple(f.value for f in facts),
                    f"{concept} is reported {len(facts)} times in context {ctx_id} "
                    f"({unit_id}) with different values: "
                    + ", ".join(f.value for f in facts)
                    + ".",
                )  # fmt: skip
            )
    return out


# --- DQC_0015 negative values -------------------------------------------------------------


def rule_dqc_0015(c: CheckContext) -> list[Finding]:
    res = load_dqc_resources()
    items: dict[str, str] = res.get("dqc_0015_concepts", {})
    ex = res.get("dqc_0015_exclusions", {})
    contains = ex.get("member_contains", [])
    equals = set(ex.get("member_equals", []))
    axes = set(ex.get("axis_equals", []))
    axis_member = {tuple(x) for x in ex.get("axis_has_member", [])}
    f = c.filing
    out = []
    for fact in f.facts:
        prefix, _, local = fact.concept.partition(":")
        if prefix != "us-gaap" or local not in items:
            continue
        value = fact.number
        if value is None or value >= 0:
            continue
        ctx = f.contexts.get(fact.context_id)
        if ctx is None:
            continue
        if ctx.has_dims:
            members = [m.split(":")[-1] for _, m in ctx.explicit]
            dims = [d.split(":")[-1] for d in ctx.dims]
            if any(s in m.lower() for m in members for s in contains):
                continue
            if any(m in equals for m in members):
                continue
            if any(d in axes for d in dims):
                continue
            if any((d.split(":")[-1], m.split(":")[-1]) in axis_member for d, m in ctx.explicit):
                continue
        unit = f.units.get(fact.unit_id or "")
        out.append(
            Finding(
                f"DQC_0015.{items[local]}",
                "error",
                (fact.concept,),
                (fact.context_id,),
                (fact.value,),
                f"{f.label(fact.concept)} ({fact.concept}) has the value {_fmt(value)}, below "
                f"zero; this element should not be negative. Period {ctx.period_text()}, "
                f"dimensions {ctx.dims_text()}, unit {unit.text() if unit else fact.unit_id}.",
            )  # fmt: skip
        )
    return out


# --- DQC_0001 axis with inappropriate members ---------------------------------------------------


def _taxonomy_axis_members(tax: TaxonomyIndex | None, axis_local: str) -> set[str] | None:
    """Local names of members the taxonomy puts under the axis (None if it has none)."""
    if tax is None:
        return None
    for concept in tax.core:
        if concept.split(":")[-1] == axis_local:
            members = {m.split(":")[-1] for m in tax.def_descendants(concept)}
            return members or None
    return None


def rule_dqc_0001(c: CheckContext) -> list[Finding]:
    spec = load_dqc_resources().get("dqc_0001_axes", {})
    f = c.filing
    # (axis, member) -> facts using it; plus pairs only declared in the definition linkbase
    used: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in f.facts:
        ctx = f.contexts.get(fact.context_id)
        if ctx is not None:
            for dim, mem in ctx.explicit:
                used[(dim, mem)].append(fact)
    domains: dict[str, set[str]] = defaultdict(set)
    declared: dict[tuple[str, str], str] = {}
    for arc in f.defn.arcs:
        if arc.arcrole == DIMENSION_DOMAIN:
            domains[arc.source].add(arc.target)
    for arc in f.defn.arcs:
        if arc.arcrole == DIMENSION_DOMAIN:
            for member in {arc.target} | f.defn.descendants(
                arc.target, arc.target_role or arc.role
            ):
                declared.setdefault((arc.source, member), arc.role)
    out = []
    for axis, member in sorted(set(used) | set(declared)):
        prefix, _, axis_local = axis.partition(":")
        rule = spec.get(axis_local)
        if rule is None or f.is_extension(axis):
            continue
        member_local = member.split(":")[-1]
        if member in domains.get(axis, set()) or member_local.endswith("Domain"):
            continue  # the domain itself is always allowed
        if f.is_extension(member):
            exts = rule["extensions"]
            if "*" in exts or member_local in exts:
                continue
            why = "extension members should not be used on this axis"
        else:
            allowed = set(rule["defined_members"]) | set(rule["additional_members"])
            for members in rule["additional_axes"].values():
                allowed |= set(members)
            if member_local in allowed:
                continue
            tax_members = _taxonomy_axis_members(c.taxonomy, axis_local)
            if tax_members is not None:
                if member_local in tax_members:
                    continue
            elif "*" in rule["extensions"]:
                # the packaged list is a snapshot; without the filing's US-GAAP taxonomy a
                # standard member on an open axis cannot be judged
                continue
            why = "this member is not appropriate for this axis"
        facts = used.get((axis, member), [])
        if facts:
            fact = facts[0]
            msg = (f"The member {member} is used on {axis} with {fact.concept} "
                   f"(value {fact.value}) and {len(facts) - 1} other fact(s); {why}.")  # fmt: skip
        else:
            msg = (f"The member {member} is on {axis} in the definition linkbase "
                   f"({c.definition(declared[(axis, member)])}) with no facts; {why}.")  # fmt: skip
        out.append(
            Finding(
                "DQC_0001",
                "error",
                (axis, member) + tuple(dict.fromkeys(x.concept for x in facts[:5])),
                tuple(dict.fromkeys(x.context_id for x in facts[:5])),
                tuple(x.value for x in facts[:5]),
                msg,
            )  # fmt: skip
        )
    return out


# --- DQC_0099 statement items without calculations ----------------------------------------------

_0099_EXCLUDED_ROLE_WORDS = ("parenthetical", "equity", "deficit", "stockholders", "capital",
                             "investments", "changes", "shareholder", "convertible", "preferred",
                             "temporary equity", "redeemable")  # fmt: skip
_0099_CF_ABSTRACTS = ("SupplementalCashFlowInformationAbstract", "SupplementalCashFlowElementsAbstract",
                      "OtherNoncashInvestingAndFinancingItemsAbstract",
                      "CashFlowNoncashInvestingAndFinancingActivitiesDisclosureAbstract",
                      "NoncashInvestingAndFinancingItemsAbstract",
                      "AdditionalCashFlowElementsAndSupplementalCashFlowInformationAbstract",
                      "NonCashOperatingAndFinancingActivitiesAbstract",
                      "NonCashOperatingAndInvestingActivitiesAbstract",
                      "NoncashFinancingItemsAbstract", "NoncashInvestingItemsAbstract")  # fmt: skip
_0099_CF_CONCEPTS = ("EffectOfExchangeRateOnCashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
                     "EffectOfExchangeRateOnCashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsIncludingDisposalGroupAndDiscontinuedOperations",
                     "EffectOfExchangeRateOnCash", "EffectOfExchangeRateOnCashAndCashEquivalents")  # fmt: skip
_0099_IS_CONCEPTS = ("ComprehensiveIncomeNetOfTaxIncludingPortionAttributableToNoncontrollingInterest",
                     "ComprehensiveIncomeNetOfTax", "AllocatedShareBasedCompensationExpense",
                     "NetIncomeLossAvailableToCommonStockholdersBasic",
                     "NetIncomeLossAvailableToCommonStockholdersDiluted", "PremiumsWrittenGross")  # fmt: skip
_0099_IS_ABSTRACTS = ("ShareBasedCompensationAllocationAndClassificationInFinancialStatementsAbstract",
                      "SupplementalIncomeStatementElementsAbstract")  # fmt: skip


def _monetary_concepts(c: CheckContext) -> tuple[set[str], set[str]]:
    """(concepts with currency facts, those among them whose facts are instants)."""
    f = c.filing
    monetary: set[str] = set()
    instants: set[str] = set()
    for fact in f.facts:
        unit = f.units.get(fact.unit_id or "")
        if unit is not None and unit.is_currency:
            monetary.add(fact.concept)
            ctx = f.contexts.get(fact.context_id)
            if ctx is not None and ctx.period_type == "instant":
                instants.add(fact.concept)
    for concept in f.concepts.values():
        if concept.type and concept.type.endswith("monetaryItemType"):
            monetary.add(concept.qname)
            if concept.period_type == "instant":
                instants.add(concept.qname)
    return monetary, instants


def rule_dqc_0099(c: CheckContext) -> list[Finding]:
    f = c.filing
    monetary, instants = _monetary_concepts(c)
    in_calc = f.calc.concepts()
    kinds = c.role_kinds()
    out = []
    for role in f.pres.roles():
        kind = kinds.get(role)
        if not c.is_statement(role) or kind not in ("balance_sheet", "income_statement",
                                                    "cash_flow", "comprehensive_income"):  # fmt: skip
            continue
        if any(w in c.definition(role).lower() for w in _0099_EXCLUDED_ROLE_WORDS):
            continue
        concepts = f.pres.concepts(role)
        excluded: set[str] = set()
        abstracts = _0099_CF_ABSTRACTS if kind == "cash_flow" else _0099_IS_ABSTRACTS
        for concept in concepts:
            if concept.split(":")[-1] in abstracts:
                excluded |= f.pres.descendants(concept, role)
        missing = []
        for concept in sorted(concepts - excluded):
            local = concept.split(":")[-1]
            if concept not in monetary or concept in in_calc:
                continue
            if kind == "cash_flow" and (concept in instants or local in _0099_CF_CONCEPTS):
                continue
            if kind in ("income_statement", "comprehensive_income") and local in _0099_IS_CONCEPTS:
                continue
            if kind == "balance_sheet" and local == "CommitmentsAndContingencies":
                continue
            missing.append(concept)
        if missing:
            out.append(
                Finding(
                    "DQC_0099",
                    "error",
                    tuple(missing),
                    (),
                    (),
                    f"These monetary elements are in the presentation of "
                    f"{c.definition(role)} but in no calculation relationship anywhere in "
                    f"the filing: {', '.join(missing)}.",
                    role,
                )  # fmt: skip
            )
    return out


# --- DQC_0109 concentration risk ---------------------------------------------------------------


def rule_dqc_0109(c: CheckContext) -> list[Finding]:
    f = c.filing
    out = []
    for fact in f.facts:
        if fact.concept.split(":")[-1] != "ConcentrationRiskPercentage1" or fact.number is None:
            continue
        ctx = f.contexts.get(fact.context_id)
        if ctx is None:
            continue
        axes = {d.split(":")[-1] for d in ctx.dims}
        bench = "ConcentrationRiskByBenchmarkAxis" in axes
        typ = "ConcentrationRiskByTypeAxis" in axes
        one = fact.number == 1
        part = None
        if not axes and not one:
            part = ("9565", "is reported without dimensions and is not 1")
        elif axes and not bench and not typ and not one:
            part = ("9566", "lacks both the benchmark and the risk-type axes")
        elif typ and not bench:
            part = ("9567", "has the risk-type axis but not the benchmark axis")
        elif bench and not typ:
            part = ("9568", "has the benchmark axis but not the risk-type axis")
        elif bench and typ and len(axes) == 2 and not one:
            part = ("9569", "has only the benchmark and risk-type axes; a third axis should say "
                            "what the risk is concentrated in")  # fmt: skip
        if part:
            out.append(
                Finding(
                    f"DQC_0109.{part[0]}",
                    "error",
                    (fact.concept,),
                    (fact.context_id,),
                    (fact.value,),
                    f"ConcentrationRiskPercentage1 = {fact.value} "
                    f"({ctx.period_text()}, {ctx.dims_text()}) {part[1]}.",
                )  # fmt: skip
            )
    return out


# --- DQC_0117 dimensional cross check on statement tables --------------------------------------

_0117_AXES = ("StatementClassOfStockAxis", "ProductOrServiceAxis",
              "PropertyPlantAndEquipmentByTypeAxis", "LongtermDebtTypeAxis",
              "RelatedPartyTransactionsByRelatedPartyAxis", "StatementBusinessSegmentsAxis",
              "FinancialInstrumentAxis", "LimitedPartnersCapitalAccountByClassAxis",
              "PartnerTypeOfPartnersCapitalAccountAxis",
              "FiniteLivedIntangibleAssetsByMajorClassAxis",
              "InformationByCategoryOfDebtSecurityAxis")  # fmt: skip


def rule_dqc_0117(c: CheckContext) -> list[Finding]:
    f = c.filing
    numeric = c.numeric()
    kinds = c.role_kinds()
    end = f.period_end()
    out = []
    from finprobe.xbrl.linkbase import dimensional_arcs

    for role in f.pres.roles():
        if kinds.get(role) not in ("balance_sheet", "income_statement", "cash_flow"):
            continue
        if not c.is_statement(role):
            continue
        darcs = dimensional_arcs(f.defn, role)
        axes = [a.target for a in darcs if a.arcrole == HYPERCUBE_DIMENSION
                and a.target.split(":")[-1] in _0117_AXES]  # fmt: skip
        if not axes:
            continue
        line_items = f.pres.concepts(role)
        for axis in axes:
            # top-level members: children of the axis's domain
            top: set[str] = set()
            for a in darcs:
                if a.arcrole == DIMENSION_DOMAIN and a.source == axis:
                    top |= {x.target for x in darcs
                            if x.arcrole == DOMAIN_MEMBER and x.source == a.target}  # fmt: skip
            if not top:
                continue
            # group member facts by (concept, period, unit); context has only this axis
            sums: dict[tuple, list[Fact]] = defaultdict(list)
            for (concept, ctx_id, unit_id), facts in numeric.items():
                if concept not in line_items:
                    continue
                ctx = f.contexts.get(ctx_id, None)
                if ctx is None or len(ctx.explicit) != 1 or ctx.typed:
                    continue
                dim, mem = ctx.explicit[0]
                if dim != axis or mem not in top:
                    continue
                if ctx.period_type == "duration" and not _is_current(ctx, end):
                    continue
                fact, ok = pick_fact(facts)
                if ok and fact is not None:
                    sums[(concept, ctx.period_key, unit_id)].append(fact)
            defaults: dict[tuple, tuple[str, Fact]] = {}
            for (concept, ctx_id, unit_id), facts in numeric.items():
                ctx = f.contexts.get(ctx_id)
                if ctx is None or ctx.has_dims:
                    continue
                fact, ok = pick_fact(facts)
                if ok and fact is not None:
                    defaults[(concept, ctx.period_key, unit_id)] = (ctx_id, fact)
            for key, members in sums.items():
                if key not in defaults:
                    continue
                ctx_id, total = defaults[key]
                res = check_summation((total.number, total.decimals),
                                      [(m.number, m.decimals, 1.0) for m in members], "min")  # fmt: skip
                if res.consistent:
                    continue
                local = key[0].split(":")[-1]
                if (
                    local.startswith("RevenueFromContractWithCustomer")
                    and total.number > res.computed
                ):
                    continue  # FASB revenue guidance exception
                out.append(
                    Finding(
                        "DQC_0117",
                        "error",
                        (key[0], axis),
                        (ctx_id,) + tuple(m.context_id for m in members),
                        (str(total.number), str(res.computed)),
                        f"In {c.definition(role)}, {key[0]} is {_fmt(total.number)} "
                        f"but its {len(members)} member value(s) on {axis} add to "
                        f"{_fmt(res.computed)}.",
                        role,
                    )  # fmt: skip
                )
    return out


# --- DQC_0137 location axis with a single member -------------------------------------------------


def rule_dqc_0137(c: CheckContext) -> list[Finding]:
    f = c.filing
    members: dict[tuple[str, str], set[str]] = defaultdict(set)
    first: dict[tuple[str, str], Fact] = {}
    for fact in f.facts:
        ctx = f.contexts.get(fact.context_id)
        if ctx is None or fact.is_nil:
            continue
        for dim, mem in ctx.explicit:
            if dim.split(":")[-1] in ("BalanceSheetLocationAxis", "IncomeStatementLocationAxis"):
                members[(fact.concept, dim)].add(mem)
                first.setdefault((fact.concept, dim), fact)
    out = []
    for (concept, axis), mems in sorted(members.items()):
        if len(mems) != 1 or f.is_extension(concept):
            continue  # extension concepts have no US-GAAP extensible-list counterpart
        fact = first[(concept, axis)]
        kind = "StatementOfFinancialPosition" if "BalanceSheet" in axis else "IncomeStatement"
        out.append(
            Finding(
                "DQC_0137",
                "error",
                (concept, axis, next(iter(mems))),
                (fact.context_id,),
                (fact.value,),
                f"{concept} is used with {axis} and a single member ({next(iter(mems))}); "
                f"use the extensible enumeration element {concept}{kind}ExtensibleList "
                f"to point at the line item instead.",
            )  # fmt: skip
        )
    return out


# --- DQC_0145 cash flow presentation ----------------------------------------------------------------

# Name patterns used when no taxonomy is given: a coarse stand-in for the US-GAAP
# presentation groups the rule compares against.
_CF_PATTERNS = {
    "investing": ("PaymentsToAcquire", "ProceedsFromSaleOf", "ProceedsFromMaturities",
                  "PaymentsForProceedsFromInvestments", "PaymentsForProceedsFromOtherInvestments",
                  "ProceedsFromSaleMaturityAndCollectionsOfInvestments"),
    "financing": ("ProceedsFromIssuanceOf", "RepaymentsOf", "PaymentsOfDividends",
                  "PaymentsForRepurchaseOf", "ProceedsFromRepaymentsOf", "PaymentsOfFinancingCosts",
                  "PaymentsRelatedToTaxWithholdingForShareBasedCompensation"),
    "operating": ("IncreaseDecreaseIn",),
}  # fmt: skip
_CF_SECTIONS = {
    "financing": ("NetCashProvidedByUsedInFinancingActivitiesAbstract",
                  "NetCashProvidedByUsedInFinancingActivitiesContinuingOperationsAbstract"),
    "investing": ("NetCashProvidedByUsedInInvestingActivitiesAbstract",
                  "NetCashProvidedByUsedInInvestingActivitiesContinuingOperationsAbstract"),
}  # fmt: skip


def _taxonomy_group(tax: TaxonomyIndex, abstracts: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for name in abstracts:
        out |= {x.split(":")[-1] for x in tax.pres_descendants(f"us-gaap:{name}")}
    return out


def rule_dqc_0145(c: CheckContext) -> list[Finding]:
    f = c.filing
    tax = c.taxonomy
    groups: dict[str, set[str]] | None = None
    if tax is not None:
        groups = {
            "operating": _taxonomy_group(tax, ("NetCashProvidedByUsedInOperatingActivitiesAbstract",)),
            "investing": _taxonomy_group(tax, _CF_SECTIONS["investing"]),
            "financing": _taxonomy_group(tax, _CF_SECTIONS["financing"]),
            "working_capital": _taxonomy_group(tax, ("IncreaseDecreaseInOperatingCapitalAbstract",)),
        }  # fmt: skip
        if not any(groups.values()):
            groups = None  # the taxonomy given has no US-GAAP cash flow tree (e.g. SRT only)

    def wrong(local: str, section: str) -> bool:
        if groups is not None:
            others = {"financing": ("investing", "operating"),
                      "investing": ("financing", "operating"),
                      "income": ("working_capital",)}[section]  # fmt: skip
            return any(local in groups[o] for o in others)
        others = {"financing": ("investing", "operating"), "investing": ("financing", "operating"),
                  "income": ("operating",)}[section]  # fmt: skip
        return any(local.startswith(p) for o in others for p in _CF_PATTERNS[o])

    out = []
    seen: set[tuple[str, str]] = set()
    for role in f.pres.roles():
        for concept in f.pres.concepts(role):
            local = concept.split(":")[-1]
            if local in _CF_SECTIONS["financing"]:
                section, rid = "financing", "DQC_0145.9867"
            elif local in _CF_SECTIONS["investing"]:
                section, rid = "investing", "DQC_0145.9868"
            elif local == "IncomeStatementAbstract":
                section, rid = "income", "DQC_0145.9869"
            else:
                continue
            for d in sorted(f.pres.descendants(concept, role)):
                dl = d.split(":")[-1]
                if d.split(":")[0] != "us-gaap" or not wrong(dl, section):
                    continue
                if (d, local) in seen:
                    continue
                seen.add((d, local))
                out.append(
                    Finding(
                        rid,
                        "error" if groups is not None else "warning",
                        (d, concept),
                        (),
                        (),
                        f"{d} is presented under {concept} in {c.definition(role)}; it does "
                        f"not belong to that group"
                        f"{'' if groups is not None else ' (name-pattern heuristic)'}.",
                        role,
                    )  # fmt: skip
                )
    return out


# --- DQC_0081 sibling and child relationships (needs the taxonomy) -------------------------------


def rule_dqc_0081(c: CheckContext) -> list[Finding]:
    tax = c.taxonomy
    if tax is None:
        return []
    f = c.filing
    res = load_dqc_resources()
    demotable = {tuple(x) for x in res.get("dqc_0081_siblings_demotable_to_child", [])}
    promotable = {tuple(x) for x in res.get("dqc_0081_child_elements_promotable_to_sibling", [])}
    numeric = c.numeric()
    plain: dict[str, Fact] = {}
    for (concept, ctx_id, _), facts in numeric.items():
        ctx = f.contexts.get(ctx_id)
        if ctx is not None and not ctx.has_dims and concept not in plain:
            plain[concept] = facts[0]
    kinds = c.role_kinds()
    out = []
    for role in f.calc.roles():
        if not c.is_statement(role) or kinds.get(role) not in ("balance_sheet", "income_statement",
                                                               "cash_flow", "comprehensive_income"):  # fmt: skip
            continue
        arcs = f.calc.arcs_in(role, SUMMATION_ARCROLES)
        for arc in arcs:
            parent, child = arc.source, arc.target
            if parent not in plain or child not in plain or plain[child].number == 0:
                continue
            if not tax.has(parent) or not tax.has(child):
                continue
            if child in tax.calc_descendants(parent):
                continue
            siblings: set[str] = set()
            for gp in tax.calc_parents(parent):
                for s in tax.calc_children(gp):
                    if s != parent:
                        siblings |= {s} | tax.calc_descendants(s)
            if child not in siblings:
                continue
            pl, cl = parent.split(":")[-1], child.split(":")[-1]
            allowed = any((pl, s) in demotable and (s == cl or child in
                          tax.calc_descendants(f"us-gaap:{s}")) for _, s in
                          [(p, s) for p, s in demotable if p == pl])  # fmt: skip
            if allowed:
                continue
            out.append(
                Finding(
                    "DQC_0081.9277",
                    "error",
                    (child, parent),
                    (plain[child].context_id,),
                    (plain[child].value, plain[parent].value),
                    f"{child} ({plain[child].value}) is a calculation child of {parent} "
                    f"({plain[parent].value}) in {c.definition(role)}, but the taxonomy has "
                    f"it as a sibling (or a sibling's descendant) of {parent}.",
                    role,
                )  # fmt: skip
            )
        # inappropriate siblings: a child of P in the filing that the taxonomy puts under a
        # sibling
        children_of: dict[str, list[str]] = defaultdict(list)
        for arc in arcs:
            children_of[arc.source].append(arc.target)
        for parent, kids in children_of.items():
            for focus in kids:
                if focus not in plain or not tax.has(focus):
                    continue
                below = tax.calc_descendants(focus)
                for sib in kids:
                    if sib == focus or sib not in below or sib not in plain:
                        continue
                    if plain[sib].number == 0:
                        continue
                    fl, sl = focus.split(":")[-1], sib.split(":")[-1]
                    if any(p == fl and (s == sl or sib in tax.calc_descendants(f"us-gaap:{s}"))
                           for p, s in promotable):  # fmt: skip
                        continue
                    out.append(
                        Finding(
                            "DQC_0081.9278",
                            "error",
                            (sib, focus, parent),
                            (plain[sib].context_id,),
                            (plain[sib].value, plain[focus].value),
                            f"{sib} ({plain[sib].value}) is a sibling of {focus} under "
                            f"{parent} in {c.definition(role)}, but the taxonomy has it as "
                            f"a descendant of {focus}.",
                            role,
                        )  # fmt: skip
                    )
    return out


# --- registry ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    id: str
    func: Callable[[CheckContext], list[Finding]]
    description: str
    needs_taxonomy: bool = False


RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        Rule("XBRL.calc", rule_xbrl_calc, "XBRL 2.1 / Calc 1.1 summation consistency, all contexts"),
        Rule("XBRL.duplicates", rule_duplicates, "inconsistent duplicate facts"),
        Rule("DQC_0001", rule_dqc_0001, "axis with inappropriate members"),
        Rule("DQC_0015", rule_dqc_0015, "negative values of non-negative elements"),
        Rule("DQC_0081", rule_dqc_0081, "sibling/child calculation relations vs the taxonomy", True),
        Rule("DQC_0099", rule_dqc_0099, "statement items with no calculation"),
        Rule("DQC_0109", rule_dqc_0109, "concentration risk dimensions"),
        Rule("DQC_0117", rule_dqc_0117, "statement table dimensional cross check"),
        Rule("DQC_0126", rule_dqc_0126, "statement calculations, non-dimensional, current period"),
        Rule("DQC_0137", rule_dqc_0137, "location axis with a single member"),
        Rule("DQC_0145", rule_dqc_0145, "cash flow presentation groups"),
    )
}  # fmt: skip


def run_checks(
    filing: Filing, rules: Iterable[str] | None = None, taxonomy: TaxonomyIndex | None = None
) -> list[Finding]:
    """Run the named rules (all by default; prefix match, e.g. 'DQC_0015')."""
    chosen: list[Rule] = []
    if rules is None:
        chosen = list(RULES.values())
    else:
        for name in rules:
            hits = [r for rid, r in RULES.items() if rid.lower() == name.lower()]
            if not hits:
                raise ValueError(f"unknown rule {name!r}; known: {', '.join(RULES)}")
            chosen += hits
    ctx = CheckContext(filing, taxonomy)
    out: list[Finding] = []
    for rule in chosen:
        out.extend(rule.func(ctx))
    return out
