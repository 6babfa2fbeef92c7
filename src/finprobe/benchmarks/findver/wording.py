"""FinDVer verifier: the ``Check`` record, and the checks on a claim's wording.

- wording: "rose"/"fell"-type words must not be the opposite of the closest evidence
  sentence, and a negation must not turn the claim around (``wording_checks``);
- direction: a claim's own "from $A to $B" must go the way its words say, and "$A,
  higher than $B" must hold (``direction_checks``);
- the prior's word count (``content_words``): a frozen tokenizer, so that a change to
  retrieval's cannot move the length prior's decisions.

Split out of verifier.py (figure reading and matching, the verdict), which imports
these names from here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from finprobe.numbers import NumberSpan, find_numbers
from finprobe.retrieval import Passage

# kinds of claim number we check; years, ordinals and bare small counts are context
CHECKED_KINDS = ("money", "percent", "quantity", "other", "count")
SIZE_WORD = re.compile(r"\b(?:widen\w*|narrow\w*)\b[^.;,]{0,40}$", re.I)
# rows whose amounts are costs, losses or outflows: shown in parentheses, said to grow
# when their size grows ("cash used in investing activities increased")
SIZE_ROW = re.compile(
    r"\b(?:loss|losses|expenses?|costs?|charges?|used in|outflows?|paid|payments?|deficit|impairments?)\b",
    re.I,
)


@dataclass
class Check:
    kind: str  # "number" | "date" | "entity"
    claim_text: str
    passed: bool
    evidence_id: str | None = None
    detail: str = ""


# ----------------------------------------------------------------------------- wording

_OPPOSITES = [
    (
        {
            "increase",
            "increased",
            "increases",
            "increasing",
            "rose",
            "grew",
            "growth",
            "higher",
            "up",
            "gain",
            "gains",
        },
        {
            "decrease",
            "decreased",
            "decreases",
            "decreasing",
            "declined",
            "decline",
            "fell",
            "lower",
            "down",
            "loss",
            "losses",
            "reduction",
            "reduced",
        },
    ),
    ({"profit", "income", "profitable"}, {"loss", "losses"}),
    ({"above", "exceeded", "more"}, {"below", "less", "fewer"}),
    ({"before"}, {"after"}),
    ({"positive", "favorable"}, {"negative", "unfavorable", "adverse"}),
]
_NEGATIONS = {"no", "not", "without", "never", "neither", "nor", "none", "cannot", "n't"}
_WORD = re.compile(r"[a-z][a-z'\-]*")
_SENTENCE = re.compile(r"(?<=[.;:!?])\s+|\n+")
_STOP_SMALL = {
    "the",
    "a",
    "an",
    "of",
    "and",
    "to",
    "in",
    "for",
    "on",
    "by",
    "with",
    "its",
    "their",
    "as",
    "at",
    "from",
    "that",
    "this",
    "is",
    "was",
    "were",
    "be",
    "has",
    "have",
    "had",
    "which",
    "while",
    "company",
    "company's",
}


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def wording_checks(statement: str, evidence: Sequence[Passage]) -> list[Check]:
    """Direction and negation of each claim clause against its closest evidence sentence."""
    from finprobe.retrieval import sub_queries

    sentences = [
        (p.id, s) for p in evidence for s in _SENTENCE.split(p.text) if len(s.split()) >= 4
    ]
    if not sentences:
        return []
    sentence_words = [set(_words(s)) for _, s in sentences]
    checks = []
    for clause in sub_queries(statement) or [statement]:
        words = set(_words(clause))
        content = words - _STOP_SMALL - _NEGATIONS
        if len(content) < 3:
            continue
        overlaps = [len(content & sw) for sw in sentence_words]
        best = max(range(len(sentences)), key=lambda i: overlaps[i])
        if overlaps[best] < 3:
            continue
        pid, sentence = sentences[best]
        near = sentence_words[best]
        for side_a, side_b in _OPPOSITES:
            for mine, theirs in ((side_a, side_b), (side_b, side_a)):
                if words & mine and not words & theirs and near & theirs and not near & mine:
                    word = sorted(words & mine)[0]
                    checks.append(
                        Check(
                            "wording",
                            word,
                            False,
                            pid,
                            f"the claim says '{word}' where the closest evidence sentence says '{sorted(near & theirs)[0]}'",
                        )
                    )
        claim_neg = bool(words & _NEGATIONS) or "n't" in clause
        evidence_neg = bool(near & _NEGATIONS) or "n't" in sentence
        if claim_neg and not evidence_neg:
            checks.append(
                Check(
                    "negation",
                    clause[:60],
                    False,
                    pid,
                    "the claim negates what its closest evidence sentence states without negation",
                )
            )
    return checks


# ----------------------------------------------------------------------------- direction

# direction words whose sense does not depend on the row ("improved" does: a loss improves
# by shrinking); "narrowed"/"widened" speak of a loss's size
UP_WORD = re.compile(
    r"\b(?:increas\w*|rose|risen|rise[sn]?|grew|grown|growth|higher|climb\w*|expand\w*|widen\w*|up)\b",
    re.I,
)
DOWN_WORD = re.compile(
    r"\b(?:decreas\w*|declin\w*|fell|fallen|drop\w*|lower|reduc\w*|shr[aiu]nk\w*|narrow\w*|down)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[.;]\s|,\s+(?:and|while|but|whereas)\b|\band\b", re.I)
# between a figure and "higher than": only a comma or a copula ("was", "which was"); any
# other word ("2 segments and more than 50") makes "more than" an approximator
_COMPARISON_LEAD = re.compile(r"^\s*,?\s*(?:(?:which|that)\s+)?(?:(?:was|were|is|are)\s+)?$", re.I)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:approximately\s+|about\s+|roughly\s+)?$", re.I)
# between the two figures of "from A (in 2022) to B": a period phrase, then "to"
_TO_BETWEEN = re.compile(
    r"^[^.;\d]*?(?:\b(?:19|20)\d\d\b[^.;\d]*?)*\bto\s+(?:approximately\s+|about\s+)?$", re.I
)
_COMPARATIVE = re.compile(
    r"\b(?:(higher|greater|larger|more)|(lower|less|smaller|fewer))\s+than\s+(?:the\s+|that\s+of\s+|its\s+)?$",
    re.I,
)


def _verb_phrase(text: str) -> str:
    """The words right before "from": at most six, none across a comma or clause end."""
    clause = _CLAUSE_END.split(text)[-1].split(",")[-1]
    return " ".join(clause.split()[-6:])


def _direction_before(text: str) -> int:
    """+1 / -1 for the last direction word of the verb phrase that ends ``text``; 0 if none or both."""
    clause = _verb_phrase(text)
    ups = [m.end() for m in UP_WORD.finditer(clause)]
    downs = [m.end() for m in DOWN_WORD.finditer(clause)]
    if not ups and not downs:
        return 0
    return 1 if max(ups, default=-1) > max(downs, default=-1) else -1


def _comparable(a: NumberSpan, b: NumberSpan) -> bool:
    percent_a, percent_b = "percent" in a.number.units, "percent" in b.number.units
    return percent_a == percent_b and (a.number.value >= 0) == (b.number.value >= 0)


def direction_checks(statement: str) -> list[Check]:
    """The claim's own figures against its own words: no evidence needed.

    "increased from $5 million to $4 million" and "$4 million, higher than $5 million"
    contradict themselves whatever the report says. Negative pairs compare sizes when
    the clause speaks of a cost, loss or outflow or says "widened" / "narrowed" (a loss
    "increased from $(3) to $(5)"), and are not compared otherwise (as ``_grew``); a pair
    of mixed sign or of a percentage and an amount is not compared. "more than" counts as
    a comparison only right after the first figure (", more than", "which was higher than").
    """
    spans = [s for s in find_numbers(statement) if s.kind in CHECKED_KINDS]
    checks = []
    for a, b in itertools.pairwise(spans):
        if not _comparable(a, b) or a.number.value == b.number.value:
            continue
        before, between = statement[: a.start], statement[a.end : b.start]
        size_a, size_b = abs(a.number.value), abs(b.number.value)
        if _FROM_BEFORE.search(before) and _TO_BETWEEN.match(between):
            head = before[: _FROM_BEFORE.search(before).start()]
            said = _direction_before(head)
            if not said:
                continue
            if a.number.value < 0:  # both negative: sizes only for costs, losses, "widened"
                clause = _CLAUSE_END.split(head)[-1]
                if not (SIZE_ROW.search(clause) or SIZE_WORD.search(_verb_phrase(head))):
                    continue
                went = 1 if size_b > size_a else -1
            else:
                went = 1 if b.number.value > a.number.value else -1
            checks.append(
                Check(
                    "direction",
                    f"from {a.text} to {b.text}",
                    said == went,
                    None,
                    f"the claim says {'up' if said > 0 else 'down'} from {a.text} to {b.text}"
                    + ("" if said == went else ", which goes the other way"),
                )
            )
            continue
        comparative = _COMPARATIVE.search(between)
        lead = between[: comparative.start()] if comparative else ""
        # "grew by more than $5 million" (a change's size) and "2 segments and more than
        # 50 subsidiaries" (an approximator) are not comparisons of the two figures
        if comparative and _COMPARISON_LEAD.match(lead):
            said = 1 if comparative.group(1) else -1
            went = 1 if size_a > size_b else -1
            checks.append(
                Check(
                    "direction",
                    f"{a.text} {comparative.group(0).strip()} {b.text}",
                    said == went,
                    None,
                    f"the claim compares {a.text} with {b.text}"
                    + ("" if said == went else ", and the comparison is the wrong way round"),
                )
            )
    return checks


# ----------------------------------------------------------------------------- the prior's words

# The "prior" (verifier.py) counts a claim's distinct content words against a threshold
# fitted on the dev claims, on a sharp peak (+-2 words cost about 1.6 dev points). So the
# count has its own frozen tokenizer: a copy, as of session 8, of retrieval.analyze with
# numbers=False (bm25s 0.3.16's English stopwords, the light stemmer). Retrieval may
# change its tokenizer; this one must not change unless the threshold is re-fitted.
_PRIOR_TOKEN = re.compile(r"[a-z][a-z0-9'&]*|\d[\d,]*(?:\.\d+)?")
_PRIOR_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
_PRIOR_SUFFIXES = (
    ("ational", "ate"),
    ("ization", "ize"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ations", "ate"),
    ("ation", "ate"),
    ("ments", "ment"),
    ("ities", "ity"),
    ("ies", "y"),
    ("sses", "ss"),
    ("ing", ""),
    ("edly", ""),
    ("ed", ""),
    ("ly", ""),
    ("es", ""),
    ("s", ""),
)


def _prior_stem(word: str) -> str:
    """The light suffix stripper the prior was fitted with ("revenues" -> "revenu")."""
    if word.endswith("ss") or len(word) <= 4:
        return word
    for suffix, replacement in _PRIOR_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and not word.endswith(("sses", "xes", "zes", "ches", "shes")):
                word = word[:-1]
            else:
                word = word[: -len(suffix)] + replacement
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def content_words(statement: str) -> int:
    """Distinct content words of a claim: lowercased, stemmed, stopwords, one-letter
    words and figures left out (the prior's frozen count)."""
    words = set()
    for token in _PRIOR_TOKEN.findall(statement.lower()):
        token = token.strip("'")
        if token[:1].isdigit() or len(token) < 2 or token in _PRIOR_STOPWORDS:
            continue
        words.add(_prior_stem(token))
    return len(words)
