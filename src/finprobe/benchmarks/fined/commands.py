"""FinED CLI: `finprobe build fined`, `finprobe fined review-import`, `finprobe fined export-sft`."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from finprobe.document.identity import FilingsSeen
from finprobe.errors import InputError
from finprobe.inputs import INPUTS_HELP, deprecated_reports_option
from finprobe.inputs import collect_inputs as collect_paths
from finprobe.terminal import print_path, print_tables

fined_app = typer.Typer(
    help="FinED-Bench utilities: review sheets, fine-tuning export.", no_args_is_help=True
)

_REPORT_SUFFIXES = (".json.gz", ".json", ".txt", ".md")


def _fail(exc: InputError) -> typer.Exit:
    print(f"error: {exc}", file=sys.stderr)
    return typer.Exit(2)


def collect_inputs(paths: list[Path]) -> list[Path]:
    files = collect_paths(paths, _REPORT_SUFFIXES)
    if not files:
        raise InputError(None, "no documents given: pass .json/.json.gz/.txt/.md files or folders")
    return files


def load_source(path: Path, max_words: int) -> Any:
    """A FinDVer report (.json/.json.gz) or a plain-text document (.txt/.md, any language)."""
    from finprobe.benchmarks.fined.inject import source_from_document, source_from_text

    if path.name.endswith((".json", ".json.gz")):
        from finprobe.document import load_findver_report

        return source_from_document(load_findver_report(path), max_words=max_words)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read text ({type(exc).__name__})") from exc
    if not text.strip():
        raise InputError(path, "file is empty")
    return source_from_text(text, path.stem, title=path.stem)


def build_dataset(
    inputs: list[Path],
    out: Path,
    *,
    limit: int | None = None,
    seed: int = 0,
    max_errors: int = 4,
    max_words: int = 4500,
    review_csv: Path | None = None,
    llm_model: str | None = None,
    verify_model: str | None = None,
    progress: bool = True,
    probe: bool = True,
) -> dict[str, Any]:
    """The construction pipeline: segment, inject (rules, then the LLM for what rules missed),
    filter, cap errors per document, write the dataset atomically and the review sheet."""
    import asyncio

    from rich.progress import Progress

    from finprobe.benchmarks.fined.card import data_card
    from finprobe.benchmarks.fined.dataset import dataset_summary, save_dataset
    from finprobe.benchmarks.fined.filter import export_review_csv
    from finprobe.benchmarks.fined.inject import inject_rules
    from finprobe.benchmarks.fined.selfcheck import self_check
    from finprobe.files import write_json_atomic

    if not 1 <= max_errors <= 4:
        raise InputError(None, "--max-errors must be between 1 and 4 (the paper's cap is four)")
    files = collect_inputs(inputs)
    t0 = time.perf_counter()
    counts: Counter = Counter()
    dropped: Counter = Counter()  # (subtype, reason) of candidates the review rules rejected
    edits: Counter = Counter()  # (subtype, edit) chosen so far: the planner prefers rare edits
    docs = []
    skipped = 0
    seen = FilingsSeen()
    duplicates: list[dict[str, str]] = []
    taken = 0
    source_files: dict[str, Path] = {}  # for the self-check, which reads each file again
    with Progress(disable=not progress, transient=True) as bar:
        job = bar.add_task("injecting errors", total=min(limit or len(files), len(files)))
        for f in files:
            if limit and taken >= limit:
                break  # --limit N: N distinct filings, duplicates not counted
            src = load_source(f, max_words)
            same = seen.take(src.id, src.metadata, src.text)
            if same is not None:
                # the same filing under another name: building both would let a diff of the
                # two texts reveal every injected error
                duplicates.append({"document": src.id, "same_as": same})
                print(
                    f"skipped {src.id}: duplicate filing of {same} ({len(duplicates)} so far)",
                    file=sys.stderr,
                )
                continue
            source_files[src.id] = f
            taken += 1
            doc = inject_rules(
                src,
                seed=seed,
                max_errors=max_errors,
                global_counts=counts,
                dropped=dropped,
                edit_counts=edits,
            )
            if llm_model and len(doc.errors) < max_errors:
                doc = asyncio.run(_llm_fill(src, doc, llm_model, seed, max_errors, counts, dropped))
            if verify_model:
                doc = asyncio.run(_model_filter(doc, verify_model))
            if doc.errors:
                docs.append(doc)
            else:
                skipped += 1
            bar.advance(job)
    meta = {
        "seed": seed,
        "max_errors": max_errors,
        "max_words": max_words,
        "sources": taken,
        "duplicates_dropped": len(duplicates),
    }
    save_dataset(out, docs, meta)
    if review_csv:
        export_review_csv(docs, review_csv)
    summary = dataset_summary(docs, seed=seed)
    summary.update(
        out=str(out),
        skipped_without_errors=skipped,
        duplicates_dropped=len(duplicates),
        seconds=round(time.perf_counter() - t0, 1),
    )
    card = data_card(docs, dropped, seed=seed, probe=probe)
    card["duplicates_dropped"] = len(duplicates)
    card["duplicate_filings"] = duplicates
    card["self_check"] = self_check(docs, source_files)
    card_path = card_path_for(out)
    write_json_atomic(card_path, card)
    summary.update(card=card, card_path=str(card_path))
    return summary


def card_path_for(out: Path) -> Path:
    """The data card beside the dataset: fined_en.json -> fined_en.card.json."""
    name = out.name[: -len(".json")] if out.name.endswith(".json") else out.name
    return out.with_name(f"{name}.card.json")


async def _llm_fill(
    src: Any,
    doc: Any,
    model: str,
    seed: int,
    max_errors: int,
    counts: Counter,
    dropped: Counter | None = None,
) -> Any:
    """Add LLM-injected errors for subtypes the rules did not place, up to the cap."""
    import random

    from finprobe.benchmarks.fined.inject import (
        SEGMENT_KIND,
        apply_injections,
        choose_injections,
        llm_inject,
        rule_candidates,
    )
    from finprobe.benchmarks.fined.segment import (
        calculation_segments,
        knowledge_segments,
        reasoning_segments,
    )
    from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS

    rng = random.Random(f"{seed}:{src.id}:llm")
    frags = {
        "knowledge": [s.blocks for s in knowledge_segments(src.blocks)],
        "calculation": [s.blocks for s in calculation_segments(src.text, src.blocks)],
        "reasoning": [s.blocks for s in reasoning_segments(src.text, src.blocks)],
    }
    have = {e.subtype for e in doc.errors}
    cands = rule_candidates(src, random.Random(f"{seed}:{src.id}"))
    chosen = choose_injections(cands, random.Random(f"{seed}:{src.id}"), max_errors, Counter())
    chosen = [c for c in chosen if c.subtype in have]
    for subtype in sorted(SUBTYPE_IDS, key=lambda s: (counts[s], rng.random())):
        if len(chosen) >= max_errors or subtype in have:
            continue
        options = frags[SEGMENT_KIND[subtype]] or frags["knowledge"]
        if not options:
            continue
        inj = await llm_inject(model, src, subtype, rng.choice(options), dropped=dropped)
        if inj and not any(inj.start < o.end + 1 and o.start < inj.end + 1 for o in chosen):
            chosen.append(inj)
            counts[subtype] += 1
    return apply_injections(src, chosen, doc.id)


async def _model_filter(doc: Any, model: str) -> Any:
    from finprobe.benchmarks.fined.filter import model_verify, revert_error

    for e in list(doc.errors):
        start = e.start or 0
        context = doc.text[max(0, start - 1500) : start + len(e.sentence) + 1500]
        verdict = await model_verify(model, context, e.sentence, e.subtype)
        e.detail["verifier"] = verdict
        if verdict is False:
            revert_error(doc, e)
            doc.errors.remove(e)
    return doc


def build_fined(
    inputs: list[Path] = typer.Argument(
        None,
        help="FinDVer report .json/.json.gz or .txt/.md documents. " + INPUTS_HELP,
        show_default=False,
    ),
    reports: list[Path] = typer.Option([], "--reports", hidden=True, help="Deprecated: INPUTS."),
    out: Path = typer.Option(..., "--out", help="FinED dataset JSON to write."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Use at most N documents."),
    seed: int = typer.Option(0, "--seed", help="Seed for every random choice."),
    max_errors: int = typer.Option(4, "--max-errors", help="Errors per document (1-4)."),
    max_words: int = typer.Option(4500, "--max-words", min=200, help="Words per document window."),
    review_csv: Path | None = typer.Option(
        None, "--review-csv", help="Also write a review sheet (CSV)."
    ),
    llm_model: str | None = typer.Option(
        None,
        "--llm-model",
        help="inspect model that injects errors for subtypes the rules did not place.",
    ),
    verify_model: str | None = typer.Option(
        None, "--verify-model", help="inspect model that verifies each error."
    ),
    sample: int = typer.Option(20, "--sample", help="Injected errors to print."),
    probe: bool = typer.Option(
        True, "--probe/--no-probe", help="Run the surface probe for the data card."
    ),
) -> None:
    """Build a FinED-style benchmark: inject errors into documents (rules; optionally an LLM)."""
    try:
        summary = build_dataset(
            [*(inputs or []), *deprecated_reports_option(reports)],
            out,
            limit=limit,
            seed=seed,
            max_errors=max_errors,
            max_words=max_words,
            review_csv=review_csv,
            llm_model=llm_model,
            verify_model=verify_model,
            probe=probe,
            progress=sys.stderr.isatty(),  # a bar's last frame is noise in a log
        )
    except InputError as exc:
        raise _fail(exc) from None
    print_summary(summary, sample)


def print_summary(summary: dict[str, Any], sample: int = 20) -> None:
    console = Console()
    print_path(console, "dataset", summary["out"])  # paths whole, on their own lines
    if summary.get("card_path"):
        print_path(console, "data card", summary["card_path"])
    head = Table(title="FinED build")
    head.add_column("measure")
    head.add_column("value", justify="right")
    names = {"errors": "errors injected", "errors_per_document": "errors injected per document"}
    for key in (
        "documents",
        "errors",
        "errors_per_document",
        "average_words",
        "subtypes_covered",
        "seconds",
    ):
        v = summary[key]
        label = names.get(key, key.replace("_", " "))
        head.add_row(label, f"{v:.1f}" if isinstance(v, float) else str(v))
    head.add_row("documents without any error (dropped)", str(summary["skipped_without_errors"]))
    head.add_row("duplicate filings (dropped)", str(summary.get("duplicates_dropped", 0)))
    check = summary.get("card", {}).get("self_check")
    if check:  # each error re-read against its source file (selfcheck.py)
        head.add_row(
            "self-check against the sources", f"{check['passed']} of {check['checked']} hold"
        )
    console.print(head)
    if check and check["failures"]:
        for f in check["failures"][:10]:
            print(f"self-check: {f['document']} error {f['error']} ({f['subtype']}): {f['why']}",
                  file=sys.stderr)  # fmt: skip
    per = Table(title="Errors injected per subtype")
    per.add_column("subtype")
    per.add_column("count", justify="right")
    for k, v in summary["per_subtype"].items():
        per.add_row(k, str(v))
    for k, v in summary["per_category"].items():
        per.add_row(f"[bold]{k}[/bold]", str(v))
    console.print(per)
    if "card" in summary:
        print_card(console, summary["card"])
    ex = Table(
        title=f"Sample of {min(sample, len(summary['sample']))} injected errors", show_lines=True
    )
    ex.add_column("subtype")
    ex.add_column("original")
    ex.add_column("changed")
    for row in summary["sample"][:sample]:
        ex.add_row(row["subtype"], row["original"] or "(inserted)", row["modified"])
    console.print(ex)


def print_card(console: Console, card: dict[str, Any], path: str = "") -> None:
    """The data card's tables: subtypes by source with edit concentration, drops, probes."""
    tab = Table(title=f"Data card {path}".strip())
    cols = ("subtype", "rule", "llm", "distinct edits", "top edit share", "top edit")
    for col in (*cols, "families", "top family (share)"):
        tab.add_column(
            col, justify="left" if col in ("subtype", "top edit", "top family (share)") else "right"
        )
    for sub, c in card["edit_concentration"].items():
        src = card["by_subtype_and_source"].get(sub, {})
        tab.add_row(
            sub,
            str(src.get("rule", 0)),
            str(src.get("llm", 0)),
            str(c["distinct_edits"]),
            f"{100 * c['top_share']:.0f}%",
            c["top_edit"][:60],
            str(len(c.get("families", {}))),
            f"{c.get('top_family', '')} ({100 * c.get('top_family_share', 0):.0f}%)",
        )
    print_tables(console, [tab])  # names whole: split into tables when wider than the terminal
    drops = Table(title=f"Dropped by the review rules ({card['dropped_total']})")
    drops.add_column("subtype")
    drops.add_column("reason")
    drops.add_column("count", justify="right")
    for sub, reasons in card["dropped"].items():
        for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
            drops.add_row(sub, why, str(n))
    console.print(drops)
    probe = card.get("surface_probe")
    if probe:
        pt = Table(
            title=f"Surface probe: the edited sentence alone, 1:1 with negatives (chance F1 "
            f"{probe['chance_f1']:.2f}); folds grouped by report"
        )
        for col in ("negatives", "probe", "P", "R", "F1"):
            pt.add_column(col, justify="left" if col in ("negatives", "probe") else "right")
        for negatives in ("untouched", "matched", "originals"):
            for name, key in (
                ("n-gram classifier", "learned"),
                ("rule detector, sentence checks", "rule_sentence_checks"),
            ):
                res = probe[negatives][key]
                if res.get("available", True):
                    cells = [f"{100 * res[k]:.1f}" for k in ("precision", "recall", "f1")]
                else:
                    cells = ["-", "-", res.get("why", "unavailable")]
                pt.add_row(negatives, name, *cells)
        console.print(pt)


def review_import(
    data: Path = typer.Option(
        ..., "--data", help="FinED dataset JSON the sheet was exported from."
    ),
    review_csv: Path = typer.Option(..., "--review-csv", help="The review sheet with decisions."),
    out: Path = typer.Option(..., "--out", help="Reviewed dataset JSON to write."),
    drop_undecided: bool = typer.Option(
        False, "--drop-undecided", help="Treat rows without a decision as rejected."
    ),
) -> None:
    """Apply reviewers' accept/reject decisions: rejected errors are reverted in the text."""
    from finprobe.benchmarks.fined.dataset import load_dataset, save_dataset
    from finprobe.benchmarks.fined.filter import apply_review, read_review_csv

    try:
        docs = load_dataset(data)
        decisions = read_review_csv(review_csv)
        docs, stats = apply_review(docs, decisions, drop_undecided=drop_undecided)
        save_dataset(out, docs, {"reviewed_from": str(data)})
    except InputError as exc:
        raise _fail(exc) from None
    Console().print(
        "reviewed: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())) + f" -> {out}"
    )


def export_sft(
    data: Path = typer.Option(..., "--data", help="FinED dataset JSON (ours or released)."),
    out: Path = typer.Option(..., "--out", help="JSONL file to write (chat 'messages' format)."),
    clean_per_document: int = typer.Option(
        1, "--clean-per-document", help="Error-free fragments per document."
    ),
) -> None:
    """Export error-containing and error-free fragments for supervised fine-tuning."""
    from finprobe.benchmarks.fined.dataset import load_dataset
    from finprobe.benchmarks.fined.export import finetuning_records, write_jsonl

    try:
        records = finetuning_records(load_dataset(data), clean_per_document)
        write_jsonl(records, out)
    except InputError as exc:
        raise _fail(exc) from None
    with_err = sum(r["error_type"] is not None for r in records)
    Console().print(f"wrote {len(records)} records ({with_err} with an error) -> {out}")


def register(build_app: typer.Typer, app: typer.Typer) -> None:
    build_app.command("fined")(build_fined)
    fined_app.command("review-import")(review_import)
    fined_app.command("export-sft")(export_sft)
    app.add_typer(fined_app, name="fined")
