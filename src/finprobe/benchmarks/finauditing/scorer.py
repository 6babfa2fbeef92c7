"""FinAuditing scoring: answer parsers, the paper's metrics, and the summary.

- FinSM (retrieval): HR@k, R@k and Macro-F1@k for k = 1, 5, 10, 20 (appendix C.1).
  HR and R average over all N queries; MF1 averages per-query F1 over the N' queries
  whose gold set is non-empty. Concepts compare by local name, case-insensitively,
  so ``us-gaap:Cash`` and ``Cash`` are the same answer.
- FinRE (classification): accuracy, macro precision/recall/F1 over the three labels
  (appendix C.2), per-class F1 and the invalid-answer rate. An invalid answer counts
  as wrong and as a false negative of its gold class.
- FinMR (numeric reasoning): every answer gets one label of {A, S, E, C} (appendix
  C.3): S when the reply has no JSON with both values, E when the extracted value is
  not numerically equivalent to the reported one, C when the calculated value is not
  exactly the true one, else A. The paper asks an LLM judge for the label; here a
  deterministic judge decides it, and an optional LLM judge runs beside it.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from typing import Any

from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from finprobe.jsonout import extract_json
from finprobe.numbers import parse_number
from finprobe.runner import SampleRecord

SCORER_VERSION = "finauditing-1.0"
SUBTASKS = ("finsm", "finre", "finmr")
K_VALUES = (1, 5, 10, 20)
FINRE_LABELS = ("Reversal", "Inappropriateness", "CombinationErr")
FINMR_LABELS = ("A", "S", "E", "C")

# --------------------------------------------------------------------------- FinSM

_QNAME = re.compile(r"\b([A-Za-z][\w-]*):([A-Z][A-Za-z0-9_]+)\b")
_BARE = re.compile(r"\b([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*){1,})\b")


def concept_key(concept: str) -> str:
    """Comparison key of a concept: local name, lower case (prefix and case ignored)."""
    text = str(concept).strip().strip("\"'`")
    return text.rsplit(":", 1)[-1].rsplit("_", 1)[-1].lower() if text else ""


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = concept_key(item)
        if key and key not in seen:
            seen.add(key)
            out.append(item.strip())
    return out


def parse_ranked_concepts(completion: str) -> list[str] | None:
    """The ranked concept list of a FinSM reply; None when none can be found.

    A JSON list (or an object holding one) wins; otherwise concept QNames in the
    order they appear in the text.
    """
    data = extract_json(completion, want=None)
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if isinstance(data, list):
        names = []
        for item in data:
            if isinstance(item, dict):
                item = item.get("concept") or item.get("element") or item.get("name")
            if isinstance(item, str) and item.strip():
                names.append(item)
        if names:
            return _dedupe(names)
    found = [f"{m.group(1)}:{m.group(2)}" for m in _QNAME.finditer(completion or "")]
    if not found:
        found = [m.group(1) for m in _BARE.finditer(completion or "")]
    return _dedupe(found) or None


def retrieval_scores(predicted: list[str], gold: list[str]) -> dict[str, float]:
    """Per-query hit, recall, precision and F1 at each cutoff k."""
    gold_keys = {concept_key(g) for g in gold if concept_key(g)}
    ranked = [concept_key(p) for p in _dedupe(predicted)]
    out: dict[str, float] = {"has_gold": float(bool(gold_keys)), "parsed": 1.0}
    for k in K_VALUES:
        top = ranked[:k]
        hits = len(set(top) & gold_keys)
        precision = hits / len(top) if top else 0.0
        recall = hits / len(gold_keys) if gold_keys else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[f"hr@{k}"] = float(hits > 0)
        out[f"r@{k}"] = recall
        out[f"p@{k}"] = precision
        out[f"f1@{k}"] = f1
    return out


def summarize_finsm(records: list[SampleRecord]) -> dict[str, Any]:
    n = len(records)
    with_gold = [r for r in records if r.score.get("has_gold")]
    headline: dict[str, float] = {}
    for k in K_VALUES:
        headline[f"HR@{k}"] = _pct(sum(r.score.get(f"hr@{k}", 0.0) for r in records), n)
    for k in K_VALUES:
        headline[f"R@{k}"] = _pct(sum(r.score.get(f"r@{k}", 0.0) for r in records), n)
    for k in K_VALUES:
        total = sum(r.score.get(f"f1@{k}", 0.0) for r in with_gold)
        headline[f"MF1@{k}"] = _pct(total, len(with_gold))
    unparsed = sum(1 for r in records if not r.score.get("parsed"))
    return {
        "headline": headline,
        "metrics": {
            "n": n,
            "n_with_gold": len(with_gold),
            "unparseable_rate": _pct(unparsed, n),
            **_errors(records),
        },  # fmt: skip
        "breakdowns": {"source": _by_source(records, "hr@20")},
    }


# --------------------------------------------------------------------------- FinRE

_LABEL_PATTERNS = {
    "Reversal": re.compile(r"\breversal\b|\breversed\b", re.I),
    "Inappropriateness": re.compile(r"\binappropriate(?:ness)?\b", re.I),
    "CombinationErr": re.compile(r"\bcombination[\s_-]*err(?:or)?\b", re.I),
}


def normalize_label(text: Any, choices: tuple[str, ...] = FINRE_LABELS) -> str | None:
    """One of ``choices`` for a short answer ("reversal", "Combination Error", "B"), else None."""
    if text is None:
        return None
    value = str(text).strip().strip(".\"'`*").strip()
    if not value:
        return None
    for choice in choices:
        if value.lower() == choice.lower():
            return choice
    if len(value) == 1 and value.upper() in "ABC" and len(choices) == 3:
        return choices["ABC".index(value.upper())]
    hits = [label for label, pattern in _LABEL_PATTERNS.items() if pattern.search(value)]
    return hits[0] if len(hits) == 1 and hits[0] in choices else None


def parse_relation_label(completion: str, choices: tuple[str, ...] = FINRE_LABELS) -> str | None:
    """The FinRE label of a reply: from a JSON answer, an 'Answer:' line, or the one
    label the text names. None when absent or ambiguous."""
    data = extract_json(completion)
    if isinstance(data, dict):
        for key in ("answer", "label", "relation", "error_type", "type"):
            if key in data:
                label = normalize_label(data[key], choices)
                if label:
                    return label
    text = completion or ""
    lines = re.findall(r"(?im)^\W*(?:final\s+)?answer\s*[:：]\s*(.+)$", text)
    for line in reversed(lines):
        label = normalize_label(line, choices)
        if label:
            return label
    named = {label for label, pattern in _LABEL_PATTERNS.items() if pattern.search(text)}
    named &= set(choices)
    return named.pop() if len(named) == 1 else None


def classification_metrics(
    gold: list[str], predicted: list[str | None], labels: tuple[str, ...] = FINRE_LABELS
) -> dict[str, Any]:
    """Accuracy and macro P/R/F1 (percent); a class with no predictions has P = 0."""
    n = len(gold)
    correct = sum(1 for g, p in zip(gold, predicted, strict=True) if g == p)
    per_class: dict[str, dict[str, float]] = {}
    for label in labels:
        tp = sum(1 for g, p in zip(gold, predicted, strict=True) if g == label and p == label)
        fp = sum(1 for g, p in zip(gold, predicted, strict=True) if g != label and p == label)
        fn = sum(1 for g, p in zip(gold, predicted, strict=True) if g == label and p != label)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[label] = {"precision": precision, "recall": recall, "f1": f1,
                            "support": tp + fn}  # fmt: skip
    c = len(labels)
    return {
        "accuracy": _pct(correct, n),
        "macro_precision": round(100 * sum(v["precision"] for v in per_class.values()) / c, 2),
        "macro_recall": round(100 * sum(v["recall"] for v in per_class.values()) / c, 2),
        "macro_f1": round(100 * sum(v["f1"] for v in per_class.values()) / c, 2),
        "per_class": {
            k: {m: (x if m == "support" else round(100 * x, 2)) for m, x in v.items()}
            for k, v in per_class.items()
        },
        "invalid_rate": _pct(sum(1 for p in predicted if p is None), n),
    }


def summarize_finre(records: list[SampleRecord]) -> dict[str, Any]:
    gold = [str(r.metadata.get("label")) for r in records]
    predicted = [(r.score_metadata or {}).get("predicted") for r in records]
    m = classification_metrics(gold, predicted)
    headline = {k: m[k] for k in ("accuracy", "macro_precision", "macro_recall", "macro_f1")}
    for label, values in m["per_class"].items():
        headline[f"{label}.f1"] = values["f1"]
    confusion = Counter(f"{g}->{p}" for g, p in zip(gold, predicted, strict=True))
    return {
        "headline": headline,
        "metrics": {
            "n": len(records),
            "invalid_rate": m["invalid_rate"],
            "per_class": m["per_class"],
            **_errors(records),
        },  # fmt: skip
        "breakdowns": {
            "confusion": dict(sorted(confusion.items())),
            "source": _by_source(records, "correct"),
        },  # fmt: skip
    }


# --------------------------------------------------------------------------- FinMR


def to_decimal(value: Any) -> Decimal | None:
    """A number from a JSON value or text ("16,373,000", "$16.4 million", "(1,234)")."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    text = str(value).strip()
    if not text:
        return None
    plain = text.replace(",", "").replace("$", "").strip()
    try:
        return Decimal(plain)  # also scientific notation, which parse_number reads as text
    except InvalidOperation:
        pass
    parsed = parse_number(text)
    return parsed.value if parsed is not None else None


def parse_value_pair(completion: str) -> dict[str, Any] | None:
    """{extracted_value, calculated_value} of a FinMR reply, or None (structural error)."""
    data = extract_json(completion)
    if not isinstance(data, dict):
        return None
    lowered = {str(k).strip().lower().replace(" ", "_"): v for k, v in data.items()}
    if "extracted_value" not in lowered or "calculated_value" not in lowered:
        return None
    extracted = to_decimal(lowered["extracted_value"])
    calculated = to_decimal(lowered["calculated_value"])
    if extracted is None or calculated is None:
        return None
    return {
        "extracted_value": str(lowered["extracted_value"]),
        "calculated_value": str(lowered["calculated_value"]),
        "extracted": extracted,
        "calculated": calculated,
    }


def judge_value_pair(
    parsed: dict[str, Any] | None, gold_extracted: Any, gold_calculated: Any
) -> str:
    """The deterministic judge: one of A (accurate), S, E, C."""
    if parsed is None:
        return "S"
    extracted = to_decimal(gold_extracted)
    calculated = to_decimal(gold_calculated)
    if extracted is None or parsed["extracted"] != extracted:
        return "E"
    if calculated is None or parsed["calculated"] != calculated:
        return "C"
    return "A"


def finmr_values(label: str) -> dict[str, float]:
    return {
        "correct": float(label == "A"),
        "structural_error": float(label == "S"),
        "extraction_error": float(label == "E"),
        "calculation_error": float(label == "C"),
        "parsed": float(label != "S"),
    }


JUDGE_PROMPT = """You grade an answer to a two-part XBRL question.
Part 1 asks for the value reported in the filing; part 2 asks for the value implied by
the calculation relationships. Reference answer: {reference}
Model answer: {answer}

Label the model answer with exactly one letter:
A - valid JSON with both values, and both match the reference in mathematical meaning
S - no valid JSON with both "extracted_value" and "calculated_value"
E - the extracted value does not match the reference extracted value
C - the extracted value matches but the calculated value does not
Reply with the letter only."""


def parse_judge_label(text: str) -> str | None:
    match = re.search(r"\b([ASEC])\b", (text or "").strip().upper())
    return match.group(1) if match else None


def summarize_finmr(records: list[SampleRecord]) -> dict[str, Any]:
    n = len(records)
    counts = Counter((r.score_metadata or {}).get("label", "S") for r in records)
    headline = {
        "accuracy": _pct(counts["A"], n),
        "structural_error_rate": _pct(counts["S"], n),
        "extraction_error_rate": _pct(counts["E"], n),
        "calculation_error_rate": _pct(counts["C"], n),
    }
    metrics: dict[str, Any] = {"n": n, "labels": dict(counts), **_errors(records)}
    judged = [r for r in records if (r.score_metadata or {}).get("llm_judge_label")]
    if judged:
        agree = sum(1 for r in judged
                    if r.score_metadata["llm_judge_label"] == r.score_metadata.get("label"))  # fmt: skip
        llm_counts = Counter(r.score_metadata["llm_judge_label"] for r in judged)
        metrics["llm_judge"] = {
            "n": len(judged),
            "accuracy": _pct(llm_counts["A"], len(judged)),
            "agreement_with_deterministic": _pct(agree, len(judged)),
            "labels": dict(llm_counts),
        }
    return {"headline": headline, "metrics": metrics,
            "breakdowns": {"source": _by_source(records, "correct")}}  # fmt: skip


# --------------------------------------------------------------------------- shared


def _pct(numerator: float, denominator: int) -> float:
    return round(100.0 * numerator / denominator, 2) if denominator else 0.0


def _errors(records: list[SampleRecord]) -> dict[str, int]:
    return {"error_samples": sum(1 for r in records if r.error)}


def _by_source(records: list[SampleRecord], key: str) -> dict[str, dict[str, float]]:
    groups: dict[str, list[SampleRecord]] = {}
    for r in records:
        groups.setdefault(str(r.metadata.get("method") or "published"), []).append(r)
    return {
        name: {"n": len(group), key: _pct(sum(g.score.get(key, 0.0) for g in group), len(group))}
        for name, group in sorted(groups.items())
    }


def rescore(completion: str, metadata: dict[str, Any]) -> dict[str, float]:
    """Per-sample values for any subtask (offline re-scoring of a saved completion)."""
    values, _ = score_completion(completion, metadata)
    return values


def score_completion(completion: str, metadata: dict[str, Any]) -> tuple[dict[str, float], dict]:
    """(Score.value, Score.metadata) for one reply; never raises on a bad reply."""
    subtask = metadata.get("subtask")
    if subtask == "finsm":
        ranked = parse_ranked_concepts(completion)
        values = retrieval_scores(ranked or [], list(metadata.get("gold_concepts") or []))
        values["parsed"] = float(ranked is not None)
        return values, {"ranked": ranked}
    if subtask == "finre":
        choices = tuple(metadata.get("choices") or FINRE_LABELS)
        predicted = parse_relation_label(completion, choices)
        values = {"correct": float(predicted == metadata.get("label")),
                  "valid": float(predicted is not None)}  # fmt: skip
        return values, {"predicted": predicted}
    if subtask == "finmr":
        parsed = parse_value_pair(completion)
        label = judge_value_pair(parsed, metadata.get("extracted_value"),
                                 metadata.get("calculated_value"))  # fmt: skip
        shown = None if parsed is None else {k: parsed[k] for k in
                                              ("extracted_value", "calculated_value")}  # fmt: skip
        return finmr_values(label), {"label": label, "parsed": shown}
    raise ValueError(f"sample metadata has no known subtask: {subtask!r}")


def summarize(records: list[SampleRecord]) -> dict[str, Any]:
    """Summary for one subtask's records (detected from metadata)."""
    subtasks = {r.metadata.get("subtask") for r in records}
    if len(subtasks) > 1:
        return {
            "headline": {},
            "metrics": {
                s: summarize([r for r in records if r.metadata.get("subtask") == s])
                for s in sorted(str(s) for s in subtasks)
            },  # fmt: skip
            "breakdowns": {},
        }
    subtask = next(iter(subtasks), None)
    if subtask == "finsm":
        out = summarize_finsm(records)
    elif subtask == "finre":
        out = summarize_finre(records)
    elif subtask == "finmr":
        out = summarize_finmr(records)
    else:
        return {"headline": {}, "metrics": {"n": 0}, "breakdowns": {}}
    out["split"] = subtask  # which published table in data/published.json to compare with
    return out


@scorer(metrics={"*": [mean()]})
def finauditing_scorer(judge: str | None = None) -> Scorer:
    """Scores FinSM, FinRE or FinMR replies (the subtask comes from sample metadata).

    Args:
        judge: optional model for the FinMR LLM judge; its label is recorded beside
            the deterministic one (which alone decides the score).
    """

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion if state.output else ""
        values, meta = score_completion(completion, state.metadata)
        if judge and state.metadata.get("subtask") == "finmr":
            reference = {"extracted_value": state.metadata.get("extracted_value"),
                         "calculated_value": state.metadata.get("calculated_value")}  # fmt: skip
            prompt = JUDGE_PROMPT.format(reference=reference, answer=completion[-4000:])
            result = await get_model(judge).generate(prompt)
            meta["llm_judge_label"] = parse_judge_label(result.completion)
            meta["llm_judge_raw"] = result.completion[:200]
        answer = meta.get("predicted") or meta.get("label")
        if meta.get("ranked"):
            answer = ", ".join(meta["ranked"][:20])
        return Score(value=values, answer=answer, metadata=meta)

    return score
