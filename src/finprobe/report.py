"""Results as terminal tables, comparisons with the papers, and an HTML report with plots."""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.table import Table as RichTable

from finprobe.results import headline_columns, published, published_notes, published_split

OUR_COLOR = "#d1495b"
PUBLISHED_COLOR = "#8d99ae"


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
    if results.get("errors"):
        label += f" ({results['errors']} errors)"  # its figures are over the scored samples
    coverage = results.get("coverage") or {}
    if coverage.get("partial"):  # not comparable with the published rows as it stands
        label += f" (PARTIAL: {coverage['samples']} of {coverage['published_samples']} samples)"
    return label


def _mark_datasets(runs: list[dict]) -> list[dict]:
    if len({str((r.get("dataset") or {}).get("fingerprint")) for r in runs}) > 1:
        return [{**r, "_show_dataset": True} for r in runs]
    return runs


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
    return f"headline (% of {scored} scored samples; {errors} errors not counted{stopped}{named})"


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
            info.add_row(key, _fmt(results[key]))
    if results.get("error_causes"):
        causes = ", ".join(f"{c} {n}" for c, n in results["error_causes"].items())
        info.add_row("errors by cause", causes)
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
        table = RichTable(title=f"by {name}")
        table.add_column(name)
        for column in columns:
            table.add_column(column, justify="right")
        for key, row in rows.items():
            row = row if isinstance(row, dict) else {"value": row}
            table.add_row(str(key), *(_fmt(row.get(c, "")) for c in columns))
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
        key = columns[0] if columns else None
        ranked = sorted(table.items(), key=lambda item: -item[1].get(key, 0.0) if key else 0.0)
        notes = published_notes(benchmark, split_name)
        rows += [
            (f"{model} (published{', see note' if model in notes else ''})", False, values)
            for model, values in ranked[:top]
        ]
    return split_name, columns, rows


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
        table = RichTable(title=title, caption=caption or None)
        table.add_column("model")
        for column in columns:
            table.add_column(column, justify="right")
        for label, ours, values in sorted(
            rows, key=lambda r: -(r[2].get(columns[0], 0.0) if columns else 0.0)
        ):
            style = "bold" if ours else "dim"
            table.add_row(label, *(_fmt(values.get(c, "")) for c in columns), style=style)
        tables.append(table)
    return tables


# ----------------------------------------------------------------------------- HTML


def _figure_png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _overall_plot(
    rows: list[tuple[str, bool, dict[str, float]]], column: str, title: str
) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [(label, ours, values[column]) for label, ours, values in rows if column in values]
    if not points:
        return None
    points.sort(key=lambda p: p[2])
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(points) + 1.2))
    ax.barh(
        [p[0] for p in points],
        [p[2] for p in points],
        color=[OUR_COLOR if p[1] else PUBLISHED_COLOR for p in points],
    )
    for i, p in enumerate(points):
        ax.text(p[2] + 0.5, i, f"{p[2]:.1f}", va="center", fontsize=8)
    ax.set_xlabel(f"{column} (%)")
    ax.set_xlim(0, max(100.0, max(p[2] for p in points) + 5))
    ax.set_title(title)
    ax.tick_params(axis="y", labelsize=8)
    return _figure_png(fig)


def _breakdown_plot(
    rows: list[tuple[str, bool, dict[str, float]]], keys: list[str], title: str
) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [(label, ours, [values.get(k) for k in keys]) for label, ours, values in rows]
    series = [s for s in series if any(v is not None for v in s[2])]
    if not series or not keys:
        return None
    ours = [s for s in series if s[1]]
    others = [s for s in series if not s[1]][:5]
    series = ours + others
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / len(series)
    cmap = plt.get_cmap("tab10")
    for i, (label, is_ours, values) in enumerate(series):
        xs = [j + i * width for j in range(len(keys))]
        ax.bar(
            xs,
            [v if v is not None else 0 for v in values],
            width,
            label=label,
            color=cmap(i % 10),
            edgecolor="black" if is_ours else "none",
            linewidth=1.2 if is_ours else 0,
        )
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(keys))], keys)
    ax.set_ylabel("%")
    ax.set_ylim(0, 105)
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _figure_png(fig)


def _html_table(columns: list[str], rows: list[tuple[str, bool, dict[str, float]]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in ["model", *columns])
    body = []
    for label, ours, values in sorted(
        rows, key=lambda r: -(r[2].get(columns[0], 0.0) if columns else 0.0)
    ):
        cells = "".join(f"<td>{html.escape(_fmt(values.get(c, '')))}</td>" for c in columns)
        body.append(
            f"<tr class='{'ours' if ours else 'published'}'><td>{html.escape(label)}</td>{cells}</tr>"
        )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _run_details(run: dict) -> str:
    flat = _flatten(run.get("metrics") or {})
    items = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{html.escape(_fmt(v))}</td></tr>"
        for k, v in flat.items()
    )
    breakdowns = []
    for name, rows in (run.get("breakdowns") or {}).items():
        lines = "".join(
            f"<tr><td>{html.escape(str(key))}</td><td>{html.escape(', '.join(f'{k}={_fmt(v)}' for k, v in (row.items() if isinstance(row, dict) else [('value', row)])))}</td></tr>"
            for key, row in rows.items()
        )
        breakdowns.append(f"<h4>by {html.escape(name)}</h4><table>{lines}</table>")
    dataset = run.get("dataset") or {}
    return (
        f"<details><summary>{html.escape(run_label(run))}: {run.get('samples')} samples, "
        f"scorer {html.escape(str(run.get('scorer_version')))}, dataset {html.escape(str(dataset.get('name')))} "
        f"({html.escape(str(dataset.get('fingerprint')))})</summary><table>{items}</table>{''.join(breakdowns)}</details>"
    )


STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:0.6em 0;font-size:0.9em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}
tr.ours{font-weight:bold;background:#fbe9eb}
tr.published{color:#555}
img{max-width:100%}
.note{color:#555;font-size:0.9em}
"""


def write_html_report(runs: list[dict], out: Path, split: str | None = None) -> Path:
    """One self-contained page: per benchmark, runs beside the published models, with plots."""
    from finprobe.files import write_text_atomic

    sections = []
    for (benchmark, run_split), group in _group_by_benchmark(runs).items():
        has_published = bool(published().get(benchmark, {}).get("splits"))
        splits = published().get(benchmark, {}).get("splits", {})
        chosen_split = split if split in splits else run_split
        split_name, columns, rows = comparison_rows(
            group, benchmark, has_published, chosen_split, top=30
        )
        heading = benchmark + (f" · {run_split}" if run_split else "")
        parts = [f"<h2>{html.escape(heading)}</h2>"]
        if split_name:
            parts.append(
                f"<p class='note'>Published models: {html.escape(split_name)} split of the paper.</p>"
            )
        parts.append(_html_table(columns, rows))
        if columns:
            image = _overall_plot(rows, columns[0], f"{benchmark}: {columns[0]} by model")
            if image:
                parts.append(
                    f"<img alt='{html.escape(columns[0])} by model' src='data:image/png;base64,{image}'>"
                )
            detail_keys = [
                c
                for c in columns[1:]
                if all(isinstance(r[2].get(c, 0.0), (int, float)) for r in rows)
            ]
            image = _breakdown_plot(rows, detail_keys, f"{benchmark}: {', '.join(detail_keys[:8])}")
            if image:
                parts.append(f"<img alt='breakdown' src='data:image/png;base64,{image}'>")
        parts.extend(_run_details(run) for run in group)
        sections.append("\n".join(parts))
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>FinProbe report</title>"
        f"<style>{STYLE}</style></head><body><h1>FinProbe report</h1>"
        "<p class='note'>Our runs are in bold (red bars); published figures come from the papers' tables.</p>"
        + "\n".join(sections)
        + "</body></html>"
    )
    return write_text_atomic(Path(out), page)
