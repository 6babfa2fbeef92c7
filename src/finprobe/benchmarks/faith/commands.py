"""FAITH CLI commands: `finprobe build faith` and `finprobe faith agreement`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from finprobe.errors import InputError
from finprobe.inputs import INPUTS_HELP
from finprobe.terminal import print_path

faith_app = typer.Typer(help="FAITH utilities: check the dataset builder.", no_args_is_help=True)


def _fail(exc: InputError) -> typer.Exit:
    # one line on stderr, exit 2 (bad input), as the CLI contract says
    print(f"error: {exc}", file=sys.stderr)
    return typer.Exit(2)


def build_faith(
    inputs: list[Path] = typer.Argument(
        ..., help="FinDVer report .json/.json.gz, HTML or text files. " + INPUTS_HELP
    ),
    out: Path = typer.Option(..., "--out", help="FAITH dataset JSON to write."),
    answerability: str = typer.Option(
        "derivation", "--answerability", help="derivation | panel | none"
    ),
    panel_model: list[str] | None = typer.Option(
        None, "--panel-model", help="inspect model for the answerability panel (repeat)."
    ),
    spans: str = typer.Option("rules", "--spans", help="rules | spacy (needs a spaCy model)"),
    keep_unanswerable: bool = typer.Option(
        False,
        "--keep-unanswerable",
        help="Also write spans not judged answerable, marked answerable=false "
        "(null with --answerability none). Default: answerable spans only.",
    ),
    limit: int | None = typer.Option(
        None,
        "--limit",
        min=1,
        help="Build at most N reports (distinct filings; skipped 10-Qs and duplicates do not count).",
    ),
    max_sentences: int | None = typer.Option(
        None, "--max-sentences", min=1, help="Sample N sentences with spans per report (seeded)."
    ),
    include_10q: bool = typer.Option(False, "--include-10q", help="Also build from 10-Q reports."),
    seed: int = typer.Option(0, "--seed", help="Seed for --max-sentences sampling."),
) -> None:
    """Build FAITH masked-span instances from the MD&A of 10-K reports."""
    from finprobe.benchmarks.faith.build import build_from_paths

    try:
        if answerability not in ("derivation", "panel", "none"):
            raise InputError(
                None, f"--answerability {answerability!r}: use derivation, panel or none"
            )
        if spans not in ("rules", "spacy"):
            raise InputError(None, f"--spans {spans!r}: use rules or spacy")
        if answerability == "panel" and not panel_model:
            raise InputError(None, "--answerability panel needs at least one --panel-model")
        summary = build_from_paths(
            inputs,
            out,
            spans=spans,
            answerability=answerability,
            panel_models=panel_model or [],
            keep_unanswerable=keep_unanswerable,
            limit=limit,
            max_sentences=max_sentences,
            include_10q=include_10q,
            seed=seed,
            progress=sys.stderr.isatty(),  # a bar's last frame is noise in a log
        )
    except InputError as exc:
        raise _fail(exc) from None
    console = Console()
    for name in summary["skipped_10q"]:
        console.print(f"note: skipped 10-Q report {name} (use --include-10q)")
    for name, first in summary["skipped_duplicates"]:
        console.print(f"note: skipped {name}: the same filing (URL or text) as {first}")
    table = Table(title="FAITH build")
    table.add_column("measure")
    table.add_column("value", justify="right")
    rows = [
        ("reports built", summary["reports"]),
        ("reports without MD&A", len(summary["reports_without_mdna"])),
        ("10-Q skipped", len(summary["skipped_10q"])),
        ("duplicate filings skipped", len(summary["skipped_duplicates"])),
        ("MD&A tables", summary["tables"]),
        ("sentences", summary["sentences"]),
        ("instances", summary["instances"]),
        *((f"scenario {k}", v) for k, v in summary["scenario_mix"].items()),
        ("answerable (derivation)", summary["answerable"]["derivation"]),
        ("answerable (panel, unanimous)", summary["answerable"]["panel_unanimous"]),
        (
            "self-check (cells re-read from source)",
            f"{summary['self_check']['passed']} of {summary['self_check']['checked']} pass",
        ),
        (
            "swapped-tables found rate",
            (summary["swapped_tables"] or {}).get("found_rate", "n/a (one report)"),
        ),
        ("sentence-only answerable rate", summary["sentence_only_probe"]["rate"]),
        ("seconds", summary["seconds"]),
    ]
    for name, value in rows:
        table.add_row(name, str(value))
    console.print(table)
    print_path(console, "dataset", summary["out"])  # paths whole, on their own lines
    print_path(console, "data card", summary["card"])


def agreement(
    pilot: Path = typer.Argument(..., help="FAITH pilot JSON with the three LLM label fields."),
    json_out: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Agreement of the derivation finder with the pilot's unanimous LLM answerability labels."""
    from finprobe.benchmarks.faith.build import agreement_with_pilot

    try:
        result = agreement_with_pilot(pilot)
    except InputError as exc:
        raise _fail(exc) from None
    if json_out:
        print(json.dumps(result, indent=2))
        return
    console = Console()
    head = Table(title=f"Derivation finder vs unanimous LLM labels: {pilot.name}")
    head.add_column("measure")
    head.add_column("value", justify="right")
    for key in (
        "instances", "unanimous", "agreement", "agreement_rate", "finder_found",
        "value_match_rate", "scenario_agreement_rate", "swapped_found_rate",
    ):  # fmt: skip
        head.add_row(key.replace("_", " "), str(result[key]))
    console.print(head)
    confusion = Table(title="LLM label (rows) x finder (columns)")
    confusion.add_column("LLM")
    for finder in ("answerable", "unanswerable"):
        confusion.add_column(finder, justify="right")
    for llm in ("answerable", "unanswerable", "split"):
        confusion.add_row(
            llm,
            *(
                str(result["confusion"].get(f"{llm}|{f}", 0))
                for f in ("answerable", "unanswerable")
            ),
        )
    console.print(confusion)
    found = ("A", "B", "C", "D", "none")
    scen = Table(title="Annotated mask_type (rows) x finder scenario (columns)")
    scen.add_column("annotated")
    for f in found:
        scen.add_column(f, justify="right")
    for t in ("A", "B", "C", "D"):
        scen.add_row(t, *(str(result["scenario_confusion"].get(f"{t}|{f}", 0)) for f in found))
    console.print(scen)


def show(
    data: Path = typer.Argument(..., help="FAITH dataset JSON (from finprobe build faith)."),
    uid: str = typer.Argument(..., help="Instance uid (a unique prefix is enough)."),
) -> None:
    """Print one instance for review: the sentence with the mask, its derivation and cells."""
    from finprobe.benchmarks.faith.card import show_instance
    from finprobe.files import read_json

    try:
        records = read_json(data)
        if isinstance(records, dict):
            records = [records]
        if not isinstance(records, list):
            raise InputError(data, "not a FAITH dataset (expected a list of reports)")
        hits = [
            (r, i)
            for r in records
            for i in r.get("instances", [])
            if str(i.get("uid", "")).startswith(uid)
        ]
        if not hits:
            raise InputError(data, f"no instance with uid {uid!r}")
        if len(hits) > 1 and not any(i["uid"] == uid for _, i in hits):
            raise InputError(data, f"uid prefix {uid!r} matches {len(hits)} instances")
    except InputError as exc:
        raise _fail(exc) from None
    record, instance = next(((r, i) for r, i in hits if i["uid"] == uid), hits[0])
    print(show_instance(record, instance))


def register(build_app: typer.Typer, app: typer.Typer) -> None:
    build_app.command("faith")(build_faith)
    faith_app.command("agreement")(agreement)
    faith_app.command("show")(show)
    app.add_typer(faith_app, name="faith")
