"""The XBRL US Data Quality Committee rules FinAuditing draws on.

Each rule says which published version it follows (``RULE_INFO``): its rule
element ids, effective date, the filing types and the US-GAAP taxonomy years
(rule sets) it belongs to. ``rule_scope`` decides whether a rule applies to a
filing at all; ``checks.run_checks`` reports a rule out of scope in the coverage
instead of running it. Rules this module cannot follow faithfully without the
US-GAAP taxonomy are marked ``faithful=False`` and left out of the default set.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from finprobe.xbrl.check_base import (
    CheckContext,
    Finding,
    _fmt,
    _is_current,
    check_summation,
    fact_where,
    pick_fact,
)
from finprobe.xbrl.dqc_resources import load_dqc_resources
from finprobe.xbrl.filing import Fact, Filing
from finprobe.xbrl.linkbase import (
    DIMENSION_DOMAIN,
    DOMAIN_MEMBER,
    HYPERCUBE_DIMENSION,
    SUMMATION_ARCROLES,
)

if TYPE_CHECKING:
    from finprobe.xbrl.taxonomy import TaxonomyIndex

# the SEC forms the DQC rules are written for (and their amendments, "/A")
DQC_FORMS = ("10-K", "10-Q", "20-F", "40-F", "10-KT", "10-QT")


@dataclass(frozen=True)
class DqcRuleInfo:
    version: str  # the rule version of the published document followed here
    effective: str | None  # ISO date; None while the rule is an exposure draft
    first_ruleset: int | None = None  # first US-GAAP taxonomy year whose rule set has it
    status: str = "final"


RULE_INFO: dict[str, DqcRuleInfo] = {
    "DQC_0001": DqcRuleInfo("1.0", "2017-03-28"),
    "DQC_0015": DqcRuleInfo("9", "2016-01-01"),
    "DQC_0081": DqcRuleInfo("9.0.0", "2019-09-30"),
    "DQC_0099": DqcRuleInfo("13.0.0RC1", "2021-01-01"),
    "DQC_0109": DqcRuleInfo("exposure draft 2021", None, status="exposure draft"),
    "DQC_0117": DqcRuleInfo("16.0.0RC1", "2021-12-01"),
    "DQC_0126": DqcRuleInfo("17.0.0RC1", None, status="exposure draft"),
    "DQC_0137": DqcRuleInfo("18.0.0RC1", "2022-09-01", first_ruleset=2022),
    "DQC_0145": DqcRuleInfo("20.0.0", "2023-03-31"),
}


def document_type(filing: Filing) -> str | None:
    facts = filing.facts_by_concept().get("dei:DocumentType", [])
    return facts[0].value.strip() if facts else None


def us_gaap_year(filing: Filing) -> int | None:
    """The US-GAAP taxonomy year the filing uses (from the us-gaap namespace)."""
    for uri in filing.namespaces.values():
        m = re.match(r"http://(?:xbrl\.)?fasb\.org/us-gaap/(\d{4})", uri)
        if m:
            return int(m.group(1))
    return None


def rule_scope(filing: Filing, rule: str) -> str | None:
    """Why the DQC rule does not apply to this filing (None: it applies)."""
    info = RULE_INFO.get(rule)
    if info is None:
        return None
    doc = document_type(filing)
    if doc is not None and doc.upper().removesuffix("/A") not in DQC_FORMS:
        return f"document type {doc} is not one the rule covers ({', '.join(DQC_FORMS)})"
    end = filing.period_end()
    # an exposure draft has no effective date: it runs only when asked for by name
    if end is not None and info.effective is not None and end < info.effective:
        return f"period ends {end}, before the rule's effective date {info.effective}"
    if info.first_ruleset is not None:
        year = us_gaap_year(filing)
        if year is None or year < info.first_ruleset:
            return (f"the filing uses the {year or 'unknown'} US-GAAP taxonomy; the rule is in "
                    f"the rule sets from {info.first_ruleset}")  # fmt: skip
    return None


def _info(rule: str) -> str:
    return RULE_INFO[rule].version


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
                f"{f.label(fact.concept)} has a value of {_fmt(value)} which is less than "
                f"zero. This element should not have a negative value. The properties of "
                f"this {fact.concept} fact are: Period: {ctx.period_text()}; Dimensions: "
                f"{ctx.dims_text() if ctx.has_dims else 'none'}; Unit: "
                f"{unit.text() if unit else fact.unit_id}; Rule version: {_info('DQC_0015')}.",
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

_LOCATION_AXES = {"instant": "BalanceSheetLocationAxis", "duration": "IncomeStatementLocationAxis"}
_EXT_SUFFIX = {"instant": "StatementOfFinancialPositionExtensibleList",
               "duration": "IncomeStatementExtensibleList"}  # fmt: skip
# The rule's EXT_ENUM pairs come from the US-GAAP taxonomy: a financial statement concept
# and the extensible list element that points at its line item. Packaged here: the pairs
# every taxonomy since 2019 has (the lease elements). More pairs are taken from the
# taxonomy index when given and from extensible-list elements the filing itself reports;
# a pair unknown to all three is not checked (a missed finding, never a loose one).
EXT_ENUM_PACKAGED = (
    "OperatingLeaseLiabilityCurrent", "OperatingLeaseLiabilityNoncurrent",
    "OperatingLeaseRightOfUseAsset", "FinanceLeaseLiabilityCurrent",
    "FinanceLeaseLiabilityNoncurrent", "FinanceLeaseRightOfUseAsset",
)  # fmt: skip


def ext_enum_pairs(c: CheckContext) -> dict[str, str]:
    """us-gaap local name of a statement concept -> its extensible list element."""
    pairs = {name: name + _EXT_SUFFIX["instant"] for name in EXT_ENUM_PACKAGED}
    names: set[str] = set()
    for concept in c.filing.facts_by_concept():
        if concept.startswith("us-gaap:"):
            names.add(concept.split(":", 1)[1])
    if c.taxonomy is not None:
        names |= {q.split(":")[-1] for q in c.taxonomy.core if q.startswith("us-gaap:")}
    for name in names:
        for suffix in _EXT_SUFFIX.values():
            if name.endswith(suffix) and len(name) > len(suffix):
                pairs.setdefault(name[: -len(suffix)], name)
    return pairs


def rule_dqc_0137(c: CheckContext) -> list[Finding]:
    """DQC_0137: a statement concept reported with its location axis (balance sheet axis
    for instants, income statement axis for durations) in exactly one fact, with no other
    dimension: the extensible list element should say where the item is presented."""
    f = c.filing
    pairs = ext_enum_pairs(c)
    by_concept: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in f.facts:
        prefix, _, local = fact.concept.partition(":")
        if prefix != "us-gaap" or local not in pairs or fact.is_nil:
            continue
        ctx = f.contexts.get(fact.context_id)
        if ctx is None:
            continue
        axis = _LOCATION_AXES.get(ctx.period_type)
        ext = pairs[local]
        if axis is None or not ext.endswith(_EXT_SUFFIX[ctx.period_type]):
            continue  # the axis must match the concept's statement (period type)
        dims = [d.split(":")[-1] for d in ctx.dims]
        if dims == [axis]:  # only facts with the location axis and no other dimension
            by_concept[(fact.concept, axis)].append(fact)
    out = []
    for (concept, axis), facts in sorted(by_concept.items()):
        if len(facts) != 1:
            continue
        fact = facts[0]
        ctx = f.contexts[fact.context_id]
        unit = f.units.get(fact.unit_id or "")
        period, dims = fact_where(ctx)
        ext = "us-gaap:" + pairs[concept.split(":", 1)[1]]
        out.append(
            Finding(
                "DQC_0137",
                "error",
                (concept, axis, next(iter(ctx.dims.values()))),
                (fact.context_id,),
                (fact.value,),
                f"The element {concept} with a value of {_fmt(fact.number) if fact.number is not None else fact.value} "
                f"has been used in the filing with the axis {axis}. This is the only fact "
                f"reported with this element. Rather than using the {axis} the filer should "
                f"use the extensible enumeration element to indicate the location of the item "
                f"in the financial statements. In this case the element {ext} should be used "
                f"to identify the account where the element {concept} is included. "
                f"Unit: {unit.text() if unit else fact.unit_id}; decimals: {fact.decimals_text() or 'none'}.",
                rule_version=_info("DQC_0137"),
                element_id="DQC.US.0137.9838",
                period=period,
                dimensions=dims,
                details={"ext_enum": ext},
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
                        "error" if groups is not None else "info",
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
