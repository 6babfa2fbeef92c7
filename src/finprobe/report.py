"""Results as terminal tables, comparisons with the papers, and an HTML report with plots."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.table import Table as RichTable

from finprobe.development import is_tuned
from finprobe.likeness import headline_key
from finprobe.results import headline_columns, published_notes, published_split


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _flatten(data: dict, prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def run_label(results: dict) -> str:
    """The model, and the dataset when runs on several datasets are shown together."""
    label = str(results.get("model", "?"))
    if results.get("_show_dataset"):
        label += f" [{(results.get('dataset') or {}).get('name')}]"
    if not results.get("finished", True):
        label += " (stopped)"
    if is_tuned(results):  # its rules were written on these samples: not an unseen figure
        label += " (tuned on this data)"
    if results.get("errors"):
        label += f" ({results['errors']} failed)"  # its figures are over the scored samples
    coverage = results.get("coverage") or {}
    if coverage.get("partial"):  # not comparable with the published rows as it stands
        label += f" (PARTIAL: {coverage['samples']} of {coverage['published_samples']} samples)"
    return label


TUNED_NOTE = "note, tuned on this data: not a figure on unseen documents. "


def _mark_datasets(runs: list[dict]) -> list[dict]:
    if len({str((r.get("dataset") or {}).get("fingerprint")) for r in runs}) > 1:
        return [{**r, "_show_dataset": True} for r in runs]
    return runs


# one vocabulary: "failed" for samples whose request failed, "errors" for the errors
# annotated in documents (FinED's counts)
_INFO_NAMES = {"scored_samples": "samples scored", "errors": "samples failed"}
_COUNT_NAMES = {
    "documents": "documents",
    "unparsed": "replies not parsed",
    "errors": "errors annotated in the documents",
    "predictions": "errors the model reported",
    "error_free_documents": "documents without errors",
    "error_free_documents_flagged": "of which the model flagged",
}
# breakdown columns a benchmark's scorer writes as fractions (its headline is in percent)
_FRACTIONS = {"fined": ("precision", "recall", "f1")}
_COLUMN_NAMES = {"fined": {"tp": "found", "n_pred": "reported", "n_gold": "annotated"}}


def _headline_title(results: dict) -> str:
    """'headline (%)', with the scored count and the errors beside it when any failed."""
    errors = results.get("errors") or 0
    protocol = (results.get("metrics") or {}).get("protocol")
    named = ""
    if protocol and protocol != "reference":  # the plain names hold the chosen protocol
        named = f"; protocol {protocol}, *_reference: the reference protocol"
    if not errors:
        return f"headline (%{named})"
    scored = results.get("scored_samples", results.get("samples", 0) - errors)
    stopped = "" if results.get("finished", True) else "; RUN STOPPED, INCOMPLETE"
    return f"headline (% of {scored} scored samples; {errors} failed, not counted{stopped}{named})"


def results_tables(results: dict) -> list[RichTable]:
    """Terminal tables for one run: identity, headline, metrics, breakdowns."""
    tables = []
    info = RichTable(
        title=f"{results.get('benchmark')} · {results.get('model')}", show_header=False
    )
    info.add_column("field", style="dim")
    info.add_column("value")
    for key in ("task", "samples", "scored_samples", "errors", "status", "scorer_version"):
        if key in results:
            info.add_row(_INFO_NAMES.get(key, key), _fmt(results[key]))
    if results.get("error_causes"):
        causes = ", ".join(f"{c} {n}" for c, n in results["error_causes"].items())
        info.add_row("failed, by cause", causes)
    fit = results.get("prompt_fit")
    if fit and (fit.get("truncated") or fit.get("refused")):
        info.add_row(
            "prompts over the context",
            f"{fit['truncated']} cut, {fit['refused']} refused (policy {fit['policy']})",
        )
    dataset = results.get("dataset") or {}
    info.add_row("dataset", f"{dataset.get('name')} ({dataset.get('fingerprint')})")
    for note in results.get("notes") or []:  # how the replies were read, partial coverage
        info.add_row("note", note)
    developed = results.get("developed_on")
    if isinstance(developed, dict):  # a baseline on the samples its rules were written on
        share = float(developed.get("share") or 0)
        tuned = "a tuned figure, not one on unseen documents" if is_tuned(results) else "in part"
        info.add_row(
            "developed on",
            f"{developed.get('samples')} of these samples ({share:.0%}; {tuned}): "
            f"{developed.get('data')}",
        )
    tables.append(info)

    headline = results.get("headline") or {}
    title = _headline_title(results)
    if headline and len(headline) <= 8:
        table = RichTable(title=title)
        for key in headline:
            table.add_column(key, justify="right")
        table.add_row(*(_fmt(v) for v in headline.values()))
        tables.append(table)
    elif headline:  # too many columns for a terminal: one row per figure
        table = RichTable(title=title)
        table.add_column("figure")
        table.add_column("value", justify="right")
        for key, value in headline.items():
            table.add_row(key, _fmt(value))
        tables.append(table)

    counts = results.get("counts") or {}  # FinED: documents, errors in them, replies
    if counts:
        table = RichTable(title="counts")
        table.add_column("count")
        table.add_column("value", justify="right")
        for key, value in counts.items():
            table.add_row(_COUNT_NAMES.get(key, key.replace("_", " ")), _fmt(value))
        tables.append(table)

    metrics = _flatten(results.get("metrics") or {})
    if metrics:
        table = RichTable(title="metrics")
        table.add_column("metric")
        table.add_column("value", justify="right")
        for key, value in metrics.items():
            table.add_row(key, _fmt(value))
        tables.append(table)

    for name, rows in (results.get("breakdowns") or {}).items():
        if not rows:
            continue
        columns: list[str] = []
        for row in rows.values():
            for key in row if isinstance(row, dict) else ["value"]:
                if key not in columns:
                    columns.append(key)
        # one scale: a benchmark's fractions are shown as percent, like its headline
        bench = results.get("benchmark", "")
        pct = [c for c in columns if c in _FRACTIONS.get(bench, ())]
        table = RichTable(title=f"by {name}" + (f" ({', '.join(pct)} in %)" if pct else ""))
        table.add_column(name)
        for column in columns:
            table.add_column(_COLUMN_NAMES.get(bench, {}).get(column, column), justify="right")
        for key, row in rows.items():
            row = row if isinstance(row, dict) else {"value": row}
            table.add_row(str(key), *(_fmt(100 * row[c] if c in pct and isinstance(row.get(c), float)
                                           else row.get(c, "")) for c in columns))  # fmt: skip
        tables.append(table)
    return tables


def _group_by_benchmark(runs: list[dict]) -> dict[tuple[str, str | None], list[dict]]:
    """Runs grouped by benchmark and, where a benchmark has several tables, by table."""
    groups: dict[tuple[str, str | None], list[dict]] = defaultdict(list)
    for run in runs:
        groups[(run.get("benchmark", "?"), run.get("split"))].append(run)
    return groups


def comparison_rows(
    runs: list[dict], benchmark: str, published_too: bool, split: str | None, top: int = 20
) -> tuple[str, list[str], list[tuple[str, bool, dict[str, float]]]]:
    """(split, columns, rows) where a row is (label, is_ours, headline values)."""
    if (
        split is None
    ):  # a run may name the published table it compares with (finauditing: finre, ...)
        named = {r.get("split") for r in runs if r.get("split")}
        split = named.pop() if len(named) == 1 else None
    split_name, table = published_split(benchmark, split) if published_too else ("", {})
    columns = headline_columns(runs, table)
    rows: list[tuple[str, bool, dict[str, float]]] = [
        (run_label(r), True, r.get("headline") or {}) for r in runs
    ]
    if published_too:
        key = _rank_key(runs, columns)
        ranked = sorted(table.items(), key=lambda item: -item[1].get(key, 0.0) if key else 0.0)
        notes = published_notes(benchmark, split_name)
        rows += [
            (f"{model} (published{', see note' if model in notes else ''})", False, values)
            for model, values in ranked[:top]
        ]
    return split_name, columns, rows


def _rank_key(runs: list[dict], columns: list[str]) -> str | None:
    """The headline that ranks a table (FinED: overall F1), else its first column."""
    keys = {headline_key(r) for r in runs}
    key = keys.pop() if len(keys) == 1 else None
    return key if key in columns else (columns[0] if columns else None)


def comparison_table(
    runs: list[dict], published: bool = False, split: str | None = None, top: int = 20
) -> list[RichTable]:
    tables = []
    for (benchmark, run_split), group in _group_by_benchmark(runs).items():
        split_name, columns, rows = comparison_rows(
            group, benchmark, published, split or run_split, top
        )
        title = f"{benchmark}" + (f" · published split: {split_name}" if split_name else "")
        notes = published_notes(benchmark, split_name) if published and split_name else {}
        caption = "\n".join(f"note, {model}: {note}" for model, note in notes.items())
        tuned = [r for r in group if is_tuned(r)]
        if tuned:
            caption = "\n".join(
                filter(None, [caption, TUNED_NOTE + tuned[0]["developed_on"]["data"]])
            )
        table = RichTable(title=title, caption=caption or None)
        table.add_column("model")
        for column in columns:
            table.add_column(column, justify="right")
        key = _rank_key(group, columns)
        for label, ours, values in sorted(
            rows, key=lambda r: -(r[2].get(key, 0.0) if key else 0.0)
        ):
            style = "bold" if ours else "dim"
            table.add_row(label, *(_fmt(values.get(c, "")) for c in columns), style=style)
        tables.append(table)
    return tables


# ----------------------------------------------------------------------------- HTML

# the page lives in finprobe.report_html; these names stay importable from here
from finprobe.report_html import OUR_COLOR, PUBLISHED_COLOR, write_html_report  # noqa: E402, F401
