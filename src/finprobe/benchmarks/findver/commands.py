"""FinDVer CLI: ``finprobe build findver`` and ``finprobe findver recall|export-leaderboard``."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from finprobe.errors import InputError
from finprobe.files import write_json_atomic
from finprobe.inputs import INPUTS_HELP, deprecated_reports_option
from finprobe.terminal import print_tables

findver_app = typer.Typer(
    help="FinDVer utilities: retrieval recall, leaderboard export.", no_args_is_help=True
)

# The paper's retrieval recall on testmini (Table 4), for the side-by-side table.
PAPER_RECALL = {
    "BM25 (paper)": {3: 31.96, 5: 38.62, 10: 46.42},
    "text-embedding-3-large (paper)": {3: 34.92, 5: 41.79, 10: 51.65},
    "Contriever (paper)": {3: 11.64, 5: 17.99, 10: 28.21},
}


def _fail(exc: InputError) -> typer.Exit:
    print(f"error: {exc}", file=sys.stderr)
    return typer.Exit(2)


def build_findver(
    inputs: list[Path] = typer.Argument(
        None, help="FinDVer report .json/.json.gz files. " + INPUTS_HELP, show_default=False
    ),
    reports: list[Path] = typer.Option([], "--reports", hidden=True, help="Deprecated: INPUTS."),
    out: Path = typer.Option(
        ..., "--out", help="Claims JSON to write (reports/ is written beside it)."
    ),
    synthetic: int = typer.Option(
        0, "--synthetic", min=0, help="Also build from N synthetic reports."
    ),
    per_table: int = typer.Option(2, "--per-table", min=1, help="Claims per table."),
    max_tables: int = typer.Option(8, "--max-tables", min=1, help="Tables used per report."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Use at most N report files."),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Build entailed and refuted claims (with evidence and explanations) from report tables."""
    from finprobe.benchmarks.findver.build import build_dataset

    try:
        paths = [*(inputs or []), *deprecated_reports_option(reports)]
        summary = build_dataset(paths, out, synthetic, seed, per_table, max_tables, limit)
    except InputError as exc:
        raise _fail(exc) from None
    from finprobe.benchmarks.findver.build import card_path
    from finprobe.benchmarks.findver.card import card_lines

    # paths whole, each on its own line (copied as they are)
    print(f"FinDVer build\ndataset:\n  {summary['out']}\ndata card:\n  {card_path(out)}")
    for line in card_lines(summary):
        print(line)


def labelled_groups(
    data: Path, reports: Path | None, limit: int | None = None
) -> list[tuple[str, list, list]]:
    """(report, its passages, its claims) for the claims that have relevant_context."""
    from finprobe.benchmarks.findver.dataset import (
        default_reports_dir,
        load_claims,
        report_passages,
        report_path,
    )

    claims = [c for c in load_claims(data) if c.relevant_context]
    if limit:
        claims = claims[:limit]
    if not claims:
        raise InputError(data, "no claims with relevant_context")
    reports_dir = reports or default_reports_dir(data)
    by_report: dict[str, list] = {}
    for claim in claims:
        by_report.setdefault(claim.report, []).append(claim)
    return [
        (name, report_passages(report_path(reports_dir, name)), group)
        for name, group in by_report.items()
    ]


def recall_rows(
    data: Path,
    reports: Path | None,
    retrievers: list[str],
    ks: tuple[int, ...] = (3, 5, 10),
    embedding_cache: Path | None = None,
    limit: int | None = None,
    fusion: Path | None = None,
) -> list[dict]:
    """Recall@k of each retriever over labelled claims, both definitions, with timings."""
    from rich.progress import Progress

    groups = labelled_groups(data, reports, limit)
    rows = []
    # dense encoding takes minutes per hundred reports without a cache: show progress
    with Progress(transient=True, disable=not sys.stderr.isatty()) as progress:
        for name in retrievers:
            bar = progress.add_task(f"{name}: indexing reports", total=len(groups))
            rows.append(_recall_row(name, groups, ks, embedding_cache, fusion, progress, bar))
    return rows


def _recall_row(
    name: str,
    groups: list[tuple[str, list, list]],
    ks: tuple[int, ...],
    embedding_cache: Path | None,
    fusion: Path | None,
    progress: Any,
    bar: Any,
) -> dict:
    from finprobe.retrieval import summarize_recall
    from finprobe.retrievers import make_retriever

    index_s = query_s = 0.0
    pairs = []
    for _, passages, group in groups:
        retriever = make_retriever(name, cache=embedding_cache, fusion=fusion)
        start = time.perf_counter()
        retriever.index(passages)
        index_s += time.perf_counter() - start
        start = time.perf_counter()
        for claim in group:
            pairs.append((retriever.ranking(claim.statement), claim.relevant_context))
        query_s += time.perf_counter() - start
        progress.advance(bar)
    summary = summarize_recall(pairs, ks)
    return {
        "retriever": name,
        "n": summary.n,
        "mean_fraction": summary.mean_fraction,
        "all_retrieved": summary.all_retrieved,
        "index_s": index_s,
        "query_s": query_s,
        "reports": len(groups),
    }


def _recall_table(rows: list[dict], title: str, timings: bool = True) -> Table:
    table = Table(title=title)
    columns = ["retriever", "mean-fraction @3", "@5", "@10", "all-retrieved @3", "@5", "@10"]
    for column in columns + (["index s", "query s"] if timings else []):
        if column == "retriever":  # names stay whole; the figures' headers wrap instead
            table.add_column(column, no_wrap=True)
        else:
            table.add_column(column, justify="right")
    for row in rows:
        table.add_row(
            row["retriever"],
            *(f"{row['mean_fraction'][k]:.1f}" for k in (3, 5, 10)),
            *(f"{row['all_retrieved'][k]:.1f}" for k in (3, 5, 10)),
            *((f"{row['index_s']:.1f}", f"{row['query_s']:.1f}") if timings else ()),
        )
    for name, figures in PAPER_RECALL.items():
        blanks = [""] * (5 if timings else 3)
        table.add_row(name, *(f"{figures[k]:.2f}" for k in (3, 5, 10)), *blanks)
    return table


_PAPER_NOTE = (
    "The paper does not say which recall it reports; its rows are printed under mean-fraction, "
    "but its BM25 figures sit nearest our all-retrieved ones."
)


def recall(
    data: Path = typer.Argument(..., help="Labelled claims JSON (e.g. testmini-dev.json)."),
    reports: Path | None = typer.Option(
        None, "--reports", help="Reports folder (default: reports/ beside DATA)."
    ),
    retriever: list[str] = typer.Option(
        ["bm25-plain", "bm25", "dense", "hybrid"],
        "--retriever",
        help="Retrievers to compare (repeat).",
    ),
    embedding_cache: Path | None = typer.Option(
        None, "--embedding-cache", help="Folder for passage embeddings."
    ),
    fusion: Path | None = typer.Option(
        None, "--fusion", help="Fusion model for 'hybrid' (default: the shipped one)."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="First N claims only."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the rows as JSON."),
) -> None:
    """Print recall@3/5/10 of each retriever (both definitions) beside the paper's."""
    from finprobe.retrieval import DenseUnavailable, dense_available

    wanted = [r for r in retriever if r in ("bm25", "bm25-plain") or dense_available()]
    skipped = [r for r in retriever if r not in wanted]
    try:
        rows = recall_rows(
            data, reports, wanted, embedding_cache=embedding_cache, limit=limit, fusion=fusion
        )
    except InputError as exc:
        raise _fail(exc) from None
    except DenseUnavailable as exc:
        raise _fail(InputError(None, str(exc))) from None
    console = Console()
    n = rows[0]["n"] if rows else 0
    print_tables(console, [_recall_table(rows, f"FinDVer retrieval recall (%), {n} claims")])
    console.print(_PAPER_NOTE)
    for name in skipped:
        console.print(f"note: skipped {name}: install the dense extra (torch==2.13.0 first)")
    if json_out:
        write_json_atomic(json_out, rows)


def _recall_of(rankings: list[list[str]], golds: list[list[str]], name: str) -> dict:
    from finprobe.retrieval import summarize_recall

    summary = summarize_recall(list(zip(rankings, golds, strict=True)))
    return {
        "retriever": name,
        "n": summary.n,
        "mean_fraction": summary.mean_fraction,
        "all_retrieved": summary.all_retrieved,
    }


def fit_fusion_command(
    data: list[Path] = typer.Argument(
        ..., help="Claims files with relevant_context (e.g. testmini-dev.json built/claims.json)."
    ),
    out: Path = typer.Option(..., "--out", help="Fusion model JSON to write."),
    reports: Path | None = typer.Option(
        None, "--reports", help="Reports folder for every file (default: reports/ beside each)."
    ),
    folds: int = typer.Option(5, "--folds", min=2, help="Folds, grouped by report."),
    l2: float = typer.Option(1.0, "--l2", min=0.0, help="L2 penalty of both logistic stages."),
    embedding_cache: Path | None = typer.Option(
        None, "--embedding-cache", help="Folder for passage embeddings."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="First N claims of each file."),
) -> None:
    """Fit the hybrid retriever's fusion model on claims with annotated evidence.

    Prints, for each claims file, cross-validated recall (each claim ranked by a
    model fitted without its report, whichever file it came from) beside BM25 and
    dense on the same passages, then fits on everything and writes the model; use
    it with ``-T fusion=FILE`` or ``recall --fusion``. Several files (e.g. the
    released claims and ``finprobe build findver`` output) make a model that
    holds up on both kinds of claim.
    """
    import numpy as np
    from rich.progress import Progress

    from finprobe.fusion import (
        STAGE1_FEATURES,
        FusionExample,
        LearnedHybridRetriever,
        cross_validated_rankings,
        fit_fusion,
        fusion_examples,
    )
    from finprobe.retrieval import BM25Retriever, DenseRetriever, DenseUnavailable

    try:
        per_file = [(path, labelled_groups(path, reports, limit)) for path in data]
        n_reports = len({name for _, groups in per_file for name, _, _ in groups})
        if n_reports < folds:
            raise InputError(
                data[0], f"claims come from {n_reports} reports, fewer than {folds} folds"
            )
        dense = DenseRetriever(cache=embedding_cache)  # one model load for all reports
        start = time.perf_counter()
        examples: list[FusionExample] = []
        golds: list[list[str]] = []
        source: list[int] = []
        with Progress(transient=True) as progress:
            for i, (path, groups) in enumerate(per_file):
                bar = progress.add_task(f"features {path.name}", total=len(groups))
                found = fusion_examples(
                    [
                        (name, passages, [(c.statement, c.relevant_context) for c in group])
                        for name, passages, group in groups
                    ],
                    lambda: LearnedHybridRetriever(BM25Retriever(), dense, model=None),
                    lambda done, total, bar=bar: progress.update(bar, completed=done),
                )
                examples += found
                golds += [[str(g) for g in c.relevant_context] for _, _, grp in groups for c in grp]
                source += [i] * len(found)
        features_s = time.perf_counter() - start
    except InputError as exc:
        raise _fail(exc) from None
    except DenseUnavailable as exc:
        raise _fail(InputError(None, str(exc))) from None

    def ranked(scores: list[np.ndarray]) -> list[list[str]]:
        return [
            [e.passage_ids[j] for j in np.argsort(-s, kind="stable")]
            for e, s in zip(examples, scores, strict=True)
        ]

    start = time.perf_counter()
    held_out = cross_validated_rankings(examples, folds, l2)
    model = fit_fusion(examples, folds, l2)
    fit_s = time.perf_counter() - start
    rankings = {
        "bm25": ranked([e.features[:, STAGE1_FEATURES.index("bm25")] for e in examples]),
        "dense": ranked([e.features[:, STAGE1_FEATURES.index("dense")] for e in examples]),
        "hybrid (held-out)": held_out,
        "hybrid (in-sample)": ranked([model.scores(e.features) for e in examples]),
    }
    rows = []
    for i, (path, _) in enumerate(per_file):
        mine = [j for j, k in enumerate(source) if k == i]
        prefix = f"{path.name}: " if len(per_file) > 1 else ""
        for name, ranking in rankings.items():
            rows.append(
                _recall_of([ranking[j] for j in mine], [golds[j] for j in mine], prefix + name)
            )
    model.info.update(
        {
            "data": [path.name for path in data],
            "recall": {
                row["retriever"]: {
                    "n": row["n"],
                    "mean_fraction": row["mean_fraction"],
                    "all_retrieved": row["all_retrieved"],
                }
                for row in rows
            },
        }
    )
    model.save(out)
    console = Console()
    title = f"Fusion fit on {len(examples)} claims, {n_reports} reports (%)"
    print_tables(console, [_recall_table(rows, title, timings=False)])
    console.print(_PAPER_NOTE)
    console.print(
        f"features {features_s:.1f} s, {folds}-fold fit and cross-validation {fit_s:.1f} s; "
        f"wrote {out}"
    )


def export_leaderboard(
    run: Path = typer.Argument(..., help="An inspect log (.eval/.json) of a FinDVer run."),
    out: Path = typer.Option(
        ..., "--out", help="JSON file to write: [{example_id, output_label}]."
    ),
) -> None:
    """Export a run's predictions for the authors' leaderboard (unparseable -> seeded guess)."""
    try:
        rows = leaderboard_rows(run)
    except InputError as exc:
        raise _fail(exc) from None
    guessed = sum(1 for r in rows if r.pop("_guessed", False))
    write_json_atomic(out, rows)
    Console().print(
        f"wrote {len(rows)} predictions to {out} ({guessed} unparseable, filled by a seeded guess)"
    )


def leaderboard_rows(run: Path) -> list[dict]:
    """[{example_id, output_label, _guessed}] from an inspect log, in sample order."""
    from inspect_ai.log import read_eval_log

    from finprobe.benchmarks.findver.prompts import extract_label
    from finprobe.benchmarks.findver.scorer import random_guess

    if not Path(run).is_file():
        raise InputError(run, "file not found")
    try:
        log = read_eval_log(str(run))
    except Exception as exc:  # inspect raises several types for a corrupt log
        raise InputError(run, f"not an inspect log ({type(exc).__name__})") from None
    if not log.samples:
        raise InputError(run, "log holds no samples")
    rows = []
    for sample in log.samples:
        example_id = str((sample.metadata or {}).get("example_id", sample.id))
        completion = sample.output.completion if sample.output else ""
        label = extract_label(completion)
        rows.append(
            {
                "example_id": example_id,
                "output_label": label or random_guess(example_id),
                "_guessed": label is None,
            }
        )
    return rows


def register(build_app: typer.Typer, app: typer.Typer) -> None:
    build_app.command("findver")(build_findver)
    findver_app.command("recall")(recall)
    findver_app.command("export-leaderboard")(export_leaderboard)
    findver_app.command("fit-fusion")(fit_fusion_command)
    app.add_typer(findver_app, name="findver")
