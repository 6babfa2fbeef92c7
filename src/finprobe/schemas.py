"""Schemas of the files FinProbe reads: one per dataset format and one for results.

Loaders call ``validate_records(path, records, Schema, what)`` before they parse;
a malformed record stops the load with one ``InputError`` line naming the file,
the record (its number and id) and the field::

    data.json: report 0, field instances[3].ground_truth: null is not allowed (expected text or a number)

Fields a loader does not use are allowed (datasets carry extra annotations).
Each record is also held to ``max_record_chars()`` characters of text in all, so
one giant record (a 50 MB table) is refused before it is copied into prompts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from finprobe.errors import InputError

DEFAULT_MAX_RECORD_CHARS = 5_000_000  # ~1.5M tokens: more than any model's context
ID_KEYS = ("uid", "id", "example_id", "doc_id", "name")

Text = Annotated[str, Field(strict=True)]
Number = int | float
Cell = str | int | float | None


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow")


# ----------------------------------------------------------------------------- FAITH


class FaithTableRecord(_Record):
    table_index: int | str | None = None
    pre_text: str | None = None
    cells: list[list[Cell]] = Field(default_factory=list)


class FaithInstanceRecord(_Record):
    uid: str | int | None = None
    sentence: str | None = None
    pre_sentence: Any = None  # null or NaN at a report's edges
    post_sentence: Any = None
    masked_sentence: Text
    ground_truth: Text | Number
    mask_span: list[int] | None = None
    mask_type: str | None = None

    @field_validator("mask_span")
    @classmethod
    def _span(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and len(value) != 2:
            raise ValueError("expected [start, end]")
        return value


class FaithReportRecord(_Record):
    metadata: dict[str, Any] | None = None
    tables: list[FaithTableRecord]
    instances: list[FaithInstanceRecord]


# ----------------------------------------------------------------------------- FinDVer


class FinDVerClaimRecord(_Record):
    example_id: Text | int
    statement: Text
    report: Text
    subset: str | None = None
    entailment_label: bool | str | int | None = None
    explanation: str | None = None
    relevant_context: list[str | int] | None = None


# ----------------------------------------------------------------------------- results


class ResultsRecord(_Record):
    benchmark: Text
    model: Text
    headline: dict[str, Number | None] = Field(default_factory=dict)
    metrics: dict[str, Any] = Field(default_factory=dict)
    breakdowns: dict[str, Any] = Field(default_factory=dict)
    dataset: dict[str, Any] | None = None
    settings: dict[str, Any] | None = None
    samples: int | None = None
    errors: int | None = None
    status: str | None = None

    @field_validator("benchmark")
    @classmethod
    def _known(cls, value: str) -> str:
        from finprobe.benchmark import BENCHMARK_NAMES

        if value not in BENCHMARK_NAMES:
            raise ValueError(f"unknown benchmark {value!r}")
        return value


# ----------------------------------------------------------------------------- checking


def max_record_chars() -> int:
    value = os.environ.get("FINPROBE_MAX_RECORD_CHARS", "")
    return int(value) if value.isdigit() else DEFAULT_MAX_RECORD_CHARS


def _text_size(value: Any, limit: int) -> int:
    """Characters of text in a JSON value (stops counting past ``limit``)."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            total += sum(len(str(k)) for k in item)
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return total


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"text {value[:30]!r}" if len(value) <= 30 else f"text {value[:27]!r}..."
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _field_path(loc: Iterable[Any]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not str(part).startswith(("function-", "union[", "list[", "str", "int", "float")):
            text += f".{part}" if text else str(part)
    return text or "(the record)"


def _record_label(what: str, index: int, record: Any) -> str:
    if isinstance(record, dict):
        for key in ID_KEYS:
            value = record.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool):
                return f"{what} {index} ({key} {value})"
    return f"{what} {index}"


def _problem(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    value = error.get("input")
    if kind == "missing":
        return "is missing"
    if value is None:
        return "null is not allowed"
    message = error.get("msg", "invalid").removeprefix("Value error, ")
    message = re.sub(r" or instance of \w+", "", message)
    return f"{message[:1].lower()}{message[1:]}, got {_describe(value)}"


def validate_records(
    path: str | Path | None,
    records: Any,
    schema: type[BaseModel],
    what: str = "record",
    allow_empty: bool = False,
    format_name: str | None = None,
) -> list[Any]:
    """``records`` unchanged when every one fits ``schema``; else an InputError naming the
    file, the record and the field (and ``format_name`` when a top-level field lacks)."""
    if not isinstance(records, list):
        raise InputError(path, f"expected a list of {what}s, got {_describe(records)}")
    if not records and not allow_empty:
        raise InputError(path, f"no {what}s (the list is empty)")
    limit = max_record_chars()
    for index, record in enumerate(records):
        label = _record_label(what, index, record)
        if not isinstance(record, dict):
            raise InputError(path, f"{label} is {_describe(record)}, expected an object")
        size = _text_size(record, limit)
        if size > limit:
            raise InputError(
                path,
                f"{label} holds over {limit:,} characters of text (at least {size:,}); "
                "the limit is FINPROBE_MAX_RECORD_CHARS",
            )
        try:
            schema.model_validate(record)
        except ValidationError as exc:
            first = exc.errors()[0]
            if first.get("type") == "missing":
                hint = (
                    f": not the {format_name} format"
                    if format_name and len(first["loc"]) == 1
                    else ""
                )
                raise InputError(path, f"{label} lacks {_field_path(first['loc'])}{hint}") from None
            detail = (
                " (expected text or a number)"
                if first.get("input") is None and "ground_truth" in first.get("loc", ())
                else ""
            )
            raise InputError(
                path, f"{label}, field {_field_path(first['loc'])}: {_problem(first)}{detail}"
            ) from None
    return records


def validate_object(path: str | Path | None, data: Any, schema: type[BaseModel], what: str) -> Any:
    """One object (a results file): the same one-line errors as ``validate_records``."""
    if not isinstance(data, dict):
        raise InputError(path, f"not a {what}: expected an object, got {_describe(data)}")
    try:
        schema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(
            path, f"not a valid {what}: field {_field_path(first['loc'])}: {_problem(first)}"
        ) from None
    return data
