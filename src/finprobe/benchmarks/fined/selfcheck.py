"""An independent check of every built error against its source file.

It does not use the builder's parsed text: the source report is read again here (the
FinDVer JSON's raw passages, or the text file), with only whitespace and zero-width
characters normalised, and each annotated error must hold against it:

- it sits where it says: the document text at ``start`` is the erroneous sentence;
- a replaced sentence's original stands in the source, and the erroneous one does not
  (the error is the builder's, not the filer's);
- an inserted sentence (no original) is not in the source.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

from finprobe.benchmarks.fined.dataset import FinEDDocument

_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def _normalised(text: str) -> str:
    return " ".join(_ZERO_WIDTH.sub("", text).replace("\xa0", " ").split())


def source_text(path: Path) -> str:
    """The source as its file holds it: a FinDVer report's passages, or a text file."""
    if path.name.endswith((".json", ".json.gz")):
        raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
        report = json.loads(raw)
        return _normalised("\n".join(str(c.get("context", "")) for c in report.get("context", [])))
    return _normalised(path.read_text(encoding="utf-8"))


def check_document(doc: FinEDDocument, source: str) -> list[dict[str, Any]]:
    """The errors of ``doc`` that do not hold against ``source`` (normalised), with why."""
    failures = []
    for i, e in enumerate(doc.errors):
        why = None
        if e.start is not None and doc.text[e.start : e.start + len(e.sentence)] != e.sentence:
            why = "not at its offset in the document"
        elif e.original and _normalised(e.original) not in source:
            why = "original sentence not in the source"
        elif e.original and _normalised(e.sentence) in source:
            why = "erroneous sentence already in the source"
        elif not e.original and _normalised(e.sentence) in source:
            why = "inserted sentence already in the source"
        if why:
            failures.append({"document": doc.id, "error": i, "subtype": e.subtype, "why": why})
    return failures


def self_check(docs: list[FinEDDocument], paths: dict[str, Path]) -> dict[str, Any]:
    """Every error of ``docs`` checked against its source file (``paths``: id -> file)."""
    failures: list[dict[str, Any]] = []
    checked = 0
    for doc in docs:
        failures += check_document(doc, source_text(paths[doc.id]))
        checked += len(doc.errors)
    return {"checked": checked, "passed": checked - len(failures), "failures": failures}
