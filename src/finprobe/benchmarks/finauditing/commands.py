"""FinAuditing CLI commands: `finprobe check` and `finprobe taxonomy build|search`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from finprobe.errors import InputError
from finprobe.files import write_text_atomic

taxonomy_app = typer.Typer(help="Digitalise a FASB taxonomy workbook and search its concepts.",
                           no_args_is_help=True)  # fmt: skip


def _fail(exc: Exception) -> typer.Exit:
    # one line on stderr, exit 2 (bad input), as the CLI contract says
    print(f"error: {exc}", file=sys.stderr)
    return typer.Exit(2)


def check(
    filing: Path = typer.Argument(..., help="Filing folder (or its instance .xml)."),
    taxonomy: Path | None = typer.Option(
        None,
        "--taxonomy",
        help="Taxonomy chunks folder (from `finprobe taxonomy build`); enables DQC_0081.",
    ),  # fmt: skip
    json_out: Path | None = typer.Option(
        None, "--json", help="Write findings as JSON here ('-' for stdout)."
    ),  # fmt: skip
    rules: list[str] | None = typer.Option(
        None, "--rules", help="Rule ids to run (repeat or comma-separate); default all."
    ),  # fmt: skip
) -> None:
    """Run the deterministic DQC-style checks on an XBRL filing.

    Exit code 0: no findings; 1: findings; 2: bad input.
    """
    from finprobe.xbrl.checks import RULES, findings_to_json, run_checks
    from finprobe.xbrl.filing import load_filing
    from finprobe.xbrl.taxonomy import TaxonomyIndex

    wanted = [r.strip() for item in rules or [] for r in item.split(",") if r.strip()] or None
    try:
        if wanted:
            unknown = [r for r in wanted if r.lower() not in {k.lower() for k in RULES}]
            if unknown:
                raise InputError(None, f"unknown rule(s) {', '.join(unknown)}; known: "
                                       f"{', '.join(RULES)}")  # fmt: skip
        loaded = load_filing(filing)
        index = TaxonomyIndex(taxonomy) if taxonomy is not None else None
        findings = run_checks(loaded, wanted, index)
    except InputError as exc:
        raise _fail(exc) from None
    if json_out is not None:
        text = findings_to_json(findings) + "\n"
        if str(json_out) == "-":
            sys.stdout.write(text)
        else:
            write_text_atomic(json_out, text)
    if json_out is None or str(json_out) != "-":
        console = Console()
        if findings:
            table = Table(title=f"{len(findings)} finding(s) in {loaded.files.instance.name}")
            for col in ("rule", "severity", "concepts", "message"):
                table.add_column(col, overflow="fold")
            for f in findings:
                table.add_row(f.rule_id, f.severity, "\n".join(f.concepts[:4]), f.message)
            console.print(table)
        else:
            console.print(f"no findings in {loaded.files.instance.name}")
    raise typer.Exit(1 if findings else 0)


@taxonomy_app.command("build")
def taxonomy_build(
    workbook: Path = typer.Argument(..., help="Taxonomy workbook (.xlsx)."),
    out: Path = typer.Option(..., "--out", help="Folder for the chunk files."),
) -> None:
    """Write chunks_core.jsonl, chunks_relations.jsonl and meta.json."""
    from finprobe.xbrl.taxonomy import build_taxonomy_chunks

    try:
        meta = build_taxonomy_chunks(workbook, out)
    except InputError as exc:
        raise _fail(exc) from None
    counts = meta["counts"]
    integ = meta["integrity"]
    print(f"core chunks: {counts['core']}")
    print("relation chunks: " + ", ".join(f"{k} {v}" for k, v in counts["relations"].items()))
    print(f"integrity: {integ['endpoints_checked']} endpoints checked, "
          f"{integ['dangling']} dangling")  # fmt: skip
    for family, examples in integ["dangling_examples"].items():
        print(f"  dangling {family}: {', '.join(examples)}")


@taxonomy_app.command("search")
def taxonomy_search(
    folder: Path = typer.Argument(..., help="Chunks folder."),
    keyword: str = typer.Argument(..., help="Words to search for."),
    k: int = typer.Option(10, "-k", help="How many results."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Keyword search over the taxonomy's concepts."""
    from finprobe.xbrl.taxonomy import TaxonomyIndex

    try:
        hits = TaxonomyIndex(folder).search(keyword, k)
    except InputError as exc:
        raise _fail(exc) from None
    if as_json:
        print(json.dumps([{"concept": c["concept"], "label": c["label"], "score": s if s != float(
            "inf") else None} for c, s in hits], indent=1))  # fmt: skip
        return
    for chunk, score in hits:
        shown = "exact" if score == float("inf") else f"{score:.2f}"
        print(f"{shown:>7}  {chunk['concept']}  {chunk['label'] or ''}")


def register(build_app: typer.Typer, app: typer.Typer) -> None:
    """Add `build finauditing`, and `check` and `taxonomy` to the top-level app."""
    from finprobe.benchmarks.finauditing.build import register_build

    register_build(build_app)
    app.command("check")(check)
    app.add_typer(taxonomy_app, name="taxonomy")
