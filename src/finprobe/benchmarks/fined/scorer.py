"""FinED-Bench scoring, as in the paper (Section 4.1).

A predicted sentence is correct when it equals or contains an annotated erroneous
sentence AND its predicted subtype is that error's subtype. Each annotated error
is credited to at most one prediction (maximum bipartite matching), so repeating
a sentence cannot raise precision. Precision = correct predictions / predictions,
recall = matched errors / annotated errors, micro-averaged over documents, per
category, per subtype and overall.

Our one normalisation: whitespace runs are collapsed and both ends stripped
before comparing (models re-space text; nothing else is forgiven).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from finprobe.benchmarks.fined.taxonomy import (
    CATEGORY_IDS,
    SUBTYPE_IDS,
    category_of,
    normalize_subtype,
)
from finprobe.jsonout import iter_json_values

SCORER_VERSION = "fined-1"

_TYPE_KEYS = (
    "error_type",
    "error type",
    "errortype",
    "type",
    "error",
    "subtype",
    "category",
    "错误类型",
)
_SENT_KEYS = (
    "sentences",
    "sents",
    "sentence",
    "error_sentences",
    "error_sentence",
    "error_sents",
    "sent",
    "text",
    "错误句子",
)


@dataclass(frozen=True)
class Detection:
    sentence: str
    raw_type: str
    subtype: str | None  # None when the type names no FinED subtype


def normalize_sentence(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentence_matches(predicted: str, annotated: str) -> bool:
    """The paper's rule: the prediction equals or contains the annotated sentence."""
    p, a = normalize_sentence(predicted), normalize_sentence(annotated)
    return bool(a) and bool(p) and a in p


# ----------------------------------------------------------------------------- parsing


def _items(data: Any) -> list[dict[str, Any]] | None:
    if isinstance(data, dict):
        if not data:
            return []
        for key in ("errors", "results", "detections", "error_list"):
            if isinstance(data.get(key), list):
                return _items(data[key])
        return [data]
    if isinstance(data, list) and all(isinstance(x, dict) for x in data):
        return list(data)
    return None


def _get(item: dict[str, Any], keys: tuple[str, ...]) -> Any:
    lowered = {str(k).strip().lower(): v for k, v in item.items()}
    for k in keys:
        if k in lowered:
            return lowered[k]
    return None


def parse_detections(completion: str) -> list[Detection] | None:
    """The model's answer as detections; [] for "no errors"; None when no JSON answer is found."""
    for data in iter_json_values(completion or ""):
        items = _items(data)
        if items is None:
            continue
        detections: list[Detection] = []
        for item in items:
            raw_type = _get(item, _TYPE_KEYS)
            sentences = _get(item, _SENT_KEYS)
            if isinstance(sentences, str):
                sentences = [sentences]
            if not isinstance(sentences, list):
                continue
            raw = str(raw_type or "")
            subtype = normalize_subtype(raw)
            seen: set[str] = set()
            for s in sentences:
                if (
                    isinstance(s, str)
                    and normalize_sentence(s)
                    and normalize_sentence(s) not in seen
                ):
                    seen.add(normalize_sentence(s))
                    detections.append(Detection(s, raw, subtype))
        return detections
    return None


def detections_to_json(detections: list[Detection]) -> str:
    """The canonical answer format: a JSON list of {error_type, sentences} grouped by type."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for d in detections:
        grouped[d.subtype or d.raw_type].append(d.sentence)
    return json.dumps(
        [{"error_type": t, "sentences": s} for t, s in grouped.items()], ensure_ascii=False
    )


# ----------------------------------------------------------------------------- matching


def _max_matching(edges: list[list[int]], n_right: int) -> list[int]:
    """Maximum bipartite matching (augmenting paths). Returns right -> left index or -1."""
    match_right = [-1] * n_right

    def try_assign(left: int, seen: list[bool]) -> bool:
        for right in edges[left]:
            if not seen[right]:
                seen[right] = True
                if match_right[right] == -1 or try_assign(match_right[right], seen):
                    match_right[right] = left
                    return True
        return False

    for left in range(len(edges)):
        try_assign(left, [False] * n_right)
    return match_right


def _position(text: str, sentence: str, start: int | None = None) -> str:
    if start is None or text[start : start + len(sentence)] != sentence:
        start = text.find(sentence)
        if start < 0:
            norm = normalize_sentence(sentence)
            start = normalize_sentence(text).find(norm)
            text = normalize_sentence(text)
    if start < 0 or not text:
        return "unknown"
    return ("beginning", "middle", "ending")[min(start * 3 // len(text), 2)]


def match_document(
    detections: list[Detection], gold: list[dict[str, Any]], text: str = ""
) -> dict[str, Any]:
    """Match one document's detections to its annotated errors (dicts with sentence, subtype)."""
    edges = [
        [
            j
            for j, g in enumerate(gold)
            if d.subtype is not None
            and d.subtype == g["subtype"]
            and sentence_matches(d.sentence, g["sentence"])
        ]
        for d in detections
    ]
    match_right = _max_matching(edges, len(gold))
    matched_left = {left for left in match_right if left >= 0}
    predictions = [
        {
            "sentence": d.sentence,
            "raw_type": d.raw_type,
            "subtype": d.subtype,
            "category": category_of(d.subtype) if d.subtype else None,
            "correct": i in matched_left,
            "position": _position(text, d.sentence) if text else "unknown",
        }
        for i, d in enumerate(detections)
    ]
    golds = [
        {
            "sentence": g["sentence"],
            "subtype": g["subtype"],
            "category": category_of(g["subtype"]),
            "found": match_right[j] >= 0,
            "found_by": match_right[j],
            "position": _position(text, g["sentence"], g.get("start")) if text else "unknown",
        }
        for j, g in enumerate(gold)
    ]
    return {"predictions": predictions, "gold": golds}


def prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "tp": tp, "n_pred": n_pred, "n_gold": n_gold}


def score_completion(
    completion: str, metadata: dict[str, Any]
) -> tuple[dict[str, float], dict[str, Any]]:
    """Score one document: (Score.value, Score.metadata). Never raises on a bad answer."""
    detections = parse_detections(completion)
    parsed = detections is not None
    matched = match_document(detections or [], metadata.get("errors", []), metadata.get("text", ""))
    tp = sum(p["correct"] for p in matched["predictions"])
    n_pred, n_gold = len(matched["predictions"]), len(matched["gold"])
    value = prf(tp, n_pred, n_gold)
    if n_pred == 0 and n_gold == 0:  # nothing claimed, nothing to find: a perfect document
        value.update(precision=1.0, recall=1.0, f1=1.0)
    value = {k: float(v) for k, v in value.items()}
    value["parsed"] = float(parsed)
    meta = {
        "parsed": parsed,
        **matched,
        "scene": metadata.get("scene"),
        "length_bucket": metadata.get("length_bucket"),
        "language": metadata.get("language"),
    }
    return value, meta


def rescore(completion: str, metadata: dict[str, Any]) -> dict[str, float]:
    return score_completion(completion, metadata)[0]


# ----------------------------------------------------------------------------- aggregation


class _Counts:
    def __init__(self) -> None:
        self.tp: dict[str, int] = defaultdict(int)
        self.pred: dict[str, int] = defaultdict(int)
        self.gold: dict[str, int] = defaultdict(int)

    def table(self, keys: tuple[str, ...] | None = None) -> dict[str, dict[str, float]]:
        names = keys if keys is not None else sorted(set(self.pred) | set(self.gold))
        return {k: prf(self.tp[k], self.pred[k], self.gold[k]) for k in names}


def aggregate(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """Micro P/R/F1 over documents' match results (``score_completion`` metadata).

    Returns {"overall", "by_category", "by_subtype", "breakdowns": {scene, position,
    length}, "counts"}.
    """
    by_sub, by_cat, by_scene, by_pos, by_len = (_Counts() for _ in range(5))
    overall = _Counts()
    n_docs = unparsed = clean_docs = clean_docs_flagged = 0
    for doc in documents:
        n_docs += 1
        unparsed += not doc.get("parsed", True)
        scene = doc.get("scene") or "unknown"
        length = doc.get("length_bucket") or "unknown"
        if not doc["gold"]:
            clean_docs += 1
            clean_docs_flagged += bool(doc["predictions"])
        for p in doc["predictions"]:
            sub = p["subtype"] or "unknown_type"
            cat = p["category"] or "unknown_type"
            for counts, key in (
                (overall, "all"),
                (by_sub, sub),
                (by_cat, cat),
                (by_scene, scene),
                (by_pos, p.get("position", "unknown")),
                (by_len, length),
            ):
                counts.pred[key] += 1
                counts.tp[key] += p["correct"]
        for g in doc["gold"]:
            for counts, key in (
                (overall, "all"),
                (by_sub, g["subtype"]),
                (by_cat, g["category"]),
                (by_scene, scene),
                (by_pos, g.get("position", "unknown")),
                (by_len, length),
            ):
                counts.gold[key] += 1
    by_subtype = by_sub.table(SUBTYPE_IDS)
    extra = {k: v for k, v in by_sub.table().items() if k not in by_subtype}
    return {
        "overall": overall.table(("all",))["all"],
        "by_category": by_cat.table(CATEGORY_IDS),
        "by_subtype": {**by_subtype, **extra},
        "breakdowns": {
            "scene": by_scene.table(),
            "position": by_pos.table(),
            "length": by_len.table(),
        },
        "counts": {
            "documents": n_docs,
            "unparsed": unparsed,
            "errors": sum(by_sub.gold.values()),
            "predictions": sum(by_sub.pred.values()),
            "error_free_documents": clean_docs,
            "error_free_documents_flagged": clean_docs_flagged,
        },
    }


def summarize(records: list[Any]) -> dict[str, Any]:
    """BenchmarkInfo.summarize: aggregate SampleRecords (failed samples count as empty answers)."""
    docs = []
    for rec in records:
        meta = rec.score_metadata or {}
        if "gold" not in meta:
            meta = score_completion(rec.completion or "", rec.metadata)[1]
        docs.append(meta)
    result = aggregate(docs)
    flat = {
        "precision": result["overall"]["precision"],
        "recall": result["overall"]["recall"],
        "f1": result["overall"]["f1"],
    }
    for cat, v in result["by_category"].items():
        flat[f"{cat}_f1"] = v["f1"]
    # percentages keyed like the published FinED tables (data/published.json)
    headline: dict[str, float] = {}
    for cat in ("GKE", "FKE", "FRE"):
        values = result["by_category"].get(cat, {})
        for metric in ("precision", "recall", "f1"):
            headline[f"{cat}.{metric}"] = round(100 * float(values.get(metric, 0.0)), 2)
    for metric in ("precision", "recall", "f1"):
        headline[f"overall.{metric}"] = round(100 * float(flat[metric]), 2)
    return {
        "headline": headline,
        "overall": flat,
        "breakdowns": {
            "category": result["by_category"],
            "subtype": result["by_subtype"],
            **result["breakdowns"],
        },
        "counts": result["counts"],
    }


@scorer(metrics={"precision": [mean()], "recall": [mean()], "f1": [mean()], "parsed": [mean()]})
def fined_scorer():
    """Per-document P/R/F1 (the run's headline numbers are the micro averages from ``summarize``)."""

    async def score(state: TaskState, target: Target) -> Score:
        value, meta = score_completion(state.output.completion, state.metadata)
        return Score(value=value, answer=detections_summary(meta), metadata=meta)

    return score


def detections_summary(meta: dict[str, Any]) -> str:
    return "; ".join(
        f"{p['subtype'] or p['raw_type']}: {p['sentence'][:60]}" for p in meta["predictions"]
    )
