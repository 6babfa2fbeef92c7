"""``finprobe build findver``: claims with evidence and explanations, from any report.

From each table with period columns, entailed claims state a lookup (a cell), a
change or a percentage change between two periods, or a share of a total; refuted
claims perturb one of them: a number (scaled), a period (another column's value),
a direction (increase <-> decrease), or an entity (another row's label). Each claim
carries its evidence id (the table's FinDVer context id) and an explanation in the
paper's template: extracted information as a numbered list, reasoning steps, label.
Output: a claims JSON in the FinDVer format (plus ``kind`` and ``perturbation``)
and, beside it, ``reports/`` with every report the claims use.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from finprobe.errors import InputError

KINDS = ("lookup", "change", "pct_change", "share")
PERTURBATIONS = ("number", "period", "direction", "entity")
_YEAR = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")


@dataclass(frozen=True)
class Cell:
    row_label: str
    period: str
    value: Decimal  # as written in the table, no scale
    text: str


@dataclass
class TableFacts:
    table_id: str
    evidence_id: str
    periods: list[str]  # one per period column, left to right
    rows: dict[str, list[Cell]]  # row label -> cells in period order
    scale_word: str  # "", "thousand", "million", "billion"
    dollars: bool


_SCALE_WORDS = {
    Decimal(1000): "thousand",
    Decimal(1_000_000): "million",
    Decimal(1_000_000_000): "billion",
}


def table_facts(table: Any) -> TableFacts | None:
    """Rows of numbers under year columns, or None when the table has no such shape."""
    if table.header_rows < 1 or len(table.cells) < 3:
        return None
    columns: dict[int, str] = {}
    for c in range(table.header_cols, len(table.cells[0])):
        years = _YEAR.findall(table.column_label(c))
        if len(set(years)) == 1:
            columns[c] = years[0]
    periods = list(dict.fromkeys(columns.values()))
    if len(periods) < 2:
        return None
    rows: dict[str, list[Cell]] = {}
    for r in range(table.header_rows, len(table.cells)):
        label = table.row_label(r).strip()
        if not label or len(label) > 80 or label in rows or _YEAR.search(label):
            continue
        if label.startswith("(") or "thousands" in label.lower() or "millions" in label.lower():
            continue
        cells = []
        for c, period in columns.items():
            number = table.number(r, c)
            if number is None or "percent" in number.units:
                continue
            if any(cell.period == period for cell in cells):
                continue
            cells.append(Cell(label, period, number.value, table.cells[r][c].strip()))
        if len(cells) == len(periods) and any(cell.value != 0 for cell in cells):
            rows[label] = cells
    if len(rows) < 2:
        return None
    text = " ".join(" ".join(row) for row in table.cells) + " " + (table.pre_text or "")
    evidence_id = table.source_id if table.source_id is not None else table.id
    return TableFacts(
        table.id,
        str(evidence_id),
        periods,
        rows,
        _SCALE_WORDS.get(table.scale, ""),
        "$" in text or table.unit_hint == "usd",
    )


def money(facts: TableFacts, value: Decimal) -> str:
    """A table value as a claim writes it: "$25,397 million"."""
    digits = f"{abs(value):,.0f}" if value == value.to_integral_value() else f"{abs(value):,.2f}"
    sign = "-" if value < 0 else ""
    text = f"{sign}{'$' if facts.dollars else ''}{digits}"
    return f"{text} {facts.scale_word}" if facts.scale_word else text


def _pct(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@dataclass
class BuiltClaim:
    statement: str
    label: bool
    kind: str
    perturbation: str | None
    facts_used: list[Cell]
    steps: list[str]
    evidence_id: str

    def explanation(self, facts: TableFacts) -> str:
        lines = ["Extracted information:"]
        for i, cell in enumerate(self.facts_used, 1):
            lines.append(
                f"{i}. Table {self.evidence_id} reports {cell.row_label} of {money(facts, cell.value)} for {cell.period}."
            )
        lines.append("Reasoning:")
        lines += [f"Step {i}: {step}" for i, step in enumerate(self.steps, 1)]
        lines.append(f"Label: {'entailed' if self.label else 'refuted'}")
        return "\n".join(lines)


def _perturb_change(
    value: Decimal,
    direction: str,
    can_flip: bool,
    refute: bool,
    rng: random.Random,
    bump: Callable[[Decimal], Decimal],
) -> tuple[Decimal, str, str | None]:
    """A refuted change claim: a wrong amount (``bump``) or, for a non-zero change, the wrong direction."""
    if not refute:
        return value, direction, None
    perturbation = rng.choice(("number", "direction")) if can_flip else "number"
    if perturbation == "number":
        return bump(value), direction, perturbation
    return value, "decreased" if direction == "increased" else "increased", perturbation


def _claims_from_table(
    facts: TableFacts, company: str, rng: random.Random, per_table: int
) -> list[BuiltClaim]:
    labels = list(facts.rows)
    new, old = facts.periods[0], facts.periods[1]
    if new < old:  # newest period first, whichever order the table uses
        new, old = old, new
    out: list[BuiltClaim] = []
    for _ in range(per_table):
        label = rng.choice(labels)
        cells = {c.period: c for c in facts.rows[label]}
        a, b = cells[new], cells[old]
        kind = rng.choice(KINDS if b.value != 0 else ("lookup", "change"))
        refute = rng.random() < 0.5
        subject = f"{company}'s {label.lower()}" if company else label
        if kind == "lookup":
            value, claim_period, used = a.value, new, [a]
            perturbation = None
            if refute:
                perturbation = rng.choice(("number", "period", "entity"))
                if perturbation == "number" or (perturbation == "period" and b.value == a.value):
                    perturbation = "number"
                    value = (a.value * Decimal(rng.choice(("1.1", "1.2", "0.8", "0.9")))).quantize(
                        Decimal(1) if a.value == a.value.to_integral_value() else Decimal("0.01")
                    )
                elif perturbation == "period":
                    value = b.value
                else:
                    others = [
                        lb for lb in labels if facts.rows[lb][0].value != a.value and lb != label
                    ]
                    if not others:
                        perturbation, value = "number", a.value * 2
                    else:
                        other = rng.choice(others)
                        subject = f"{company}'s {other.lower()}" if company else other
                        used = [a, {c.period: c for c in facts.rows[other]}[new]]
            statement = f"{subject} was {money(facts, value)} in {claim_period}."
            steps = [
                f"The claim gives {money(facts, value)} for {claim_period}; the table gives {money(facts, a.value)} for {label} in {new}."
            ]
            if perturbation == "entity":
                steps = [
                    f"The claim gives {money(facts, value)} for a different line item than the table's {label}; that line item shows {money(facts, used[1].value)}."
                ]
            steps.append("The figures agree." if not refute else "The figures do not agree.")
        elif kind == "change":
            diff = a.value - b.value
            direction = "increased" if diff >= 0 else "decreased"
            value, direction, perturbation = _perturb_change(
                abs(diff), direction, diff != 0, refute, rng,
                lambda v: v + max(Decimal(1), (v * Decimal("0.15")).quantize(Decimal(1))),
            )  # fmt: skip
            statement = f"{subject} {direction} by {money(facts, value)} from {old} to {new}."
            used = [b, a]
            steps = [
                f"The change is {money(facts, a.value)} - {money(facts, b.value)} = {money(facts, diff)}.",
                f"The claim says it {direction} by {money(facts, value)}, which {'matches' if not refute else 'does not match'}.",
            ]
        elif kind == "pct_change":
            change = _pct((a.value - b.value) / abs(b.value) * 100)
            direction = "increased" if change >= 0 else "decreased"
            value, direction, perturbation = _perturb_change(
                abs(change), direction, change != 0, refute, rng,
                lambda v: _pct(v * Decimal("1.25") + Decimal("1.5")),
            )  # fmt: skip
            statement = f"{subject} {direction} by {value}% from {old} to {new}."
            used = [b, a]
            steps = [
                f"The percentage change is ({money(facts, a.value)} - {money(facts, b.value)}) / {money(facts, b.value)} = {change}%.",
                f"The claim says it {direction} by {value}%, which {'matches' if not refute else 'does not match'}.",
            ]
        else:  # share of another line (a total when the table has one)
            totals = [lb for lb in labels if "total" in lb.lower() and lb != label]
            base_label = totals[-1] if totals else next((lb for lb in labels if lb != label), label)
            base = {c.period: c for c in facts.rows[base_label]}[new]
            if base.value == 0 or base_label == label:
                continue
            share = _pct(a.value / base.value * 100)
            value = share
            perturbation = None
            if refute:
                perturbation = "number"
                value = _pct(share * Decimal("1.3") + Decimal("2"))
            statement = f"In {new}, {label.lower()} was {value}% of {base_label.lower()}" + (
                f" for {company}." if company else "."
            )
            used = [a, base]
            steps = [
                f"The share is {money(facts, a.value)} / {money(facts, base.value)} = {share}%.",
                f"The claim says {value}%, which {'matches' if not refute else 'does not match'}.",
            ]
        out.append(
            BuiltClaim(statement, not refute, kind, perturbation, used, steps, facts.evidence_id)
        )
    return out


def build_claims_for_document(
    doc: Any, report_name: str, seed: int = 0, per_table: int = 2, max_tables: int = 8
) -> list[dict[str, Any]]:
    """FinDVer-format claims (plus ``kind`` and ``perturbation``) for one document."""
    rng = random.Random(f"{seed}:{report_name}")
    company = str(doc.metadata.get("company_name") or doc.metadata.get("company") or "").rstrip(".")
    if company.isupper() and len(company) <= 6:
        company = ""  # a ticker reads badly as a subject
    all_facts = [f for f in (table_facts(t) for t in doc.tables) if f is not None]
    rng.shuffle(all_facts)
    rows = []
    for facts in all_facts[:max_tables]:
        for claim in _claims_from_table(facts, company, rng, per_table):
            statement = claim.statement[0].upper() + claim.statement[1:]
            rows.append(
                {
                    "example_id": f"built-{Path(report_name).stem}-{len(rows)}",
                    "subset": "ie" if claim.kind == "lookup" else "math",
                    "split": "built",
                    "statement": statement,
                    "entailment_label": claim.label,
                    "explanation": claim.explanation(facts),
                    "relevant_context": [
                        int(claim.evidence_id) if claim.evidence_id.isdigit() else claim.evidence_id
                    ],
                    "report": report_name,
                    "kind": claim.kind,
                    "perturbation": claim.perturbation,
                }
            )
    return rows


def _report_files(inputs: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in inputs:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.name.endswith((".json", ".json.gz")))
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(path, "not found")
    return files


def build_dataset(
    reports: Iterable[Path],
    out: Path,
    synthetic: int = 0,
    seed: int = 0,
    per_table: int = 2,
    max_tables: int = 8,
    limit: int | None = None,
) -> dict[str, Any]:
    """Write claims JSON to ``out`` and the reports they use to ``out``'s ``reports/``."""
    from finprobe.document import load_findver_report

    files = _report_files(reports)[:limit] if limit else _report_files(reports)
    if not files and not synthetic:
        raise InputError(None, "no reports given: pass --reports and/or --synthetic N")
    reports_dir = out.parent / "reports"
    reports_dir.mkdir(parents=True, exist_ok=True)
    claims: list[dict[str, Any]] = []
    for path in files:
        doc = load_findver_report(path)
        name = path.name.removesuffix(".gz")
        built = build_claims_for_document(doc, name, seed, per_table, max_tables)
        if built:
            target = reports_dir / (name + ".gz")
            if path.resolve() != target.resolve():
                if path.suffix == ".gz":
                    shutil.copyfile(path, target)
                else:
                    target.write_bytes(gzip.compress(path.read_bytes()))
        claims += built
    if synthetic:
        from finprobe.document import load_findver_report as load
        from finprobe.synth import make_corpus, to_findver_json

        for i, report in enumerate(make_corpus(synthetic, seed=seed)):
            name = f"synth-{seed}-{i}.json"
            target = reports_dir / (name + ".gz")
            target.write_bytes(gzip.compress(json.dumps(to_findver_json(report)).encode()))
            doc = load(target)
            doc.metadata["company_name"] = report.company
            claims += build_claims_for_document(doc, name, seed, per_table, max_tables)
    if not claims:
        raise InputError(None, "no claims built: no table with numbers under two year columns")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(claims, indent=1))
    counts = Counter(
        (c["kind"], "entailed" if c["entailment_label"] else "refuted") for c in claims
    )
    return {
        "out": str(out),
        "claims": len(claims),
        "reports": len({c["report"] for c in claims}),
        "by_kind": {f"{k} {lab}": n for (k, lab), n in sorted(counts.items())},
        "by_perturbation": dict(Counter(c["perturbation"] or "none" for c in claims)),
    }
