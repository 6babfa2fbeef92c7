"""Build FinAuditing instances (FinSM, FinRE, FinMR) from XBRL filings.

Three routes, one row format (the published columns plus structure, see dataset.py):

(a) ``instances_from_messages``: DQC messages about a filing, as the paper does.
    Either the text the XBRL US portal publishes (parsed here) or the findings
    ``finprobe check --json`` writes. Rule -> task as in the paper: DQC_0081 ->
    FinRE Reversal, DQC_0001 -> FinRE CombinationErr, DQC_0145 -> FinRE
    Inappropriateness, DQC_0126 / XBRL.calc -> FinMR, the semantic rules
    (DQC_0099, DQC_0109, DQC_0137) -> FinSM.
(b) ``instances_from_filing``: any filing, with errors injected by
    ``finprobe.xbrl.inject`` and the clean original as ground truth.
(c) ``synthetic_dataset``: synthetic reports exported as XBRL
    (``finprobe.xbrl.synth_export``) and then route (b); the default data.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finprobe.benchmarks.finauditing.prompts import (
    finmr_prompt,
    finmr_questions,
    finre_prompt,
    finsm_prompt,
)
from finprobe.benchmarks.finauditing.scorer import FINRE_LABELS
from finprobe.errors import InputError
from finprobe.numbers import plain_decimal
from finprobe.xbrl import inject
from finprobe.xbrl.check_base import CheckContext
from finprobe.xbrl.checks import pick_fact
from finprobe.xbrl.filing import Filing, load_filing
from finprobe.xbrl.linkbase import SUMMATION_ARCROLES
from finprobe.xbrl.segment import STATEMENT_KINDS, SubFiling, classify_role, segment_filing

if TYPE_CHECKING:
    from finprobe.xbrl.taxonomy import TaxonomyIndex

BUILDER_VERSION = "finauditing-build-3"
DQC_TO_RELATION = {"DQC_0081": "Reversal", "DQC_0001": "CombinationErr",
                   "DQC_0145": "Inappropriateness"}  # fmt: skip
CALC_RULES = ("DQC_0126", "XBRL.calc")
SEMANTIC_RULES = ("DQC_0099", "DQC_0109", "DQC_0137")
# near but inappropriate US-GAAP concepts: the mis-tags FinSM instances inject. Only
# swaps an analyst would call wrong whatever the filer's business: no narrower or broader
# concept that can be right for some filers (CostOfRevenue <-> CostOfServices or
# CostOfGoodsAndServicesSold, ...ExcludingAcquiredInProcessCost, ...Trade payables,
# ...ContinuingOperations totals and EPS, BasicAndDiluted EPS, PaymentsOfDividendsCommonStock,
# Revenues <-> RevenueFromContractWithCustomer..., InterestExpenseDebt, LongTermLineOfCredit).
NEAR_CONCEPTS: dict[str, tuple[str, ...]] = {
    "CashAndCashEquivalentsAtCarryingValue": ("Cash", "CashEquivalentsAtCarryingValue"),
    "AccountsReceivableNetCurrent": ("AccountsReceivableGrossCurrent", "OtherReceivablesNetCurrent"),
    "InventoryNet": ("InventoryGross",),
    "PropertyPlantAndEquipmentNet": ("PropertyPlantAndEquipmentGross",),
    "Goodwill": ("IntangibleAssetsNetExcludingGoodwill",),
    "AccountsPayableCurrent": ("AccountsPayableRelatedPartiesCurrent",),
    "AccruedLiabilitiesCurrent": ("EmployeeRelatedLiabilitiesCurrent",),
    "LongTermDebtNoncurrent": ("LongTermDebtCurrent",),
    "Revenues": ("OtherIncome",),
    "SellingGeneralAndAdministrativeExpense": ("GeneralAndAdministrativeExpense", "SellingAndMarketingExpense"),
    "OperatingIncomeLoss": ("IncomeLossFromContinuingOperations",),
    "NetIncomeLoss": ("ProfitLoss", "ComprehensiveIncomeNetOfTax"),
    "IncomeTaxExpenseBenefit": ("IncomeTaxesPaid", "CurrentIncomeTaxExpenseBenefit"),
    "InterestExpense": ("InterestPaidNet",),
    "AssetsCurrent": ("OtherAssetsCurrent",),
    "LiabilitiesCurrent": ("OtherLiabilitiesCurrent",),
    "StockholdersEquity": ("StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",),
    "RetainedEarningsAccumulatedDeficit": ("AccumulatedOtherComprehensiveIncomeLossNetOfTax",),
    "DepreciationDepletionAndAmortization": ("Depreciation", "AmortizationOfIntangibleAssets"),
    "PaymentsToAcquirePropertyPlantAndEquipment": ("PaymentsToAcquireBusinessesNetOfCashAcquired",),
    "PaymentsOfDividends": ("DividendsCommonStockCash",),
    "PaymentsForRepurchaseOfCommonStock": ("StockRepurchasedDuringPeriodValue",),
    "EarningsPerShareBasic": ("EarningsPerShareDiluted",),
    "EarningsPerShareDiluted": ("EarningsPerShareBasic",),
    "OtherAssetsNoncurrent": ("OtherAssets",),
    "OtherLiabilitiesNoncurrent": ("OtherLiabilities",),
    "IncreaseDecreaseInInventories": ("InventoryWriteDown",),
}  # fmt: skip
# totals including noncontrolling interests: a mis-tag only for a filer that has some
# (without any, equity or profit "including NCI" equals the parent's and is defensible)
NCI_INCLUSIVE = {
    "ProfitLoss",
    "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
}
_NCI_FACTS = ("MinorityInterest", "NetIncomeLossAttributableToNoncontrollingInterest",
              "ComprehensiveIncomeNetOfTaxAttributableToNoncontrollingInterest")  # fmt: skip


# --------------------------------------------------------------------------- sub-filings


def subfiling_context(sub: SubFiling) -> dict[str, Any]:
    """The sub-filing as plain JSON: what the non-LLM baselines read."""
    f = sub.filing
    facts = []
    for fact in sub.facts:
        ctx = sub.contexts.get(fact.context_id)
        unit = f.units.get(fact.unit_id) if fact.unit_id else None
        if fact.unit_id is None:
            continue  # text blocks carry no numbers the baselines use
        facts.append({
            "concept": fact.concept,
            "label": f.label(fact.concept),
            "context": fact.context_id,
            "period": ctx.period_text() if ctx else "",
            "dims": dict(ctx.explicit) if ctx else {},
            "value": None if fact.is_nil else fact.value,
            "unit": unit.text() if unit else fact.unit_id,
            "decimals": fact.decimals_text(),
        })  # fmt: skip
    return {
        "role": sub.role,
        "definition": sub.definition,
        "kind": sub.kind,
        "facts": facts,
        "calc": [
            [a.source, a.target, 1.0 if a.weight is None else a.weight] for a in sub.calc_arcs
        ],  # fmt: skip
        "defn": [[a.arcrole.rsplit("/", 1)[-1], a.source, a.target] for a in sub.def_arcs],
        "pres": [[depth, concept, f.label(concept)] for depth, concept, _ in sub.tree],
    }


def subfilings_by_role(filing: Filing, kinds: set[str] | None = None) -> dict[str, SubFiling]:
    return {sub.role: sub for sub in segment_filing(filing, kinds)}


def subfiling_for(filing: Filing, role: str) -> SubFiling | None:
    # segment only roles of the same kind: a whole-filing pass costs ~10x more
    rt = filing.role_types.get(role)
    kind = classify_role(rt.definition if rt else role, role)
    for sub in segment_filing(filing, {kind}):
        if sub.role == role:
            return sub
    return None


def taxonomy_chunks(
    concepts: Iterable[str], index: TaxonomyIndex | None, limit: int = 8
) -> list[str]:
    """Core and calculation chunks of the concepts an instance is about."""
    if index is None:
        return []
    out: list[str] = []
    for concept in dict.fromkeys(concepts):
        core = index.core.get(concept)
        if core is not None:
            out.append(core.get("text") or concept)
        calc = index.relations.get(concept, {}).get("calc")
        if calc is not None:
            out.append(calc.get("text", ""))
        if len(out) >= limit:
            break
    return [c for c in out[:limit] if c]


def _row_id(*parts: Any) -> str:
    return hashlib.sha1("|".join(str(p) for p in parts).encode()).hexdigest()[:12]


def _fact_value(filing: Filing, concept: str, ctx_id: str, unit_id: str | None) -> Decimal | None:
    facts = [f for f in filing.facts_by_concept().get(concept, [])
             if f.context_id == ctx_id and f.unit_id == unit_id and f.number is not None]  # fmt: skip
    if not facts:
        return None
    fact, ok = pick_fact(facts)
    return fact.number if ok and fact is not None else None


def children_sum(filing: Filing, role: str, parent: str, ctx_id: str,
                 require_all: bool = True) -> Decimal | None:  # fmt: skip
    """Weighted sum of the parent's calculation children reported in the context.

    ``require_all``: None unless every child is reported there. A child with no fact
    is not zero: counting it as zero makes a "should be" value that is simply wrong.
    """
    parents = [f for f in filing.facts_by_concept().get(parent, []) if f.context_id == ctx_id]
    unit_id = parents[0].unit_id if parents else None
    total = Decimal(0)
    found = 0
    for arc in filing.calc.children(parent, role, SUMMATION_ARCROLES):
        value = _fact_value(filing, arc.target, ctx_id, unit_id)
        if value is None:
            if require_all:
                return None
            continue
        weight = 1.0 if arc.weight is None else arc.weight
        w = Decimal(int(weight)) if float(weight).is_integer() else Decimal(str(weight))
        total += w * value
        found += 1
    return total if found else None


# --------------------------------------------------------------------------- rows


def finmr_row(filing: Filing, name: str, sub: SubFiling, concept: str, ctx_id: str,
              extracted: Decimal, calculated: Decimal, method: str, dqc_id: str,
              taxonomy: TaxonomyIndex | None, truth: dict | None = None) -> dict[str, Any]:  # fmt: skip
    ctx = filing.contexts[ctx_id]
    q1, q2 = finmr_questions(concept, filing.label(concept), ctx.period_text(), ctx.dims_text())
    chunks = taxonomy_chunks([concept] + [a.target for a in filing.calc.children(concept, sub.role)],
                             taxonomy)  # fmt: skip
    answer = {
        "extracted_value": plain_decimal(extracted),
        "calculated_value": plain_decimal(calculated),
    }
    return {
        "id": f"finmr-{name}-{_row_id(method, sub.role, concept, ctx_id, extracted)}",
        "subtask": "finmr",
        "query": finmr_prompt(q1, q2, sub.to_text(), chunks),
        "dqc_id": dqc_id,
        "answer": json.dumps(answer),
        "method": method,
        "filing": name,
        "role": sub.role,
        "definition": sub.definition,
        "concept": concept,
        "period": ctx.period_text(),
        "question_1": q1,
        "question_2": q2,
        "context": subfiling_context(sub),
        "truth": truth,
    }


def finre_row(name: str, sub: SubFiling, elements: Sequence[str], label: str, method: str,
              dqc_id: str, taxonomy: TaxonomyIndex | None, truth: dict | None = None) -> dict[str, Any]:  # fmt: skip
    choices = list(FINRE_LABELS)
    return {
        "id": f"finre-{name}-{_row_id(method, sub.role, *elements, label)}",
        "subtask": "finre",
        "query": finre_prompt(
            elements, sub.to_text(), taxonomy_chunks(elements, taxonomy), choices
        ),
        "dqc_id": dqc_id,
        "answer": label,
        "choices": choices,
        "gold": choices.index(label),
        "method": method,
        "filing": name,
        "role": sub.role,
        "definition": sub.definition,
        "elements": list(elements),
        "context": subfiling_context(sub),
        "truth": truth,
    }


_WORD = re.compile(r"[a-z0-9]+")
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_TERM_STOP = {"and", "of", "the", "for", "in", "to", "net", "total", "a", "an", "or",
              "abstract", "line", "items", "table"}  # fmt: skip


def _term_tokens(text: str) -> set[str]:
    words = _WORD.findall(_CAMEL_HUMP.sub(" ", text).lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words} - _TERM_STOP


def _heading(label: str) -> str:
    """A presentation heading as a term: 'Current assets:' -> 'Current assets'."""
    return re.sub(r"\s*\[(Abstract|Line Items|Table)\]\s*$", "", label).strip().rstrip(":").strip()


def finsm_area(sub: SubFiling, concepts: Sequence[str], avoid: Sequence[str] = ()) -> str:
    """The financial area a FinSM query names: the nearest presentation heading above
    the mis-tagged items that shares no word with their labels or concept names (so
    matching the query against labels cannot find them), else the statement itself.

    The paper's query describes a financial term; it need not be the mis-tagged
    facts' own label, and naming that label gave the answer away to string matching.
    """
    f = sub.filing
    words: set[str] = set()
    for concept in list(concepts) + list(avoid):
        words |= _term_tokens(f.label(concept)) | _term_tokens(concept.rsplit(":", 1)[-1])
    headings: list[str] = []
    for concept in concepts:
        idx = next((i for i, (_, c, _) in enumerate(sub.tree) if c == concept), None)
        if idx is None:
            return _statement_area(sub)
        depth = sub.tree[idx][0]
        found = None
        for d, c, _ in reversed(sub.tree[:idx]):
            if d >= depth:
                continue
            depth = d
            label = f.label(c)
            if re.search(r"\[(Line Items|Table)\]", label) or d == 0:
                break  # the statement's own root: no narrower heading fits
            head = _heading(label)
            if head and not (_term_tokens(head) & words):
                found = head
                break
        if found is None:
            return _statement_area(sub)
        headings.append(found)
    return "; ".join(dict.fromkeys(headings))


def _statement_area(sub: SubFiling) -> str:
    return f"{sub.kind.replace('_', ' ')} line items"


def finsm_row(name: str, sub: SubFiling, term: str, gold: Sequence[str], method: str,
              dqc_id: str, taxonomy: TaxonomyIndex | None, truth: dict | None = None) -> dict[str, Any]:  # fmt: skip
    """``term``: the financial area to look in (``finsm_area``), never the mis-tagged
    facts' own label."""
    where = term if term.endswith("line items") else f"the items under {term}"
    query = (f"In {sub.definition}, find the US-GAAP tags that do not fit the financial "
             f"term they report; look among {where}.")  # fmt: skip
    chunks = []
    if taxonomy is not None:
        chunks = [hit["text"] for hit, _ in taxonomy.search(term, 5) if hit.get("text")]
    return {
        "id": f"finsm-{name}-{_row_id(method, sub.role, *gold)}",
        "subtask": "finsm",
        "query": finsm_prompt(query, sub.to_text(), chunks),
        "dqc_id": dqc_id,
        "answer": list(gold),
        "method": method,
        "filing": name,
        "role": sub.role,
        "definition": sub.definition,
        "term": term,
        "context": subfiling_context(sub),
        "truth": truth,
    }


# --------------------------------------------------------------------------- (b) injection


@dataclass
class BuildCounts:
    finsm: int = 0
    finre: int = 0
    finmr: int = 0

    def add(self, rows: dict[str, list]) -> None:
        for key, value in rows.items():
            setattr(self, key, getattr(self, key) + len(value))


def _statement_roles(filing: Filing) -> dict[str, SubFiling]:
    return subfilings_by_role(filing, set(STATEMENT_KINDS))


def inject_finmr(filing: Filing, name: str, n: int, rng: random.Random,
                 taxonomy: TaxonomyIndex | None, kind_start: int = 0) -> list[dict]:  # fmt: skip
    """FinMR instances: a complete, exactly consistent statement calculation whose total
    is then misstated in one of ``inject.MISSTATEMENT_KINDS``, taken in turn from
    ``kind_start`` so every kind has about the same share of a build."""
    statements = _statement_roles(filing)
    check = CheckContext(filing)  # one fact index for every candidate of this filing
    candidates = [c for c in inject.consistent_totals(filing, complete=True, check=check)
                  if c[0] in statements]  # fmt: skip
    rng.shuffle(candidates)
    kinds = inject.MISSTATEMENT_KINDS
    rows: list[dict] = []
    used: set[str] = set()
    for role, parent, ctx_id in candidates:
        if len(rows) >= n:
            break
        if parent in used:
            continue  # one question per concept keeps instances varied
        kind = kinds[(kind_start + len(rows)) % len(kinds)]
        got = inject.misstate_total(filing, role, parent, ctx_id, kind, rng, check)
        if got is None:
            continue
        changed, truth = got
        sub = subfiling_for(changed, role)
        calculated = children_sum(changed, role, parent, ctx_id)
        if sub is None or calculated is None or truth.injected is None:
            continue
        extracted = Decimal(truth.injected)
        if extracted == calculated or calculated != Decimal(str(truth.original)):
            continue
        used.add(parent)
        rows.append(finmr_row(changed, name, sub, parent, ctx_id, extracted, calculated,
                              "inject", "DQC_0126", taxonomy, truth.to_dict()))  # fmt: skip
    return rows


def _concepts_with_facts(sub: SubFiling) -> set[str]:
    return {f.concept for f in sub.facts if f.number is not None}


def inject_finre(filing: Filing, name: str, n_per_label: int, rng: random.Random,
                 taxonomy: TaxonomyIndex | None) -> list[dict]:  # fmt: skip
    rows: list[dict] = []
    statements = _statement_roles(filing)
    arcs = []
    for sub in statements.values():
        with_facts = _concepts_with_facts(sub)
        arcs += [a for a in sub.calc_arcs if a.source in with_facts and a.target in with_facts]
    arcs.sort()
    rng.shuffle(arcs)
    # Reversal: one calculation arc turned around
    for arc in arcs[:n_per_label]:
        changed, truth = inject.swap_parent_child(filing, arc.role, arc.source, arc.target)
        sub = subfiling_for(changed, arc.role)
        if sub is not None:
            rows.append(finre_row(name, sub, (arc.target, arc.source), "Reversal", "inject",
                                  "DQC_0081", taxonomy, truth.to_dict()))  # fmt: skip
    # Inappropriateness: a child moved under another parent of the same statement
    count = 0
    for arc in arcs[n_per_label:]:
        if count >= n_per_label:
            break
        try:
            changed, truth = inject.attach_to_wrong_parent(filing, arc.target, role=arc.role,
                                                           seed=rng.randrange(1 << 30))  # fmt: skip
        except ValueError:
            continue
        new_parent = truth.concepts[1]
        if truth.details.get("true_parent") != arc.source:
            continue
        sub = subfiling_for(changed, arc.role)
        if sub is None or new_parent not in _concepts_with_facts(sub):
            continue
        rows.append(finre_row(name, sub, (new_parent, arc.target), "Inappropriateness", "inject",
                              "DQC_0145", taxonomy, truth.to_dict()))  # fmt: skip
        count += 1
    # CombinationErr: a member put on another axis of the same role
    rows += _inject_combination(filing, name, n_per_label, rng, taxonomy)
    return rows


def _role_axes(sub: SubFiling) -> set[str]:
    axes = {a.target for a in sub.def_arcs if a.arcrole.endswith("hypercube-dimension")}
    axes |= {c for c in sub.concepts if c.rsplit(":", 1)[-1].endswith("Axis")}
    return axes


def _inject_combination(filing: Filing, name: str, n: int, rng: random.Random,
                        taxonomy: TaxonomyIndex | None) -> list[dict]:  # fmt: skip
    options = []
    for role, sub in subfilings_by_role(filing).items():
        if sub.kind == "cover":
            continue
        axes = _role_axes(sub)
        if len(axes) < 2:
            continue
        pairs = sorted({p for cid in {f.context_id for f in sub.facts}
                        for p in filing.contexts[cid].explicit if p[0] in axes})  # fmt: skip
        for axis, member in pairs:
            for new_axis in sorted(axes - {axis}):
                options.append((role, axis, member, new_axis))
    rng.shuffle(options)
    rows: list[dict] = []
    seen: set[str] = set()
    for role, _axis, member, new_axis in options:
        if len(rows) >= n:
            break
        if member in seen:
            continue
        try:
            changed, truth = inject.move_member_to_wrong_axis(filing, member, new_axis)
        except ValueError:
            continue
        sub = subfiling_for(changed, role)
        moved = set(truth.contexts)
        if sub is None or not any(f.context_id in moved for f in sub.facts):
            continue
        seen.add(member)
        rows.append(finre_row(name, sub, (new_axis, member), "CombinationErr", "inject",
                              "DQC_0001", taxonomy, truth.to_dict()))  # fmt: skip
    return rows


def has_noncontrolling_interest(filing: Filing) -> bool:
    """Does the filer report a non-zero noncontrolling interest?"""
    return any(f.concept.rsplit(":", 1)[-1] in _NCI_FACTS and f.number
               for f in filing.facts)  # fmt: skip


def near_concepts(concept: str, filing: Filing, taxonomy: TaxonomyIndex | None) -> list[str]:
    """Near but inappropriate replacements for a concept that the filing does not use."""
    prefix, _, local = concept.partition(":")
    if prefix != "us-gaap":
        return []
    options = [f"us-gaap:{c}" for c in NEAR_CONCEPTS.get(local, ())
               if c not in NCI_INCLUSIVE or has_noncontrolling_interest(filing)]  # fmt: skip
    if taxonomy is not None:
        label = filing.label(concept)
        options += [hit["concept"] for hit, _ in taxonomy.search(label, 6)
                    if hit["concept"].startswith("us-gaap:") and not hit.get("abstract")]  # fmt: skip
    used = set(filing.facts_by_concept())
    return [o for o in dict.fromkeys(options) if o != concept and o not in used]


def inject_finsm(filing: Filing, name: str, n: int, rng: random.Random,
                 taxonomy: TaxonomyIndex | None) -> list[dict]:  # fmt: skip
    rows: list[dict] = []
    statements = list(_statement_roles(filing).items())
    rng.shuffle(statements)
    for role, sub in statements:
        if len(rows) >= n:
            break
        targets = sorted(c for c in _concepts_with_facts(sub) if near_concepts(c, filing, taxonomy))
        if not targets:
            continue
        rng.shuffle(targets)
        chosen = targets[: rng.choice((1, 2)) if len(targets) > 1 else 1]
        changed = filing
        gold: list[str] = []
        truths = []
        for concept in chosen:
            replacement = rng.choice(near_concepts(concept, filing, taxonomy))
            changed, truth = inject.replace_concept(changed, concept, replacement)
            gold.append(replacement)
            truths.append(truth.to_dict())
        new_sub = subfiling_for(changed, role)
        if new_sub is None:
            continue
        area = finsm_area(new_sub, gold, avoid=chosen)
        rows.append(finsm_row(name, new_sub, area, gold, "inject", "DQC_0099",
                              taxonomy, {"replacements": truths}))  # fmt: skip
    return rows


def instances_from_filing(filing: Filing, name: str, *, seed: int = 0, finmr: int = 4,
                          finre_per_label: int = 2, finsm: int = 3,
                          taxonomy: TaxonomyIndex | None = None,
                          kind_start: int = 0) -> dict[str, list[dict]]:  # fmt: skip
    """Injected-error instances of all three tasks from one filing."""
    base = int(hashlib.sha1(f"{seed}|{name}".encode()).hexdigest()[:8], 16)
    return {
        "finmr": inject_finmr(
            filing, name, finmr, random.Random(base + 1), taxonomy, kind_start
        ),  # fmt: skip
        "finre": inject_finre(filing, name, finre_per_label, random.Random(base + 2), taxonomy),
        "finsm": inject_finsm(filing, name, finsm, random.Random(base + 3), taxonomy),
    }


# --------------------------------------------------------------------------- (a) DQC messages

_NUM = r"-?[\d,]+(?:\.\d+)?"
_QN = r"[A-Za-z][\w-]*:[A-Za-z]\w*"


@dataclass
class DqcMessage:
    """What an instance needs from one DQC message."""

    rule: str  # "DQC_0081", "XBRL.calc", ...
    concepts: list[str]  # QNames or local names, in the message's order
    values: list[str]  # reported, computed (calculation rules)
    period: str | None = None
    role: str | None = None
    text: str = ""
    severity: str | None = None  # from `finprobe check --json`; None for portal messages
    context: str | None = None  # the context id of a check finding


def _rule_id(text: str, given: str | None) -> str:
    raw = given or ""
    if not raw:
        match = re.search(r"DQC[._]US[._](\d{4})|DQC[_ ](\d{4})", text)
        raw = f"DQC_{match.group(1) or match.group(2)}" if match else ""
    match = re.match(r"DQC[._](?:US[._])?(\d{4})", raw)
    return f"DQC_{match.group(1)}" if match else raw


def parse_dqc_message(text: str, rule: str | None = None) -> DqcMessage:
    """Concepts, values and period from a DQC rule message (the portal's wording)."""
    rid = _rule_id(text, rule)
    values: list[str] = []
    period = None
    concepts: list[str] = []
    if rid in ("DQC_0126",):
        m = re.search(rf"value of the concept ({_QN}) of ({_NUM})", text)
        s = re.search(rf"sum of these child components is ({_NUM})", text)
        p = re.search(r"period of (\d{4}-\d\d-\d\d(?: to \d{4}-\d\d-\d\d)?)", text)
        if m:
            concepts.append(m.group(1))
            values.append(m.group(2).replace(",", ""))
        if s:
            values.append(s.group(1).replace(",", ""))
        period = p.group(1) if p else None
    elif rid == "DQC_0081":
        child = re.search(rf"line item concept ({_QN})", text)
        parent = re.search(rf"(?:child of|sibling of) ({_QN})", text)
        # (parent as filed, child as filed), the FinRE element order
        concepts = [m.group(1) for m in (parent, child) if m]
    elif rid == "DQC_0001":
        dims = re.search(r"Dimensions:\s*([\w:-]+)\s*=\s*([\w:-]+)", text)
        if dims:
            concepts = [dims.group(1), dims.group(2)]
        else:
            member = re.search(r"member,? ([^,\[]+)\[Member\]", text)
            axis = re.search(r"axis,? ([^,\[]+)\[Axis\]", text)
            concepts = [re.sub(r"\W", "", m.group(1).title()) + suffix
                        for m, suffix in ((axis, "Axis"), (member, "Member")) if m]  # fmt: skip
    elif rid == "DQC_0145":
        invalid = re.search(r"reported the concept ([\w:-]+)", text)
        group = re.search(r"presentation concept ([\w:-]+)", text)
        concepts = [m.group(1) for m in (group, invalid) if m]
    else:
        concepts = list(dict.fromkeys(re.findall(_QN, text)))
    p = re.search(r"Period:\s*(\S+(?: to \S+)?)", text)
    if period is None and p:
        period = p.group(1)
    return DqcMessage(rid, concepts, values, period, None, text)


def message_from_finding(finding: dict[str, Any]) -> DqcMessage:
    """A ``finprobe check --json`` finding (structured) as a DqcMessage."""
    rule = str(finding.get("rule_id", ""))
    base = re.match(r"(DQC_\d{4}|XBRL\.\w+)", rule)
    contexts = list(finding.get("contexts") or [])
    return DqcMessage(base.group(1) if base else rule, list(finding.get("concepts") or []),
                      list(finding.get("values") or []), None, finding.get("role"),
                      str(finding.get("message", "")), finding.get("severity"),
                      contexts[0] if contexts else None)  # fmt: skip


def _resolve(filing: Filing, name: str) -> str | None:
    """A concept QName of the filing for a QName or local name in a message."""
    known = set(filing.facts_by_concept()) | filing.pres.concepts() | filing.defn.concepts()
    for ctx in filing.contexts.values():
        for dim, mem in ctx.explicit:
            known.update((dim, mem))
    if name in known:
        return name
    local = name.rsplit(":", 1)[-1].lower()
    return next((k for k in sorted(known) if k.rsplit(":", 1)[-1].lower() == local), None)


def _role_of(filing: Filing, concepts: list[str], role: str | None,
             subs: dict[str, SubFiling]) -> SubFiling | None:  # fmt: skip
    if role and role in subs:
        return subs[role]
    ranked = sorted(subs.values(), key=lambda s: (s.kind not in STATEMENT_KINDS, s.definition))
    for sub in ranked:
        present = set(sub.concepts) | {f.concept for f in sub.facts}
        present |= {p for f in sub.facts for p in sub.contexts[f.context_id].dims}
        present |= {m for f in sub.facts for m in sub.contexts[f.context_id].dims.values()}
        if all(c in present for c in concepts):
            return sub
    return None


def instances_from_messages(filing: Filing, name: str, messages: Iterable[DqcMessage],
                            taxonomy: TaxonomyIndex | None = None) -> dict[str, list[dict]]:  # fmt: skip
    """Instances from DQC messages about ``filing`` (paper route); messages that
    cannot be tied to the filing are skipped."""
    out: dict[str, list[dict]] = {"finsm": [], "finre": [], "finmr": []}
    subs = subfilings_by_role(filing)
    seen: set[str] = set()
    for msg in messages:
        concepts = [c for c in (_resolve(filing, c) for c in msg.concepts) if c]
        if not concepts or len(concepts) < len(msg.concepts):
            continue
        if msg.rule in CALC_RULES:
            if msg.severity is not None and msg.severity != "error":
                continue  # an incomplete sum is no genuine error: no "should be" value
            parent = concepts[0]
            sub = _role_of(filing, [parent], msg.role, subs)
            if sub is None or len(msg.values) < 2:
                continue
            ctx_id = msg.context if msg.context in filing.contexts else None
            ctx_id = ctx_id or _context_for(filing, sub, parent, msg)
            if ctx_id is None:
                continue
            # every child must be reported in the context (children_sum says None if not)
            calculated = children_sum(filing, sub.role, parent, ctx_id)
            extracted = Decimal(msg.values[0])
            if calculated is None or calculated == extracted:
                continue
            row = finmr_row(filing, name, sub, parent, ctx_id, extracted, calculated, "dqc",
                            msg.rule, taxonomy, {"message": msg.text[:500], "kind": "genuine",
                                                 "contexts": [ctx_id]})  # fmt: skip
            key = "finmr"
        elif msg.rule in DQC_TO_RELATION:
            if len(concepts) < 2:
                continue
            sub = _role_of(filing, concepts[:2], msg.role, subs)
            if sub is None:
                continue
            row = finre_row(name, sub, concepts[:2], DQC_TO_RELATION[msg.rule], "dqc", msg.rule,
                            taxonomy, {"message": msg.text[:500]})  # fmt: skip
            key = "finre"
        elif msg.rule in SEMANTIC_RULES:
            # the line items named (not the axes/members) are the mismatched tags
            gold = [c for c in concepts if not c.endswith(("Axis", "Member", "Domain"))][:1]
            sub = _role_of(filing, gold, msg.role, subs) if gold else None
            if sub is None:
                continue
            term = finsm_area(sub, gold)
            row = finsm_row(name, sub, term, gold, "dqc", msg.rule, taxonomy,
                            {"message": msg.text[:500]})  # fmt: skip
            key = "finsm"
        else:
            continue
        if row["id"] not in seen:
            seen.add(row["id"])
            out[key].append(row)
    return out


def _context_for(filing: Filing, sub: SubFiling, concept: str, msg: DqcMessage) -> str | None:
    reported = Decimal(msg.values[0]) if msg.values else None
    for fact in sub.facts:
        if fact.concept != concept or fact.number is None:
            continue
        ctx = filing.contexts[fact.context_id]
        if reported is not None and fact.number != reported:
            continue
        if msg.period and ctx.period_text() != msg.period:
            continue
        return fact.context_id
    return None


def read_messages(path: str | Path) -> list[DqcMessage]:
    """DQC messages from a JSON/JSONL file: ``finprobe check --json`` findings, or
    rows {"dqc_id"/"rule", "message"} with the portal's message text."""
    from finprobe.benchmarks.finauditing.dataset import read_rows

    path = Path(path)
    if path.is_file() and path.suffix.lower() == ".txt":
        blocks = [
            b for b in re.split(r"\n\s*\n(?=\S)", path.read_text(encoding="utf-8")) if b.strip()
        ]
        return [parse_dqc_message(b) for b in blocks]
    rows = read_rows(path)
    if isinstance(rows, dict) and isinstance(rows.get("findings"), list):
        rows = rows["findings"]  # `finprobe check --json`: {"coverage", "findings"}
    elif len(rows) == 1 and isinstance(rows[0], dict) and isinstance(rows[0].get("findings"), list):
        rows = rows[0]["findings"]
    out = []
    for n, row in enumerate(rows):
        if not isinstance(row, dict):
            raise InputError(path, f"row {n} is not an object")
        if "rule_id" in row and "concepts" in row:
            out.append(message_from_finding(row))
        elif row.get("message"):
            out.append(parse_dqc_message(str(row["message"]), row.get("dqc_id") or row.get("rule")))
        else:
            raise InputError(path, f"row {n} has neither a message nor a finding")
    return out


# --------------------------------------------------------------------------- datasets


def write_rows(out_dir: Path, rows: dict[str, list[dict]]) -> dict[str, Path]:
    """Write ``<subtask>.jsonl`` files atomically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for subtask, items in rows.items():
        path = out_dir / f"{subtask}.jsonl"
        with tempfile.NamedTemporaryFile("w", dir=out_dir, suffix=".tmp", delete=False,
                                         encoding="utf-8") as fh:  # fmt: skip
            for item in items:
                fh.write(json.dumps(item, ensure_ascii=False) + "\n")
        Path(fh.name).replace(path)
        paths[subtask] = path
    return paths


def build_dataset(filings: Sequence[str | Path], out_dir: str | Path, *, seed: int = 0,
                  inject_errors: bool = True, run_checks_as_messages: bool = True,
                  messages: Sequence[str | Path] = (), finmr: int = 4, finre_per_label: int = 2,
                  finsm: int = 3, taxonomy: TaxonomyIndex | None = None) -> dict[str, Any]:  # fmt: skip
    """Instances from every filing folder; writes finsm/finre/finmr.jsonl and a manifest."""
    from finprobe.xbrl.checks import run_checks

    rows: dict[str, list[dict]] = {"finsm": [], "finre": [], "finmr": []}
    per_filing: dict[str, dict[str, dict[str, int]]] = {}
    folders: dict[str, Path] = {}
    extra = [m for path in messages for m in read_messages(path)]
    for path in filings:
        path = Path(path)
        filing = load_filing(path)
        name = path.name if path.is_dir() else path.parent.name
        folders[name] = path if path.is_dir() else path.parent
        counts: dict[str, dict[str, int]] = {}
        if inject_errors:
            got = instances_from_filing(filing, name, seed=seed, finmr=finmr,
                                        finre_per_label=finre_per_label, finsm=finsm,
                                        taxonomy=taxonomy,
                                        kind_start=len(rows["finmr"]))  # fmt: skip
            counts["inject"] = {k: len(v) for k, v in got.items()}
            for key, items in got.items():
                rows[key] += items
        msgs = list(extra)
        if run_checks_as_messages:
            msgs += [
                message_from_finding(f.to_dict()) for f in run_checks(filing, taxonomy=taxonomy)
            ]
        if msgs:
            got = instances_from_messages(filing, name, msgs, taxonomy)
            counts["dqc"] = {k: len(v) for k, v in got.items()}
            for key, items in got.items():
                rows[key] += items
        per_filing[name] = counts
    out = Path(out_dir)
    write_rows(out, rows)
    # every instance re-checked against its filing by a separate reader, and the card
    from finprobe.benchmarks.finauditing.datacard import data_card, data_card_markdown
    from finprobe.benchmarks.finauditing.recheck import recheck_rows
    from finprobe.files import write_text_atomic

    card = data_card(rows, recheck_rows(rows, folders))
    write_text_atomic(out / "datacard.json", json.dumps(card, indent=1) + "\n")
    write_text_atomic(out / "datacard.md", data_card_markdown(card))
    manifest = {
        "builder": BUILDER_VERSION,
        "seed": seed,
        "counts": {k: len(v) for k, v in rows.items()},
        "labels": {"finre": _count(r["answer"] for r in rows["finre"])},
        "per_filing": per_filing,
        "recheck": {
            t: {"checked": v["checked"], "passed": v["passed"]} for t, v in card["recheck"].items()
        },  # fmt: skip
        "finmr_shortcut_max_share": card["shortcuts"]["finmr"].get("max_share"),
    }
    write_text_atomic(out / "manifest.json", json.dumps(manifest, indent=1) + "\n")
    return manifest


def _count(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


def synthetic_dataset(n_reports: int = 4, seed: int = 0, out_dir: str | Path | None = None) -> Path:
    """The default data: synthetic reports exported as XBRL, then injected errors.

    Cached by arguments under the system temp folder unless ``out_dir`` is given.
    """
    from finprobe.files import cache_dir
    from finprobe.synth import make_corpus
    from finprobe.xbrl.synth_export import export_report

    target = Path(out_dir) if out_dir else cache_dir() / (
        f"finauditing-synth-{BUILDER_VERSION}-{n_reports}-{seed}")  # fmt: skip
    if (target / "manifest.json").is_file():
        return target
    filings_dir = target / "filings"
    paths = [export_report(report, filings_dir / f"synth-{i}")
             for i, report in enumerate(make_corpus(n_reports, seed=seed))]  # fmt: skip
    build_dataset(paths, target, seed=seed, run_checks_as_messages=False)
    return target
