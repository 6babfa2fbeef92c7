"""Inject known errors into a loaded filing (a modified copy plus its ground truth).

Each function leaves the original untouched and returns ``(modified, truth)``;
``truth`` says what was changed so a benchmark instance can be scored against it.
The error kinds follow FinAuditing: a calculation total that no longer adds up
(FinMR), a reversed parent/child pair ("Reversal"), a child under an
inappropriate parent ("Inappropriateness"), a member on the wrong axis
("CombinationErr"), and a concept replaced by a near but wrong one (FinSM).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from finprobe.numbers import plain_decimal
from finprobe.xbrl.check_base import CheckContext, _dw, check_summation, pick_fact
from finprobe.xbrl.filing import Context, Filing
from finprobe.xbrl.linkbase import SUMMATION_ARCROLES, Arc, RelationshipSet


@dataclass(frozen=True)
class GroundTruth:
    kind: str  # "calc_total" | "reversal" | "inappropriate_parent" | "wrong_axis" | "mistag"
    concepts: tuple[str, ...]
    role: str | None = None
    contexts: tuple[str, ...] = ()
    original: str | None = None  # value or relation before the change
    injected: str | None = None  # after
    expected: str | None = None  # the value a reviewer should compute
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "concepts": list(self.concepts), "role": self.role,
                "contexts": list(self.contexts), "original": self.original,
                "injected": self.injected, "expected": self.expected, "details": self.details}  # fmt: skip


def _rebuild_calc(filing: Filing, arcs: list[Arc]) -> None:
    filing.calc = RelationshipSet(arcs, filing.calc.removed)


def consistent_totals(filing: Filing, complete: bool = False,
                      check: CheckContext | None = None) -> list[tuple[str, str, str]]:  # fmt: skip
    """(role, parent, context) of calculations that hold on non-dimensional facts.

    ``complete``: only those where every calculation child is reported in the context
    and the children add up to the total exactly (the clean ground truth FinMR needs).
    ``check``: the filing's CheckContext when the caller has one (its fact index is reused).
    """
    c = check if check is not None else CheckContext(filing)
    numeric = c.numeric()
    out = []
    for role in filing.calc.roles():
        parents: dict[str, list[Arc]] = {}
        for arc in filing.calc.arcs_in(role, SUMMATION_ARCROLES):
            parents.setdefault(arc.source, []).append(arc)
        for parent, arcs in parents.items():
            for (concept, ctx_id, unit_id), facts in numeric.items():
                if concept != parent or filing.contexts[ctx_id].has_dims:
                    continue
                total, ok = pick_fact(facts)
                items = []
                for arc in arcs:
                    group = numeric.get((arc.target, ctx_id, unit_id))
                    if not group and complete:
                        items = []
                        break
                    if group:
                        item, ok2 = pick_fact(group)
                        if not ok2:
                            items = []
                            break
                        items.append((item.number, item.decimals, arc.weight or 1.0))
                if not ok or total is None or len(items) < 2:
                    continue
                if complete:
                    exact = sum((_dw(w) * v for v, _, w in items), Decimal(0))
                    if exact != total.number:
                        continue
                if check_summation((total.number, total.decimals), items, "min").consistent:
                    out.append((role, parent, ctx_id))
    return sorted(set(out))


def change_total(
    filing: Filing,
    concept: str | None = None,
    context_id: str | None = None,
    delta: Decimal | None = None,
    seed: int = 0,
) -> tuple[Filing, GroundTruth]:
    """Change a reported calculation total so it no longer equals its children."""
    candidates = consistent_totals(filing)
    if concept is not None:
        candidates = [x for x in candidates if x[1] == concept]
    if context_id is not None:
        candidates = [x for x in candidates if x[2] == context_id]
    if not candidates:
        raise ValueError("no consistent calculation total to change")
    role, parent, ctx_id = random.Random(seed).choice(candidates)
    out = filing.copy()
    facts = [f for f in out.facts if f.concept == parent and f.context_id == ctx_id
             and f.number is not None]  # fmt: skip
    original = facts[0].number
    dec = facts[0].decimals
    if delta is None:
        step = Decimal(1).scaleb(-int(dec)) if dec is not None and not math.isinf(dec) else 1
        # about 10% off, but a whole number of the fact's rounding steps
        delta = max(step, (abs(original) / 10 // step) * step)
    new = original + delta
    for f in facts:  # duplicates change together, so they stay consistent
        f.value = str(new)
    out.invalidate()
    return out, GroundTruth("calc_total", (parent,), role, (ctx_id,), str(original), str(new),
                            str(original))  # fmt: skip


# Misstatements a preparer makes in a reported total, each with its own size: no single
# ratio between the reported and the true value recovers more than one kind.
MISSTATEMENT_KINDS = ("transposed_digits", "omitted_component", "double_counted",
                      "sign_flip", "scale_slip", "rounding_slip")  # fmt: skip


def _step(decimals: float | None) -> Decimal:
    if decimals is None or math.isinf(decimals):
        return Decimal(1)
    return Decimal(1).scaleb(-int(decimals))


def _transpose(value: Decimal, step: Decimal, rng: random.Random) -> Decimal | None:
    """Swap two adjacent, different digits of the value (at its reported precision)."""
    units = (abs(value) / step).to_integral_value()
    if units != abs(value) / step:
        return None
    digits = str(int(units))
    spots = [i for i in range(len(digits) - 1) if digits[i] != digits[i + 1]]
    if not spots:
        return None
    i = rng.choice(spots)
    swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]
    if swapped[0] == "0":
        return None  # a leading zero would also change the number's length
    out = Decimal(swapped) * step
    return -out if value < 0 else out


def round_significant(value: Decimal, digits: int) -> Decimal:
    """``value`` rounded half-up to ``digits`` significant digits (49337 -> 49300 at 3)."""
    if value == 0:
        return value
    exponent = value.adjusted() - digits + 1
    return value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP).normalize()


def misstate_total(filing: Filing, role: str, parent: str, ctx_id: str, kind: str,
                   rng: random.Random, check: CheckContext | None = None,
                   ) -> tuple[Filing, GroundTruth] | None:  # fmt: skip
    """Report the total of a complete, consistent calculation with one realistic error.

    Kinds: transposed digits; a component omitted from, or counted twice in, the total;
    a component added with the wrong sign; a scale slip of 1,000 (the total entered in
    thousands, or units, by mistake); a rounding slip (the total entered as the rounded
    figure quoted in the text, 2 or 3 significant digits). None when the kind does not
    apply (no two different adjacent digits, no non-zero component) or when the
    misstated total would still be consistent under XBRL 2.1 or under Calculations 1.1.
    ``check``: the filing's CheckContext when the caller misstates several totals of one
    filing (its fact index is built once instead of once per call).
    """
    c = check if check is not None else CheckContext(filing)
    facts = [f for f in filing.facts if f.concept == parent and f.context_id == ctx_id
             and f.number is not None]  # fmt: skip
    if not facts:
        return None
    true = facts[0].number
    step = _step(facts[0].decimals)
    unit = facts[0].unit_id
    components = []
    terms = []  # (value, decimals, weight) of every child: the consistency check
    for arc in filing.calc.children(parent, role, SUMMATION_ARCROLES):
        group = c.numeric().get((arc.target, ctx_id, unit or ""))
        item = pick_fact(group)[0] if group else None
        weight = arc.weight if arc.weight is not None else 1.0
        if item is not None and item.number is not None:
            terms.append((item.number, item.decimals, weight))
        if item is not None and item.number:
            w = _dw(weight)
            components.append((arc.target, w * item.number))
    detail: dict = {"kind": kind}
    if kind == "transposed_digits":
        new = _transpose(true, step, rng)
    elif kind in ("omitted_component", "double_counted", "sign_flip"):
        if not components:
            return None
        child, amount = rng.choice(components)
        factor = {"omitted_component": -1, "double_counted": 1, "sign_flip": -2}[kind]
        new = true + factor * amount
        detail.update(component=child, component_amount=str(amount))
    elif kind == "scale_slip":
        up = rng.random() < 0.5
        new = true * 1000 if up else (true / 1000).normalize()
        detail["direction"] = "x1000" if up else "/1000"
    elif kind == "rounding_slip":
        # the total keyed in as the rounded figure quoted in the text ("$49.3 billion"
        # for 49,337 million): 2 or 3 significant digits, in the statement's own unit
        digits = rng.choice((2, 3))
        new = round_significant(true, digits)
        detail["significant_digits"] = digits
    else:
        raise ValueError(f"unknown misstatement kind {kind!r}")
    if new is None or new == true:
        return None
    # a misstatement a reader can catch: inconsistent under XBRL 2.1 AND Calculations 1.1
    # (a slip inside the Calc 1.1 rounding tolerance is no error under that rule)
    dec = facts[0].decimals
    if any(check_summation((new, dec), terms, mode).consistent for mode in ("xbrl21", "calc11")):
        return None
    text = plain_decimal(new)
    out = filing.copy()
    for f in out.facts:
        if f.concept == parent and f.context_id == ctx_id and f.number is not None:
            f.value = text
    out.invalidate()
    return out, GroundTruth("calc_total", (parent,), role, (ctx_id,), str(true), text,
                            str(true), detail)  # fmt: skip


def _pick_arc(filing: Filing, role: str | None, source: str | None, target: str | None,
              seed: int) -> Arc:  # fmt: skip
    arcs = [a for a in filing.calc.arcs if a.arcrole in SUMMATION_ARCROLES
            and (role is None or a.role == role) and (source is None or a.source == source)
            and (target is None or a.target == target)]  # fmt: skip
    if not arcs:
        raise ValueError("no matching calculation arc")
    return random.Random(seed).choice(sorted(arcs))


def swap_parent_child(filing: Filing, role: str | None = None, parent: str | None = None,
                      child: str | None = None, seed: int = 0) -> tuple[Filing, GroundTruth]:  # fmt: skip
    """Reverse one calculation arc: the child becomes the parent ("Reversal")."""
    arc = _pick_arc(filing, role, parent, child, seed)
    out = filing.copy()
    arcs = [a._replace(source=a.target, target=a.source) if a == arc else a
            for a in out.calc.arcs]  # fmt: skip
    _rebuild_calc(out, arcs)
    return out, GroundTruth("reversal", (arc.source, arc.target), arc.role,
                            original=f"{arc.source} -> {arc.target}",
                            injected=f"{arc.target} -> {arc.source}")  # fmt: skip


def attach_to_wrong_parent(filing: Filing, child: str | None = None,
                           new_parent: str | None = None, role: str | None = None,
                           seed: int = 0) -> tuple[Filing, GroundTruth]:  # fmt: skip
    """Move a calculation child under a parent it does not belong to: by default a
    sibling of its real parent in the same role ("Inappropriateness")."""
    rng = random.Random(seed)
    arc = _pick_arc(filing, role, None, child, seed)
    if new_parent is None:
        options = sorted({a.source for a in filing.calc.arcs_in(arc.role, SUMMATION_ARCROLES)}
                         - {arc.source, arc.target} - filing.calc.descendants(arc.target, arc.role))  # fmt: skip
        if not options:
            raise ValueError("no other parent in this role")
        new_parent = rng.choice(options)
    out = filing.copy()
    arcs = [a._replace(source=new_parent) if a == arc else a for a in out.calc.arcs]
    _rebuild_calc(out, arcs)
    return out, GroundTruth("inappropriate_parent", (arc.target, new_parent), arc.role,
                            original=f"{arc.source} -> {arc.target}",
                            injected=f"{new_parent} -> {arc.target}",
                            details={"true_parent": arc.source})  # fmt: skip


def move_member_to_wrong_axis(filing: Filing, member: str | None = None,
                              new_axis: str | None = None,
                              seed: int = 0) -> tuple[Filing, GroundTruth]:  # fmt: skip
    """Put a member under another axis in contexts and the definition linkbase
    ("CombinationErr")."""
    rng = random.Random(seed)
    pairs = sorted({pair for ctx in filing.contexts.values() for pair in ctx.explicit})
    if member is not None:
        pairs = [p for p in pairs if p[1] == member]
    if not pairs:
        raise ValueError("no dimensional member to move")
    axis, member = rng.choice(pairs)
    if new_axis is None:
        axes = sorted({d for d, _ in pairs if d != axis} |
                      {d for ctx in filing.contexts.values() for d, _ in ctx.explicit} - {axis})  # fmt: skip
        if not axes:
            raise ValueError("the filing has only one axis")
        new_axis = rng.choice(axes)
    out = filing.copy()
    changed = []
    for cid, ctx in list(out.contexts.items()):
        if (axis, member) in ctx.explicit:
            dims = dict(ctx.explicit)
            del dims[axis]
            if new_axis in dims:
                continue  # would clash with an existing member on the new axis
            dims[new_axis] = member
            out.contexts[cid] = Context(ctx.id, ctx.entity_scheme, ctx.entity_id, ctx.period_type,
                                        ctx.start, ctx.end, tuple(sorted(dims.items())),
                                        ctx.typed, ctx.in_scenario)  # fmt: skip
            changed.append(cid)
    if not changed:
        raise ValueError("every context with the member already uses the new axis")
    return out, GroundTruth("wrong_axis", (new_axis, member), None, tuple(changed),
                            original=axis, injected=new_axis)  # fmt: skip


def replace_concept(filing: Filing, concept: str, replacement: str) -> tuple[Filing, GroundTruth]:
    """Re-tag every fact and relationship of ``concept`` with ``replacement`` (a near
    but inappropriate concept, e.g. Cash for CashAndCashEquivalentsAtCarryingValue)."""
    if concept not in filing.facts_by_concept():
        raise ValueError(f"{concept} has no facts in this filing")
    prefix = replacement.split(":", 1)[0]
    if prefix not in filing.namespaces:
        raise ValueError(f"unknown prefix in {replacement}")
    out = filing.copy()
    for f in out.facts:
        if f.concept == concept:
            f.concept = replacement
    out.invalidate()

    def swap(arcs: list[Arc]) -> list[Arc]:
        return [a._replace(source=replacement if a.source == concept else a.source,
                           target=replacement if a.target == concept else a.target)
                for a in arcs]  # fmt: skip

    out.calc = RelationshipSet(swap(out.calc.arcs), out.calc.removed)
    out.pres = RelationshipSet(swap(out.pres.arcs), out.pres.removed)
    out.defn = RelationshipSet(swap(out.defn.arcs), out.defn.removed)
    if concept in out.labels:
        out.labels[replacement] = out.labels.pop(concept)
    if concept in out.hrefs:
        out.hrefs[replacement] = (
            out.hrefs[concept].rsplit("#", 1)[0] + "#" + replacement.replace(":", "_")
        )
    return out, GroundTruth("mistag", (replacement,), None, original=concept,
                            injected=replacement, expected=concept)  # fmt: skip
