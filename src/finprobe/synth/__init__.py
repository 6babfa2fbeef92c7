"""Seeded synthetic company reports whose numbers add up, with recorded derivations.

``make_report(seed)`` simulates a company over two or three fiscal years with
an accounting roll-forward (balance sheet changes flow through the cash-flow
statement), renders the income statement, balance sheet and cash-flow
statement as tables, and writes MD&A sentences whose numbers are looked up or
computed from those tables. Every sentence records how its number was derived
(FAITH scenarios A-D), so builders can mask spans, make claims or inject
errors with a known ground truth. This is the offline sample for the README's
main command and for tests.

Money is simulated as whole numbers in the table unit (thousands or millions)
with ``Decimal`` arithmetic, so every total adds up exactly.
"""

from finprobe.synth.export import to_faith_record, to_findver_json
from finprobe.synth.formatting import money_text, pct_text
from finprobe.synth.records import (
    CalcRelation,
    CellRef,
    Derivation,
    SynthFact,
    SynthReport,
    SynthSentence,
    SynthSpan,
)
from finprobe.synth.report import ITEM8_HEADING, MDNA_HEADING, make_corpus, make_report

__all__ = [
    "ITEM8_HEADING",
    "MDNA_HEADING",
    "CalcRelation",
    "CellRef",
    "Derivation",
    "SynthFact",
    "SynthReport",
    "SynthSentence",
    "SynthSpan",
    "make_corpus",
    "make_report",
    "money_text",
    "pct_text",
    "to_faith_record",
    "to_findver_json",
]
