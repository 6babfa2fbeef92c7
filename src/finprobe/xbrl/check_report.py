"""What a `finprobe check` run could check, and the findings written for people.

``coverage`` says which linkbases were found, how many facts the checks could use,
which facts have no concept definition, what could not be resolved, and which rules
ran or were out of scope; it goes in the terminal report and in the JSON.
``render_report`` groups findings by rule with counts and prints one block per finding,
wrapped to the terminal width.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from finprobe.xbrl.check_base import SEVERITIES, Finding, severity_rank
from finprobe.xbrl.filing import STANDARD_PREFIXES, Filing, numeric_problem

_EXAMPLES = 5  # problems listed by name in the coverage; the rest are counted


def coverage(filing: Filing, ran: Iterable[str], skipped: dict[str, str]) -> dict:
    files = filing.files
    linkbases = {kind: (getattr(files, kind).name if getattr(files, kind) else None)
                 for kind in ("calculation", "presentation", "definition", "label")}  # fmt: skip
    arcs = {"calculation": len(filing.calc), "presentation": len(filing.pres),
            "definition": len(filing.defn)}  # fmt: skip
    numeric = [f for f in filing.facts if f.unit_id is not None]
    unusable = [f for f in numeric if numeric_problem(f) is not None]
    nil = sum(1 for f in numeric if f.is_nil)
    # an extension concept must be declared in the filing's schema; standard concepts
    # are defined by their taxonomy, which is not loaded (counted, not checked)
    undeclared = sorted({f.concept for f in filing.facts if f.concept.split(":")[0]
                         not in STANDARD_PREFIXES and f.concept not in filing.concepts})  # fmt: skip
    standard = {f.concept for f in filing.facts if f.concept.split(":")[0] in STANDARD_PREFIXES}
    no_context = sum(1 for f in filing.facts if f.context_id not in filing.contexts)
    no_unit = sum(1 for f in numeric if f.unit_id not in filing.units)
    return {
        "instance": files.instance.name,
        "schema": files.schema.name if files.schema else None,
        "linkbases": linkbases,
        "arcs": arcs,
        "facts": len(filing.facts),
        "numeric_facts": len(numeric),
        "numeric_nil": nil,
        "numeric_unusable": len(unusable),
        "facts_missing_context": no_context,
        "facts_missing_unit": no_unit,
        "concepts_without_definition": len(undeclared),
        "concepts_without_definition_examples": undeclared[:_EXAMPLES],
        "standard_concepts_not_checked_against_taxonomy": len(standard),
        "broken_locators": len(filing.broken_locators),
        "broken_locator_examples": filing.broken_locators[:_EXAMPLES],
        "loader_warnings": list(filing.warnings[:20]),
        "rules_run": list(ran),
        "rules_skipped": dict(skipped),
    }


def coverage_lines(cov: dict) -> list[str]:
    """The coverage as short lines: what was checked and, first, what could not be."""
    lb = cov["linkbases"]
    found = [f"{k} ({cov['arcs'][k]} arcs)" if k in cov["arcs"] else k
             for k, v in lb.items() if v]  # fmt: skip
    missing = [k for k, v in lb.items() if not v]
    lines = [f"linkbases found: {', '.join(found) or 'none'}"]
    if missing:
        lines.append(f"NOT found: {', '.join(missing)}"
                     + (" - no calculation checks possible" if "calculation" in missing else ""))  # fmt: skip
    lines.append(f"facts: {cov['facts']} ({cov['numeric_facts']} numeric, {cov['numeric_nil']} "
                 f"nil, {cov['numeric_unusable']} with no usable number)")  # fmt: skip
    if cov["facts_missing_context"] or cov["facts_missing_unit"]:
        lines.append(f"facts with a missing context: {cov['facts_missing_context']}, "
                     f"missing unit: {cov['facts_missing_unit']}")  # fmt: skip
    if cov["concepts_without_definition"]:
        lines.append(f"extension concepts with no definition in the schema: "
                     f"{cov['concepts_without_definition']} (e.g. "
                     f"{', '.join(cov['concepts_without_definition_examples'])})")  # fmt: skip
    lines.append(f"standard concepts (definitions not loaded, not checked against the "
                 f"taxonomy): {cov['standard_concepts_not_checked_against_taxonomy']}")  # fmt: skip
    if cov["broken_locators"]:
        lines.append(f"broken locators or arcs (dropped): {cov['broken_locators']} (e.g. "
                     f"{cov['broken_locator_examples'][0]})")  # fmt: skip
    lines.append(f"rules run: {', '.join(cov['rules_run']) or 'none'}")
    for rule, why in cov["rules_skipped"].items():
        lines.append(f"rule {rule} not run: {why}")
    return lines


def filter_findings(findings: Iterable[Finding], min_severity: str) -> list[Finding]:
    floor = severity_rank(min_severity)
    return [f for f in findings if severity_rank(f.severity) >= floor]


def _base_rule(rule_id: str) -> str:
    return rule_id if rule_id.startswith("XBRL") else rule_id.split(".")[0]


def summary_counts(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """rule -> severity -> count."""
    out: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        out[_base_rule(f.rule_id)][f.severity] += 1
    return {rule: dict(c) for rule, c in sorted(out.items())}


def _version(text: str) -> str:
    return f"v{text}" if text[:1].isdigit() else text


def _num(text: str) -> str:
    try:
        value = Decimal(text)
    except InvalidOperation:
        return text
    return f"{value:,}" if value == value.to_integral_value() else text


# where a long run of names may be cut: after an axis= or a separator, never inside a
# name (a concept or member is copied from the report and searched for: it stays whole)
_BETWEEN_NAMES = re.compile(r"(?<=[=,;/])")


def _pieces(word: str, room: int) -> list[str]:
    """A word too long for a line, cut between the names it joins (axis=member,
    a,b); each piece as long as fits. A single name longer than a line stays whole."""
    if len(word) <= room:
        return [word]
    bounds = [0] + [m.start() for m in _BETWEEN_NAMES.finditer(word) if 0 < m.start() < len(word)]
    out = [""]
    for a, b in zip(bounds, bounds[1:] + [len(word)], strict=True):
        if out[-1] and len(out[-1]) + b - a > room:
            out.append("")
        out[-1] += word[a:b]
    return out


def wrap_text(text: str, width: int, first: str, rest: str) -> list[str]:
    """Greedy wrap at spaces; continuation lines start with ``rest``. Names are never
    cut: a run of names breaks between them, and a name longer than the room left by
    ``rest`` gets a line of its own, indented less (not at all, and past ``width``,
    only when the name itself is longer than ``width``)."""
    room = max(10, width - len(rest))
    lines = [first]
    for word in text.split():
        for i, piece in enumerate(_pieces(word, room)):
            # `first` and `rest` end in spaces: nothing is needed after them
            sep = "" if i > 0 or not lines[-1] or lines[-1].endswith(" ") else " "
            if len(lines[-1]) + len(sep) + len(piece) > width and lines[-1].strip():
                lines.append(rest)
                sep = ""
            if len(piece) > room and not lines[-1].strip():  # outdent: whole beats aligned
                lines[-1] = " " * max(0, width - len(piece))
            lines[-1] += sep + piece
    return [line.rstrip() for line in lines]


def render_report(findings: list[Finding], cov: dict, width: int = 80,
                  hidden: int = 0) -> str:  # fmt: skip
    """The plain-text report: coverage, counts by rule and severity, one block per finding."""
    width = max(40, width)
    out: list[str] = [f"Checked {cov['instance']}"]
    for line in coverage_lines(cov):
        out += wrap_text(line, width, "  ", "    ")
    counts = summary_counts(findings)
    total = Counter(f.severity for f in findings)
    head = ", ".join(f"{total.get(s, 0)} {s}" for s in reversed(SEVERITIES))
    out.append("")
    out.append(f"{len(findings)} finding(s): {head}"
               + (f" ({hidden} below --min-severity not shown)" if hidden else ""))  # fmt: skip
    for rule, by_sev in counts.items():
        parts = ", ".join(f"{by_sev[s]} {s}" for s in reversed(SEVERITIES) if s in by_sev)
        out.append(f"  {rule}: {parts}")
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_rule[_base_rule(f.rule_id)].append(f)
    for rule, items in sorted(by_rule.items()):
        out.append("")
        out.append(f"== {rule} ({len(items)}) " + "=" * max(0, width - len(rule) - 10))
        items.sort(key=lambda f: (-severity_rank(f.severity), f.concepts, f.contexts))
        for n, f in enumerate(items, 1):
            out.append(f"[{n}] {f.severity.upper()}  {f.rule_id}"
                       + (f"  {_version(f.rule_version)}" if f.rule_version else "")
                       + (f"  {f.element_id}" if f.element_id else ""))  # fmt: skip
            fields = [("concept", f.concepts[0] if f.concepts else "-")]
            if f.period:
                fields.append(("period", f.period))
            for i, (d, m) in enumerate(f.dimensions):  # one axis=member per line
                fields.append(("dims" if i == 0 else "", f"{d}={m}"))
            missing = f.details.get("missing_children") if f.details else None
            if f.rule_id in ("XBRL.calc", "DQC_0126") and len(f.values) == 2:
                # a partial sum is not "the children's sum": say how many it covers
                n_all = len(f.concepts) - 1 + len(missing or [])
                which = (f"reported children ({len(f.concepts) - 1} of {n_all}) sum to"
                         if missing else "children sum to")  # fmt: skip
                fields.append(("values", f"reported {_num(f.values[0])}; {which} "
                                         f"{_num(f.values[1])}"))  # fmt: skip
            elif f.values:
                fields.append(("values", " | ".join(f.values[:4])))
            if missing:
                fields.append(("missing", ", ".join(missing)))
            for key, value in fields:
                out += wrap_text(value, width, f"  {key:<8} ", " " * 11)
            out += wrap_text(f.message, width, "  ", "    ")
    return "\n".join(out) + "\n"
