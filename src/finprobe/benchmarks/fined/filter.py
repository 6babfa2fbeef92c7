"""Filtering injected errors: rule checks, recomputed calculations, an optional model
verifier, and the human review sheet (CSV out, reviewers' decisions back in)."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

from finprobe.benchmarks.fined.dataset import AnnotatedError, FinEDDocument
from finprobe.benchmarks.fined.taxonomy import TAXONOMY, category_of, normalize_subtype
from finprobe.errors import InputError

_TOKEN_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")

# Which change to the sentence's numbers each subtype may make; anything else would
# add a second, unintended error (e.g. a unit swap that also alters a value).
SAME_NUMBERS = frozenset(
    {
        "terminology_misuse",
        "conflicting_expression",
        "numerical_unit_error",
        "non_numerical_value_missing",
    }
)
# how many figures an edit of these subtypes may change (a date can change in day and
# year at once: "December 31, 2023" -> "June 30, 2024")
NUMBERS_CHANGED = {
    "numerical_inconsistency": 1,
    "calculation_error": 1,
    "illegal_time": 1,
    "time_contradiction": 2,
    "clause_conflict": 2,
}
NUMBERS_REMOVED = frozenset({"numerical_missing", "omitted_financial_element"})
# numbers may only be added, never changed or removed
NUMBERS_ADDED = frozenset({"redundant_statement"})
# free: the review's rule-3 check decides (a format broken, a deadline made vague...)
NUMBERS_FREE = frozenset(
    {"value_format_error", "ambiguous_expression", "incorrect_legal_reference"}
)


def numeric_tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def numbers_rule_ok(subtype: str, original: str, modified: str) -> tuple[bool, str]:
    """Does the change to the sentence's numbers fit the subtype (and nothing more)?"""
    before, after = Counter(numeric_tokens(original)), Counter(numeric_tokens(modified))
    if subtype in SAME_NUMBERS or (subtype == "clause_conflict" and not original):
        return (before == after, "numbers changed")
    if subtype in NUMBERS_CHANGED:
        diff = sum((before - after).values())
        same_count = sum(before.values()) == sum(after.values())
        return (same_count and diff <= NUMBERS_CHANGED[subtype], "too many numbers changed")
    if subtype in NUMBERS_REMOVED:
        return (
            not (after - before) and sum((before - after).values()) >= 1,
            "numbers added or none removed",
        )
    if subtype in NUMBERS_ADDED:
        return (not (before - after), "a number changed or was removed")
    if subtype in NUMBERS_FREE:
        return True, ""
    return True, ""


def verify_calculation(detail: dict[str, Any]) -> tuple[bool, str]:
    """Recompute the recorded formula: it must hold on the original values and fail on the new ones."""
    try:
        kind = detail["formula"]
        tol = Decimal(str(detail["tolerance"]))
        orig = [Decimal(str(v)) for v in detail["original_values"]]
        new = [Decimal(str(v)) for v in detail["modified_values"]]
    except (KeyError, TypeError, ArithmeticError) as exc:
        return False, f"no formula recorded ({exc})"

    def holds(vals: list[Decimal]) -> bool:
        a, b, c = vals
        if kind == "a=b+c":
            return abs(a - (b + c)) <= tol
        if kind == "a=b-c":
            return abs(a - (b - c)) <= tol
        if kind == "pct=(b-c)/c":
            return c != 0 and abs(a - (b - c) / c * 100) <= tol
        raise ValueError(kind)

    try:
        if not holds(orig):
            return False, "formula does not hold on the original"
        if holds(new):
            return False, "formula still holds after the change"
    except (ValueError, ArithmeticError) as exc:
        return False, f"bad formula ({exc})"
    return True, ""


def check_injection(
    subtype: str,
    original: str,
    modified: str,
    text: str,
    start: int,
    end: int,
    detail: dict | None = None,
    insert: bool = False,
) -> tuple[bool, str]:
    """Rule filter: exactly one sentence changes, the change fits the subtype, calculations recompute."""
    if insert:
        if original or not modified.strip():
            return False, "an insertion adds one non-empty sentence"
    else:
        if text[start:end] != original:
            return False, "original sentence not at its offsets"
        if modified == original or not modified.strip():
            return False, "sentence unchanged or empty"
        ok, why = numbers_rule_ok(subtype, original, modified)
        if not ok:
            return False, why
    if modified in text:
        return False, "changed sentence already occurs in the document"
    if subtype == "calculation_error":
        return verify_calculation(detail or {})
    return True, ""


# ----------------------------------------------------------------------------- model verifier

VERIFY_PROMPT = """You check errors planted in financial documents for a benchmark.
Error type: {name} - {definition}

Context (the planted sentence is marked with >>> <<<):
{context}

Is the marked sentence a clear, genuine instance of this error type, whose incorrectness can be inferred from the text and general or financial knowledge, without introducing any other kind of error? Reply with JSON only: {{"valid": true or false, "reason": "<one sentence>"}}"""

CALC_PROMPT = """Below is a sentence from a financial document. Write the arithmetic formula(s) that relate the numbers in it (for example "total = a + b" with the numbers), then say whether the stated result is consistent.

Sentence: {sentence}

Reply with JSON only: {{"formula": "<formula with numbers>", "consistent": true or false}}"""


def verifier_prompt(context: str, sentence: str, subtype: str) -> str:
    s = TAXONOMY.subtype(subtype)
    marked = context.replace(sentence, f">>> {sentence} <<<", 1)
    if subtype == "calculation_error":
        return CALC_PROMPT.format(sentence=sentence)
    return VERIFY_PROMPT.format(name=s.en, definition=s.definition, context=marked)


def parse_verdict(completion: str, subtype: str) -> bool | None:
    """True = keep the injected error; None when the reply has no verdict."""
    m = re.search(r"\{.*\}", completion, re.S)
    if not m:
        return None
    try:
        data = json.loads(m.group(0))
    except json.JSONDecodeError:
        return None
    if subtype == "calculation_error" and isinstance(data.get("consistent"), bool):
        return not data["consistent"]
    v = data.get("valid")
    return v if isinstance(v, bool) else None


async def model_verify(model: Any, context: str, sentence: str, subtype: str) -> bool | None:
    """Ask a verifier model (an inspect Model or model name) whether an injected error is sound."""
    from inspect_ai.model import get_model

    m = get_model(model) if isinstance(model, str) else model
    out = await m.generate(verifier_prompt(context, sentence, subtype))
    return parse_verdict(out.completion, subtype)


# ----------------------------------------------------------------------------- review sheet

REVIEW_COLUMNS = (
    "doc_id",
    "error_index",
    "category",
    "subtype",
    "original",
    "modified",
    "source",
    "context",
    "decision",
    "corrected_subtype",
    "note",
)


def export_review_csv(
    docs: list[FinEDDocument], path: str | Path, context_chars: int = 300
) -> Path:
    """One row per injected error; reviewers fill ``decision`` (accept/reject) and may correct the subtype."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=REVIEW_COLUMNS)
        w.writeheader()
        for doc in docs:
            for i, e in enumerate(doc.errors):
                start = e.start if e.start is not None else max(doc.text.find(e.sentence), 0)
                ctx = doc.text[
                    max(0, start - context_chars) : start + len(e.sentence) + context_chars
                ]
                w.writerow(
                    {
                        "doc_id": doc.id,
                        "error_index": i,
                        "category": category_of(e.subtype),
                        "subtype": e.subtype,
                        "original": e.original,
                        "modified": e.sentence,
                        "source": e.source,
                        "context": ctx.replace("\n", " "),
                        "decision": "",
                        "corrected_subtype": "",
                        "note": "",
                    }
                )
    return path


_ACCEPT = {"accept", "accepted", "yes", "y", "keep", "ok", "1", "true"}
_REJECT = {"reject", "rejected", "no", "n", "drop", "delete", "0", "false"}


def read_review_csv(path: str | Path) -> dict[tuple[str, int], dict[str, str]]:
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "file not found")
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"doc_id", "error_index", "decision"} - set(reader.fieldnames or [])
        if missing:
            raise InputError(path, f"review sheet lacks column(s) {', '.join(sorted(missing))}")
        rows: dict[tuple[str, int], dict[str, str]] = {}
        for n, row in enumerate(reader, start=2):
            try:
                key = (row["doc_id"], int(row["error_index"]))
            except (TypeError, ValueError):
                raise InputError(path, f"line {n}: error_index is not an integer") from None
            decision = (row.get("decision") or "").strip().lower()
            if decision and decision not in _ACCEPT | _REJECT:
                raise InputError(path, f"line {n}: decision {decision!r} is not accept/reject")
            rows[key] = row
    return rows


def revert_error(doc: FinEDDocument, error: AnnotatedError) -> None:
    """Put the original sentence back (or remove an inserted one) so a rejected error leaves no trace."""
    start = error.start if error.start is not None else doc.text.find(error.sentence)
    if start < 0 or doc.text[start : start + len(error.sentence)] != error.sentence:
        raise InputError(None, f"{doc.id}: cannot locate error sentence to revert")
    end = start + len(error.sentence)
    if error.original:
        replacement = error.original
    else:  # inserted sentence: drop it with the space that joined it
        replacement = ""
        if start > 0 and doc.text[start - 1] == " ":
            start -= 1
    delta = len(replacement) - (end - start)
    doc.text = doc.text[:start] + replacement + doc.text[end:]
    for other in doc.errors:
        if other is not error and other.start is not None and other.start >= end:
            other.start += delta


def apply_review(
    docs: list[FinEDDocument],
    decisions: dict[tuple[str, int], dict[str, str]],
    drop_undecided: bool = False,
) -> tuple[list[FinEDDocument], Counter]:
    """Apply reviewers' decisions: rejected errors are reverted in the text and removed."""
    stats: Counter = Counter()
    for doc in docs:
        keep: list[AnnotatedError] = []
        for i, e in enumerate(list(doc.errors)):
            row = decisions.get((doc.id, i))
            decision = (row or {}).get("decision", "").strip().lower()
            if decision in _REJECT or (not decision and drop_undecided):
                revert_error(doc, e)
                stats["rejected" if decision else "dropped_undecided"] += 1
                continue
            if row and row.get("corrected_subtype", "").strip():
                sub = normalize_subtype(row["corrected_subtype"])
                if sub is None:
                    raise InputError(
                        None,
                        f"{doc.id} error {i}: unknown corrected_subtype {row['corrected_subtype']!r}",
                    )
                e.subtype = sub
                stats["retyped"] += 1
            e.detail["review"] = decision or "undecided"
            stats["accepted" if decision else "undecided"] += 1
            keep.append(e)
        doc.errors = keep
    return docs, stats
