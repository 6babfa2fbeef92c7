"""FinAuditing datasets: read instance rows (published or built here) into Samples.

Rows follow the published datasets' columns (DESIGN.md): ``id``, ``query`` (the
whole prompt), ``dqc_id``, ``answer`` and, for FinRE, ``choices`` and ``gold``.
FinMR's ``answer`` is a JSON string {extracted_value, calculated_value}; FinSM's is
a list of concepts. Rows written by ``finprobe build finauditing`` add ``subtask``,
``method`` and a structured ``context`` (the sub-filing as JSON) that the non-LLM
baselines read. Files: parquet, JSONL or JSON (a list, or {"data": [...]}).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from finprobe.benchmarks.finauditing.scorer import FINRE_LABELS, SUBTASKS, normalize_label
from finprobe.errors import InputError
from finprobe.files import read_records

# metadata a baseline must not see (the answers)
HIDDEN_FROM_BASELINES = ("label", "gold", "answer", "extracted_value", "calculated_value",
                         "gold_concepts", "truth")  # fmt: skip
SUFFIXES = (".parquet", ".jsonl", ".json")


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Rows of one parquet / JSONL / JSON file."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "file not found")
    if path.stat().st_size == 0:
        raise InputError(path, "empty file")
    return read_records(path)


def find_data_file(data: str | Path, subtask: str) -> Path:
    """The file for ``subtask``: ``data`` itself, or ``<subtask>.*`` (or ``*<subtask>*``)
    inside a folder."""
    data = Path(data)
    if data.is_file():
        return data
    if not data.is_dir():
        raise InputError(data, "not found")
    for suffix in SUFFIXES:
        candidate = data / f"{subtask}{suffix}"
        if candidate.is_file():
            return candidate
    for suffix in SUFFIXES:
        hits = sorted(p for p in data.glob(f"*{subtask}*{suffix}") if p.is_file())
        if hits:
            return hits[0]
    raise InputError(data, f"no {subtask} file (.parquet, .jsonl or .json) in this folder")


def detect_subtask(row: dict[str, Any]) -> str | None:
    if row.get("subtask") in SUBTASKS:
        return row["subtask"]
    if row.get("choices") is not None or row.get("gold") is not None:
        return "finre"
    answer = row.get("answer")
    if isinstance(answer, (list, tuple)):
        return "finsm"
    if isinstance(answer, dict) or (isinstance(answer, str) and "extracted_value" in answer):
        return "finmr"
    return None


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                return [str(v) for v in json.loads(text)]
            except json.JSONDecodeError:
                pass
        return [v.strip().strip("'\"") for v in text.strip("[]").split(",") if v.strip()]
    return [str(v) for v in value]


def row_metadata(row: dict[str, Any], subtask: str, where: str) -> dict[str, Any]:
    """Sample metadata for one row; InputError when its answer is unusable."""
    rid = str(row.get("id", ""))
    meta: dict[str, Any] = {
        "subtask": subtask,
        "id": rid,
        "dqc_id": row.get("dqc_id"),
        "method": row.get("method") or "published",
    }
    for key in ("filing", "role", "definition", "context", "elements", "concept", "period",
                "question_1", "question_2", "term", "truth", "taxonomy"):  # fmt: skip
        if row.get(key) is not None:
            meta[key] = row[key]
    answer = row.get("answer")
    if subtask == "finre":
        choices = tuple(_as_list(row.get("choices"))) or FINRE_LABELS
        label = None
        gold = row.get("gold")
        if gold is not None and str(gold).lstrip("-").isdigit() and 0 <= int(gold) < len(choices):
            label = choices[int(gold)]
        label = label or normalize_label(answer, choices)
        if label is None:
            raise InputError(where, f"row {rid!r}: FinRE answer {answer!r} is not one of {choices}")
        meta.update(choices=list(choices), label=label, gold=choices.index(label))
    elif subtask == "finmr":
        if isinstance(answer, str):
            try:
                answer = json.loads(answer)
            except json.JSONDecodeError:
                raise InputError(where, f"row {rid!r}: FinMR answer is not JSON") from None
        if not isinstance(answer, dict) or not {"extracted_value", "calculated_value"} <= set(
            answer
        ):
            raise InputError(where, f"row {rid!r}: FinMR answer lacks extracted/calculated value")
        meta["extracted_value"] = str(answer["extracted_value"])
        meta["calculated_value"] = str(answer["calculated_value"])
    else:
        meta["gold_concepts"] = _as_list(answer)
    return meta


def rows_to_samples(
    rows: Iterable[dict[str, Any]], subtask: str | None = None, where: str = "dataset"
) -> list[Sample]:
    """Samples for the rows of one subtask (rows of other subtasks are skipped)."""
    samples: list[Sample] = []
    seen: set[str] = set()
    for n, row in enumerate(rows):
        if not isinstance(row, dict):
            raise InputError(where, f"row {n} is not an object")
        kind = detect_subtask(row)
        if kind is None:
            raise InputError(where, f"row {n}: cannot tell FinSM/FinRE/FinMR apart (no subtask)")
        if subtask is not None and kind != subtask:
            continue
        query = row.get("query")
        if not isinstance(query, str) or not query.strip():
            raise InputError(where, f"row {n}: empty query")
        rid = str(row.get("id") if row.get("id") is not None else f"{kind}-{n}")
        if rid in seen:
            raise InputError(where, f"duplicate id {rid!r}")
        seen.add(rid)
        row = {**row, "id": rid}
        meta = row_metadata(row, kind, where)
        target = meta.get("label") or json.dumps(
            {k: meta[k] for k in ("extracted_value", "calculated_value") if k in meta}
            or meta.get("gold_concepts", [])
        )
        samples.append(Sample(id=rid, input=query, target=target, metadata=meta))
    return samples


def load_samples(data: str | Path, subtask: str) -> list[Sample]:
    path = find_data_file(data, subtask)
    samples = rows_to_samples(read_rows(path), subtask, str(path))
    if not samples:
        raise InputError(path, f"no {subtask} rows")
    return samples
