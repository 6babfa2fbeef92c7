"""``finprobe build findver``: claims with evidence and explanations, from any report.

From each table with period columns, entailed claims state a **lookup** (a cell), a
**change** or a **pct_change** between the two latest periods, a **share** of a total
that contains the row (the block's total row, whose components sum to it), or a
named **margin** (gross, operating or net income over revenue); refuted claims
perturb one of them: a number (same precision and form), a period (another
column's different value), a direction, or an entity (another row's different
value).

Numbers are read as the table means them: parenthesised values are negative (also
when the parentheses sit in neighbouring cells), dashes are zero, and the table's
scale ("in thousands") is written into the claim ("$92,291 thousand"); a
per-share row keeps its own unit. For rows shown negative in both periods
(expenses, losses, outflows) "increased / decreased" speak of the amount's size,
and losses "narrowed / widened"; a cash row whose only direction word is "used in" gives
its outflow by size ("Net cash used in investing activities was $79,728"). A change between
balances at dates under a year apart names the dates ("from December 31, 2023 to March
31, 2024"), not the years; a balance is "at March 31, 2024" and a fiscal year ending early
in the next calendar year is named as the report names it ("fiscal 2023"; see ``periods``). A report that states no scale is read in the
scale its per-share figures (or its prose quotes) show; where they show none,
only per-share figures, percentage changes and shares are claimed. A row whose
label another table of the report shows with another figure for the same period
(a subsidiary's or a segment's beside the group's) is not claimed unless its table
names whose figures it holds. How a claim names its row (section, measure,
scope) is in ``names``; how a table is read into rows and cells, and how a figure
is worded, in ``table_facts``.

Every claim is then re-verified by ``selfcheck`` (a separate reader of the report
file); claims that fail are dropped and counted in the data card (``card``).
Output: a claims JSON in the FinDVer format (plus ``kind``, ``perturbation`` and the
cited ``cells``), ``reports/`` beside it, and the data card ``<out>.card.json``.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from finprobe.benchmarks.findver.basis import report_basis
from finprobe.benchmarks.findver.names import (
    MEASURE,
    OPPOSITE,
    PROSE_SCALE,
    direction_word,
    mark_ambiguous,
    row_negative_name,
)
from finprobe.benchmarks.findver.periods import fiscal_years
from finprobe.benchmarks.findver.table_facts import (
    _SCALE_WORDS,
    Row,
    TableFacts,
    _digits,
    _name,
    _q,
    amount,
    row_name,
    stated_value,
    table_facts,
)
from finprobe.errors import InputError
from finprobe.inputs import collect_inputs

KINDS = ("lookup", "change", "pct_change", "share", "margin")
PERTURBATIONS = ("number", "period", "direction", "entity")
# named ratios: (name, numerator row, denominator row)
_REVENUE = re.compile(
    r"(?i)^(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:revenues?|sales)(?:,?\s+net)?$|^total net (?:revenues?|sales)$"
)
_MARGINS = (
    ("gross margin", re.compile(r"(?i)^gross (?:profit|margin)$")),
    ("operating margin", re.compile(r"(?i)^(?:operating income|income from operations)$")),
    ("net margin", re.compile(r"(?i)^net income$")),
)


def _pct(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# ----------------------------------------------------------------------------- claims


@dataclass
class BuiltClaim:
    statement: str
    label: bool
    kind: str
    perturbation: str | None
    cited: list[tuple[Row, str]]  # (row, period) the claim speaks of
    steps: list[str]
    facts: TableFacts

    def explanation(self) -> str:
        lines = ["Extracted information:"]
        scale = next((r.scale for r, _ in self.cited if r.scale != 1), None)
        note = f" (amounts in {_SCALE_WORDS[scale]}s)" if scale else ""
        for i, (row, period) in enumerate(self.cited, 1):
            cell = row.cells[period]
            lines.append(
                f"{i}. Table {self.facts.evidence_id}{note} reports {row.label} of {cell.text} "
                f"{self.facts.said(period)}."
            )
        lines.append("Reasoning:")
        lines += [f"Step {i}: {step}" for i, step in enumerate(self.steps, 1)]
        lines.append(f"Label: {'entailed' if self.label else 'refuted'}")
        return "\n".join(lines)

    def cells(self) -> list[dict[str, str]]:
        # the figure as the table means it (sign, dash 0; scale not applied), for the
        # self-check to hold against its own reading of the cell
        return [
            {"row": row.label, "period": period, "value": str(row.cells[period].value)}
            for row, period in self.cited
        ]


def _perturbed(
    value: Decimal, decimals: int, rng: random.Random, below: Decimal | None = None
) -> Decimal | None:
    """A different figure of the same form: 8-30% off, at the same precision, never zero
    (and under ``below``: a decrease of 120% gives itself away)."""
    if value == 0:
        return None
    factors = [
        "0.7",
        "0.75",
        "0.8",
        "0.85",
        "0.9",
        "0.92",
        "1.08",
        "1.1",
        "1.15",
        "1.2",
        "1.25",
        "1.3",
    ]
    rng.shuffle(factors)
    for f in factors:
        new = (value * Decimal(f)).quantize(_q(decimals), rounding=ROUND_HALF_UP)
        if below is not None and new >= below:
            continue
        if new != 0 and abs(new - value) >= abs(value) * Decimal("0.05") and new != value:
            return new
    return None


def _far(a: Decimal, b: Decimal) -> bool:
    """Do two figures differ clearly (not a rounding)?"""
    return abs(a - b) > max(abs(a), abs(b)) * Decimal("0.02")


def _lookup(
    facts: TableFacts, row: Row, new: str, old: str, refute: bool, rng: random.Random, subj: str
) -> BuiltClaim | None:
    cell = row.cells[new]
    if cell.value == 0:
        return None  # "was $0" from a dash: true, but says nothing
    value, stated_row, perturbation = cell.value, row, None
    if refute:
        options = ["number", "period", "entity"]
        rng.shuffle(options)
        for perturbation in options:
            if perturbation == "number":
                got = _perturbed(cell.value, cell.decimals, rng)
                if got is not None:
                    value = got
                    break
            elif perturbation == "period":
                other = row.cells[old]
                if (
                    _far(other.value, cell.value)
                    and (other.value < 0) == (cell.value < 0)
                    and other.value != 0
                ):
                    value = other.value
                    break
            else:
                others = [
                    r for r in facts.rows.values()
                    if r is not row and r.unit == row.unit and r.scale == row.scale
                    and _far(r.cells[new].value, cell.value) and r.cells[new].value != 0
                    and (r.cells[new].value < 0) == (cell.value < 0) and r.negative == row.negative
                    and r.named and r.scaled
                ]  # fmt: skip
                if others:
                    stated_row = rng.choice(others)
                    break
        else:
            return None
    decimals = cell.decimals
    said = stated_value(facts, stated_row, value, decimals)
    if said is None:
        return None
    statement = f"{subj}{_name(row_name(stated_row))} was {said} {facts.on(new)}{facts.when()}"
    truth = stated_row.cells[new]
    steps = [
        f"The claim gives {said} for {stated_row.label} {facts.on(new)}; the table shows {truth.text}, "
        f"that is {stated_value(facts, stated_row, truth.value, truth.decimals) or truth.text}.",
        "The figures agree." if not refute else "The figures do not agree.",
    ]
    return BuiltClaim(
        statement, not refute, "lookup", perturbation, [(stated_row, new)], steps, facts
    )


def _change(
    facts: TableFacts,
    row: Row,
    new: str,
    old: str,
    refute: bool,
    rng: random.Random,
    subj: str,
    pct: bool,
) -> BuiltClaim | None:
    if row.mixed:
        return None  # a sign change has no size to grow or shrink
    subject, loss = row_name(row), False
    if row.negative:
        named = row_negative_name(row)
        if named is None:
            return None  # a negative EBITDA grows as its size shrinks: neither reading is safe
        loss = named[1]
    a, b = row.cells[new], row.cells[old]
    size_new, size_old = abs(a.value), abs(b.value)
    if size_new == size_old or (pct and size_old == 0):
        return None
    if size_new == 0 and (pct or loss):
        # gone to zero: "decreased by 100.00%" and "the loss narrowed by $X" say it in a
        # way no analyst would; the lookup of the old figure and "decreased by $X" remain
        return None
    grew = size_new > size_old
    direction = direction_word(loss, grew)
    decimals = shown = max(a.decimals, b.decimals)  # shown: the cells' own precision
    if pct:
        true_value = _pct(abs(size_new - size_old) / size_old * 100)
        decimals = 2
    else:
        true_value = abs(size_new - size_old)
    value, said_direction, perturbation = true_value, direction, None
    if refute:
        perturbation = rng.choice(("number", "direction"))
        if perturbation == "direction" and pct and grew and true_value >= 100:
            perturbation = "number"  # "decreased by 140%" cannot be true: it gives itself away
        if perturbation == "number":
            # a shrinking amount cannot shrink by 100% or more, nor can a perturbed one
            below = Decimal(100) if pct and not grew else None
            got = _perturbed(true_value, decimals, rng, below)
            if got is None:
                return None
            value = got
        else:
            said_direction = OPPOSITE[direction]
    figure = f"{_digits(value, 2)}%" if pct else amount(facts, row, value, decimals)
    statement = (
        f"{subj}{_name(subject)} {said_direction} by {figure} from "
        f"{facts.called(old)} to {facts.called(new)}{facts.when()}"
    )
    size = "amount"
    if row.negative:
        size = _name(subject) if subject != row.name else "amount's size"
    truth = f"{_digits(true_value, 2)}%" if pct else amount(facts, row, true_value, decimals)
    steps = [
        f"The table shows {a.text} {facts.said(new)} and {b.text} {facts.said(old)}: the {size} went from "
        f"{amount(facts, row, size_old, shown)} to {amount(facts, row, size_new, shown)}.",
        f"So it {direction} by {truth}.",
        f"The claim says it {said_direction} by {figure}, which "
        f"{'matches' if not refute else 'does not match'}.",
    ]
    kind = "pct_change" if pct else "change"
    return BuiltClaim(
        statement, not refute, kind, perturbation, [(row, old), (row, new)], steps, facts
    )


def _ratio(
    facts: TableFacts,
    part: Row,
    whole: Row,
    period: str,
    refute: bool,
    rng: random.Random,
    company: str,
    name: str | None,
) -> BuiltClaim | None:
    a, b = part.cells[period].value, whole.cells[period].value
    if a <= 0 or b <= 0 or a > b:
        return None  # never a share of a loss, never above the whole
    share = _pct(a / b * 100)
    if share <= 0 or share >= 100:
        return None  # 100.00%: the other parts are zero; "made up all of" says nothing
    value, perturbation = share, None
    if refute:
        perturbation = "number"
        got = _perturbed(share, 2, rng)
        if got is None or got > 100 or abs(got - share) < 1:
            got = (
                _pct(share * Decimal("0.8"))
                if share > 50
                else _pct(min(share * Decimal("1.3"), share + 20))
            )
        value = got
    of = f" for {company}" if company else ""
    if name and facts.on(period).startswith("at "):
        return None  # a margin is of a period's flows, never "at December 31, 2023"
    if name:
        statement = f"{facts.on(period)}{facts.when(',')} the {name}{of} ({_name(part.name)} over {_name(whole.name)}) was {value}%."
        kind = "margin"
    else:
        statement = f"{facts.on(period)}{facts.when(',')} {_name(part.name)} made up {value}% of {_name(whole.name)}{of}."
        kind = "share"
    steps = [
        f"{part.label} is {part.cells[period].text} and {whole.label} is {whole.cells[period].text} {facts.on(period)}.",
        f"{part.cells[period].text} / {whole.cells[period].text} = {share}%.",
        f"The claim says {value}%, which {'matches' if not refute else 'does not match'}.",
    ]
    return BuiltClaim(
        statement, not refute, kind, perturbation, [(part, period), (whole, period)], steps, facts
    )


def _ratio_candidates(facts: TableFacts) -> list[tuple[str, str, str | None]]:
    """(part, whole, margin name or None) pairs that mean something."""
    pairs: list[tuple[str, str, str | None]] = [
        (part, total, None) for total, parts in facts.totals.items() for part in parts
    ]
    revenue = next((lb for lb in facts.rows if _REVENUE.match(lb)), None)
    if revenue and facts.rows[revenue].unit == "money":
        for name, pattern in _MARGINS:
            for lb, row in facts.rows.items():
                if (
                    pattern.match(lb)
                    and row.unit == "money"
                    and row.scale == facts.rows[revenue].scale
                ):
                    pairs.append((lb, revenue, name))
    return pairs


def _share_named(part: Row, whole: Row) -> bool:
    """Both rows of a share named: "Gaylord Texan made up 19.55% of total Hospitality
    segment revenues" takes its measure from the whole."""
    if not whole.named:
        return False
    return part.named or (part.needs == "measure" and bool(MEASURE.search(whole.label)))


def _claims_from_table(
    facts: TableFacts, company: str, rng: random.Random, per_table: int
) -> list[BuiltClaim]:
    new, old = facts.periods[0], facts.periods[1]
    labels = list(facts.rows)
    ratios = _ratio_candidates(facts)
    if facts.scope:  # a segment's or the parent's table: the claim names whose figures
        company = facts.scope
    # "Bagger Dave’s total liabilities", not "Bagger Dave’s's"
    subj = f"{company} " if re.search(r"['’]s$", company) else f"{company}'s " if company else ""
    out: list[BuiltClaim] = []
    for _ in range(per_table * 3):  # some draws make no claim (a zero, no change)
        if len(out) >= per_table:
            break
        kinds = ["lookup", "change", "pct_change"] + (["ratio"] if ratios else [])
        kind = rng.choice(kinds)
        refute = rng.random() < 0.5
        claim: BuiltClaim | None
        if kind == "ratio":
            part, whole, name = rng.choice(ratios)
            if not _share_named(facts.rows[part], facts.rows[whole]):
                continue
            claim = _ratio(
                facts, facts.rows[part], facts.rows[whole], new, refute, rng, company, name
            )
        else:
            row = facts.rows[rng.choice(labels)]
            if not row.named:
                continue  # "Other decreased by 92.52%": the claim names no metric
            if not row.scaled and kind != "pct_change":
                continue  # "$3,377,028" of what? a percentage needs no scale
            if kind == "lookup":
                claim = _lookup(facts, row, new, old, refute, rng, subj)
            else:
                claim = _change(facts, row, new, old, refute, rng, subj, kind == "pct_change")
        if claim is not None and all(claim.statement != c.statement for c in out):
            out.append(claim)
    return out


def build_claims_for_document(
    doc: Any, report_name: str, seed: int = 0, per_table: int = 2, max_tables: int = 8
) -> list[dict[str, Any]]:
    """FinDVer-format claims (plus ``kind``, ``perturbation``, ``cells``) for one document."""
    rng = random.Random(f"{seed}:{report_name}")
    company = str(doc.metadata.get("company_name") or doc.metadata.get("company") or "").rstrip(".")
    if re.fullmatch(r"[A-Z0-9.\-]{1,12}", company):  # "KCAC-UN"
        company = ""  # a ticker reads badly as a subject
    # a scale stated by a table or by the prose ("(In thousands, except per share data)"
    # heading the notes): a table without one has lost its caption, not its scale
    states_scale = any(t.scale != 1 for t in doc.tables) or any(
        PROSE_SCALE.search(p.text) for p in doc.paragraphs
    )
    basis = None if states_scale else report_basis(doc)
    fiscal = fiscal_years([p.text for p in doc.paragraphs] + [t.pre_text or "" for t in doc.tables])
    filed = re.search(r"-((?:19|20)\d\d)-\d\d-\d\d_", report_name)
    all_facts = [
        f
        for f in (table_facts(t, states_scale, basis, fiscal) for t in doc.tables)
        if f is not None and not (filed and f.periods[0] > filed.group(1))
    ]  # a year after the filing's is a maturity or a forecast, not a period reported
    mark_ambiguous(all_facts)
    rng.shuffle(all_facts)
    rows = []
    for facts in all_facts[:max_tables]:
        for claim in _claims_from_table(facts, company, rng, per_table):
            statement = claim.statement[0].upper() + claim.statement[1:]
            evidence = facts.evidence_id
            rows.append(
                {
                    "example_id": f"built-{Path(report_name).stem}-{len(rows)}",
                    "subset": "ie" if claim.kind == "lookup" else "math",
                    "split": "built",
                    "statement": statement,
                    "entailment_label": claim.label,
                    "explanation": claim.explanation(),
                    "relevant_context": [int(evidence) if evidence.isdigit() else evidence],
                    "report": report_name,
                    "kind": claim.kind,
                    "perturbation": claim.perturbation,
                    "cells": claim.cells(),
                }
            )
    return rows


def build_dataset(
    reports: Iterable[Path],
    out: Path,
    synthetic: int = 0,
    seed: int = 0,
    per_table: int = 2,
    max_tables: int = 8,
    limit: int | None = None,
    probe: bool = True,
) -> dict[str, Any]:
    """Write the self-checked claims to ``out``, their reports to ``reports/`` and the data card.

    Returns the data card (see ``card.data_card``).
    """
    from finprobe.benchmarks.findver.card import data_card
    from finprobe.benchmarks.findver.selfcheck import self_check
    from finprobe.document import load_findver_report
    from finprobe.files import write_json_atomic

    files = collect_inputs(reports, (".json", ".json.gz"))[: limit or None]
    if not files and not synthetic:
        raise InputError(
            None, "no reports given: pass report files or folders and/or --synthetic N"
        )
    reports_dir = out.parent / "reports"
    reports_dir.mkdir(parents=True, exist_ok=True)
    built: list[dict[str, Any]] = []
    sources: dict[str, Path] = {}
    for path in files:
        doc = load_findver_report(path)
        name = path.name.removesuffix(".gz")
        claims = build_claims_for_document(doc, name, seed, per_table, max_tables)
        if claims:
            target = reports_dir / (name + ".gz")
            if path.resolve() != target.resolve():
                if path.suffix == ".gz":
                    shutil.copyfile(path, target)
                else:
                    target.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
            sources[name] = target
        built += claims
    if synthetic:
        from finprobe.synth import make_corpus, to_findver_json

        for i, report in enumerate(make_corpus(synthetic, seed=seed)):
            name = f"synth-{seed}-{i}.json"
            target = reports_dir / (name + ".gz")
            target.write_bytes(gzip.compress(json.dumps(to_findver_json(report)).encode(), mtime=0))
            doc = load_findver_report(target)
            doc.metadata["company_name"] = report.company
            built += build_claims_for_document(doc, name, seed, per_table, max_tables)
            sources[name] = target
    checks = [self_check(claim, sources[claim["report"]]) for claim in built]
    claims = [c for c, check in zip(built, checks, strict=True) if check.passed]
    if not claims:
        raise InputError(None, "no claims built: no table with numbers under two year columns")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, claims)
    card = data_card(claims, built, checks, probe=probe)
    card["out"] = str(out)
    write_json_atomic(card_path(out), card)
    return card


def card_path(out: Path) -> Path:
    """The data card beside a claims file: ``claims.json`` -> ``claims.card.json``."""
    return out.with_name(out.name.removesuffix(".json") + ".card.json")
