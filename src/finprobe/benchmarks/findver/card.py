"""The data card of a FinDVer build: counts, self-check results and a claim-only probe.

The probe trains a classifier that sees only the claim's words (TF-IDF and
logistic regression, scikit-learn, the ``probes`` extra), scored with folds
grouped by report. It must stay near the majority rate: if wording alone gave
the label away, a verifier could score without reading the evidence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any


def claim_only_probe(claims: Sequence[dict[str, Any]], folds: int = 5) -> dict[str, Any]:
    """Accuracy of a claim-only classifier (folds grouped by report) beside the majority rate."""
    labels = [bool(c["entailment_label"]) for c in claims]
    majority = max(Counter(labels).values()) / len(labels) if labels else 0.0
    groups = [c["report"] for c in claims]
    n_folds = min(folds, len(set(groups)))
    out: dict[str, Any] = {"majority": round(100 * majority, 1), "folds": n_folds}
    if n_folds < 2 or len(set(labels)) < 2:
        return out | {"accuracy": None, "note": "too few reports or one label only"}
    try:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedGroupKFold, cross_val_predict
        from sklearn.pipeline import make_pipeline
    except ImportError:
        return out | {"accuracy": None, "note": "scikit-learn not installed (extra 'probes')"}
    model = make_pipeline(
        TfidfVectorizer(ngram_range=(1, 2), min_df=1, sublinear_tf=True),
        LogisticRegression(max_iter=1000),
    )
    texts = [c["statement"] for c in claims]
    cv = StratifiedGroupKFold(n_folds, shuffle=True, random_state=0)
    try:
        predicted = cross_val_predict(model, texts, labels, groups=groups, cv=cv)
    except ValueError as exc:  # a training fold with one label only
        return out | {"accuracy": None, "note": f"probe not fitted: {exc}"}
    correct = sum(p == y for p, y in zip(predicted, labels, strict=True))
    return out | {"accuracy": round(100 * correct / len(labels), 1)}


def data_card(
    claims: Sequence[dict[str, Any]],
    built: Sequence[dict[str, Any]],
    checks: Sequence[Any],
    probe: bool = True,
) -> dict[str, Any]:
    """Counts by kind, label and perturbation; self-check results; the claim-only probe."""

    def label(c: dict[str, Any]) -> str:
        return "entailed" if c["entailment_label"] else "refuted"

    failed = Counter(ch.reason for ch in checks if not ch.passed)
    dropped_by_kind = Counter(
        f"{c['kind']} {label(c)}" for c, ch in zip(built, checks, strict=True) if not ch.passed
    )
    card: dict[str, Any] = {
        "claims": len(claims),
        "reports": len({c["report"] for c in claims}),
        "tables": len({(c["report"], str(c["relevant_context"][0])) for c in claims}),
        "by_label": dict(sorted(Counter(label(c) for c in claims).items())),
        "by_kind": {
            f"{k} {lab}": n
            for (k, lab), n in sorted(Counter((c["kind"], label(c)) for c in claims).items())
        },
        "by_perturbation": dict(
            sorted(Counter(c["perturbation"] or "none" for c in claims).items())
        ),
        "self_check": {
            "checked": len(built),
            "passed": len(built) - sum(failed.values()),
            "dropped": sum(failed.values()),
            "dropped_by_reason": dict(failed.most_common()),
            "dropped_by_kind": dict(sorted(dropped_by_kind.items())),
            # the builder's cited figure is not the self-check's own reading of the cell (a
            # claim that passed every other check), by label: always shown, zero or not
            "cited_figure_mismatch": {
                lab: sum(
                    1
                    for c, ch in zip(built, checks, strict=True)
                    if ch.reason in _FIGURE_REASONS and label(c) == lab
                )
                for lab in ("entailed", "refuted")
            },
        },
    }
    if probe:
        card["claim_only_probe"] = claim_only_probe(claims)
    return card


_FIGURE_REASONS = ("cited figure is not the cell's", "cited figure not given")


def card_lines(card: dict[str, Any]) -> list[str]:
    """The card as plain lines for the terminal."""
    check = card["self_check"]
    lines = [
        f"claims: {card['claims']} from {card['reports']} reports, {card['tables']} tables; "
        f"labels {card['by_label']}",
        "by kind: " + ", ".join(f"{k} {n}" for k, n in card["by_kind"].items()),
        "by perturbation: " + ", ".join(f"{k} {n}" for k, n in card["by_perturbation"].items()),
        f"self-check: {check['passed']} of {check['checked']} passed, {check['dropped']} dropped"
        + (f" ({check['dropped_by_reason']})" if check["dropped"] else ""),
    ]
    if "cited_figure_mismatch" in check:
        lines.append(
            "cited figure is not the self-check's reading of the cell (dropped): "
            + ", ".join(f"{k} {n}" for k, n in check["cited_figure_mismatch"].items())
        )
    if probe := card.get("claim_only_probe"):
        acc = probe.get("accuracy")
        lines.append(
            f"claim-only probe (TF-IDF + logistic regression, {probe['folds']} folds by report): "
            + (f"{acc}%" if acc is not None else probe.get("note", "n/a"))
            + f" vs majority {probe['majority']}%"
        )
    return lines
