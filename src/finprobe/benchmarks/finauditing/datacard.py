"""The data card of a FinAuditing build: counts, re-check results, shortcut probes.

Shortcut probes ask whether an instance can be answered without the reasoning it is
meant to test:

* FinMR: can one fixed rule turn the reported (misstated) value into the "should be"
  value without reading the calculation children? Rules tried: the best single ratio
  over the build, identity, sign change, x1000, /1000, +/- one rounding step, and
  undoing one adjacent-digit swap (given the answer, so an upper bound). Target:
  no rule recovers more than 20% of the answers.
* FinSM: does string matching the query's term against the facts' labels find the
  mis-tagged concepts (the label-match shortcut)?
* FinRE: how much of each class do the two element names alone predict? By the
  paper's definition a CombinationErr names an axis and a member, so the name rule
  ("an Axis/Member/Domain element -> CombinationErr, else the commonest other
  class") gets it all; the card says so instead of hiding it. With scikit-learn, a
  bag-of-name-tokens classifier scored on filings it was not trained on is added.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from typing import Any

FINMR_SHORTCUT_TARGET = 0.20


def _answer(row: dict) -> tuple[Decimal, Decimal] | None:
    try:
        a = json.loads(row["answer"])
        return Decimal(a["extracted_value"]), Decimal(a["calculated_value"])
    except (KeyError, ValueError, InvalidOperation, TypeError):
        return None


def _step(row: dict) -> Decimal:
    """One unit of the asked fact's reported precision (from the sub-filing facts)."""
    ctx = ((row.get("truth") or {}).get("contexts") or [None])[0]
    for fact in (row.get("context") or {}).get("facts", []):
        if fact.get("concept") == row.get("concept") and fact.get("context") == ctx:
            dec = fact.get("decimals")
            if dec not in (None, "", "INF"):
                return Decimal(1).scaleb(-int(dec))
    return Decimal(1)


def _swap_recovers(e: Decimal, a: Decimal) -> bool:
    x, y = format(abs(e), "f"), format(abs(a), "f")
    if len(x) != len(y) or (e < 0) != (a < 0):
        return False
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and x[diff[0]] == y[diff[1]]


def finmr_shortcuts(rows: list[dict]) -> dict[str, Any]:
    cases = []
    for row in rows:
        pair = _answer(row)
        if pair is not None:
            cases.append((pair[0], pair[1], _step(row)))
    n = len(cases)
    if not n:
        return {"instances": 0}

    def share(rule) -> float:
        return round(sum(1 for e, a, s in cases if rule(e, a, s)) / n, 3)

    def close(x: Decimal, a: Decimal, s: Decimal) -> bool:
        return abs(x - a) <= s / 2

    rules = {
        "identity": lambda e, a, s: close(e, a, s),
        "negate": lambda e, a, s: close(-e, a, s),
        "x1000": lambda e, a, s: close(e * 1000, a, s),
        "/1000": lambda e, a, s: close(e / 1000, a, s),
        "+1 step": lambda e, a, s: e + s == a,
        "-1 step": lambda e, a, s: e - s == a,
        "undo one adjacent digit swap": lambda e, a, s: _swap_recovers(e, a),
    }
    shares = {name: share(rule) for name, rule in rules.items()}
    # the best single ratio: every observed answer/reported ratio (to 4 significant
    # digits) tried on all instances
    ratios = Counter()
    for e, a, _ in cases:
        if e != 0:
            ratios[float(f"{float(a / e):.4g}")] += 1
    best_ratio, best_share = None, 0.0
    for r in ratios:
        got = share(
            lambda e, a, s, r=r: close(e * Decimal(str(r)), a, max(s, abs(a) * Decimal("0.0005")))
        )
        if got > best_share:
            best_ratio, best_share = r, got
    shares[f"best single ratio ({best_ratio})"] = best_share
    top = max(shares.values())
    return {"instances": n, "shares": shares, "max_share": top,
            "target": FINMR_SHORTCUT_TARGET, "met": top <= FINMR_SHORTCUT_TARGET}  # fmt: skip


def _words(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words} - {
        "and",
        "of",
        "the",
        "for",
        "in",
        "to",
        "net",
        "total",
        "a",
        "an",
        "or",
        "line",
        "item",
    }


def _best_overlap(words: set[str], parts: list[set[str]]) -> float:
    return max((len(words & t) / len(words | t) for t in parts if t and words), default=0.0)


def finsm_shortcuts(rows: list[dict]) -> dict[str, Any]:
    """Can string matching the query's term against the facts' labels (or names) find
    the mis-tagged concepts without judging any tag?

    * label equals term: the concepts whose label equals a term part (case-blind); the
      share of instances where that is exactly the answer set, and where it hits one;
    * best label overlap, top 1: the concept whose label shares the most words with
      the term ranked first; the share where it is a mis-tagged concept;
    * term as a concept name: the term in CamelCase is the mis-tagged or the true
      concept's local name;
    * chance, top 1: the mean share of the sub-filing's concepts that are answers.
    """
    cases = 0
    exact = hit = top1 = camel = 0
    chance = 0.0
    for row in rows:
        gold = set(row.get("answer") or [])
        facts = (row.get("context") or {}).get("facts", [])
        labels: dict[str, str] = {}
        for fact in facts:
            labels.setdefault(fact["concept"], fact.get("label") or "")
        if not gold or not labels:
            continue
        cases += 1
        parts = [p.strip() for p in str(row.get("term", "")).split(";") if p.strip()]
        equal = {
            c for c, lab in labels.items() if lab.strip().lower() in {p.lower() for p in parts}
        }
        exact += bool(equal) and equal == gold
        hit += bool(equal & gold)
        term_words = [_words(p) for p in parts]
        score = {c: _best_overlap(_words(lab), term_words) for c, lab in labels.items()}
        ranked = sorted(labels, key=lambda c: (-score[c], c))
        top1 += bool(ranked and score[ranked[0]] > 0 and ranked[0] in gold)
        true = {r.get("original", "") for r in (row.get("truth") or {}).get("replacements", [])}
        names = {c.rsplit(":", 1)[-1].lower() for c in gold | true if c}
        camel += any(re.sub(r"[^a-z0-9]", "", p.lower()) in names for p in parts)
        chance += len(gold & set(labels)) / len(labels)
    if not cases:
        return {"instances": 0}
    return {"instances": cases,
            "shares": {"label equals term: exact answer set": round(exact / cases, 3),
                       "label equals term: hits an answer": round(hit / cases, 3),
                       "best label overlap with term, top 1": round(top1 / cases, 3),
                       "term in CamelCase is a gold or true concept": round(camel / cases, 3),
                       "chance, top 1": round(chance / cases, 3)}}  # fmt: skip


def _names_rule(elements: list[str]) -> bool:
    return any(e.rsplit(":", 1)[-1].endswith(("Axis", "Member", "Domain")) for e in elements)


def finre_name_probe(rows: list[dict]) -> dict[str, Any]:
    """Per class: the share of its instances the element names alone predict."""
    labels = [r["answer"] for r in rows]
    if not rows:
        return {"instances": 0}
    others = Counter(
        lab for lab, r in zip(labels, rows, strict=True) if not _names_rule(r["elements"])
    )
    fallback = others.most_common(1)[0][0] if others else "Reversal"
    preds = ["CombinationErr" if _names_rule(r["elements"]) else fallback for r in rows]
    out: dict[str, Any] = {"instances": len(rows), "name_rule": _per_class(labels, preds),
                           "name_rule_fallback": fallback}  # fmt: skip
    learned = _grouped_token_classifier(rows)
    if learned is not None:
        out["token_classifier_by_filing"] = learned
    return out


def _per_class(labels: list[str], preds: list[str]) -> dict[str, Any]:
    out = {}
    for cls in sorted(set(labels)):
        idx = [i for i, lab in enumerate(labels) if lab == cls]
        out[cls] = {
            "n": len(idx),
            "predicted": round(sum(preds[i] == cls for i in idx) / len(idx), 3),
        }
    return out


def _grouped_token_classifier(rows: list[dict]) -> dict[str, Any] | None:
    try:
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        return None

    filings = sorted({r["filing"] for r in rows})
    if len(filings) < 2:
        return None

    def text(r: dict) -> str:
        names = [e.rsplit(":", 1)[-1] for e in r["elements"]]
        return " ".join(re.sub(r"([a-z])([A-Z])", r"\1 \2", n) for n in names)

    labels = [r["answer"] for r in rows]
    preds = [""] * len(rows)
    for held in filings:  # train on the other filings, predict this one
        train = [i for i, r in enumerate(rows) if r["filing"] != held]
        test = [i for i, r in enumerate(rows) if r["filing"] == held]
        if len({labels[i] for i in train}) < 2:
            continue
        vec = CountVectorizer(lowercase=True, token_pattern=r"[A-Za-z]+")
        x = vec.fit_transform([text(rows[i]) for i in train])
        model = LogisticRegression(max_iter=1000).fit(x, [labels[i] for i in train])
        for i, p in zip(
            test, model.predict(vec.transform([text(rows[i]) for i in test])), strict=True
        ):
            preds[i] = p
    return _per_class(labels, preds)


def data_card(rows: dict[str, list[dict]], recheck: dict[str, Any]) -> dict[str, Any]:
    kinds = Counter(((r.get("truth") or {}).get("details") or {}).get("kind")
                    or (r.get("truth") or {}).get("kind") or r.get("method") for r in rows.get("finmr", []))  # fmt: skip
    return {
        "counts": {task: len(items) for task, items in rows.items()},
        "by_method": {
            task: dict(Counter(r.get("method") for r in items)) for task, items in rows.items()
        },  # fmt: skip
        "finmr_error_kinds": dict(kinds),
        "finre_labels": dict(Counter(r["answer"] for r in rows.get("finre", []))),
        "by_filing": {
            task: dict(Counter(r.get("filing") for r in items)) for task, items in rows.items()
        },
        "recheck": {
            task: {
                "checked": v["checked"],
                "passed": v["passed"],
                "failed": v["failed"][:20],
                **(
                    {"inconsistent_under": v["inconsistent_under"]}
                    if "inconsistent_under" in v
                    else {}
                ),
            }
            for task, v in recheck.items()
        },  # fmt: skip
        "shortcuts": {
            "finmr": finmr_shortcuts(rows.get("finmr", [])),
            "finre": finre_name_probe(rows.get("finre", [])),
            "finsm": finsm_shortcuts(rows.get("finsm", [])),
        },  # fmt: skip
    }


def data_card_markdown(card: dict[str, Any]) -> str:
    lines = ["# FinAuditing build: data card", ""]
    lines.append("| task | instances | by method |")
    lines.append("|---|---|---|")
    for task, n in card["counts"].items():
        lines.append(f"| {task} | {n} | {card['by_method'].get(task, {})} |")
    lines += ["", f"FinMR error kinds: {card['finmr_error_kinds']}",
              f"FinRE labels: {card['finre_labels']}", "", "## Re-check against the filings", ""]  # fmt: skip
    for task, r in card["recheck"].items():
        lines.append(f"- {task}: {r['passed']} of {r['checked']} hold")
        if "inconsistent_under" in r:
            inc = r["inconsistent_under"]
            lines.append(f"  - reported value inconsistent with its children: XBRL 2.1 "
                         f"{inc['xbrl21']} of {r['checked']}, Calculations 1.1 "
                         f"{inc['calc11']} of {r['checked']}")  # fmt: skip
        for fail in r["failed"]:
            lines.append(f"  - {fail['id']}: {fail['why']}")
    sc = card["shortcuts"]["finmr"]
    lines += ["", "## Shortcut probes", ""]
    if sc.get("instances"):
        lines.append(f"FinMR ({sc['instances']} instances; target: no rule above "
                     f"{sc['target']:.0%}; {'met' if sc['met'] else 'NOT met'}):")  # fmt: skip
        for name, share in sc["shares"].items():
            lines.append(f"- {name}: {share:.1%}")
    fr = card["shortcuts"]["finre"]
    if fr.get("instances"):
        lines.append("")
        lines.append("FinRE, share of each class the element names alone predict:")
        lines.append(f"(name rule: an Axis/Member/Domain element -> CombinationErr, every other "
                     f"pair -> {fr['name_rule_fallback']}, a constant)")  # fmt: skip
        for cls, v in fr["name_rule"].items():
            lines.append(f"- name rule, {cls} (n={v['n']}): {v['predicted']:.1%}")
        for cls, v in fr.get("token_classifier_by_filing", {}).items():
            lines.append(f"- name-token classifier, unseen filings, {cls}: {v['predicted']:.1%}")
    fs = card["shortcuts"].get("finsm", {})
    if fs.get("instances"):
        lines += ["", f"FinSM ({fs['instances']} instances), string matching the query's term "
                      "against the facts' labels:"]  # fmt: skip
        for name, share in fs["shares"].items():
            lines.append(f"- {name}: {share:.1%}")
    return "\n".join(lines) + "\n"
