"""Re-check built FinAuditing instances against their filings by a separate code path.

The builder works on ``finprobe.xbrl.filing.Filing`` objects; this module does not.
It re-reads the instance and the calculation linkbase straight from the files with
lxml (facts by local name and contextRef, summation arcs by locator label) and checks
that each instance says what the original filing supports:

* FinMR, injected: the original total equals the "should be" value, every calculation
  child is reported in the context and they add up to it exactly, the misstated
  value follows from the original by the stated kind of error, and it is inconsistent
  with the children under both XBRL 2.1 and Calculations 1.1 (implemented here again);
* FinMR, from findings: the filing reports the extracted value, its children (all
  reported) add up to the calculated one, and both rules find it inconsistent;
* FinRE: the original relation exists and the injected one does not;
* FinSM: the replaced concept is reported in the filing and its replacement is not.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from lxml import etree

from finprobe.xbrl.linkbase import SUMMATION_ARCROLES as _SUMMATION
from finprobe.xbrl.linkbase import secure_parser

_XLINK = "{http://www.w3.org/1999/xlink}"


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1].rsplit("}", 1)[-1]


@dataclass
class RawFiling:
    """What the files say, read without the loader."""

    facts: dict[tuple[str, str], list[tuple[Decimal, str | None]]] = field(default_factory=dict)
    dims: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # context -> (axis, member)
    calc: dict[str, set[tuple[str, str, Decimal]]] = field(default_factory=dict)  # role -> arcs
    concepts: set[str] = field(default_factory=set)  # local names with any fact


def _files(folder: Path) -> tuple[Path, Path | None]:
    xml = sorted(folder.glob("*.xml"))
    cal = next((p for p in xml if p.stem.endswith("_cal")), None)
    rest = [p for p in xml if not p.stem.endswith(("_cal", "_pre", "_def", "_lab"))]
    if not rest:
        raise FileNotFoundError(f"{folder}: no instance file")
    return rest[0], cal


def read_raw(folder: str | Path) -> RawFiling:
    folder = Path(folder)
    instance, cal = _files(folder)
    raw = RawFiling()
    root = etree.parse(str(instance), secure_parser()).getroot()
    facts: dict[tuple[str, str], list[tuple[Decimal, str | None]]] = defaultdict(list)
    for el in root.iter(etree.Element):
        local = _local(el.tag)
        if local == "context":
            pairs = set()
            for mem in el.iter("{http://xbrl.org/2006/xbrldi}explicitMember"):
                pairs.add((_local(mem.get("dimension", "")), _local((mem.text or "").strip())))
            raw.dims[el.get("id", "")] = pairs
            continue
        ctx = el.get("contextRef")
        if ctx is None:
            continue
        raw.concepts.add(local)
        if el.get("unitRef") is None:
            continue
        try:
            value = Decimal((el.text or "").strip())
        except InvalidOperation:
            continue
        if value.is_finite():
            facts[(local, ctx)].append((value, el.get("decimals")))
    raw.facts = dict(facts)
    if cal is not None:
        croot = etree.parse(str(cal), secure_parser()).getroot()
        for link in croot.iter("{http://www.xbrl.org/2003/linkbase}calculationLink"):
            role = link.get(_XLINK + "role", "")
            locs: dict[str, str] = {}
            for loc in link.iter("{http://www.xbrl.org/2003/linkbase}loc"):
                frag = loc.get(_XLINK + "href", "").rpartition("#")[2]
                locs[loc.get(_XLINK + "label", "")] = frag.split("_", 1)[-1]
            arcs = raw.calc.setdefault(role, set())
            for arc in link.iter("{http://www.xbrl.org/2003/linkbase}calculationArc"):
                if arc.get(_XLINK + "arcrole") not in _SUMMATION or arc.get("use") == "prohibited":
                    continue
                src, dst = (
                    locs.get(arc.get(_XLINK + "from", "")),
                    locs.get(arc.get(_XLINK + "to", "")),
                )
                if src and dst:
                    arcs.add((src, dst, Decimal(arc.get("weight", "1"))))
    return raw


def _dec(d: str | None) -> float:
    return float("inf") if d in (None, "INF") else float(d)


def _one(raw: RawFiling, concept: str, ctx: str) -> Decimal | None:
    """The fact's value; duplicates must agree at the coarsest decimals among them,
    and then the most precise one counts (XBRL 2.1 consistent duplicates)."""
    found = raw.facts.get((_local(concept), ctx), [])
    if not found:
        return None
    coarse = min(_dec(d) for _, d in found)
    if coarse != float("inf"):
        q = Decimal(1).scaleb(-int(coarse))
        if len({v.quantize(q) for v, _ in found}) > 1:
            return None
    elif len({v for v, _ in found}) > 1:
        return None
    return max(found, key=lambda vd: _dec(vd[1]))[0]


def _dec_of(raw: RawFiling, concept: str, ctx: str) -> int | None:
    """Decimals of the fact that counts (the most precise); None for INF or none."""
    found = raw.facts.get((_local(concept), ctx), [])
    if not found:
        return None
    best = max(_dec(d) for _, d in found)
    return None if best == float("inf") else int(best)


def _half(d: int | None) -> Decimal:
    return Decimal(0) if d is None else Decimal(1).scaleb(-d) / 2


def _round(v: Decimal, d: int | None) -> Decimal:
    return v if d is None else v.quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN)


def rule_verdicts(total: Decimal, total_dec: int | None,
                  children: list[tuple[Decimal, int | None, Decimal]]) -> dict[str, bool]:  # fmt: skip
    """Is ``total`` consistent with its (value, decimals, weight) children?  Written
    here again, apart from ``check_summation``, so the builder is checked by other code.

    XBRL 2.1 (5.2.5.2): children rounded to their decimals, weighted sum rounded to the
    total's decimals, equal to the total so rounded. Calculations 1.1: each value is the
    interval it may have been rounded from; consistent when the intervals meet.
    """
    rounded = sum((w * _round(v, d) for v, d, w in children), Decimal(0))
    xbrl21 = _round(total, total_dec) == _round(rounded, total_dec)
    lo = sum((min(w * (v - _half(d)), w * (v + _half(d))) for v, d, w in children), Decimal(0))
    hi = sum((max(w * (v - _half(d)), w * (v + _half(d))) for v, d, w in children), Decimal(0))
    calc11 = total - _half(total_dec) <= hi and lo <= total + _half(total_dec)
    return {"xbrl21": xbrl21, "calc11": calc11}


def finmr_verdicts(row: dict[str, Any], raw: RawFiling) -> dict[str, bool] | None:
    """The two rules' verdicts on the instance's reported (extracted) value against the
    children the filing reports; None when a child is missing."""
    ctx = (((row.get("truth") or {}).get("contexts")) or [None])[0]
    concept = _local(row.get("concept", ""))
    children = []
    for p, c, w in raw.calc.get(row.get("role", ""), set()):
        if p != concept:
            continue
        value = _one(raw, c, ctx)
        if value is None:
            return None
        children.append((value, _dec_of(raw, c, ctx), w))
    if not children:
        return None
    extracted = Decimal(json.loads(row["answer"])["extracted_value"])
    return rule_verdicts(extracted, _dec_of(raw, concept, ctx), children)


def _adjacent_swap(a: Decimal, b: Decimal) -> bool:
    x, y = format(abs(a), "f"), format(abs(b), "f")
    if len(x) != len(y) or (a < 0) != (b < 0):
        return False
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and x[diff[0]] == y[diff[1]] \
        and x[diff[1]] == y[diff[0]]  # fmt: skip


def recheck_finmr(row: dict[str, Any], raw: RawFiling) -> str | None:
    """None when the instance holds against the filing, else what is wrong."""
    truth = row.get("truth") or {}
    contexts = truth.get("contexts") or []
    if not contexts:
        return "no context recorded"
    ctx = contexts[0]
    concept = _local(row["concept"])
    answer = json.loads(row["answer"])
    extracted, calculated = Decimal(answer["extracted_value"]), Decimal(answer["calculated_value"])
    children = [(c, w) for p, c, w in raw.calc.get(row["role"], set()) if p == concept]
    if not children:
        return f"{concept} has no calculation children in the role"
    total = Decimal(0)
    for child, weight in children:
        value = _one(raw, child, ctx)
        if value is None:
            return f"child {child} is not reported (or not uniquely) in {ctx}"
        total += weight * value
    if total != calculated:
        return f"children add to {total}, not the calculated {calculated}"
    reported = _one(raw, concept, ctx)
    if reported is None:
        return f"{concept} is not reported in {ctx}"
    # a misstatement must be an error by both published summation rules
    verdicts = finmr_verdicts(row, raw) or {}
    held = [r for r in ("xbrl21", "calc11") if verdicts.get(r, True)]
    if held:
        names = {"xbrl21": "XBRL 2.1", "calc11": "Calculations 1.1"}
        return (f"the extracted {extracted} is consistent with its children under "
                f"{' and '.join(names[r] for r in held)}: not an error")  # fmt: skip
    if row.get("method") == "dqc":
        if reported != extracted:
            return f"the filing reports {reported}, not the extracted {extracted}"
        return None if reported != total else "the filing's total is consistent"
    if reported != calculated:
        return f"the original total {reported} differs from the calculated {calculated}"
    details = truth.get("details") or {}
    kind = details.get("kind")
    if extracted == reported:
        return "the misstated value equals the original"
    if kind == "transposed_digits":
        ok = _adjacent_swap(reported, extracted)
    elif kind in ("omitted_component", "double_counted", "sign_flip"):
        comp = details.get("component", "")
        weight = next((w for c, w in children if c == _local(comp)), None)
        value = _one(raw, comp, ctx)
        if weight is None or value is None:
            return f"component {comp} is not a reported child"
        factor = {"omitted_component": -1, "double_counted": 1, "sign_flip": -2}[kind]
        ok = extracted == reported + factor * weight * value
    elif kind == "scale_slip":
        ok = extracted in (reported * 1000, reported / 1000)
    elif kind == "rounding_slip":
        # the rounded figure: the original at the stated number of significant digits
        digits = int(details.get("significant_digits", 0))
        if digits < 1:
            return "rounding slip without its significant digits"
        q = Decimal(1).scaleb(reported.adjusted() - digits + 1)
        ok = extracted == reported.quantize(q, rounding=ROUND_HALF_UP)
    else:
        return f"unknown kind {kind!r}"
    return (
        None if ok else f"the misstated value {extracted} does not follow from {reported} by {kind}"
    )


def recheck_finre(row: dict[str, Any], raw: RawFiling) -> str | None:
    truth = row.get("truth") or {}
    label = row.get("answer")
    if row.get("method") != "inject":
        return None  # from a DQC finding: the finding itself is the evidence
    if label in ("Reversal", "Inappropriateness"):
        arcs = {(p, c) for p, c, _ in raw.calc.get(row["role"], set())}
        src, _, dst = str(truth.get("original", "")).partition(" -> ")
        isrc, _, idst = str(truth.get("injected", "")).partition(" -> ")
        if (_local(src), _local(dst)) not in arcs:
            return f"original relation {src} -> {dst} not in the filing"
        if (_local(isrc), _local(idst)) in arcs:
            return f"injected relation {isrc} -> {idst} is already in the filing"
        return None
    if label == "CombinationErr":
        axis, member = _local(str(truth.get("original", ""))), _local(row["elements"][1])
        new_axis = _local(str(truth.get("injected", "")))
        pairs = set().union(*raw.dims.values()) if raw.dims else set()
        if (axis, member) not in pairs:
            return f"{member} is not on {axis} in the filing"
        if (new_axis, member) in pairs:
            return f"{member} is already on {new_axis} in the filing"
        return None
    return f"unknown label {label!r}"


def recheck_finsm(row: dict[str, Any], raw: RawFiling) -> str | None:
    if row.get("method") != "inject":
        return None
    for rep in (row.get("truth") or {}).get("replacements", []):
        if _local(rep["original"]) not in raw.concepts:
            return f"{rep['original']} is not reported in the filing"
        if _local(rep["injected"]) in raw.concepts:
            return f"the replacement {rep['injected']} is already reported in the filing"
    return None


CHECKERS = {"finmr": recheck_finmr, "finre": recheck_finre, "finsm": recheck_finsm}


def recheck_rows(rows: dict[str, list[dict]], folders: dict[str, Path]) -> dict[str, Any]:
    """Counts of instances that hold / fail per task, with the failures listed."""
    cache: dict[str, RawFiling] = {}
    out: dict[str, Any] = {}
    for task, items in rows.items():
        passed, failed = 0, []
        for row in items:
            folder = folders.get(row.get("filing", ""))
            if folder is None:
                failed.append({"id": row["id"], "why": "filing folder unknown"})
                continue
            try:
                raw = cache.get(row["filing"]) or cache.setdefault(row["filing"], read_raw(folder))
                why = CHECKERS[task](row, raw)
            except (OSError, etree.XMLSyntaxError, KeyError, ValueError) as exc:
                why = f"could not re-check: {exc}"
            if why is None:
                passed += 1
            else:
                failed.append({"id": row["id"], "why": why})
        out[task] = {"checked": len(items), "passed": passed, "failed": failed}
        if task == "finmr":
            # how many reported values each summation rule finds inconsistent
            counts = {"xbrl21": 0, "calc11": 0}
            for row in items:
                raw = cache.get(row.get("filing", ""))
                verdicts = finmr_verdicts(row, raw) if raw is not None else None
                for rule in counts:
                    counts[rule] += bool(verdicts is not None and not verdicts[rule])
            out[task]["inconsistent_under"] = counts
    return out
