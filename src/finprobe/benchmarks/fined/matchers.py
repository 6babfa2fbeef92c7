"""Matchers shared by the FinED review rules and the injectors: "the same quantity"
(numerical inconsistency: two figures of one metric and period) and "the same
stipulation" (clause conflict: a rate, date or amount a contract term states twice).

An error is only injected where the check that accepts it can see it, so the injectors
(inject_fre.py) and the review (review.py) read sentences through these same functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finprobe.benchmarks.fined.edits import EN_DATE, MONTHS, NON_FIGURE_KINDS, value_of
from finprobe.numbers import find_numbers
from finprobe.text import FUNCTION_WORDS

# ----------------------------------------------------------------------------- same quantity

_STOP = FUNCTION_WORDS | frozenset(
    [
        "this",
        "that",
        "these",
        "those",
        "was",
        "were",
        "is",
        "are",
        "be",
        "been",
        "being",
        "had",
        "has",
        "have",
        "which",
        "who",
        "what",
        "when",
        "while",
        "also",
        "approximately",
        "about",
        "nearly",
        "roughly",
        "total",
        "totaled",
        "totaling",
        "amounted",
        "amount",
        "increased",
        "decreased",
        "increase",
        "decrease",
        "rose",
        "fell",
        "grew",
        "declined",
        "compared",
        "respectively",
        "primarily",
        "due",
        "million",
        "billion",
        "thousand",
        "percent",
        "per",
        "year",
        "years",
        "ended",
        "ending",
        "months",
        "quarter",
        "fiscal",
        "period",
        "same",
        "prior",
        "current",
        "end",
        "than",
        "over",
        "up",
        "down",
        "net",
        "not",
        "we",
        "us",
        "it",
        "they",
        "such",
        "other",
        "three",
        "six",
        "nine",
        "twelve",
        "first",
        "second",
        "third",
        "fourth",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "generated",
        "had",
        "reported",
        "recognized",
        "recorded",
    ]
)
_PERIOD = re.compile(
    r"\b(?:three|six|nine|twelve) months\b|\b(?:first|second|third|fourth) quarter\b|\byear ended\b|\bfiscal (?:year )?\d{4}\b|\b(?:19|20)\d\d\b"
)


def metric_words(sentence: str, start: int, end: int) -> frozenset[str]:
    """Content words of the clause that names a figure (what is measured)."""
    before = sentence[:start]
    cut = max(before.rfind(c) for c in (",", ";", ":", "(", "•"))
    clause = before[cut + 1 :]
    after = re.split(r"[,;:().]", sentence[end:], maxsplit=1)[0]
    words = re.findall(r"[A-Za-z][A-Za-z-]{2,}", clause + " " + after[:60])
    return frozenset(w.lower() for w in words if w.lower() not in _STOP)


def period_of(sentence: str) -> frozenset[str]:
    return frozenset(m.group(0).lower() for m in _PERIOD.finditer(sentence))


# words that end the noun phrase right after a figure ("$10.00 per unit, generating...")
_PHRASE_END = frozenset(
    [
        "at",
        "for",
        "in",
        "of",
        "and",
        "or",
        "to",
        "from",
        "on",
        "during",
        "which",
        "that",
        "as",
        "compared",
        "was",
        "were",
        "is",
        "are",
        "with",
        "by",
        "the",
        "our",
        "its",
        "their",
        "a",
        "an",
        "each",
        "respectively",
        "generating",
        "resulting",
        "representing",
        "including",
    ]
)


def head_phrase(sentence: str, end: int) -> str:
    """The noun phrase right after a figure: what it counts or prices ("per placement unit",
    "units", "shares"); empty when the figure closes its clause."""
    words = []
    for w in re.findall(r"[A-Za-z][A-Za-z-]*|[^\sA-Za-z]", sentence[end:])[:4]:
        low = w.lower()
        if not w[0].isalpha() or low in _PHRASE_END or low in ("million", "billion", "thousand"):
            if words or not w[0].isalpha() or low not in ("million", "billion", "thousand"):
                break
            continue
        words.append(low)
    return " ".join(words)


def same_quantity(a: str, a_span: tuple[int, int], b: str, b_span: tuple[int, int]) -> bool:
    """Two mentions state the same quantity: same figure text (so the same unit), the same
    head noun after it ("per unit" is not "per placement unit"), the clause around each names
    the same metric, and the sentences speak of the same period."""
    if a[a_span[0] : a_span[1]] != b[b_span[0] : b_span[1]]:
        return False
    if head_phrase(a, a_span[1]) != head_phrase(b, b_span[1]):
        return False
    ma, mb = metric_words(a, *a_span), metric_words(b, *b_span)
    if not ma or not mb:
        return False
    shared = ma & mb
    if len(shared) < min(2, len(ma), len(mb)) or len(shared) / len(ma | mb) < 0.4:
        return False
    return period_of(a) == period_of(b)


_SPAN = re.compile(
    r"\b(?:three|six|nine|twelve) months\b|\b(?:first|second|third|fourth) (?:fiscal )?quarter\b"
    r"|\b(?:fiscal )?year ended\b",
    re.I,
)


def period_at(document: str, sentence: str, start: int | None = None) -> frozenset[str]:
    """The period a sentence speaks of: its own period words, else the last period named in
    the text before it (the heading or lead-in of its section: "Other income, net decreased
    ... for the nine months ended ...")."""
    own = period_of(sentence)
    if own or not document:
        return own
    pos = document.find(sentence) if start is None else start
    if pos < 0:
        return own
    spans = list(_SPAN.finditer(document[max(0, pos - 1500) : pos]))
    return frozenset({spans[-1].group(0).lower()}) if spans else own


def figure_mentions(sentence: str) -> list[tuple[int, int, str]]:
    """Amounts of the sentence (no years, dates, ordinals, nor codes such as "ATI-2138")."""
    return [
        (n.start, n.end, n.text)
        for n in find_numbers(sentence)
        if n.kind not in NON_FIGURE_KINDS
        and sum(ch.isdigit() for ch in n.text) >= 2
        and not re.search(r"[A-Za-z][-‐]?$", sentence[: n.start])
        and not re.match(r"[-‐]?[A-Za-z]", sentence[n.end :])
    ]


# ----------------------------------------------------------------------------- stipulations

_HEAD = (
    r"(?:[Ff]acility [Ll]ease|Notes?|notes?|Term Loans?|term loans?|Loans?|loans?|Facility|facility|Credit Agreement|credit agreement|"
    r"Agreement|agreement|Debentures|Bonds|Revolver|Line of Credit|line of credit|Lease|lease|Indenture|"
    r"[Rr]epurchase [Pp]rogram|Program|Warrants?)"
)
_SUBJECT = (
    r"(?P<subj>(?:[A-Z0-9][\w.%&’'-]*\s|(?:revolving|term|credit|secured|unsecured|promissory|senior|convertible|"
    r"subordinated|stock|share|loan|security|purchase|committed|ABL)\s){0,5}" + _HEAD + r")\b"
)
_VERB_GAP = r"(?:[^.;]|(?<=\d)\.(?=\d)){0,90}?"
_DAY_DATE = rf"(?:{'|'.join(MONTHS)}) \d{{1,2}}, \d{{4}}"
# a maturity may be stated to the month ("matures in August 2024")
_MONTH_DATE = rf"(?:{'|'.join(MONTHS)}) (?:\d{{1,2}}, )?\d{{4}}"
STIPULATION_KINDS = {
    "rate": re.compile(
        _SUBJECT
        + _VERB_GAP
        + r"\b(?:(?:bears?|bore|bearing|accrues?|carry|carries|pays?) (?:cash )?interest at"
        r"|(?:stated |annual |fixed )?interest rate of|accrues at)"
        r"(?: an? (?:annual |fixed |stated )?(?:interest )?rate of)? (?P<val>\d{1,2}(?:\.\d{1,4})?\s?%)"
    ),
    "maturity": re.compile(
        _SUBJECT
        + _VERB_GAP
        + r"\b(?P<verb>matures?|will mature|mature|(?:is|are) scheduled to mature|(?:is|are) due|becomes? due"
        r"|expires?|will expire|terminates?|maturity date of|maturity of [^.;]{0,40}? to|through|until) "
        rf"(?:(?:on )?(?P<val>{_DAY_DATE})|in (?P<val2>{_MONTH_DATE}|(?:19|20)\d\d\b))"
    ),
    "amount": re.compile(
        _SUBJECT
        + _VERB_GAP
        + r"\b(?:provides? for (?:aggregate |secured |revolving )?(?:borrowings|commitments|a [\w ]{3,30}?)? ?"
        r"(?:in aggregate principal )?(?:of )?up to|(?:aggregate )?principal amount of|(?:total |aggregate )?"
        r"commitments? of|borrowing capacity of|maximum borrowings of up to|of up to|to repurchase up to"
        r"|repurchases of up to|worth up to|amount to|totals) (?P<val>\$\s?\d[\d,.]*(?: million| billion)?)"
    ),
    # the price at which named warrants may be exercised
    "exercise price": re.compile(
        _SUBJECT
        + _VERB_GAP
        + r"\b(?:(?:an? |the )?(?:initial )?exercise price of|exercisable at(?: a price of)?) "
        r"(?P<val>\$\s?\d[\d,]*(?:\.\d+)?)(?= per share)"
    ),
    # the date a named agreement was made, stated after its name ("The Purchase Agreement
    # was entered into on ...") ...
    "effective date": re.compile(
        _SUBJECT
        + r",? (?:(?:was|were) (?:entered into|signed|executed) on|(?:is|was|are|were) dated(?: as of)?|dated"
        rf"(?: as of)?) (?P<val>{_DAY_DATE})"
    ),
}
# the terms of a declared dividend: its amount per share, the day it is paid and the record
# date ("declared a special cash dividend of $2.50 per share payable on February 28, 2024 to
# shareholders of record on February 16, 2024"); the dividend is named by its qualifiers
# ("initial quarterly", "special cash"), a bare "dividend" says not which one
_DIVIDEND = (
    r"(?P<subj>(?:(?:[Ii]nitial|[Ss]pecial|[Rr]egular|[Qq]uarterly|[Aa]nnual|[Cc]ash|[Oo]ne-time|[Ss]emi-annual)"
    r"\s){1,3}[Dd]ividends?)\b"
)
DIVIDEND_KINDS = {
    "dividend amount": re.compile(
        _DIVIDEND
        + r"(?: (?:of|amounts? to|totals|is|was))? (?P<val>\$\s?\d[\d,]*(?:\.\d+)?) per (?:common )?share"
    ),
    "payment date": re.compile(
        _DIVIDEND
        + rf"(?:[^.;]|(?<=\d)\.(?=\d)){{0,80}}?\b(?:paid|payable)\b(?: to (?:share|stock)holders)?(?: on)? (?P<val>{_DAY_DATE})"
    ),
    "record date": re.compile(
        _DIVIDEND
        + r"(?:[^.;]|(?<=\d)\.(?=\d)){0,160}?\b(?:share|stock)?holders of record (?:as of |on |at the close of business on )?"
        + rf"(?:the close of business on )?(?P<val>{_DAY_DATE})"
    ),
}
# the price at which named notes convert ("the conversion price of approximately $124.67 per
# share" of the "2024 Notes")
_CONVERSION = re.compile(
    _SUBJECT
    + _VERB_GAP
    + r"\b(?:an? |the )?(?:initial )?conversion price of (?:approximately )?(?P<val>\$\s?\d[\d,]*(?:\.\d+)?)(?= per share)"
)
# a financial covenant's threshold: "a maximum debt-to-EBITDA ratio of 3.25", "a minimum
# fixed charge coverage ratio of 1.25 to 1.00" (the bound and the ratio name the covenant)
_COVENANT = re.compile(
    r"\b(?P<subj>(?:maximum|minimum) (?:[A-Za-z][\w-]*\s){0,4}?ratio)"
    r"(?: of [A-Za-z][\w -]{0,40}?)?(?: of| at| to| not (?:to )?exceed(?:ing)?) "
    r"(?P<val>\d{1,2}(?:\.\d{1,2})?)(?:x|(?= to 1)|\b)(?!%|\.\d|,\d)"
)
# ... or before it ("On March 20, 2024, we entered into the Purchase Agreement (the “PA”) with ...")
_ENTERED = re.compile(
    rf"\b[Oo]n (?P<val>{_DAY_DATE}),? (?:we|the Company|[A-Z][\w.&]*(?: [A-Z][\w.&]*){{0,3}})"
    r"(?: and [^.;,]{1,60}?)? (?:entered into|executed|signed) (?:an?|the) "
    r"(?P<name>(?:[A-Z][\w’'&-]*\s(?:of |and )?){0,5}(?:Agreement|Indenture|Lease|Note))"
    r"(?:,? (?:\((?:the |an? )?|or the )[“\"](?P<defined>[^”\"]{3,40})[”\"]\)?)?"
)


@dataclass(frozen=True)
class Stipulation:
    kind: str
    subject: str  # the defined term the stipulation is about, e.g. "2026 Notes"
    value: str
    start: int  # offsets of the value in the sentence
    end: int


def _norm_subject(subj: str) -> str:
    words = subj.split()
    while words and words[0].lower() in (
        "the",
        "our",
        "its",
        "a",
        "an",
        "this",
        "such",
        "each",
        "in",
        "under",
        "and",
    ):
        words = words[1:]
    return " ".join(words)


# ... or after the verb ("The Company entered into the Sale Agreement on ...")
_ENTERED_ON = re.compile(
    r"\b(?:entered into|signed|executed) (?:the )?" + _SUBJECT + rf" on (?P<val>{_DAY_DATE})"
)

# the rate and the maturity year written into a note's name, with the term defined for it:
# "6.000% senior secured second lien notes due 2026 (the “Senior Notes”)"
_NOTES_DUE = re.compile(
    r"(?<![\d.])(?P<rate>\d{1,2}(?:\.\d{1,4})?%) (?:[\w-]+ ){0,6}?(?:[Nn]otes|[Dd]ebentures|[Bb]onds) "
    r"due (?:in )?(?P<year>(?:19|20)\d\d)\b,? \((?:collectively, )?(?:the )?[“\"](?P<defined>[^”\"]{3,40})[”\"]\)"
)


def stipulations(sentence: str) -> list[Stipulation]:
    out = []
    for kind, rx in STIPULATION_KINDS.items():
        for m in rx.finditer(sentence):
            subj = _norm_subject(m.group("subj"))
            # "through" / "until" end a program's authorisation, not a debt's term (a credit
            # line can be drawn "until" one date and be due on another)
            verb = m.groupdict().get("verb") or ""
            if verb in ("through", "until") and not re.search(r"[Pp]rogram$", subj):
                continue
            group = "val" if m.groupdict().get("val") else "val2"
            if kind == "exercise price" and not re.search(r"Warrants?$", subj):
                continue
            if subj:
                out.append(Stipulation(kind, subj, m.group(group), m.start(group), m.end(group)))
    for kind, rx in DIVIDEND_KINDS.items():
        for m in rx.finditer(sentence):
            subj = _norm_subject(m.group("subj")).lower()
            out.append(Stipulation(kind, subj, m.group("val"), m.start("val"), m.end("val")))
    for m in _CONVERSION.finditer(sentence):
        subj = _norm_subject(m.group("subj"))
        if re.search(r"(?:Notes?|Debentures|Bonds)$", subj):
            out.append(
                Stipulation("conversion price", subj, m.group("val"), m.start("val"), m.end("val"))
            )
    for m in _COVENANT.finditer(sentence):
        out.append(
            Stipulation("covenant", m.group("subj"), m.group("val"), m.start("val"), m.end("val"))
        )
    for m in _NOTES_DUE.finditer(sentence):
        subj = _norm_subject(m.group("defined"))
        if re.search(r"(?:Notes|Debentures|Bonds)$", subj):
            out.append(Stipulation("rate", subj, m.group("rate"), m.start("rate"), m.end("rate")))
            out.append(
                Stipulation("maturity", subj, m.group("year"), m.start("year"), m.end("year"))
            )
    for m in _ENTERED_ON.finditer(sentence):
        subj = _norm_subject(m.group("subj"))
        if subj:
            out.append(
                Stipulation("effective date", subj, m.group("val"), m.start("val"), m.end("val"))
            )
    for m in _ENTERED.finditer(sentence):
        # a defined term names one agreement; a bare "Agreement" does not
        subj = _norm_subject(m.group("defined") or m.group("name"))
        if subj and (m.group("defined") or len(subj.split()) >= 2):
            out.append(
                Stipulation("effective date", subj, m.group("val"), m.start("val"), m.end("val"))
            )
    return out


DATE_KINDS = ("maturity", "effective date", "payment date", "record date")


def _stip_value(kind: str, text: str) -> object:
    if kind in DATE_KINDS:
        m = EN_DATE.search(text)
        if m:
            return (int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)))
        m = re.search(rf"({'|'.join(MONTHS)}) (\d{{4}})", text)
        if m:
            return (int(m.group(2)), MONTHS[m.group(1)], None)
        m = re.fullmatch(r"(?:19|20)\d\d", text.strip())
        return (int(text), None, None) if m else text
    return value_of(text)


def _differ(kind: str, a: str, b: str) -> bool:
    """Two values of one stipulation that cannot both hold (a date stated to the month
    conflicts with a full date only when the month differs)."""
    va, vb = _stip_value(kind, a), _stip_value(kind, b)
    if isinstance(va, tuple) and isinstance(vb, tuple):
        if None in (va[1], vb[1]):  # a year only
            return va[0] != vb[0]
        if None in (va[2], vb[2]):  # a month and year
            return va[:2] != vb[:2]
    return va != vb


def conflicting_stipulation(sentence: str, others: list[str]) -> tuple[Stipulation, str] | None:
    """A stipulation of ``sentence`` that another sentence states with a different value."""
    for st in stipulations(sentence):
        for other in others:
            for ot in stipulations(other):
                same = ot.kind == st.kind and ot.subject.lower() == st.subject.lower()
                if same and _differ(st.kind, st.value, ot.value):
                    return st, other
    return None
