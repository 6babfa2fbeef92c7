"""FinAuditing CLI commands: `finprobe build finauditing`, `check` and `taxonomy build|search`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

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
        None, "--json", help="Write {coverage, findings} as JSON here ('-' for stdout)."
    ),  # fmt: skip
    rules: list[str] | None = typer.Option(
        None,
        "--rules",
        help="Rule ids to run (repeat or comma-separate; 'all' for every rule); default: the "
        "rules that follow their published definition.",
    ),  # fmt: skip
    min_severity: str = typer.Option(
        "incomplete",
        "--min-severity",
        help="Show findings at or above: info, incomplete, error (the exit status follows "
        "errors only).",
    ),  # fmt: skip
    calc_mode: str = typer.Option(
        "arcrole",
        "--calc-mode",
        help="Summation rule: arcrole (XBRL 2.1 for 2003 arcs, Calc 1.1 for 2023 arcs), "
        "xbrl21 or calc11.",
    ),  # fmt: skip
    any_date: bool = typer.Option(
        False, "--any-date", help="Run DQC rules on filings from before their effective date."
    ),  # fmt: skip
    width: int | None = typer.Option(None, "--width", help="Wrap the report at this width."),
) -> None:
    """Check an XBRL filing: XBRL 2.1 calculations and DQC rules.

    Exit code 0: no error findings; 1: at least one error; 2: bad input.
    """
    import shutil
    from collections import Counter

    from finprobe.xbrl.check_base import SEVERITIES, severity_rank
    from finprobe.xbrl.check_report import coverage, filter_findings, render_report
    from finprobe.xbrl.checks import RULES, findings_to_json, run_rules
    from finprobe.xbrl.filing import load_filing

    wanted = [r.strip() for item in rules or [] for r in item.split(",") if r.strip()] or None
    try:
        if min_severity not in SEVERITIES:
            raise InputError(None, f"--min-severity must be one of {', '.join(SEVERITIES)}")
        if calc_mode not in ("arcrole", "xbrl21", "calc11"):
            raise InputError(None, "--calc-mode must be arcrole, xbrl21 or calc11")
        if wanted:
            known = {k.lower() for k in RULES} | {"all"}
            unknown = [r for r in wanted if r.lower() not in known]
            if unknown:
                raise InputError(None, f"unknown rule(s) {', '.join(unknown)}; known: "
                                       f"{', '.join(RULES)}, all")  # fmt: skip
        loaded = load_filing(filing)
        index = None
        if taxonomy is not None:  # imported only then: most checks run without it
            from finprobe.xbrl.taxonomy import TaxonomyIndex

            index = TaxonomyIndex(taxonomy)
        run = run_rules(loaded, wanted, index,
                        calc_mode=None if calc_mode == "arcrole" else calc_mode,
                        any_date=any_date)  # fmt: skip
    except InputError as exc:
        raise _fail(exc) from None
    cov = coverage(loaded, run.ran, run.skipped)
    shown = filter_findings(run.findings, min_severity)
    if json_out is not None:
        # what --min-severity left out is counted, never dropped silently
        below = Counter(f.severity for f in run.findings
                        if severity_rank(f.severity) < severity_rank(min_severity))  # fmt: skip
        not_shown = {"min_severity": min_severity, "count": sum(below.values()),
                     "by_severity": dict(below)}  # fmt: skip
        text = findings_to_json(shown, cov, not_shown) + "\n"
        if str(json_out) == "-":
            sys.stdout.write(text)
        else:
            write_text_atomic(json_out, text)
    if json_out is None or str(json_out) != "-":
        cols = width or min(shutil.get_terminal_size((80, 24)).columns, 120)
        sys.stdout.write(render_report(shown, cov, cols, len(run.findings) - len(shown)))
    errors = sum(1 for f in run.findings if f.severity == "error")
    raise typer.Exit(1 if errors else 0)


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


def build_finauditing(
    filings: list[Path] = typer.Argument(
        None,
        help="Filing folders (instance + linkbases) or instance .xml files (several allowed).",
        show_default=False,
    ),
    out: Path = typer.Option(..., "--out", help="Folder for finsm/finre/finmr.jsonl."),
    messages: list[Path] = typer.Option(
        [],
        "--messages",
        help="DQC messages (JSONL/JSON/txt) or `finprobe check --json` output.",
    ),  # fmt: skip
    no_inject: bool = typer.Option(False, "--no-inject", help="Only DQC-message instances."),
    no_checks: bool = typer.Option(
        False, "--no-checks", help="Do not turn FinProbe's own check findings into messages."
    ),  # fmt: skip
    synth: int = typer.Option(0, "--synth", help="Also export N synthetic reports as filings."),
    taxonomy: Path | None = typer.Option(None, "--taxonomy", help="Taxonomy chunks folder."),
    seed: int = typer.Option(0, "--seed"),
    finmr: int = typer.Option(4, "--finmr", help="FinMR instances per filing."),
    finre: int = typer.Option(2, "--finre", help="FinRE instances per label per filing."),
    finsm: int = typer.Option(3, "--finsm", help="FinSM instances per filing."),
) -> None:
    """Build FinAuditing instances from filings, DQC messages or synthetic reports."""
    from finprobe.benchmarks.finauditing.build import build_dataset
    from finprobe.xbrl.taxonomy import TaxonomyIndex

    try:
        paths = list(filings or [])
        for path in paths:  # named before any work, not half-way through the build
            if not path.exists():
                raise InputError(path, "no such file or folder")
        if synth:
            from finprobe.synth import make_corpus
            from finprobe.xbrl.synth_export import export_report

            paths += [export_report(r, out / "filings" / f"synth-{i}")
                      for i, r in enumerate(make_corpus(synth, seed=seed))]  # fmt: skip
        if not paths:
            raise InputError(None, "give filing folders or --synth N")
        index = TaxonomyIndex(taxonomy) if taxonomy else None
        manifest = build_dataset(paths, out, seed=seed, inject_errors=not no_inject,
                                 run_checks_as_messages=not no_checks, messages=messages,
                                 finmr=finmr, finre_per_label=finre, finsm=finsm,
                                 taxonomy=index)  # fmt: skip
    except InputError as exc:
        raise _fail(exc) from None
    counts = manifest["counts"]
    print(f"FinSM {counts['finsm']}, FinRE {counts['finre']} {manifest['labels']['finre']}, "
          f"FinMR {counts['finmr']} -> {out}")  # fmt: skip
    checks = ", ".join(f"{t} {v['passed']}/{v['checked']}" for t, v in manifest["recheck"].items())
    print(f"re-checked against the filings: {checks}; data card: {out / 'datacard.md'}")


def register(build_app: typer.Typer, app: typer.Typer) -> None:
    """Add `build finauditing`, and `check` and `taxonomy` to the top-level app."""
    build_app.command("finauditing")(build_finauditing)
    app.command("check")(check)
    app.add_typer(taxonomy_app, name="taxonomy")
