"""Non-LLM baselines: each is ``metadata -> completion text`` (no answers in metadata).

- ``finmr_solver``: read the reported value of the asked concept from the sub-filing's
  facts and recompute it from its calculation children in the same context.
- ``finre_classifier``: rules over calculation/definition structure. Axis or member
  involved -> CombinationErr; putting the filed child back above its filed parent
  makes the summations hold -> Reversal; otherwise Inappropriateness.
- ``finsm_retriever``: rank the sub-filing's concepts by evidence of a mis-tag: the
  label matches the queried term, the concept name disagrees with its label, and the
  concept takes part in a calculation that does not add up.

They read the structured ``context`` that ``finprobe build finauditing`` stores; for
rows without one (the published datasets) they fall back to the compact sub-filing
text in the query when it is there.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from decimal import Decimal, InvalidOperation
from typing import Any

from finprobe.numbers import plain_decimal

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_STOP = {"and", "of", "the", "for", "in", "to", "on", "at", "by", "from", "or", "net", "total",
         "value", "carrying", "amount", "a", "an", "with", "including", "excluding"}  # fmt: skip


# --------------------------------------------------------------------------- context


def context_from_text(text: str) -> dict[str, Any] | None:
    """Rebuild the structured context from the compact sub-filing text in a query."""
    if "## Facts:" not in text:
        return None
    facts: list[dict] = []
    calc: list[list] = []
    defn: list[list] = []
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].split(":", 1)[0].strip().lower()
            continue
        if not line.strip() or line.startswith(("===", "...")):
            continue
        if section == "facts":
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) < 7:
                continue
            dims = {}
            if parts[3] != "-":
                for pair in parts[3].split(", "):
                    key, _, value = pair.partition("=")
                    dims[key] = value
            facts.append({"concept": parts[0], "label": parts[1], "context": parts[2] + "|" + parts[3],
                          "period": parts[2], "dims": dims, "value": parts[4], "unit": parts[5],
                          "decimals": "" if parts[6] == "-" else parts[6]})  # fmt: skip
        elif section == "calculation" and " = " in line:
            parent, _, terms = line.partition(" = ")
            for term in re.findall(r"([+-])(?:([\d.]+)\*)?(\S+)", terms):
                sign, weight, child = term
                w = float(weight or 1) * (-1 if sign == "-" else 1)
                calc.append([parent.strip(), child, w])
        elif section == "definition" and ": " in line and " -> " in line:
            arcrole, _, rest = line.partition(": ")
            source, _, target = rest.partition(" -> ")
            defn.append([arcrole.strip(), source.strip(), target.strip()])
    return {"facts": facts, "calc": calc, "defn": defn, "pres": []}


def _context(metadata: dict) -> dict[str, Any]:
    ctx = metadata.get("context")
    if isinstance(ctx, str):
        try:
            ctx = json.loads(ctx)
        except json.JSONDecodeError:
            ctx = None
    if isinstance(ctx, dict):
        return ctx
    return context_from_text(str(metadata.get("query", ""))) or {
        "facts": [],
        "calc": [],
        "defn": [],
    }


def _number(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value).replace(",", ""))
    except (InvalidOperation, TypeError):
        return None


def _half_step(decimals: str) -> Decimal:
    if not decimals or decimals == "INF":
        return Decimal(0)
    try:
        return Decimal(1).scaleb(-int(decimals)) / 2
    except ValueError:
        return Decimal(0)


class FactTable:
    """Numeric facts keyed by (concept, context) with their rounding tolerance."""

    def __init__(self, ctx: dict[str, Any]) -> None:
        self.values: dict[tuple[str, str], tuple[Decimal, Decimal]] = {}
        self.contexts: dict[str, dict] = {}
        for fact in ctx.get("facts", []):
            number = _number(fact.get("value"))
            if number is None:
                continue
            key = (fact["concept"], fact["context"])
            self.values.setdefault(key, (number, _half_step(str(fact.get("decimals") or ""))))
            self.contexts[fact["context"]] = fact
        self.children: dict[str, list[tuple[str, Decimal]]] = defaultdict(list)
        for parent, child, weight in ctx.get("calc", []):
            w = Decimal(str(weight))
            self.children[parent].append((child, Decimal(int(w)) if w == int(w) else w))

    def plain_contexts(self) -> list[str]:
        return [c for c, f in self.contexts.items() if not f.get("dims")]

    def holds(self, parent: str, children: list[tuple[str, Decimal]], context: str) -> bool | None:
        """Does parent = sum(weight * child) hold in the context? None: not testable."""
        total = self.values.get((parent, context))
        items = [(self.values.get((c, context)), w) for c, w in children]
        items = [(v, w) for v, w in items if v is not None]
        if total is None or not items:
            return None
        computed = sum((w * v[0] for v, w in items), Decimal(0))
        tolerance = total[1] + sum((abs(w) * v[1] for v, w in items), Decimal(0))
        return abs(total[0] - computed) <= tolerance

    def holding_share(self, parent: str, children: list[tuple[str, Decimal]]) -> float | None:
        results = [self.holds(parent, children, c) for c in self.plain_contexts()]
        tested = [r for r in results if r is not None]
        return sum(tested) / len(tested) if tested else None


# --------------------------------------------------------------------------- FinMR


def _question_target(metadata: dict) -> tuple[str | None, str | None]:
    concept, period = metadata.get("concept"), metadata.get("period")
    if concept and period:
        return concept, period
    match = re.search(
        r"report for (\S+) \(.*?\) for (.+?)(?: \((.+)\))?\?", str(metadata.get("query", ""))
    )
    return (match.group(1), match.group(2)) if match else (concept, period)


def finmr_solver(metadata: dict) -> str:
    ctx = _context(metadata)
    concept, period = _question_target(metadata)
    table = FactTable(ctx)
    candidates = [f for f in ctx.get("facts", []) if f["concept"] == concept
                  and (period is None or f.get("period") == period)]  # fmt: skip
    plain = [f for f in candidates if not f.get("dims")] or candidates
    if not plain:
        return json.dumps({"extracted_value": None, "calculated_value": None})
    fact = plain[0]
    extracted = _number(fact["value"])
    calculated = Decimal(0)
    found = False
    for child, weight in table.children.get(concept, []):
        value = table.values.get((child, fact["context"]))
        if value is not None:
            calculated += weight * value[0]
            found = True
    if not found:
        calculated = extracted if extracted is not None else Decimal(0)
    return json.dumps(
        {"extracted_value": _plain(extracted), "calculated_value": _plain(calculated)}
    )


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else plain_decimal(value)


# --------------------------------------------------------------------------- FinRE


def _is_dimensional(name: str, ctx: dict[str, Any]) -> bool:
    local = name.rsplit(":", 1)[-1]
    if local.endswith(("Axis", "Member", "Domain")):
        return True
    for fact in ctx.get("facts", []):
        dims = fact.get("dims") or {}
        if name in dims or name in dims.values():
            return True
    return False


def _elements(metadata: dict) -> list[str]:
    elements = metadata.get("elements")
    if isinstance(elements, (list, tuple)) and len(elements) >= 2:
        return [str(e) for e in elements[:2]]
    query = str(metadata.get("query", ""))
    found = re.findall(r"(?m)^Element [12]:\s*(\S+)", query)
    return found[:2]


def classify_relation(metadata: dict) -> str:
    ctx = _context(metadata)
    elements = _elements(metadata)
    if len(elements) < 2:
        return "Inappropriateness"
    first, second = elements
    if _is_dimensional(first, ctx) or _is_dimensional(second, ctx):
        return "CombinationErr"
    table = FactTable(ctx)
    # which of the two is the filed calculation parent?
    if any(c == second for c, _ in table.children.get(first, [])):
        parent, child = first, second
    elif any(c == first for c, _ in table.children.get(second, [])):
        parent, child = second, first
    else:
        return "Inappropriateness"  # no calculation link: a presentation/grouping problem
    weight = next(w for c, w in table.children[parent] if c == child)
    # Reversal: the filed child, given the filed parent back as a component, adds up
    restored = table.holding_share(child, table.children.get(child, []) + [(parent, weight)])
    as_filed = table.holding_share(child, table.children.get(child, []))
    # Inappropriateness: the filed parent adds up once the child is taken away
    without = table.holding_share(parent, [(c, w) for c, w in table.children[parent] if c != child])
    with_child = table.holding_share(parent, table.children[parent])
    reversal = (restored or 0) - (as_filed or 0)
    inappropriate = (without or 0) - (with_child or 0)
    if reversal > 0 and reversal >= inappropriate:
        return "Reversal"
    if inappropriate > 0:
        return "Inappropriateness"
    # no arithmetic evidence: a parent smaller than its child suggests a swap
    bigger = 0
    for context in table.plain_contexts():
        p, c = table.values.get((parent, context)), table.values.get((child, context))
        if p is not None and c is not None:
            bigger += 1 if abs(c[0]) > abs(p[0]) else -1
    return "Reversal" if bigger > 0 else "Inappropriateness"


def finre_classifier(metadata: dict) -> str:
    return json.dumps({"answer": classify_relation(metadata)})


# --------------------------------------------------------------------------- FinSM


def _tokens(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", _CAMEL.sub(" ", text).lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words} - _STOP


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _query_term(metadata: dict) -> str:
    if metadata.get("term"):
        return str(metadata["term"])
    match = re.search(r"(?m)^Query:\s*(.+)$", str(metadata.get("query", "")))
    return match.group(1) if match else ""


def rank_concepts(metadata: dict) -> list[str]:
    ctx = _context(metadata)
    table = FactTable(ctx)
    term_sets = [_tokens(t) for t in _query_term(metadata).split(";")]
    labels: dict[str, str] = {}
    for fact in ctx.get("facts", []):
        labels.setdefault(fact["concept"], fact.get("label") or "")
    failing: set[str] = set()
    for parent, children in table.children.items():
        share = table.holding_share(parent, children)
        if share is not None and share < 1:
            failing.add(parent)
            failing.update(c for c, _ in children)
    scores: dict[str, float] = {}
    for concept, label in labels.items():
        label_tokens = _tokens(label)
        name_tokens = _tokens(concept.rsplit(":", 1)[-1])
        term_match = max((_overlap(label_tokens, t) for t in term_sets if t), default=0.0)
        mismatch = 1.0 - _overlap(name_tokens, label_tokens)
        scores[concept] = 2.0 * term_match + mismatch + (0.5 if concept in failing else 0.0)
    return sorted(scores, key=lambda c: (-scores[c], c))


def finsm_retriever(metadata: dict) -> str:
    return json.dumps(rank_concepts(metadata)[:20])


BASELINES = {
    "finsm-retriever": finsm_retriever,
    "finre-classifier": finre_classifier,
    "finmr-solver": finmr_solver,
}
