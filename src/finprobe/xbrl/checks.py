"""Deterministic filing checks: the rule registry and ``run_checks``.

Rules live by what they do: ``calc_checks`` (calculation consistency, duplicate
facts, unreadable values) and ``dqc_rules`` (the XBRL US DQC rules FinAuditing
uses); ``check_base`` has the Finding record and the summation arithmetic, and
``check_report`` what a run could check (coverage) and the terminal report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from finprobe.xbrl.calc_checks import rule_dqc_0126, rule_duplicates, rule_values, rule_xbrl_calc
from finprobe.xbrl.check_base import (
    SEVERITIES,
    CheckContext,
    Finding,
    SummationResult,
    check_summation,
    fact_where,
    findings_to_json,
    pick_fact,
    round_to_decimals,
    severity_rank,
)
from finprobe.xbrl.dqc_rules import (
    RULE_INFO,
    rule_dqc_0001,
    rule_dqc_0015,
    rule_dqc_0081,
    rule_dqc_0099,
    rule_dqc_0109,
    rule_dqc_0117,
    rule_dqc_0137,
    rule_dqc_0145,
    rule_scope,
)
from finprobe.xbrl.filing import Filing

if TYPE_CHECKING:
    from finprobe.xbrl.taxonomy import TaxonomyIndex


@dataclass(frozen=True)
class Rule:
    id: str
    func: Callable[[CheckContext], list[Finding]]
    description: str
    needs_taxonomy: bool = False
    # in the default set: the check follows its published rule (or is plain XBRL 2.1)
    default: bool = True
    why_not_default: str = ""


_APPROX = "approximate: not verified against the published rule's source"
RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        Rule("XBRL.calc", rule_xbrl_calc, "XBRL 2.1 / Calc 1.1 summation consistency, all contexts"),
        Rule("XBRL.duplicates", rule_duplicates, "inconsistent duplicate facts"),
        Rule("XBRL.values", rule_values, "numeric facts whose value is not a finite number"),
        Rule("DQC_0015", rule_dqc_0015, "negative values of non-negative elements"),
        Rule("DQC_0137", rule_dqc_0137, "location axis with a single member"),
        Rule("DQC_0001", rule_dqc_0001, "axis with inappropriate members", default=False,
             why_not_default=_APPROX + "; open axes need the US-GAAP taxonomy"),
        Rule("DQC_0081", rule_dqc_0081, "sibling/child calculation relations vs the taxonomy",
             True, default=False, why_not_default="needs the US-GAAP taxonomy (--taxonomy)"),
        Rule("DQC_0099", rule_dqc_0099, "statement items with no calculation", default=False,
             why_not_default=_APPROX + "; statement roles are classified by their titles"),
        Rule("DQC_0109", rule_dqc_0109, "concentration risk dimensions", default=False,
             why_not_default="an exposure draft with no effective date"),
        Rule("DQC_0117", rule_dqc_0117, "statement table dimensional cross check", default=False,
             why_not_default=_APPROX + "; the axis list is a subset"),
        Rule("DQC_0126", rule_dqc_0126, "statement calculations, non-dimensional, current period",
             default=False, why_not_default="an exposure draft; XBRL.calc covers its sums"),
        Rule("DQC_0145", rule_dqc_0145, "cash flow presentation groups", default=False,
             why_not_default="without the US-GAAP taxonomy only a name-pattern rule of thumb"),
    )
}  # fmt: skip
DEFAULT_RULES = tuple(r for r, rule in RULES.items() if rule.default)


def select_rules(names: Iterable[str] | None) -> list[Rule]:
    """Rules by id (case-insensitive); None: the default set; "all": every rule."""
    if names is None:
        return [RULES[r] for r in DEFAULT_RULES]
    chosen: list[Rule] = []
    for name in names:
        if name.lower() == "all":
            chosen += [r for r in RULES.values() if r not in chosen]
            continue
        hits = [r for rid, r in RULES.items() if rid.lower() == name.lower()]
        if not hits:
            raise ValueError(f"unknown rule {name!r}; known: {', '.join(RULES)}, all")
        chosen += [r for r in hits if r not in chosen]
    return chosen


def _with_rule_info(filing: Filing, finding: Finding) -> Finding:
    """Fill in the period and dimensions of the finding's first context, and the
    published version and element id of the rule it comes from."""
    if finding.period is None and finding.contexts:
        period, dims = fact_where(filing.contexts.get(finding.contexts[0]))
        finding = replace(finding, period=period, dimensions=dims)
    base = re.match(r"DQC_(\d{4})(?:\.(\d+))?", finding.rule_id)
    if base is None:
        return finding
    info = RULE_INFO.get(f"DQC_{base.group(1)}")
    version = finding.rule_version or (info.version if info else None)
    element = finding.element_id or (
        f"DQC.US.{base.group(1)}.{base.group(2)}" if base.group(2) else None
    )
    return replace(finding, rule_version=version, element_id=element)


@dataclass
class CheckRun:
    findings: list[Finding]
    ran: list[str]
    skipped: dict[str, str]  # rule -> why it did not run on this filing


def run_rules(filing: Filing, rules: Iterable[str] | None = None,
              taxonomy: TaxonomyIndex | None = None, *, calc_mode: str | None = None,
              any_date: bool = False) -> CheckRun:  # fmt: skip
    """Run the rules that apply to the filing; say why the others did not run."""
    ctx = CheckContext(filing, taxonomy, calc_mode=calc_mode)
    run = CheckRun([], [], {})
    for rule in select_rules(rules):
        if rule.needs_taxonomy and taxonomy is None:
            run.skipped[rule.id] = "needs the US-GAAP taxonomy (--taxonomy)"
            continue
        if rule.id in ("XBRL.calc", "DQC_0126") and len(filing.calc) == 0:
            run.skipped[rule.id] = "no calculation relationships (no calculation linkbase)"
            continue
        why = rule_scope(filing, rule.id)
        if why is not None and not (any_date and "effective" in why):
            run.skipped[rule.id] = why
            continue
        run.ran.append(rule.id)
        run.findings.extend(_with_rule_info(filing, f) for f in rule.func(ctx))
    return run


def run_checks(
    filing: Filing, rules: Iterable[str] | None = None, taxonomy: TaxonomyIndex | None = None,
    *, calc_mode: str | None = None, any_date: bool = False,
) -> list[Finding]:  # fmt: skip
    """Run the named rules (the default set when None) and return their findings."""
    return run_rules(filing, rules, taxonomy, calc_mode=calc_mode, any_date=any_date).findings


__all__ = [
    "DEFAULT_RULES", "RULES", "SEVERITIES", "CheckContext", "CheckRun", "Finding", "Rule",
    "SummationResult", "check_summation", "findings_to_json", "pick_fact",
    "round_to_decimals", "run_checks", "run_rules", "select_rules", "severity_rank",
]  # fmt: skip
