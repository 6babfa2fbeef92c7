"""``finprobe/findver-verifier``: a rule-based claim verifier (no LLM).

It ranks the evidence passages for the claim, then checks what can be checked:

- numbers: each amount, percentage or ratio in the claim must equal a figure in the
  evidence (at the claim's written precision: "20%" means 20, not 15-25, and
  "$700 million" means 700 million; table figures under any table scale, prose
  figures at their own), or a simple derived figure the claim's wording asks for
  ("increased by", "total", "% of", "times"): a difference, sum, percentage change,
  share or ratio of two figures from the same table row, the same table column,
  the same paragraph, or rows of one label in two tables. Derivations use only
  figures whose row label shares a word with the claim, never zeros, word numbers
  ("one") or figures within the rounding tolerance, and only rows the claim names by
  at least half their words (abbreviations such as "SG&A" spelt out; the claim's own
  rise/fall words name no row); period lengths ("three months ended") and small labels
  ("Tier 1") are context, not checked figures. "Approximately" (about, around,
  roughly, nearly, almost; not bounds such as "more than") widens a claim figure to 2%
  only against an evidence figure as fine as the claim's, and a derived one only by
  the rounding of its operands' last digits ("approximately 27.31%" is not the 27.29%
  of two exact cells);
- periods: a table figure must sit in a column whose year the claim names, when it
  names years and the column has one (a sentence's years are not used: they often
  date another event);
- dates: a full date in the claim ("April 17, 2024") must appear in the evidence;
- support (opt-in, not a default: ``kinds=WITH_SUPPORT``): a claim whose only checkable
  facts are dates is refuted. An unconfirmed bet: learned on 24 dev claims (15 refuted,
  9 entailed; p = 0.15 against a coin), and not monotone (adding a verified date to an
  entailed claim refutes it). See perf/verifier_findver_calibration.py;
- entities: a name in capitals in the claim must appear in the evidence;
- wording and direction (wording.py): "rose"/"fell" against the closest evidence
  sentence (unless, in a claim of one clause, its figures gave a rate of change in the
  direction it states between two columns whose years fix their order), and a claim's
  own "from $A to $B"; a figure in "percentage points" is a difference of two rates,
  never a share or a rate of change of amounts; "the percentage increase/decrease in
  X ... is N%" gives the first percentage after it its direction however far it is.

Figures are read in figures.py, matched in matching.py.

- prior: a claim on which no rule check ran (no checkable figure, full date or
  rise/fall wording; years alone are not checked) is answered by its length: entailed
  with at least ``PRIOR_MIN_WORDS`` distinct content words (``wording.content_words``,
  a frozen count), else refuted. A guess fitted on the FinDVer dev claims, said to be
  one in the explanation: the bucket and the signal were picked after looking at all
  dev claims, the threshold by folds by report (perf/verifier_findver_prior.py).

The claim is entailed only when every check holds; the explanation lists the
evidence used and each check, in the paper's template (extracted information as a
numbered list, then reasoning steps, then the label).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from finprobe.benchmarks.findver.figures import Figure, passage_figures
from finprobe.benchmarks.findver.matching import (
    ClaimNumber,
    NumberMatch,
    claim_numbers,
    claim_terms_of,
    label_named,
    match_number,
    normalise,
)
from finprobe.benchmarks.findver.wording import (
    DOWN_WORD,
    UP_WORD,
    Check,
    content_words,
    direction_checks,
    wording_checks,
)
from finprobe.retrieval import BM25Retriever, Passage

__all__ = [
    "Check",
    "ClaimNumber",
    "Figure",
    "NumberMatch",
    "Verdict",
    "claim_numbers",
    "content_words",
    "direction_checks",
    "length_prior",
    "match_number",
    "passage_figures",
    "verify_claim",
    "wording_checks",
]

_DATE = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),?\s+(\d{4})\b"
)
_NAME = re.compile(r"\b(?:[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+|[A-Z]{3,}[A-Z0-9]*)\b")
_COMMON_CAPS = {
    "GAAP", "SEC", "USD", "CEO", "CFO", "COO", "EPS", "EBITDA", "LLC", "INC", "NYSE", "NASDAQ",
    "FDIC", "IPO", "REIT", "MBS", "ASC", "ASU", "IRS", "FASB", "ESG", "LIBOR", "SOFR", "ROI",
    "ROE", "ROA", "COVID", "USA", "U.S", "ETF", "LTV", "CAGR", "EBIT", "FY", "Q1", "Q2", "Q3", "Q4",
}  # fmt: skip


@dataclass
class Verdict:
    label: str  # "entailed" | "refuted"
    checks: list[Check]
    evidence: list[Passage] = field(default_factory=list)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def explanation(self) -> str:
        """Extracted information (numbered), reasoning steps, then the label."""
        lines = ["Extracted information:"]
        info = [c for c in self.checks if c.passed and c.evidence_id is not None]
        if not info and self.evidence:
            info_lines = [
                f"{_label(p)} {p.id} is the passage closest to the claim."
                for p in self.evidence[:3]
            ]
        else:
            info_lines = [f"{c.detail} ({_where(c.evidence_id, self.evidence)})." for c in info]
        if not info_lines:
            info_lines = ["No evidence passage was available."]
        lines += [f"{i}. {text}" for i, text in enumerate(info_lines, 1)]
        lines.append("Reasoning:")
        steps = []
        checks = [c for c in self.checks if c.kind != "prior"]
        for check in checks:
            verdict = "holds" if check.passed else "fails"
            steps.append(
                f"The {check.kind} check on '{check.claim_text}' {verdict}: {check.detail}."
            )
        prior = next((c for c in self.checks if c.kind == "prior"), None)
        if prior is not None:
            steps.append(
                "No check could run: the claim states no checkable figure, full date or "
                "rise/fall wording."
            )
            steps.append(
                f"So the answer is a guess from the claim's length: {prior.detail}; "
                f"taken as {'entailed' if prior.passed else 'refuted'}."
            )
        elif not self.checks:
            steps.append(
                "The claim states no figure, date or name that can be checked, so nothing contradicts it."
            )
        elif self.failed:
            steps.append(
                f"{len(self.failed)} of {len(self.checks)} checks fail, so the claim is contradicted."
            )
        else:
            steps.append(f"All {len(self.checks)} checks hold, so the claim is supported.")
        lines += [f"Step {i}: {text}" for i, text in enumerate(steps, 1)]
        lines.append(f"Answer: {self.label}")
        return "\n".join(lines)


def _label(passage: Passage) -> str:
    return "Table" if passage.kind == "table" else "Paragraph"


def _where(evidence_id: str | None, evidence: Sequence[Passage]) -> str:
    for passage in evidence:
        if passage.id == evidence_id:
            return f"{_label(passage)} {passage.id}"
    return f"passage {evidence_id}"


# ----------------------------------------------------------------------------- settings

# entity and negation checks are off by default: on the dev claims they flag
# entailed claims about as often as refuted ones (paraphrased names, hedged wording)
DEFAULT_CHECKS = ("number", "date", "wording", "direction", "prior")
ALL_CHECKS = ("number", "date", "wording", "direction", "entity", "negation", "prior")
# the rule checks alone, as before the "prior" (session 8): for paired comparisons
RULE_CHECKS = ("number", "date", "wording", "direction")
# "prior": a claim on which no rule check ran (no checkable figure, full date or
# rise/fall wording) is answered by its length: entailed with at least this many
# distinct content words (``wording.content_words``: a frozen count, stemmed, stopwords
# and figures out), else refuted. A guess, not evidence, said so in the explanation.
# Fitted on the 374 dev claims by perf/verifier_findver_prior.py: of the 65 with no
# check, 29 of 42 long ones were entailed and 18 of 23 short ones refuted (the constant
# "entailed" it replaces was right on 34). The bucket and the signal were found by
# looking at all dev claims; with only the threshold chosen on other reports (nested
# folds by report) it scores 70.6, sd 0.5 over 10 fold seeds (67.6 without); with
# bucket, signal and threshold all chosen on the training reports, 70.1. The gain is in
# Know: fitted on Know + Math, it gains nothing on IE.
PRIOR_MIN_WORDS = 24
# the "support" check is an opt-in bet, not a default: "a claim whose only checks are
# dates that hold is refuted" was learned on 24 dev claims (p = 0.15 against a coin)
# and is not monotone; a held-out set would have to confirm it
WITH_SUPPORT = (*DEFAULT_CHECKS, "support")
# General checks written in session 7 from the kinds of the dev errors, opt-in: scored
# with folds by report on the dev claims and on a build over the dev reports, neither
# showed a gain (each changes at most 4 of 1,594 verdicts; see the FinDVer README), so a
# held-out set would have to confirm them before they become defaults:
# - "like_with_like": a derivation combines figures that count the same thing (no
#   "1,580 units plus 150 locations", no rate of change from "15" to "12 months");
# - "stated_scale": a table that states one scale ("in thousands") gives its figures as
#   printed or at that scale, never at another ("$700 million" from a 700 in thousands).
OPT_IN_RULES = frozenset({"like_with_like", "stated_scale"})
# a claim figure the top passages lack may come from the next ones, up to this rank
FURTHER_PASSAGES = 10


# ----------------------------------------------------------------------------- verifier


def verify_claim(
    statement: str,
    passages: Sequence[Passage],
    top: int = 6,
    kinds: Sequence[str] = DEFAULT_CHECKS,
    rules: frozenset[str] = frozenset(),
) -> Verdict:
    """Check the claim against the ``top`` passages that BM25 ranks highest for it.

    ``rules``: opt-in general checks (``OPT_IN_RULES``), off by default."""
    if passages:
        retriever = BM25Retriever()
        retriever.index(passages)
        ranked = [h.passage for h in retriever.retrieve(statement, max(top, FURTHER_PASSAGES))]
    else:
        ranked = []
    evidence = ranked[:top]
    checks: list[Check] = []
    figures = [f for p in evidence for f in passage_figures(p)]
    claim_terms = claim_terms_of(statement)
    # the retrieved passages past the top ones: their cells may give a figure the top
    # ones lack, but only under a row the claim names in full (a stronger anchor than
    # the one shared word a top passage's row needs)
    further: list[Figure] | None = None
    moved: set[int] = set()  # directions that a rate of change between dated figures gave
    for claim in claim_numbers(statement):
        match = match_number(claim, figures, claim_terms, rules)
        if match.figure is None:
            if further is None:
                further = [
                    f
                    for p in ranked[top:]
                    for f in passage_figures(p)
                    if f.label and label_named(f.label, claim_terms)
                ]
            if further:
                found = match_number(claim, figures + further, claim_terms, rules)
                if found.figure is not None:
                    match = found
        figure, note = match.figure, match.note
        if match.rate:
            moved.add(match.rate)
        checks.append(
            Check(
                "number",
                claim.span.text,
                figure is not None,
                figure.passage_id if figure else None,
                note,
            )
        )
    evidence_text = normalise("\n".join(p.text for p in evidence))
    for match in _DATE.finditer(statement):
        month, day, year = match.groups()
        pattern = re.compile(rf"{month.lower()}\s+{int(day)}\s*,?\s*{year}")
        found = next((p.id for p in evidence if pattern.search(normalise(p.text))), None)
        checks.append(
            Check(
                "date",
                match.group(),
                found is not None,
                found,
                f"{match.group()} appears in the evidence"
                if found
                else f"{match.group()} does not appear in the evidence",
            )
        )
    for name in sorted(set(_NAME.findall(statement))):
        if name.upper() in _COMMON_CAPS or name.split()[0] in (
            "The",
            "In",
            "As",
            "By",
            "For",
            "Despite",
            "While",
            "With",
        ):
            continue
        present = normalise(name) in evidence_text
        where = next((p.id for p in evidence if normalise(name) in normalise(p.text)), None)
        checks.append(
            Check(
                "entity",
                name,
                present,
                where,
                f"'{name}' is named in the evidence"
                if present
                else f"'{name}' is not named in the evidence",
            )
        )
    # the closest sentence's "higher"/"lower" may speak of another line: where the claim's
    # own figures already gave its rate of change in the direction it says, they decide;
    # only in a claim of one clause (another clause's direction is not the rate's)
    from finprobe.retrieval import sub_queries

    if sub_queries(statement):
        moved = set()
    checks += [
        c
        for c in wording_checks(statement, evidence)
        if not (
            (1 in moved and UP_WORD.fullmatch(c.claim_text))
            or (-1 in moved and DOWN_WORD.fullmatch(c.claim_text))
        )
    ]
    checks += direction_checks(statement)
    checks = [c for c in checks if c.kind in kinds]
    if "prior" in kinds and not checks:
        checks.append(length_prior(statement))
    if "support" in kinds and checks and all(c.kind == "date" and c.passed for c in checks):
        # opt-in bet: a date the evidence names does not show what the claim says
        # happened on it (15 of 24 such dev claims were refuted; unconfirmed). Only the
        # checks in `kinds` count: with entity checks on, a held name keeps it silent
        checks.append(
            Check(
                "support",
                "dates only",
                False,
                None,
                "the claim's only checkable facts are dates; the evidence naming them does "
                "not show what the claim says happened on them",
            )
        )
    label = "refuted" if any(not c.passed for c in checks) else "entailed"
    used = {c.evidence_id for c in checks}
    evidence += [p for p in ranked[top:] if p.id in used]  # cited further passages
    return Verdict(label, checks, evidence)


def length_prior(statement: str) -> Check:
    """The answer for a claim with nothing to check: a guess from its length."""
    words = content_words(statement)
    long = words >= PRIOR_MIN_WORDS
    return Check(
        "prior",
        f"{words} content words",
        long,
        None,
        f"the claim has {words} distinct content words, "
        f"{'at least' if long else 'fewer than'} {PRIOR_MIN_WORDS}: with nothing to check, "
        f"dev claims this {'long were mostly entailed' if long else 'short were mostly refuted'} "
        "(a prior learned on the FinDVer dev claims, not evidence)",
    )


def verifier_baseline(metadata: dict) -> str:
    """Baseline entry point: sample metadata (no labels) -> explanation + label."""
    from finprobe.benchmarks.findver.dataset import passages_from_metadata

    verdict = verify_claim(metadata["statement"], passages_from_metadata(metadata))
    return verdict.explanation()
