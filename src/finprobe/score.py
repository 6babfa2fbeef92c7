"""Score replies produced anywhere: ``finprobe score BENCH --predictions FILE``.

A predictions file holds one reply per sample: JSON lines (or a JSON list) of
objects with the sample id under ``example_id``, ``uid`` or ``id`` and the raw reply
under ``output`` (a string, or a list holding one string, as the FinDVer authors'
processed output files have it). Each reply goes through the same per-sample
scoring function as ``finprobe eval`` and the same summary, so the results JSON has
the same shape (``headline``, ``metrics``, ``breakdowns``) and compares with runs
and with the published tables.

Only the labelled data is needed, never the reports. For FinDVer the labels may
also come from the predictions file itself (``entailment_label`` and ``subset`` on
every row, as in the authors' processed files) when ``--data`` is not given; the
results say where the labels came from.

Checks, each a one-line error naming the file: a row without an id or a reply, a
reply given twice, replies for ids the data does not have. Ids of the data with no
reply are not scored: they are counted as missing, beside the headline.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from finprobe.benchmark import BENCHMARK_NAMES, SampleRecord, benchmark_info, samples_fingerprint
from finprobe.errors import InputError
from finprobe.files import read_bytes

ID_KEYS = ("example_id", "uid", "id")
REPLY_KEY = "output"
MISSING_CAUSE = "missing_reply"


# ----------------------------------------------------------------------------- reading


def read_prediction_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a predictions file: a JSON list, {"predictions": [...]}, or JSON lines."""
    text = read_bytes(path).decode("utf-8-sig", errors="replace").strip()
    if not text:
        raise InputError(path, "file is empty")
    try:
        data: Any = json.loads(text)
    except RecursionError:
        raise InputError(path, "JSON nested too deeply") from None
    except json.JSONDecodeError:
        data = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data.append(json.loads(line))
            except json.JSONDecodeError:
                raise InputError(path, f"line {number} is neither JSON nor part of one") from None
    if isinstance(data, dict):  # {"predictions": [...]}, or JSON lines of one row
        data = data.get("predictions", data.get("data", [data]))
    if not isinstance(data, list) or not data:
        raise InputError(path, "expected a non-empty list of predictions")
    for number, row in enumerate(data, 1):
        if not isinstance(row, dict):
            raise InputError(path, f"prediction {number} is not an object")
    return data


def row_id(row: dict[str, Any], path: Path, number: int) -> str:
    for key in ID_KEYS:
        if row.get(key) is not None and str(row[key]).strip():
            return str(row[key]).strip()
    raise InputError(path, f"prediction {number} has no id ({', '.join(ID_KEYS)})")


def row_reply(row: dict[str, Any], path: Path, sample_id: str) -> str:
    """The raw reply: ``output`` as a string, or a list of exactly one string."""
    if REPLY_KEY not in row:
        raise InputError(path, f"prediction {sample_id!r} has no {REPLY_KEY!r} field")
    reply = row[REPLY_KEY]
    if isinstance(reply, list):
        if len(reply) != 1:
            raise InputError(
                path,
                f"prediction {sample_id!r}: 'output' is a list of {len(reply)}; expected one reply",
            )
        reply = reply[0]
    if reply is None:
        return ""
    if not isinstance(reply, str):
        raise InputError(path, f"prediction {sample_id!r}: 'output' is not text")
    return reply


def replies_by_id(rows: list[dict[str, Any]], path: Path) -> dict[str, str]:
    replies: dict[str, str] = {}
    for number, row in enumerate(rows, 1):
        sample_id = row_id(row, path, number)
        if sample_id in replies:
            raise InputError(path, f"two replies for id {sample_id!r}")
        replies[sample_id] = row_reply(row, path, sample_id)
    return replies


# ----------------------------------------------------------------------------- labelled data


def _findver_data(data: Path | None, rows: list[dict], predictions: Path) -> tuple[list, str]:
    from finprobe.benchmarks.findver.dataset import load_claims, normalise_subset

    if data is not None:
        claims = load_claims(data)
        return [
            (c.example_id, {"example_id": c.example_id, "subset": c.subset, "label": c.label})
            for c in claims
        ], str(data)
    labelled = []
    for number, row in enumerate(rows, 1):
        sample_id = row_id(row, predictions, number)
        label = row.get("entailment_label")
        if not isinstance(label, bool):
            raise InputError(
                predictions,
                f"prediction {sample_id!r} has no boolean entailment_label: give --data with the labels",
            )
        subset = normalise_subset(row.get("subset") or sample_id.split("-")[0], predictions)
        labelled.append((sample_id, {"example_id": sample_id, "subset": subset, "label": label}))
    return labelled, "labels from the predictions file"


def _finauditing_data(data: Path, task: str | None) -> list[tuple[str, dict]]:
    from finprobe.benchmarks.finauditing.dataset import find_data_file, read_rows, rows_to_samples

    if task is None:
        raise InputError(None, "finauditing: name the sub-task with --task finsm|finre|finmr")
    path = find_data_file(data, task)
    samples = rows_to_samples(read_rows(path), task, str(path))
    if not samples:
        raise InputError(path, f"no {task} rows")
    return [(str(s.id), dict(s.metadata or {})) for s in samples]


def _faith_data(data: Path) -> list[tuple[str, dict]]:
    from finprobe.benchmarks.faith.dataset import (
        instance_metadata,
        iter_instances,
        load_faith_reports,
    )

    return [
        (instance.uid, instance_metadata(report, instance))
        for report, instance in iter_instances(load_faith_reports(data))
    ]


def _fined_data(data: Path) -> list[tuple[str, dict]]:
    from finprobe.benchmarks.fined.dataset import load_dataset
    from finprobe.benchmarks.fined.task import document_metadata

    return [(doc.id, document_metadata(doc)) for doc in load_dataset(data)]


# ----------------------------------------------------------------------------- FinDVer prompt, coverage

_PROMPT_FOLDERS = {"processed_do_outputs": "direct", "processed_cot_outputs": "cot"}
# a direct reply is a label, perhaps in a short sentence ("The claim is refuted."); a
# chain of thought runs to hundreds of words: most replies short means direct
SHORT_REPLY_WORDS = 8
SHORT_REPLY_SHARE = 0.8


def findver_prompt(
    given: str | None, path: Path, replies: dict[str, str]
) -> tuple[str, str, str | None]:
    """(prompt type, where it came from, a warning or None). Given, it is used, with a
    warning where the path names the other type; otherwise the path's folder name
    decides, then the replies (80% or more of a few words: direct), else cot."""
    named = next((kind for part, kind in _PROMPT_FOLDERS.items() if part in str(path)), None)
    if given is not None:
        if named and named != given:
            return (
                given,
                "given with --prompt",
                (
                    f"WARNING: --prompt {given} given, but the path names {named} replies "
                    f"({path}): scored as {given}"
                ),
            )
        return given, "given with --prompt", None
    if named:
        folder = next(part for part, kind in _PROMPT_FOLDERS.items() if kind == named)
        return named, f"read from the path: {folder}; --prompt overrides", None
    texts = [t.strip() for t in replies.values() if t and t.strip()]
    short = sum(len(t.split()) <= SHORT_REPLY_WORDS for t in texts)
    if texts and short >= SHORT_REPLY_SHARE * len(texts):
        return (
            "direct",
            (
                f"read from the replies: {short} of {len(texts)} are of {SHORT_REPLY_WORDS} words "
                "or fewer; --prompt overrides"
            ),
            None,
        )
    return (
        "cot",
        "default: replies read as chain of thought; --prompt direct for direct replies",
        None,
    )


def _coverage(benchmark: str, scored: int, from_file: bool) -> dict[str, Any]:
    """How many claims were scored beside how many the published figures cover."""
    from finprobe.results import published

    counts = published().get(benchmark, {}).get("sample_counts", {})
    if not counts:
        return {}
    split, total = next(iter(counts.items()))
    partial = scored < total
    source = "from the file" if from_file else "scored"
    return {
        "samples": scored,
        "published_split": split,
        "published_samples": total,
        "partial": partial,
        **(
            {
                "note": f"PARTIAL: {scored} claims {source}; the published figures cover "
                f"{total} ({split}): these figures are over the {scored} only"
            }
            if partial
            else {}
        ),
    }


# ----------------------------------------------------------------------------- per-sample scoring


def _reply_scorer(benchmark: str, seed: int) -> Callable[[str, dict], tuple[dict, dict]]:
    """The benchmark's own per-sample scoring function (the one its inspect scorer calls)."""
    if benchmark == "findver":
        from finprobe.benchmarks.findver.scorer import score_reply

        return lambda reply, meta: score_reply(reply, meta, seed)
    if benchmark == "finauditing":
        from finprobe.benchmarks.finauditing.scorer import score_completion

        return score_completion
    if benchmark == "fined":
        from finprobe.benchmarks.fined.scorer import score_completion as fined_score

        return fined_score
    from finprobe.benchmarks.faith.scorer import parse_answer, score_answer

    def faith(reply: str, meta: dict) -> tuple[dict, dict]:
        parsed = parse_answer(reply)
        values = score_answer(meta["ground_truth"], parsed["answer"] if parsed else None)
        return values, {"parsed": parsed}

    return faith


# ----------------------------------------------------------------------------- the command


def score_predictions(
    benchmark: str,
    predictions: Path,
    data: Path | None = None,
    task: str | None = None,
    prompt: str | None = None,
    protocol: str | None = None,
    seed: int | None = None,
    model: str | None = None,
) -> dict[str, Any]:
    """Results (the shape ``finprobe eval`` writes) for the replies in ``predictions``.

    FinDVer's ``prompt`` (cot or direct), when not given, is read from the path
    (``processed_do_outputs`` / ``processed_cot_outputs``) or from the replies (all of
    a few words: direct); the results say which and why (``settings.prompt_from``)."""
    if benchmark not in BENCHMARK_NAMES:
        raise InputError(
            None, f"unknown benchmark {benchmark!r}; choose one of {', '.join(BENCHMARK_NAMES)}"
        )
    if prompt not in (None, "cot", "direct"):
        raise InputError(None, f"--prompt {prompt!r}: use cot or direct")
    predictions = Path(predictions)
    if predictions.is_dir():
        raise InputError(predictions, "is a folder, expected a file of replies")
    if not predictions.is_file():
        raise InputError(predictions, "no such file")
    rows = read_prediction_rows(predictions)
    replies = replies_by_id(rows, predictions)
    if data is None and benchmark != "findver":
        raise InputError(None, f"{benchmark}: give the labelled data with --data")
    if data is not None and not data.exists():
        raise InputError(data, "no such file")

    labels_from = str(data) if data is not None else ""
    notes: list[str] = []
    prompt_from = ""
    if benchmark == "findver":
        prompt, prompt_from, warning = findver_prompt(prompt, predictions, replies)
        notes += [warning] if warning else []
        labelled, labels_from = _findver_data(data, rows, predictions)
        for _, meta in labelled:
            meta["prompt"] = prompt
    elif benchmark == "finauditing":
        labelled = _finauditing_data(data, task)  # type: ignore[arg-type]
    elif benchmark == "faith":
        labelled = _faith_data(data)  # type: ignore[arg-type]
    else:
        labelled = _fined_data(data)  # type: ignore[arg-type]

    known = {sample_id for sample_id, _ in labelled}
    unknown = [sample_id for sample_id in replies if sample_id not in known]
    if unknown:
        raise InputError(
            predictions,
            f"{len(unknown)} replies for ids the data does not have (first: {unknown[0]!r})",
        )
    from finprobe.benchmarks.findver.scorer import GUESS_SEED

    guess_seed = GUESS_SEED if seed is None else seed
    score_one = _reply_scorer(benchmark, guess_seed)
    records, missing = [], []
    for sample_id, meta in labelled:
        if sample_id not in replies:
            missing.append(sample_id)
            continue
        reply = replies[sample_id]
        values, score_meta = score_one(reply, meta)
        records.append(SampleRecord(sample_id, meta, reply, values, score_meta))

    info = benchmark_info(benchmark)
    summary = (
        info.summarize(records) if records else {"headline": {}, "metrics": {}, "breakdowns": {}}
    )
    coverage: dict[str, Any] = {}
    if benchmark == "findver":
        summary["metrics"]["guess_seed"] = guess_seed
        released = released_figures(rows, prompt or "cot")
        if released:
            summary["metrics"]["released"] = released
        notes.insert(0, f"prompt: {prompt} ({prompt_from})")
        coverage = _coverage(benchmark, len(records), data is None)
        if coverage.get("partial"):
            notes.append(coverage["note"])
    chosen = _apply_protocol(summary, protocol)
    status = "success_with_errors" if missing else "success"
    return {
        "benchmark": benchmark,
        "task": task or benchmark,
        "model": model or predictions.stem,
        "scorer_version": info.scorer_version,
        "rescored": False,
        "settings": {
            "source": "finprobe score",
            "predictions": str(predictions),
            "labels": labels_from,
            "protocol": chosen,
            **(
                {"prompt": prompt, "prompt_from": prompt_from, "guess_seed": guess_seed}
                if benchmark == "findver"
                else {}
            ),
        },
        "dataset": {
            "name": f"{benchmark}:{Path(labels_from).name if data is not None else predictions.name}",
            "location": str(data) if data is not None else str(predictions),
            "samples": len(labelled),
            "fingerprint": samples_fingerprint([sample_id for sample_id, _ in labelled]),
        },
        "status": status,
        "finished": True,
        "samples": len(labelled),
        "scored_samples": len(records),
        "errors": len(missing),
        "missing_replies": len(missing),
        "error_causes": {MISSING_CAUSE: len(missing)} if missing else {},
        "error_examples": (
            {
                MISSING_CAUSE: "no reply for "
                + ", ".join(missing[:10])
                + (" ..." if len(missing) > 10 else "")
            }
            if missing
            else {}
        ),
        "log": None,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        **({"coverage": coverage} if coverage else {}),
        **({"notes": notes} if notes else {}),
        **summary,
    }


def _apply_protocol(summary: dict[str, Any], protocol: str | None) -> str | None:
    """Put the chosen protocol's figures in the headline under the plain names; the
    default protocol's stay beside them, named ``<figure>_<default>`` (``overall_reference``),
    and every protocol stays in metrics. ``reference`` is accepted for every benchmark:
    it is the default of those with one protocol (FAITH, FinRE, FinMR, FinED)."""
    metrics = summary.get("metrics") or {}
    protocols = metrics.get("protocols") or {}
    default = metrics.get("protocol") or "reference"
    if protocol is None or protocol == default:
        return default if (protocols or protocol) else None
    if protocol not in protocols:
        names = ", ".join(protocols) or "only its reference protocol"
        raise InputError(None, f"--protocol {protocol!r}: this benchmark has {names}")
    old = summary["headline"]
    chosen = protocols[protocol]
    headline: dict[str, Any] = dict(chosen)
    for key, value in old.items():
        plain = key.removesuffix(f"_{protocol}")
        if key not in chosen and plain not in chosen:  # other figures (unparseable rate)
            headline[key] = value
    for key in chosen:
        if key in old:
            headline[f"{key}_{default}"] = old[key]
    summary["headline"] = headline
    metrics["protocol"] = protocol
    return protocol


# ----------------------------------------------------------------------------- released figures


def _has_released_fields(rows: list[dict[str, Any]]) -> bool:
    return all("result" in row and "subset" in row for row in rows)


def released_figures(rows: list[dict[str, Any]], prompt: str = "cot") -> dict[str, Any] | None:
    """What the authors' evaluation computes from a processed output file's own
    ``result`` field: accuracy overall and per subset, rounded to one decimal as
    their script rounds it; and how often FinProbe's reader gives the file's
    ``extracted_label`` (where the file has one)."""
    if not _has_released_fields(rows):
        return None
    from finprobe.benchmarks.findver.dataset import normalise_subset
    from finprobe.benchmarks.findver.scorer import PUBLISHED_SUBSET_NAMES, reference_label

    totals: dict[str, list[int]] = {}
    agree = parsed = with_label = 0
    for row in rows:
        subset = normalise_subset(row.get("subset") or "", None)
        for key in ("overall", PUBLISHED_SUBSET_NAMES[subset]):
            right, n = totals.setdefault(key, [0, 0])
            totals[key] = [right + int(bool(row["result"])), n + 1]
        released = row.get("extracted_label")
        if released in ("entailed", "refuted"):
            reply = row.get(REPLY_KEY)
            reply = reply[0] if isinstance(reply, list) and reply else reply
            ours = reference_label(reply if isinstance(reply, str) else "", prompt)
            with_label += 1
            parsed += ours is not None
            agree += ours == released
    figures: dict[str, Any] = {
        # as evaluation.py rounds: round((r / n) * 100, 1) (not 100 * r / n: 23/80 is 28.7)
        key: round((right / n) * 100, 1)
        for key, (right, n) in totals.items()
        if n
    }
    if with_label:
        figures["label_agreement"] = round(100.0 * agree / with_label, 2)
        figures["label_agreement_where_parsed"] = (
            round(100.0 * agree / parsed, 2) if parsed else 0.0
        )
        figures["labels_compared"] = with_label
    return figures
