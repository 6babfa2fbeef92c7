"""FinED documents with annotated errors: the data model and loaders.

Formats read:
- ours: {"format": "finprobe-fined", "version": 1, "documents": [...]} (``save_dataset``)
- the released FinED-Bench JSON: a list (or {"data": [...]}) of documents with the
  text under content/text/document and errors under errors/error_list, each error
  naming its sentence (error_text/sentence/sent), type (error_type/type) and the
  original (origin_text/original)
- the released fine-tuning JSON: a list of {instruction, output, name, error_type?,
  error_text?, origin_text}: one fragment per record, with at most one error
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from finprobe.benchmarks.fined.taxonomy import category_of, guess_scene, normalize_subtype
from finprobe.errors import InputError
from finprobe.files import read_json, write_json_atomic

FORMAT_NAME = "finprobe-fined"
FORMAT_VERSION = 1


@dataclass
class AnnotatedError:
    sentence: str  # the erroneous sentence exactly as it stands in the document
    subtype: str  # taxonomy subtype id
    original: str = ""  # the sentence before the error was injected ("" if unknown)
    start: int | None = None  # character offset of ``sentence`` in the document text
    source: str = ""  # "rule:<injector>", "llm:<model>", "released"
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def category(self) -> str:
        return category_of(self.subtype)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["category"] = self.category
        return d


@dataclass
class FinEDDocument:
    id: str
    text: str
    scene: str | None
    language: str  # "en" | "zh"
    errors: list[AnnotatedError] = field(default_factory=list)
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "scene": self.scene,
            "language": self.language,
            "text": self.text,
            "errors": [e.to_dict() for e in self.errors],
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FinEDDocument:
        errors = [
            AnnotatedError(
                sentence=e["sentence"],
                subtype=e["subtype"],
                original=e.get("original", ""),
                start=e.get("start"),
                source=e.get("source", ""),
                detail=e.get("detail", {}) or {},
            )
            for e in d.get("errors", [])
        ]
        return cls(
            id=str(d["id"]),
            text=d["text"],
            scene=d.get("scene"),
            language=d.get("language", "en"),
            errors=errors,
            title=d.get("title", ""),
            metadata=d.get("metadata", {}) or {},
        )


def detect_language(text: str) -> str:
    """'zh' when CJK characters outnumber Latin letters, else 'en'."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return "zh" if cjk > latin / 4 else "en"


def word_count(text: str) -> int:
    """Length in words; a CJK character counts as one word (the paper's length unit for Chinese)."""
    return len(re.findall(r"[\u4e00-\u9fff]", text)) + len(
        re.findall(r"[A-Za-z0-9][\w.,%$'-]*", text)
    )


def error_position(doc: FinEDDocument, error: AnnotatedError) -> str:
    """'beginning' | 'middle' | 'ending': the third of the document the error's sentence starts in."""
    start = error.start
    if start is None or doc.text[start : start + len(error.sentence)] != error.sentence:
        found = doc.text.find(error.sentence)
        start = found if found >= 0 else None
    if start is None or not doc.text:
        return "unknown"
    third = start * 3 // max(len(doc.text), 1)
    return ("beginning", "middle", "ending")[min(third, 2)]


LENGTH_BUCKETS: tuple[tuple[int, int | None, str], ...] = (
    (0, 2000, "<=2K"),
    (2000, 4000, "2K-4K"),
    (4000, 6000, "4K-6K"),
    (6000, 8000, "6K-8K"),
    (8000, 16000, "8K-16K"),
    (16000, 32000, "16K-32K"),
    (32000, None, ">32K"),
)


def length_bucket(words: int) -> str:
    for _low, high, label in LENGTH_BUCKETS:
        if high is None or words <= high:
            return label
    return LENGTH_BUCKETS[-1][2]


# ----------------------------------------------------------------------------- our format


def save_dataset(
    path: str | Path, docs: list[FinEDDocument], meta: dict[str, Any] | None = None
) -> Path:
    """Write the dataset JSON atomically (temp file + rename), so a crash never leaves half a file."""
    payload = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "meta": meta or {},
        "documents": [d.to_dict() for d in docs],
    }
    return write_json_atomic(path, payload)


def _read_json(path: Path) -> Any:
    return read_json(path)


def load_dataset(path: str | Path) -> list[FinEDDocument]:
    """Load any supported FinED file (ours, the released benchmark, the released fine-tuning set)."""
    path = Path(path)
    data = _read_json(path)
    if isinstance(data, dict) and data.get("format") == FORMAT_NAME:
        try:
            return [FinEDDocument.from_dict(d) for d in data["documents"]]
        except (KeyError, TypeError) as exc:
            raise InputError(path, f"malformed {FORMAT_NAME} document ({exc})") from exc
    records = data.get("data") or data.get("documents") if isinstance(data, dict) else data
    if not isinstance(records, list) or not records:
        raise InputError(path, "expected a non-empty list of FinED records")
    if all(isinstance(r, dict) and "instruction" in r and "output" in r for r in records):
        return load_finetuning_records(records, path)
    return load_benchmark_records(records, path)


# ----------------------------------------------------------------------------- released benchmark

_TEXT_KEYS = ("content", "text", "document", "doc", "context")
_ERRORS_KEYS = ("errors", "error_list", "error_info", "labels")
_SENT_KEYS = ("error_text", "sentence", "error_sentence", "sent", "error_sent", "sents")
_TYPE_KEYS = ("error_type", "type", "subtype", "error")
_ORIG_KEYS = ("origin_text", "original", "original_sentence", "correct_text", "origin")
_TITLE_KEYS = ("title", "name", "doc_name", "file_name")


def _first(d: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for k in keys:
        if k in d and d[k] not in (None, ""):
            return d[k]
    return None


def load_benchmark_records(records: list[Any], path: str | Path = "<data>") -> list[FinEDDocument]:
    docs: list[FinEDDocument] = []
    for i, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise InputError(path, f"record {i} is not an object")
        text = _first(rec, _TEXT_KEYS)
        if not isinstance(text, str) or not text.strip():
            raise InputError(path, f"record {i} has no document text (content/text)")
        title = str(_first(rec, _TITLE_KEYS) or "")
        raw_errors = _first(rec, _ERRORS_KEYS) or []
        if isinstance(raw_errors, dict):
            raw_errors = [raw_errors]
        errors: list[AnnotatedError] = []
        for j, e in enumerate(raw_errors):
            if not isinstance(e, dict):
                raise InputError(path, f"record {i} error {j} is not an object")
            subtype = normalize_subtype(str(_first(e, _TYPE_KEYS) or ""))
            if subtype is None:
                raise InputError(
                    path, f"record {i} error {j}: unknown error type {_first(e, _TYPE_KEYS)!r}"
                )
            sentences = _first(e, _SENT_KEYS)
            for sentence in sentences if isinstance(sentences, list) else [sentences]:
                if not isinstance(sentence, str) or not sentence.strip():
                    raise InputError(path, f"record {i} error {j} has no sentence")
                start = text.find(sentence)
                errors.append(
                    AnnotatedError(
                        sentence=sentence,
                        subtype=subtype,
                        original=str(_first(e, _ORIG_KEYS) or ""),
                        start=start if start >= 0 else None,
                        source="released",
                    )
                )
        scene = rec.get("scene") or rec.get("scenario") or guess_scene(title)
        docs.append(
            FinEDDocument(
                id=str(rec.get("id", rec.get("doc_id", i))),
                text=text,
                scene=scene,
                language=rec.get("language") or detect_language(text),
                errors=errors,
                title=title,
            )
        )
    return docs


# ----------------------------------------------------------------------------- released fine-tuning set

_INPUT_MARKER = re.compile(r"【输入文本】[:：]\s*\n?")


def fragment_from_instruction(instruction: str) -> str | None:
    """The fragment under review: the text after the 【输入文本】 marker of a released prompt."""
    m = _INPUT_MARKER.search(instruction)
    return instruction[m.end() :] if m else None


def load_finetuning_records(records: list[Any], path: str | Path = "<data>") -> list[FinEDDocument]:
    docs: list[FinEDDocument] = []
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or not isinstance(rec.get("instruction"), str):
            raise InputError(path, f"record {i} has no instruction")
        text = fragment_from_instruction(rec["instruction"])
        if text is None:
            text = rec.get("error_text") or rec.get("origin_text")
        if not text:
            raise InputError(path, f"record {i}: cannot find the fragment (no 【输入文本】 marker)")
        errors: list[AnnotatedError] = []
        if rec.get("error_type"):
            subtype = normalize_subtype(rec["error_type"])
            if subtype is None:
                raise InputError(path, f"record {i}: unknown error type {rec['error_type']!r}")
            sentence = rec.get("error_text") or text
            start = text.find(sentence)
            errors.append(
                AnnotatedError(
                    sentence=sentence,
                    subtype=subtype,
                    original=rec.get("origin_text", ""),
                    start=start if start >= 0 else None,
                    source="released",
                )
            )
        title = str(rec.get("name", ""))
        docs.append(
            FinEDDocument(
                id=f"sft-{i:05d}",
                text=text,
                scene=guess_scene(title),
                language=detect_language(text),
                errors=errors,
                title=title,
                metadata={"reference_output": rec.get("output", "")},
            )
        )
    return docs


def dataset_summary(
    docs: list[FinEDDocument], sample_errors: int = 20, seed: int = 0
) -> dict[str, Any]:
    """Document count, errors per category and subtype, average length, and a sample of errors."""
    import random
    from collections import Counter

    from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS

    per_sub = Counter(e.subtype for d in docs for e in d.errors)
    per_cat = Counter(e.category for d in docs for e in d.errors)
    lengths = [word_count(d.text) for d in docs]
    all_errors = [(d.id, e) for d in docs for e in d.errors]
    rng = random.Random(seed)
    # one error per subtype first, so the sample shows the variety
    picked: list[tuple[str, AnnotatedError]] = []
    for sub in SUBTYPE_IDS:
        of_sub = [x for x in all_errors if x[1].subtype == sub]
        if of_sub and len(picked) < sample_errors:
            picked.append(rng.choice(of_sub))
    rest = [x for x in all_errors if x not in picked]
    picked += rng.sample(rest, min(len(rest), sample_errors - len(picked)))
    return {
        "documents": len(docs),
        "errors": sum(per_sub.values()),
        "errors_per_document": sum(per_sub.values()) / len(docs) if docs else 0.0,
        "average_words": sum(lengths) / len(lengths) if lengths else 0.0,
        "per_category": dict(per_cat),
        "per_subtype": {s: per_sub.get(s, 0) for s in SUBTYPE_IDS},
        "subtypes_covered": sum(1 for s in SUBTYPE_IDS if per_sub.get(s)),
        "sample": [
            {"doc_id": doc_id, "subtype": e.subtype, "original": e.original, "modified": e.sentence}
            for doc_id, e in picked
        ],
    }
