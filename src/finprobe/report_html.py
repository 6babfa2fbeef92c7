"""The HTML report: each run beside the papers' tables only where it ran on their data.

Per benchmark (FinAuditing: per subtask), runs whose data is the paper's split in
its language (``finprobe.likeness.placement``) share a table and charts with the
published rows; every other run gets a table and charts of its own, headed by
the data it ran on. Rows are ranked by the benchmark's headline; our rows show
their sample count and a 95% interval. Charts are horizontal (labels never
collide), our runs in one colour, error rates (lower is better) apart from the
figures where higher is better, and a zero drawn as a visible marker.
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finprobe.likeness import (
    HEADLINE,
    headline_interval,
    headline_key,
    lower_is_better,
    placement,
    sample_count,
    table_key,
)
from finprobe.results import headline_columns, published, published_split

OUR_COLOR = "#d1495b"
PUBLISHED_COLOR = "#8d99ae"
PUBLISHED_SHADES = ("#5c677d", "#8d99ae", "#adb5bd", "#6c757d", "#ced4da")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DPI = 100
MAX_PUBLISHED_IN_DETAIL = 5  # published models drawn in the per-metric charts


@dataclass
class Row:
    label: str
    ours: bool
    values: dict[str, float]
    n: int | None = None
    interval: tuple[float, float, str] | None = None
    data: str = ""


@dataclass
class Section:
    title: str
    note: str
    rows: list[Row]
    columns: list[str]
    key: str | None
    runs: list[dict] = field(default_factory=list)


# ----------------------------------------------------------------------------- grouping


def _published_splits(benchmark: str) -> dict[str, Any]:
    return published().get(benchmark, {}).get("splits", {}) or {}


def _published_n(benchmark: str, split: str) -> int | None:
    info = published().get(benchmark, {})
    if split in (info.get("instances") or {}):
        return int(info["instances"][split])
    counts = (info.get("scenario_counts") or {}).get(split)
    return int(sum(counts.values())) if isinstance(counts, dict) else None


def _run_row(run: dict, show_data: bool) -> Row:
    from finprobe.report import run_label

    dataset = run.get("dataset") or {}
    label = run_label(run)
    data = str(dataset.get("name") or "?")
    if show_data:
        label += f" [{data}]"
    return Row(
        label,
        True,
        dict(run.get("headline") or {}),
        sample_count(run),
        headline_interval(run),
        data,
    )


def sections(runs: list[dict], split: str | None = None) -> list[Section]:
    """The report's tables: per benchmark table, the runs on the papers' data (with the
    published rows) first, then the runs on other data."""
    grouped: dict[tuple[str, str], list[dict]] = {}
    for run in runs:
        grouped.setdefault((str(run.get("benchmark", "?")), table_key(run)), []).append(run)
    out: list[Section] = []
    for (benchmark, key), group in grouped.items():
        splits = _published_splits(benchmark)
        beside: dict[str, list[dict]] = {}
        why_beside: dict[str, set[str]] = {}
        apart: list[tuple[dict, str]] = []
        for run in group:
            chosen, why = placement(run, list(splits), split)
            if chosen is None:
                apart.append((run, why))
            else:
                beside.setdefault(chosen, []).append(run)
                why_beside.setdefault(chosen, set()).add(why)
        name = benchmark if key == benchmark else f"{benchmark} · {key}"
        for chosen, members in beside.items():
            _, table = published_split(benchmark, chosen)
            columns = headline_columns(members, table)
            rank = _rank(members, columns)
            n_pub = _published_n(benchmark, chosen)
            rows = [_run_row(r, len({_data_name(m) for m in members}) > 1) for r in members]
            rows += [Row(f"{m} (published)", False, v, n_pub) for m, v in table.items()]
            note = (
                f"Published models: the paper's {chosen} split"
                + (f" ({n_pub} samples)" if n_pub else "")
                + ". Our runs here: "
                + "; ".join(sorted(why_beside[chosen]))
                + " (a run on part of the split shows its own n and interval)."
            )
            out.append(Section(f"{name} · beside the paper's {chosen} split", note,
                               _ranked(rows, rank), columns, rank, members))  # fmt: skip
        if apart:
            members = [r for r, _ in apart]
            columns = headline_columns(members, {})
            rank = _rank(members, columns)
            reasons = "; ".join(sorted({why for _, why in apart}))
            note = "Not comparable with the papers' tables, so shown on their own: " + reasons + "."
            rows = [_run_row(r, True) for r in members]
            out.append(Section(f"{name} · our runs on other data", note, _ranked(rows, rank),
                               columns, rank, members))  # fmt: skip
    return out


def _data_name(run: dict) -> str:
    return str((run.get("dataset") or {}).get("name") or "?")


def _rank(runs: list[dict], columns: list[str]) -> str | None:
    keys = {headline_key(r) for r in runs}
    key = keys.pop() if len(keys) == 1 else None
    return key if key in columns else (columns[0] if columns else None)


def _ranked(rows: list[Row], key: str | None) -> list[Row]:
    """Best first by the headline; a lower-is-better headline ranks ascending."""
    if key is None:
        return rows
    sign = 1 if lower_is_better(key) else -1

    def order(row: Row) -> tuple[int, float]:
        value = row.values.get(key)
        return (0, sign * float(value)) if isinstance(value, int | float) else (1, 0.0)

    return sorted(rows, key=order)


# ----------------------------------------------------------------------------- charts


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def headline_figure(rows: list[Row], key: str, title: str) -> Any | None:
    """Horizontal bars of one figure per model, best at the top; whiskers: our 95% CI."""
    points = [r for r in rows if isinstance(r.values.get(key), int | float)]
    if not points:
        return None
    plt = _pyplot()
    points = list(reversed(points))  # barh draws from the bottom: best last = top
    fig, ax = plt.subplots(figsize=(9.0, 0.34 * len(points) + 1.4))
    values = [float(p.values[key]) for p in points]
    colors = [OUR_COLOR if p.ours else PUBLISHED_COLOR for p in points]
    ys = list(range(len(points)))
    ax.barh(ys, values, color=colors, height=0.7)
    top = max(100.0, *values)
    for y, point, value in zip(ys, points, values, strict=True):
        end = value
        if point.ours and point.interval:
            low, high, _ = point.interval
            ax.errorbar(value, y, xerr=[[max(value - low, 0.0)], [max(high - value, 0.0)]], fmt="none",
                        ecolor="#222222", capsize=3, linewidth=1)  # fmt: skip
            end = max(end, high)
        if value == 0:  # a zero bar has no length: draw a marker so it is seen
            ax.plot([0], [y], marker="|", markersize=12, markeredgewidth=2.5,
                    color=OUR_COLOR if point.ours else PUBLISHED_COLOR, clip_on=False)  # fmt: skip
        ax.text(end + top * 0.01, y, f"{value:.1f}", va="center", fontsize=8)
    ax.set_yticks(ys, [_short(p.label) for p in points], fontsize=8)
    ax.set_xlim(0, top * 1.12)
    better = "lower is better" if lower_is_better(key) else "higher is better"
    ax.set_xlabel(f"{key} (%, {better}); whiskers: 95% interval of our runs")
    ax.set_title(title, fontsize=10)
    from matplotlib.patches import Patch

    handles = [Patch(color=OUR_COLOR, label="our runs")]
    if any(not p.ours for p in points):
        handles.append(Patch(color=PUBLISHED_COLOR, label="published"))
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)  # fmt: skip
    return fig


def metrics_figure(rows: list[Row], keys: list[str], title: str) -> Any | None:
    """One line per metric, one marker per model: our runs red, published in greys."""
    series = [r for r in rows if r.ours]
    series += [r for r in rows if not r.ours][:MAX_PUBLISHED_IN_DETAIL]
    series = [s for s in series if any(isinstance(s.values.get(k), int | float) for k in keys)]
    if not series or not keys:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9.0, 0.42 * len(keys) * max(1.0, len(series) / 4) + 1.6))
    spread = 0.7
    step = spread / max(len(series) - 1, 1)
    ours_seen = published_seen = 0
    top = 100.0
    for i, row in enumerate(series):
        offset = (i * step - spread / 2) if len(series) > 1 else 0.0
        ys, xs = [], []
        for j, key in enumerate(reversed(keys)):
            value = row.values.get(key)
            if isinstance(value, int | float):
                ys.append(j + offset)
                xs.append(float(value))
                top = max(top, float(value))
        if row.ours:
            color, marker = OUR_COLOR, MARKERS[ours_seen % len(MARKERS)]
            ours_seen += 1
        else:
            color = PUBLISHED_SHADES[published_seen % len(PUBLISHED_SHADES)]
            marker = MARKERS[(published_seen + 3) % len(MARKERS)]
            published_seen += 1
        ax.scatter(xs, ys, color=color, marker=marker, s=36, label=_short(row.label),
                   zorder=3, clip_on=False, edgecolors="black" if row.ours else "none",
                   linewidths=0.6)  # fmt: skip
    ax.set_yticks(range(len(keys)), list(reversed(keys)), fontsize=8)
    for j in range(len(keys)):
        ax.axhline(j, color="#eeeeee", zorder=0, linewidth=6)
    ax.set_xlim(0, top * 1.03)
    ax.set_ylim(-0.6, len(keys) - 0.4)
    ax.set_xlabel("%")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


def _short(label: str, width: int = 60) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def figure_png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    _pyplot().close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def section_figures(section: Section) -> list[tuple[str, Any]]:
    """(alt text, figure) for a section: the headline, the higher-is-better figures,
    and the lower-is-better ones apart."""
    figures: list[tuple[str, Any]] = []
    if section.key:
        fig = headline_figure(section.rows, section.key, f"{section.title}: {section.key}")
        if fig is not None:
            figures.append((f"{section.key} by model", fig))
    numeric = [
        c
        for c in section.columns
        if c != section.key
        and all(isinstance(r.values.get(c, 0.0), int | float) for r in section.rows)
    ]
    higher = [c for c in numeric if not lower_is_better(c)]
    lower = [c for c in numeric if lower_is_better(c)]
    for keys, what in ((higher, "higher is better"), (lower, "error rates: lower is better")):
        fig = metrics_figure(section.rows, keys, f"{section.title}: {what}")
        if fig is not None:
            figures.append((what, fig))
    return figures


# ----------------------------------------------------------------------------- page


def _fmt(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _table(section: Section) -> str:
    key = section.key
    others = [c for c in section.columns if c != key]
    head = ["model", "n"]
    if key:
        head += [f"{key} (ranked)", "95% interval"]
    head += others
    body = []
    for row in section.rows:
        cells = [html.escape(row.label), "" if row.n is None else str(row.n)]
        if key:
            cells.append(html.escape(_fmt(row.values.get(key, ""))))
            if row.interval:
                low, high, method = row.interval
                cells.append(
                    f"{low:.1f}–{high:.1f} <span class='note'>({html.escape(method.split(',')[0])})</span>"
                )
            else:
                cells.append("")
        cells += [html.escape(_fmt(row.values.get(c, ""))) for c in others]
        kind = "ours" if row.ours else "published"
        body.append(f"<tr class='{kind}'>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    header = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    return (
        "<div class='scroll'><table><thead><tr>" + header + "</tr></thead><tbody>"
        + "".join(body) + "</tbody></table></div>"
    )  # fmt: skip


def _run_details(run: dict) -> str:
    from finprobe.report import _flatten, run_label

    flat = _flatten(run.get("metrics") or {})
    items = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{html.escape(_fmt(v))}</td></tr>"
        for k, v in flat.items()
    )
    dataset = run.get("dataset") or {}
    return (
        f"<details><summary>{html.escape(run_label(run))}: {run.get('samples')} samples, "
        f"scorer {html.escape(str(run.get('scorer_version')))}, dataset "
        f"{html.escape(str(dataset.get('name')))} ({html.escape(str(dataset.get('fingerprint')))})"
        f"</summary><div class='scroll'><table>{items}</table></div></details>"
    )


STYLE = """
body{font-family:system-ui,sans-serif;max-width:1180px;margin:1.5em auto;color:#222;padding:0 16px;
box-sizing:border-box}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:0.6em 0;font-size:0.88em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left;white-space:normal;min-width:16em}
tr.ours{font-weight:bold;background:#fbe9eb}
tr.published{color:#555}
img{max-width:100%;height:auto;display:block;margin:0.5em 0}
.note{color:#555;font-size:0.9em;font-weight:normal}
h2{margin-top:1.6em;border-bottom:1px solid #ddd}
"""


def write_html_report(runs: list[dict], out: Path, split: str | None = None) -> Path:
    """One self-contained page (see the module docstring)."""
    from finprobe.files import write_text_atomic

    parts = []
    for section in sections(runs, split):
        block = [f"<h2>{html.escape(section.title)}</h2>",
                 f"<p class='note'>{html.escape(section.note)}</p>", _table(section)]  # fmt: skip
        for alt, fig in section_figures(section):
            block.append(
                f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{figure_png(fig)}'>"
            )
        block.extend(_run_details(run) for run in section.runs)
        parts.append("\n".join(block))
    headlines = ", ".join(f"{k} {v}" for k, v in HEADLINE.items())
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>FinProbe report</title><style>{STYLE}</style></head><body>"
        "<h1>FinProbe report</h1>"
        "<p class='note'>Our runs: bold rows, red bars and markers; published figures (grey) "
        "come from the papers' tables. A run stands beside a published table only when it ran "
        "on that split's data in its language; other runs have their own tables. Tables are "
        f"ranked by each benchmark's headline ({html.escape(headlines)}). n: samples "
        "behind the headline. 95% intervals: Wilson for shares of samples, a bootstrap over "
        "documents for FinED's F1.</p>" + "\n".join(parts) + "</body></html>"
    )
    return write_text_atomic(Path(out), page)
