"""Calculation consistency, duplicate facts and unreadable values.

A calculation finding is an "error" only when every calculation child of the total
is reported in the same context and unit and the sum differs; when some children
are not reported there (dimensional members, subtotals reported elsewhere) the sum
cannot be judged and the finding is "incomplete", naming the missing children.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable

from finprobe.xbrl.check_base import (
    CheckContext,
    Finding,
    _fmt,
    _is_current,
    check_summation,
    fact_where,
    pick_fact,
)
from finprobe.xbrl.filing import Context, numeric_problem
from finprobe.xbrl.linkbase import SUMMATION_ARCROLES, SUMMATION_ITEM_CALC11, Arc

_SPEC = {"xbrl21": "XBRL 2.1 s5.2.5.2", "calc11": "Calculations 1.1", "min": "DQC min-decimals"}


def _decimals_text(dec: float | None) -> str:
    if dec is None:
        return "none"
    return "INF" if math.isinf(dec) else str(int(dec))


def _calc_findings(
    c: CheckContext,
    rule_id: str,
    roles: list[str],
    context_ok: Callable[[Context], bool],
    mode_for: Callable[[Arc], str],
    version: str | None = None,
    element_id: str | None = None,
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
                missing = []
                skip = False
                for arc in arcs:
                    group = numeric.get((arc.target, ctx_id, unit_id))
                    if not group:
                        missing.append(arc.target)
                        continue
                    item, ok = pick_fact(group)
                    if not ok or item is None:
                        skip = True
                        break
                    items.append((arc, item))
                if skip or not items:
                    continue
                mode = mode_for(arcs[0])
                terms = [(it.number, it.decimals, arc.weight if arc.weight is not None else 1.0)
                         for arc, it in items]  # fmt: skip
                res = check_summation((total.number, total.decimals), terms, mode)
                if res.consistent:
                    continue
                # both published rules, so a reader sees whether rounding explains it
                verdicts = {m: check_summation((total.number, total.decimals), terms, m)
                            for m in ("xbrl21", "calc11")}  # fmt: skip
                listed = "; ".join(
                    f"{'+' if (a.weight or 1) >= 0 else '-'}{abs(a.weight or 1):g} x "
                    f"{a.target} {_fmt(it.number)}"
                    for a, it in items
                )
                period, dims = fact_where(ctx)
                where = (
                    f"{ctx.period_text()}{'' if not ctx.has_dims else ' (' + ctx.dims_text() + ')'}"
                )
                rules_text = ", ".join(
                    f"{'XBRL 2.1' if m == 'xbrl21' else 'Calc 1.1'} "
                    f"{'consistent' if r.consistent else 'inconsistent'}"
                    for m, r in verdicts.items()
                )
                if missing:
                    severity = "incomplete"
                    message = (
                        f"In {c.definition(role)}, {parent} is {_fmt(total.number)} for {where}; "
                        f"the {len(items)} of its {len(arcs)} calculation children reported in "
                        f"this context sum to {_fmt(res.computed)}, but {len(missing)} "
                        f"child(ren) are not reported here, so the sum cannot be judged. "
                        f"Missing: {', '.join(missing)}. Reported: {listed}."
                    )
                else:
                    severity = "error"
                    message = (
                        f"In {c.definition(role)}, {parent} is reported as {_fmt(total.number)} "
                        f"for {where} but its calculation children, all reported in this "
                        f"context, sum to {_fmt(res.computed)} (difference "
                        f"{_fmt(total.number - res.computed)}; {rules_text}): {listed}."
                    )
                out.append(
                    Finding(
                        rule_id=rule_id,
                        severity=severity,
                        concepts=(parent,) + tuple(a.target for a, _ in items),
                        contexts=(ctx_id,),
                        values=(str(total.number), str(res.computed)),
                        message=message,
                        role=role,
                        rule_version=version or _SPEC[mode],
                        element_id=element_id,
                        period=period,
                        dimensions=dims,
                        details={
                            "mode": mode,
                            "decimals": _decimals_text(res.decimals),
                            # an incomplete sum cannot be judged by either rule: null,
                            # so no reader mistakes it for an inconsistency
                            "xbrl21_consistent": None if missing else verdicts["xbrl21"].consistent,
                            "calc11_consistent": None if missing else verdicts["calc11"].consistent,
                            "children_reported": len(items),
                            "children_total": len(arcs),
                            "missing_children": missing,
                            "unit": unit_id,
                        },
                    )
                )
    return out


def calc_mode_for(choice: str | None) -> Callable[[Arc], str]:
    """The summation rule to judge by: the arcrole's own (Calc 1.1 for the 2023 arcrole,
    XBRL 2.1 for the 2003 one) unless a mode is forced."""
    if choice in ("xbrl21", "calc11"):
        return lambda arc: choice
    return lambda arc: "calc11" if arc.arcrole == SUMMATION_ITEM_CALC11 else "xbrl21"


def rule_xbrl_calc(c: CheckContext) -> list[Finding]:
    """XBRL 2.1 / Calc 1.1 calculation consistency over every role and context."""
    return _calc_findings(c, "XBRL.calc", c.filing.calc.roles(), lambda ctx: True,
                          calc_mode_for(c.calc_mode))  # fmt: skip


def rule_dqc_0126(c: CheckContext) -> list[Finding]:
    """DQC_0126 (exposure draft): statement calculations (balance sheet, income, cash
    flow) on non-dimensional facts of the current period, for statements without tables."""
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
        lambda arc: "min", "17.0.0RC1", "DQC.US.0126.9590",
    )  # fmt: skip


def rule_duplicates(c: CheckContext) -> list[Finding]:
    """Duplicate facts (same concept, context, unit) whose values disagree."""
    out = []
    for (concept, ctx_id, unit_id), facts in c.numeric().items():
        if len(facts) > 1 and not pick_fact(facts)[1]:
            period, dims = fact_where(c.filing.contexts.get(ctx_id))
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
                    period=period,
                    dimensions=dims,
                )  # fmt: skip
            )
    return out


def rule_values(c: CheckContext) -> list[Finding]:
    """Numeric facts whose value is not a finite number (NaN, INF, text): no check can
    use them, and a consumer of the filing would read garbage."""
    f = c.filing
    out = []
    for fact in f.facts:
        problem = numeric_problem(fact)
        if problem is None:
            continue
        period, dims = fact_where(f.contexts.get(fact.context_id))
        shown = fact.value if len(fact.value) <= 40 else fact.value[:37] + "..."
        out.append(
            Finding(
                "XBRL.values",
                "error",
                (fact.concept,),
                (fact.context_id,),
                (fact.value,),
                f"{fact.concept} has the value {shown!r} in context {fact.context_id} "
                f"(unit {fact.unit_id}): {problem}; it is left out of every other check.",
                period=period,
                dimensions=dims,
                details={"line": fact.line},
            )  # fmt: skip
        )
    return out
