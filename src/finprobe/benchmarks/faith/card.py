"""FAITH data card: counts, a self-check by a separate code path, negatives, probes.

Every ``finprobe build faith`` writes one beside its output (``<out>.card.json``):

- counts by scenario and by derivation kind;
- self-check: each instance's cited cells are re-read from the source report
  (loaded again, not from the builder's memory), parsed again with
  ``parse_number``, the recorded scaling is checked against the table's own
  scale words, and the formula is recomputed here, with its own arithmetic,
  from those values; the result must round to the span;
- swapped-tables negative: every written span searched again with the next
  report's tables (report i gets report i+1's): what is "found" there is a
  coincidence the finder would also make on real data;
- sentence-only probe: how often the answer can be read from the masked
  sentence and its neighbours without any table (a leak, not a test of tables).

``show_instance`` prints one instance for a reviewer: the sentence with the
mask, the ground truth, the derivation with its reason, and the cited cells.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from decimal import Decimal, localcontext
from typing import Any

from finprobe.numbers import (
    find_numbers,
    parse_number,
    reference_scorer_match,
    released_value_and_resolution,
)

_HUNDRED = Decimal(100)
# An independent, deliberately plain reading of a table's scale words.
_SCALE_WORDS = re.compile(r"(?i)\b(?:in\s+)?(thousands|millions|billions)\b|\b000s\b")
_SCALE_OF = {"thousands": Decimal(10**3), "millions": Decimal(10**6), "billions": Decimal(10**9)}


def _declared_scales(table: dict[str, Any]) -> set[Decimal]:
    """Scales the table's pre-text or cells name, plus 1 (per-share rows, percents, counts)."""
    text = " ".join([str(table.get("pre_text") or ""), *(" ".join(r) for r in table["cells"])])
    found = {Decimal(1)}
    for m in _SCALE_WORDS.finditer(text):
        found.add(_SCALE_OF[m.group(1).lower()] if m.group(1) else Decimal(1000))
    return found


def _recompute(kind: str, v: list[Decimal]) -> Decimal | None:
    """The formula of a derivation kind on the signed cell values (percent kinds in points)."""
    with localcontext() as ctx:
        ctx.prec = 40
        try:
            if kind == "lookup":
                return v[0]
            if kind in ("change", "pp_change"):
                return v[0] - v[1]
            if kind == "pct_change":
                return (v[0] - v[1]) / v[1] * _HUNDRED
            if kind in ("ratio", "share"):
                return v[0] / v[1] * _HUNDRED
            if kind == "sum":
                return v[0] + v[1]
            if kind == "ratio_change":
                return (v[0] / v[1] - v[2] / v[3]) * _HUNDRED
        except (ArithmeticError, IndexError):
            return None
    return None


def self_check(
    instance: dict[str, Any],
    tables: dict[str, dict[str, Any]],
    source_cell: Callable[[str, int, int], str | None] | None = None,
) -> str | None:
    """None when the instance checks out, else the first problem found, in words.

    ``tables``: the record's tables by ``table_index``; ``source_cell(table_index,
    row, col)`` reads a cell from the source report (None: use ``tables``).
    """
    sentence, (start, end) = instance["sentence"], instance["mask_span"]
    span = sentence[start:end]
    if instance["masked_sentence"] != sentence[:start] + "[MASK]" + sentence[end:]:
        return "masked_sentence is not the sentence with the span masked"
    truth = released_value_and_resolution(instance["ground_truth"])
    number = parse_number(span)
    if truth is None or number is None or not math.isclose(truth[0], number.as_fraction()):
        return f"ground truth {instance['ground_truth']!r} is not the span {span!r}, scaled"
    derivation = instance.get("derivation")
    if not derivation:
        return None if instance.get("answerable") is not True else "answerable without derivation"
    values: list[Decimal] = []
    for cell in derivation["cells"]:
        table = tables.get(str(cell["table_index"]))
        if table is None:
            return f"table {cell['table_index']} is not in the record"
        try:
            text = (
                source_cell(str(cell["table_index"]), cell["row"], cell["col"])
                if source_cell
                else table["cells"][cell["row"]][cell["col"]]
            )
        except IndexError:
            text = None
        if text is None or text.strip() != str(cell["text"]).strip():
            return f"cell {cell['row']},{cell['col']} of table {cell['table_index']} reads {text!r}, not {cell['text']!r}"
        parsed = parse_number(text)
        if parsed is None:
            return f"cell text {text!r} does not parse"
        recorded = Decimal(cell["value"])
        # the recorded value is the written number times a scale the table declares
        written = abs(parsed.value) if parsed.scale == 1 else abs(parsed.value / parsed.scale)
        scales = _declared_scales(table) | ({parsed.scale} if parsed.scale != 1 else set())
        # a cell written in basis points ("360bps") is recorded in points: 1 bp = 0.01
        own = abs(parsed.value) / _HUNDRED if "bps" in parsed.units else abs(parsed.value)
        if not any(abs(recorded) == written * s for s in scales) and abs(recorded) != own:
            return f"value {recorded} of cell {text!r} is not its number at a declared scale"
        values.append(recorded)
    result = _recompute(derivation["kind"], values)
    if result is None:
        return f"formula {derivation['kind']} cannot be recomputed"
    if str(derivation.get("formula", "")).startswith("-("):
        result = -result  # the sign flip the formula writes out
    if result < 0:
        return f"formula {derivation['kind']} gives {result}, a negative value it does not negate"
    percent_span = bool(number.units & {"percent", "bps"})
    if percent_span:
        span_value, step = abs(number.as_fraction()) * _HUNDRED, number.fraction_precision() * 100
    else:
        span_value, step = abs(number.value), number.precision
    with localcontext() as ctx:
        ctx.prec = 60
        rounded = (result / step).quantize(Decimal(1), rounding="ROUND_HALF_UP") * step
    if rounded != span_value:
        return f"recomputed {derivation['kind']} = {result} does not round to the span {span!r}"
    return None


def sentence_only_answer(instance: dict[str, Any]) -> bool:
    """Can the answer be read off the visible text (masked sentence and neighbours)?"""
    visible = " ".join(
        str(instance.get(k) or "") for k in ("pre_sentence", "masked_sentence", "post_sentence")
    )
    truth = instance["ground_truth"]
    return any(
        reference_scorer_match(truth, n.text)
        for n in find_numbers(visible)
        if n.kind not in ("year", "date", "ordinal")
    )


def data_card(
    records: list[dict[str, Any]],
    *,
    source_cells: list[Callable[[str, int, int], str | None] | None] | None = None,
    swapped: list[bool] | None = None,
) -> dict[str, Any]:
    """The card's figures for built records (``swapped``: per instance, found with
    another report's tables, computed by the builder)."""
    instances = [(n, i) for n, r in enumerate(records) for i in r["instances"]]
    status = Counter(
        "answerable" if i.get("answerable") else
        ("unlabelled" if i.get("answerable") is None else "unanswerable")
        for _, i in instances
    )  # fmt: skip
    with_derivation = [(n, i) for n, i in instances if i.get("derivation")]
    failures: list[dict[str, str]] = []
    for n, inst in instances:
        tables = {str(t["table_index"]): t for t in records[n]["tables"]}
        reader = source_cells[n] if source_cells else None
        problem = self_check(inst, tables, reader)
        if problem:
            failures.append({"uid": inst["uid"], "problem": problem})
    leaks = sum(sentence_only_answer(i) for _, i in instances)
    card: dict[str, Any] = {
        "reports": len(records),
        "instances": len(instances),
        "answerability": dict(status),
        "by_scenario": dict(Counter(i.get("mask_type") or "none" for _, i in instances)),
        "by_kind": dict(Counter(i["derivation"]["kind"] for _, i in with_derivation)),
        "self_check": {
            "checked": len(instances),
            "with_derivation": len(with_derivation),
            "cells_from_source": source_cells is not None,
            "passed": len(instances) - len(failures),
            "failed": failures,
        },
        "sentence_only_probe": {
            "rule": "any number in the masked sentence or its neighbours scores as the answer",
            "answerable_from_text": leaks,
            "rate": round(leaks / len(instances), 4) if instances else None,
        },
    }
    if swapped is not None:
        card["swapped_tables"] = {
            "rule": "each written span searched with the next report's tables",
            "searched": len(swapped),
            "found": sum(swapped),
            "found_rate": round(sum(swapped) / len(swapped), 4) if swapped else None,
        }
    return card


def show_instance(record: dict[str, Any], instance: dict[str, Any]) -> str:
    """Plain text for a reviewer: mask, ground truth, derivation, cells and their rows."""
    sentence, (start, end) = instance["sentence"], instance["mask_span"]
    lines = [
        f"uid:          {instance['uid']}",
        f"report:       {record.get('metadata', {}).get('report_id', '')}",
        f"sentence:     {sentence[:start]}[[{sentence[start:end]}]]{sentence[end:]}",
        f"masked:       {instance['masked_sentence']}",
        f"ground truth: {instance['ground_truth']}   (span {sentence[start:end]!r})",
        f"scenario:     {instance.get('mask_type')}   answerable: {instance.get('answerable')}",
    ]
    if instance.get("pre_sentence"):
        lines.insert(3, f"before:       {instance['pre_sentence']}")
    derivation = instance.get("derivation")
    if not derivation:
        lines.append("derivation:   none")
        return "\n".join(lines)
    lines += [
        f"derivation:   {derivation['kind']} = {derivation.get('value')}",
        f"formula:      {derivation['formula']}",
        f"why:          {derivation.get('reason', '')}",
        "cells:",
    ]
    tables = {str(t["table_index"]): t for t in record.get("tables", [])}
    for cell in derivation["cells"]:
        table = tables.get(str(cell["table_index"]), {})
        lines.append(
            f"  table {cell['table_index']} r{cell['row']} c{cell['col']}: {cell['text']!r}"
            f" -> {cell.get('value')}  | row {cell['row_label']!r} | column {cell['column_label']!r}"
        )
        if table:
            lines.append(f"    pre-text: {table.get('pre_text', '')[:200]}")
            header = table["cells"][0] if table.get("cells") else []
            lines.append(f"    header:   {' | '.join(header)}")
            lines.append(f"    row:      {' | '.join(table['cells'][cell['row']])}")
    return "\n".join(lines)
