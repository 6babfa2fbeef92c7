"""Public records of a synthetic report: cells, derivations, spans, sentences, facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from finprobe.document import FinancialDocument, Table
from finprobe.synth.formatting import format_reference


@dataclass(frozen=True)
class CellRef:
    """One table cell used by a derivation; ``value`` is the displayed value with
    the table scale applied (per-share and percent cells unscaled)."""

    table_id: str
    row: int
    col: int
    metric: str
    period: str
    value: Decimal


@dataclass
class Derivation:
    """How a sentence's number follows from the tables.

    ``value`` is exactly what the span states: a magnitude (the sentence's words
    carry the direction, "decreased $1.2 million"), in base units for money,
    in percent points when ``unit`` is "percent".
    """

    kind: str  # lookup | change | pct_change | ratio | share | sum | multi_step
    scenario: str  # A lookup, B same metric across periods, C two metrics, D more
    inputs: list[CellRef]
    formula: str
    value: Decimal
    unit: str = "usd"  # usd | percent | usd_per_share | ratio

    @property
    def reference(self) -> str:
        """The exact value as a FAITH-style ground-truth string ("$817,880,000", "12.41379310%")."""
        return format_reference(self.value, self.unit)


@dataclass(frozen=True)
class SynthSpan:
    """A further number in a sentence (offsets within the sentence)."""

    start: int
    end: int
    text: str
    derivation: Derivation | None


@dataclass
class SynthSentence:
    """An MD&A sentence with one primary numeric span and its derivation.

    ``answerable=False`` marks numbers that the tables cannot give (headcount,
    store counts, dates, note numbers); their ``derivation`` is None.
    ``block_id``/``offset`` locate the sentence in the document paragraph.
    """

    id: str
    text: str
    span: tuple[int, int]
    span_text: str
    derivation: Derivation | None
    answerable: bool = True
    block_id: str = ""
    offset: int = 0
    topic: str = ""
    other_spans: list[SynthSpan] = field(default_factory=list)


@dataclass(frozen=True)
class SynthFact:
    """One reported value for XBRL export: ``value`` in base units (XBRL sign
    convention, e.g. an increase in receivables is positive), per-share unscaled."""

    concept: str
    label: str
    period: str  # fiscal year label, e.g. "2024"
    value: Decimal
    statement: str  # income | balance | cashflow | segments
    period_type: str  # duration | instant
    period_start: str | None  # ISO date for durations
    period_end: str  # ISO date
    unit: str  # usd | usd_per_share | shares
    decimals: int  # -3 for thousands, -6 for millions, 2 for per-share
    member: str | None = None  # segment member for dimensional facts


@dataclass(frozen=True)
class CalcRelation:
    """Summation relation: parent = sum(weight * child) for every period."""

    parent: str
    children: tuple[str, ...]
    weights: tuple[Decimal, ...]
    statement: str


@dataclass
class SynthReport:
    company: str
    periods: list[str]  # newest first, e.g. ["2024", "2023", "2022"]
    document: FinancialDocument
    statements: dict[str, Table]  # "income", "balance", "cashflow"
    sentences: list[SynthSentence]
    facts: list[SynthFact]
    calculations: list[CalcRelation] = field(default_factory=list)
    mdna_tables: dict[str, Table] = field(
        default_factory=dict
    )  # "results", "segments", "liquidity"
    seed: int = 0
    industry: str = ""
    scale: Decimal = Decimal(1000)
    scale_word: str = "thousands"
    cik: str = ""
    filing_date: str = ""
    fiscal_year_end: str = "December 31"
    ticker: str = ""
