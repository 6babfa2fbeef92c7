"""FAITH dataset: reports with tables and masked numeric spans.

The released format (pilot and main splits) is a JSON list of reports:
``{metadata: {cik, filing_date}, tables: [{table_index, pre_text, cells}],
instances: [{uid, sentence, pre_sentence, post_sentence, mask_type, mask_span,
masked_sentence, ground_truth, <model>_label ...}]}``. FinProbe's builder writes
the same format, plus optional fields (``derivation``, ``answerable_by``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finprobe.errors import InputError
from finprobe.files import read_json
from finprobe.numbers import parse_number
from finprobe.schemas import FaithReportRecord, validate_records

# The three answerability annotators of the released data (label field names).
RELEASED_LABEL_FIELDS = ("gpt-4.1_label", "gemini-2.5-pro-label", "claude-sonnet-4-label")


@dataclass
class FaithTable:
    index: str
    pre_text: str
    cells: list[list[str]]


@dataclass
class FaithInstance:
    uid: str
    report_id: str
    sentence: str
    pre_sentence: str
    post_sentence: str
    masked_sentence: str
    ground_truth: str
    mask_span: tuple[int, int]
    mask_type: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def span_text(self) -> str:
        start, end = self.mask_span
        return self.sentence[start:end]

    def answerability(self) -> str:
        """The status "answerable", "unanswerable" or "unlabelled", from what the file records.

        A builder's ``answerable`` flag (or its ``answerable_by`` evidence) first;
        else the released annotators' labels: unanimous "unanswerable" is
        unanswerable, any other labelled span is answerable (the released data
        are scored whole, as published); no label of any kind is unlabelled.
        """
        flag = self.extra.get("answerable")
        if isinstance(flag, bool):
            return "answerable" if flag else "unanswerable"
        by = self.extra.get("answerable_by")
        if isinstance(by, dict) and by:
            panel = by.get("panel")
            if isinstance(panel, dict) and panel:
                values = set(panel.values())
                return "answerable" if values == {"answerable"} else "unanswerable"
            if any(v is True for v in by.values()):
                return "answerable"
            return "unanswerable"
        if self.labels:
            return "unanswerable" if self.unanimous_label() == "unanswerable" else "answerable"
        return "unlabelled"

    def unanimous_label(self) -> str | None:
        """'answerable'/'unanswerable' when every annotator agrees, else None."""
        values = {v for v in self.labels.values() if v}
        return values.pop() if len(values) == 1 and len(self.labels) > 0 else None


@dataclass
class FaithReport:
    id: str
    metadata: dict[str, Any]
    tables: list[FaithTable]
    instances: list[FaithInstance]


def load_faith_reports(path: str | Path) -> list[FaithReport]:
    """Read a FAITH dataset file (list of reports, or a single report object)."""
    path = Path(path)
    data = read_json(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise InputError(path, "expected a JSON list of FAITH reports")
    validate_records(path, data, FaithReportRecord, "report", format_name="FAITH")
    reports = []
    for n, record in enumerate(data):
        if not isinstance(record, dict) or "tables" not in record or "instances" not in record:
            raise InputError(path, f"report {n} has no 'tables'/'instances': not the FAITH format")
        reports.append(parse_report(record, n, path))
    return reports


def parse_report(record: dict, n: int, path: Path | None = None) -> FaithReport:
    metadata = dict(record.get("metadata") or {})
    report_id = str(metadata.get("report_id") or metadata.get("cik") or f"report{n}")
    tables = [
        FaithTable(
            index=str(t.get("table_index", i)),
            pre_text=str(t.get("pre_text") or ""),
            cells=[[str(c) for c in row] for row in (t.get("cells") or [])],
        )
        for i, t in enumerate(record["tables"])
    ]
    instances = []
    for i, inst in enumerate(record["instances"]):
        try:
            span = inst.get("mask_span") or [0, 0]
            instances.append(
                FaithInstance(
                    uid=str(inst.get("uid") or f"{report_id}-{i}"),
                    report_id=report_id,
                    sentence=inst.get("sentence", ""),
                    pre_sentence=_text(inst.get("pre_sentence")),
                    post_sentence=_text(inst.get("post_sentence")),
                    masked_sentence=inst["masked_sentence"],
                    ground_truth=str(inst["ground_truth"]),
                    mask_span=(int(span[0]), int(span[1])),
                    mask_type=inst.get("mask_type"),
                    labels={
                        k: v for k, v in inst.items() if k.endswith("label") and isinstance(v, str)
                    },
                    extra={
                        k: v
                        for k, v in inst.items()
                        if k in ("derivation", "answerable_by", "answerable", "scenario_source")
                    },
                )
            )
        except KeyError as exc:
            raise InputError(path, f"report {n} instance {i} lacks field {exc.args[0]!r}") from exc
    return FaithReport(id=report_id, metadata=metadata, tables=tables, instances=instances)


def _text(value: Any) -> str:
    """Neighbour sentences are missing (null, or NaN from a dataframe export) at edges."""
    return value if isinstance(value, str) else ""


def iter_instances(reports: list[FaithReport]) -> Iterator[tuple[FaithReport, FaithInstance]]:
    for report in reports:
        for instance in report.instances:
            yield report, instance


UNIT_PHRASES = {
    "usd": "a monetary amount in US dollars ($)",
    "eur": "a monetary amount in euros",
    "gbp": "a monetary amount in pounds sterling",
    "cny": "a monetary amount in yuan",
    "jpy": "a monetary amount in yen",
    "percent": "a percentage (%)",
    "bps": "a number of basis points",
    "per_share": "a per-share amount",
}


def unit_hint(ground_truth: str) -> str:
    """The value-type hint of the FAITH prompt, derived from the ground truth's units.

    The paper restores uniqueness ("10%" vs "$5 million") by telling the model
    what kind of value is masked; FinProbe states the unit groups of the answer.
    """
    parsed = parse_number(ground_truth)
    if parsed is None:
        return "(the value's unit is not specified)"
    phrases = [
        UNIT_PHRASES.get(u, f"expressed in {u.replace('_', ' ').upper()}")
        for u in sorted(parsed.units)
    ]
    if not phrases:
        return "(a plain number with no unit or currency sign)"
    return "(" + "; ".join(phrases) + ")"


def table_to_text(table: FaithTable) -> str:
    lines = [f"Table {table.index}: {table.pre_text}".rstrip()]
    for row in table.cells:
        if any(cell.strip() for cell in row):
            lines.append("| " + " | ".join(cell.strip() for cell in row) + " |")
    return "\n".join(lines)


def tables_with_pretext(tables: list[FaithTable]) -> str:
    return "\n\n".join(table_to_text(t) for t in tables)


def instance_metadata(report: FaithReport, instance: FaithInstance) -> dict[str, Any]:
    """Everything a task, scorer or baseline needs, JSON-serialisable."""
    return {
        "uid": instance.uid,
        "report_id": report.id,
        "filing_date": str(report.metadata.get("filing_date", "")),
        "tables": [
            {"index": t.index, "pre_text": t.pre_text, "cells": t.cells} for t in report.tables
        ],
        "pre_sentence": instance.pre_sentence,
        "masked_sentence": instance.masked_sentence,
        "post_sentence": instance.post_sentence,
        "hint": unit_hint(instance.ground_truth),
        "mask_type": instance.mask_type,
        "ground_truth": instance.ground_truth,
        "answerability": instance.answerability(),
        # which data this is: a report built by FinProbe never stands beside the paper's
        # published table (finprobe.report)
        "builder": str(report.metadata.get("builder") or ""),
    }


# Metadata a baseline must never see: it sees only what a model sees.
HIDDEN_FROM_BASELINES = ("ground_truth", "mask_type", "answerability")


def tables_from_metadata(metadata: dict[str, Any]) -> list[FaithTable]:
    return [
        FaithTable(index=t["index"], pre_text=t["pre_text"], cells=t["cells"])
        for t in metadata["tables"]
    ]
