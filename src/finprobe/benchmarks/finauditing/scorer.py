"""FinAuditing scoring: answer parsers, the paper's metrics, and the summary.

- FinSM (retrieval): HR@k, R@k and Macro-F1@k for k = 1, 5, 10, 20 (appendix C.1).
  HR and R average over all N queries; MF1 averages per-query F1 over the N' queries
  whose gold set is non-empty. Two protocols, both always computed:
  ``reference`` (the headline) is the released example notebook's matching: the
  reply's JSON list as written, concepts equal only as exact strings, repeated
  predictions kept inside the top-k, recall divided by the length of the gold list;
  ``lenient`` reads concept names out of prose too, folds case and the ``us-gaap``
  prefix forms, drops repeats before the cut and divides recall by the gold set. It
  never merges concepts of different taxonomies or extension names.
- FinRE (classification): accuracy, macro precision/recall/F1 over the three labels
  (appendix C.2), per-class F1 and the invalid-answer rate. An invalid answer counts
  as wrong and as a false negative of its gold class.
- FinMR (numeric reasoning): every answer gets one label of {A, S, E, C} (appendix
  C.3), read as the released judge instructions define them: S when the reply is not
  a JSON object with exactly the keys ``extracted_value`` and ``calculated_value``;
  E when the extracted value differs in mathematical meaning from the reported one
  (a value that is not a number, such as "N/A" or null, differs); C when the
  calculated value is not exactly the true one; else A. Percent signs and scale
  words keep their meaning ("564%" is 5.64). The paper asks an LLM judge for the
  label; here a deterministic judge decides it, and an optional LLM judge runs
  beside it.
"""

from __future__ import annotations

import ast
import codecs
import contextlib
import json
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

SCORER_VERSION = "finauditing-1.1"  # 1.1: reference protocols of the released notebooks
SUBTASKS = ("finsm", "finre", "finmr")
K_VALUES = (1, 5, 10, 20)
FINRE_LABELS = ("Reversal", "Inappropriateness", "CombinationErr")
FINMR_LABELS = ("A", "S", "E", "C")

# --------------------------------------------------------------------------- FinSM

_QNAME = re.compile(r"\b([A-Za-z][\w-]*):([A-Z][A-Za-z0-9_]+)\b")
_BARE = re.compile(r"\b([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*){1,})\b")


# Namespace prefixes of the standard taxonomies. FinSM concepts are US-GAAP's, so a
# bare name means ``us-gaap``; other known prefixes stay part of the name.
DEFAULT_NAMESPACE = "us-gaap"
KNOWN_NAMESPACES = ("us-gaap", "ifrs-full", "dei", "srt", "country", "currency", "exch",
                    "invest", "naics", "sic", "stpr", "ecd", "cyd", "rr", "spac")  # fmt: skip
_PREFIXED = re.compile(rf"^({'|'.join(re.escape(n) for n in KNOWN_NAMESPACES)})[:_]", re.I)


def concept_key(concept: str) -> str:
    """Lenient comparison key: case folded, and a known namespace prefix written as
    ``prefix:`` or ``prefix_`` read the same way (``us-gaap`` dropped, being the
    default). Unknown prefixes and underscores inside a name are kept: ``xyz_Net_Reserve``
    and ``xyz_Other_Reserve`` stay apart, and so do ``ifrs-full:Cash`` and ``us-gaap:Cash``."""
    text = str(concept).strip().strip("\"'`").lower()
    match = _PREFIXED.match(text)
    if match:
        namespace, local = match.group(1), text[match.end() :]
        return local if namespace == DEFAULT_NAMESPACE else f"{namespace}:{local}"
    return text


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


def retrieval_scores(predicted: list[str], gold: list[str], prefix: str = "") -> dict[str, float]:
    """Lenient per-query hit, recall, precision and F1 at each cutoff k (keys carry
    ``prefix``): concepts compared by ``concept_key``, repeats dropped before the cut,
    recall over the gold set."""
    gold_keys = {concept_key(g) for g in gold if concept_key(g)}
    ranked = [concept_key(p) for p in _dedupe(predicted)]
    out: dict[str, float] = {f"{prefix}has_gold": float(bool(gold_keys))}
    for k in K_VALUES:
        top = ranked[:k]
        hits = len(set(top) & gold_keys)
        precision = hits / len(top) if top else 0.0
        recall = hits / len(gold_keys) if gold_keys else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[f"{prefix}hr@{k}"] = float(hits > 0)
        out[f"{prefix}r@{k}"] = recall
        out[f"{prefix}p@{k}"] = precision
        out[f"{prefix}f1@{k}"] = f1
    return out


def reference_concept_list(completion: str) -> list[Any] | None:
    """The FinSM reply as the released example notebook reads it: the whole reply
    (inside a code fence, if it is wrapped in one) as JSON, as JSON whose value is
    itself a JSON text, as JSON with its escapes undone, or as a Python-style list
    or tuple literal (``'us-gaap:Cash', 'us-gaap:Goodwill'`` is a tuple: the
    notebook's ``p[:k]`` and ``set(...)`` score it like a list). None when that
    gives no list or tuple (the notebook then scores no hit).

    The notebook's last fallback, ``json.loads(cleaned.replace('\\"', '"'))``,
    replaces a quote by itself (``'\\"'`` is ``'"'`` in Python): it is the first
    step again and never succeeds, so it is left out here. The lenient reader
    (``parse_ranked_concepts``) does read escaped quotes."""
    text = (completion or "").strip()
    if text.startswith("```") and text.endswith("```") and len(text) >= 6:
        text = re.sub(r"^```[a-zA-Z]*\s*", "", text)
        text = re.sub(r"\s*```$", "", text).strip()
    value: Any = None
    try:
        value = json.loads(text)
        if isinstance(value, str) and value.strip().startswith(("[", "{")):
            with contextlib.suppress(json.JSONDecodeError):
                value = json.loads(value)
    except json.JSONDecodeError:
        for attempt in (_unescaped_json, _literal):
            value = attempt(text)
            if value is not None:
                break
    return list(value) if isinstance(value, (list, tuple)) else None


def _unescaped_json(text: str) -> Any:
    try:
        return json.loads(codecs.decode(text, "unicode_escape"))
    except (ValueError, UnicodeError):
        return None


def _literal(text: str) -> Any:
    try:  # literals only (lists, strings, numbers): never code
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _exact(item: Any) -> Any:
    """A prediction as the notebook compares it: strings as written; anything else
    a token that equals no gold string but still counts as a prediction."""
    return item if isinstance(item, str) else ("not a string", repr(item))


def reference_retrieval_scores(predicted: list[Any] | None, gold: list[str]) -> dict[str, float]:
    """The example notebook's per-query figures: exact strings, the first k
    predictions as given (repeats included), recall over the gold list's length."""
    gold_set = set(gold)
    ranked = [_exact(p) for p in predicted or []]
    out: dict[str, float] = {"has_gold": float(bool(gold_set))}
    for k in K_VALUES:
        top = set(ranked[:k])
        hits = len(top & gold_set)
        precision = hits / len(top) if top else 0.0
        set_recall = hits / len(gold_set) if gold_set else 0.0  # the notebook's F1 uses sets
        out[f"hr@{k}"] = float(hits > 0)
        out[f"r@{k}"] = hits / len(gold) if gold_set else 0.0  # R@k: over the list's length
        out[f"p@{k}"] = precision
        out[f"f1@{k}"] = 2 * precision * set_recall / (precision + set_recall) if hits else 0.0
    return out


FINSM_PROTOCOLS = {"reference": "", "lenient": "lenient_"}


def _finsm_headline(records: list[SampleRecord], prefix: str) -> dict[str, float]:
    n = len(records)
    with_gold = [r for r in records if r.score.get(f"{prefix}has_gold")]
    headline: dict[str, float] = {}
    for k in K_VALUES:
        headline[f"HR@{k}"] = _pct(sum(r.score.get(f"{prefix}hr@{k}", 0.0) for r in records), n)
    for k in K_VALUES:
        headline[f"R@{k}"] = _pct(sum(r.score.get(f"{prefix}r@{k}", 0.0) for r in records), n)
    for k in K_VALUES:
        total = sum(r.score.get(f"{prefix}f1@{k}", 0.0) for r in with_gold)
        headline[f"MF1@{k}"] = _pct(total, len(with_gold))
    return headline


def summarize_finsm(records: list[SampleRecord]) -> dict[str, Any]:
    """The reference protocol is the headline; both protocols are in ``metrics.protocols``."""
    n = len(records)
    protocols = {name: _finsm_headline(records, prefix) for name, prefix in FINSM_PROTOCOLS.items()}
    unparsed = sum(1 for r in records if not r.score.get("parsed"))
    lenient_unparsed = sum(1 for r in records if not r.score.get("lenient_parsed"))
    return {
        "headline": dict(protocols["reference"]),
        "metrics": {
            "n": n,
            "n_with_gold": sum(1 for r in records if r.score.get("has_gold")),
            "protocol": "reference",
            "protocols": protocols,
            "unparseable_rate": _pct(unparsed, n),
            "lenient_unparseable_rate": _pct(lenient_unparsed, n),
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


_SCALE_WORDS = {"thousand": 3, "thousands": 3, "million": 6, "millions": 6,
                "billion": 9, "billions": 9, "trillion": 12, "trillions": 12}  # fmt: skip
_NUMBER_TEXT = re.compile(
    r"^(?P<sign>[-+\u2212]?)\s*(?:\$|usd\s*)?\s*(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?"
    r"|\.\d+)(?:e(?P<exp>[-+]?\d+))?\s*(?P<pct>%)?\s*(?P<scale>[a-z]+)?$",
    re.I,
)


def to_decimal(value: Any) -> Decimal | None:
    """A value's mathematical meaning, as the judge instructions read it: "-1,284" is
    -1284, "(1,284)" is -1284, "564%" is 5.64, "6.2E-7 million" is 0.62 and "$1.2
    thousand" is 1200. Other forms of one amount ("1.2k", "1.2M", "1.2 bn", "1,200 USD",
    "1200 dollars", "$-1,284", "€1,200") are read by ``finprobe.numbers.parse_number``
    when the amount it finds is the whole text. Text that is not one number ("N/A",
    "about 5", "3/4", null) has none."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    whole = text = str(value).strip()
    negative = text.startswith("(") and text.endswith(")")
    if negative:
        text = text[1:-1].strip()
    match = _NUMBER_TEXT.match(text)
    scale = (match.group("scale") or "").lower() if match else ""
    if not match or (scale and scale not in _SCALE_WORDS):
        parsed = parse_number(whole)
        return parsed.as_fraction() if parsed and parsed.text.strip() == whole else None
    try:
        number = Decimal(match.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    exponent = int(match.group("exp") or 0) + _SCALE_WORDS.get(scale, 0)
    number = number.scaleb(exponent)
    if match.group("pct"):
        number = number / 100
    if match.group("sign") in ("-", "\u2212"):
        number = -number
    return -number if negative else number


FINMR_KEYS = {"extracted_value", "calculated_value"}


def parse_value_pair(completion: str) -> dict[str, Any] | None:
    """{extracted_value, calculated_value} of a FinMR reply, or None (structure error).

    The structure the judge instructions ask for: the reply is one JSON object (a
    code fence and whitespace around it are formatting) with exactly the two keys,
    spelled and cased as given. Values are kept as written; one that is not a number
    is an extraction or calculation error, not a structure error."""
    text = (completion or "").strip()
    fenced = re.fullmatch(r"```[a-zA-Z0-9]*\s*(.*?)\s*```", text, flags=re.S)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(data, dict) or set(data) != FINMR_KEYS:
        return None
    return {
        "extracted_value": data["extracted_value"],
        "calculated_value": data["calculated_value"],
        "extracted": to_decimal(data["extracted_value"]),
        "calculated": to_decimal(data["calculated_value"]),
    }


def judge_value_pair(
    parsed: dict[str, Any] | None, gold_extracted: Any, gold_calculated: Any
) -> str:
    """The deterministic judge: one of A (accurate), S, E, C."""
    if parsed is None:
        return "S"
    extracted = to_decimal(gold_extracted)
    calculated = to_decimal(gold_calculated)
    if extracted is None or parsed["extracted"] is None or parsed["extracted"] != extracted:
        return "E"
    if calculated is None or parsed["calculated"] is None or parsed["calculated"] != calculated:
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
        gold = list(metadata.get("gold_concepts") or [])
        listed = reference_concept_list(completion)
        ranked = parse_ranked_concepts(completion)
        values = reference_retrieval_scores(listed, gold)
        values["parsed"] = float(listed is not None)
        values.update(retrieval_scores(ranked or [], gold, prefix="lenient_"))
        values["lenient_parsed"] = float(ranked is not None)
        shown = None if listed is None else [str(p) for p in listed[:20]]
        return values, {"ranked": shown, "lenient_ranked": ranked}
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
        shown = None if parsed is None else {k: str(parsed[k]) for k in
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
