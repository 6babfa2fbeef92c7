"""Reading a FAITH masked sentence: words, the blank's role and its period."""

from __future__ import annotations

import re

from finprobe.numbers import find_numbers

_WORD = re.compile(r"[a-z][a-z&'-]*|\d{4}")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "and",
        "or",
        "in",
        "on",
        "for",
        "to",
        "from",
        "by",
        "with",
        "as",
        "at",
        "our",
        "we",
        "its",
        "their",
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
        "has",
        "have",
        "had",
        "which",
        "who",
        "than",
        "compared",
        "versus",
        "vs",
        "respectively",
        "during",
        "year",
        "years",
        "ended",
        "ending",
        "period",
        "periods",
        "total",
        "primarily",
        "due",
        "mainly",
        "million",
        "billion",
        "thousand",
        "percent",
        "approximately",
        "about",
        "increase",
        "increased",
        "decrease",
        "decreased",
        "change",
        "changed",
    ]
)
_INCREASE = re.compile(
    r"\b(increas|decreas|grew|growth|declin|rose|fell|higher|lower|up|down|chang|improv|drop|reduc)\w*",
    re.I,
)
_SHARE = re.compile(
    r"\b(of (?:our |the )?total|percent of|% of|share of|represent|accounted for|portion)", re.I
)
_RATIO = re.compile(r"\b(margin|ratio|rate|as a percent|as a percentage|yield|per)\b", re.I)


# A place and the forms 10-K prose and tables write it in ("our Canadian operations" /
# a row "Canada"; "domestic" / "U.S."; "foreign" / "International"). General geography,
# not any report's segments. Read in order, each match blanked out before the next
# pattern ("non-U.S." is international, not the U.S.).
_PLACES = [
    (re.compile(pattern, flags), key)
    for pattern, flags, key in [
        (r"\bnon-?\s?U\.?S\.?(?![a-z])|\b(?:outside|excluding)\s+(?:of\s+)?(?:the\s+)?"
         r"(?:U\.S\.|United States)|\bforeign\b|\binternational(?:ly)?\b|\boverseas\b",
         re.I, "international"),
        (r"\bU\.S\.(?:A\.)?|\bUnited States\b|\bdomestic(?:ally)?\b", re.I, "us"),
        (r"\b(?:US|USA)\b", 0, "us"),  # capitals only: "us" is a pronoun
        (r"\bNorth Americ(?:a|an)\b", re.I, "north_america"),
        (r"\bLatin Americ(?:a|an)\b|\bSouth Americ(?:a|an)\b", re.I, "latin_america"),
        (r"\bCanad(?:a|ian)\b", re.I, "canada"),
        (r"\bMexic(?:o|an)\b", re.I, "mexico"),
        (r"\bBrazil(?:ian)?\b", re.I, "brazil"),
        (r"\bEurope(?:an)?\b|\bEMEA\b", re.I, "europe"),
        (r"\bUnited Kingdom\b|\bU\.K\.|\bUK\b|\bBritish\b|\bGreat Britain\b", re.I, "uk"),
        (r"\bGerman(?:y)?\b", re.I, "germany"),
        (r"\bFrance\b|\bFrench\b", re.I, "france"),
        (r"\bAsia(?:n)?\b|\bAPAC\b", re.I, "asia"),
        (r"\bChin(?:a|ese)\b", re.I, "china"),
        (r"\bJapan(?:ese)?\b", re.I, "japan"),
        (r"\bIndia(?:n)?\b", re.I, "india"),
        (r"\bAustralia(?:n)?\b", re.I, "australia"),
        (r"\bAfrica(?:n)?\b", re.I, "africa"),
    ]
]  # fmt: skip


# phrases that contain a place word but name no place: an accounting basis, a currency,
# a tax or a macro figure ("U.S. GAAP", "the Canadian dollar", "foreign exchange",
# "gross domestic product"). Blanked out before any place is read.
_NOT_PLACES = re.compile(
    r"\b(?:U\.S\.|US)\s+(?:GAAP|dollars?|federal|Treasury|statutory)\b"
    r"|\bgross domestic product\b"
    r"|\b(?:American|Canadian|Australian|Mexican|Brazilian|Japanese|Chinese|British|Indian|"
    r"European|Swiss|Hong Kong|New Zealand|Singapore)\s+(?:dollars?|pesos?|reals?|yen|renminbi|"
    r"yuan|pounds?(?:\s+sterling)?|rupees?|euros?|francs?|currenc\w*)\b"
    r"|\bforeign\s+(?:currenc\w*|exchange|tax\w*)\b",
    re.I,
)


def places(text: str) -> dict[str, list[str]]:
    """The places a text names, each with the words it names it by:
    ``places("our Canadian operations") == {"canada": ["Canadian"]}``."""
    text = _NOT_PLACES.sub(lambda m: " " * len(m.group(0)), text)
    found: dict[str, list[str]] = {}
    for pattern, key in _PLACES:
        for match in pattern.finditer(text):
            found.setdefault(key, []).append(match.group(0))
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return found


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _tokens(text: str) -> list[str]:
    out = []
    for w in _WORD.findall(text.lower()):
        if w in _STOP:
            continue
        out.append(_stem(w))
        if "-" in w:  # "variable-rate" also names a "Variable Rate" row
            out.extend(_stem(p) for p in w.split("-") if len(p) > 2 and p not in _STOP)
    return out


_COLUMN_NOISE = frozenset(
    _tokens(
        "months month quarter three six nine twelve fiscal december june september march ended as of amount change between dollar dollars percent in thousands millions"
    )
) | {"$", "%", "vs", "chang"}


_CLAUSE_BREAK = re.compile(
    r"compared (?:with|to)|as compared|versus|\bvs\.?|\bfrom\b|\bwhile\b|;|, and\b|, or\b|\. ",
    re.I,
)


def _target_year(before: str, after: str, role: str) -> str | None:
    """The year of the blank's own clause: "[MASK] for 2022", "In 2022, sales fell [MASK]".

    The clause runs from the last comparison word before the blank to the next one
    after it, so "$68.2 million for 2023, compared to a loss of [MASK] for 2022"
    gives 2022.
    """
    if role == "older":
        # "from [MASK] to $8.7 million for 2023 compared to 2022": the blank's year is
        # the one named with the comparison, not the newer figure's
        compared = re.search(r"(?:compared (?:with|to)|versus|\bvs\.?)(.*)", after, re.I)
        years = _YEAR.findall(compared.group(1)) if compared else []
        return years[0] if years else None
    breaks = list(_CLAUSE_BREAK.finditer(before))
    own_before = before[breaks[-1].end() :] if breaks else before
    stop = _CLAUSE_BREAK.search(after)
    own_after = after[: stop.start()] if stop else after
    later = _YEAR.findall(own_after)
    if later:
        return later[0]
    earlier = _YEAR.findall(own_before)
    if earlier:
        return earlier[-1]
    if not breaks:
        # the sentence's opening period ("For 2023, revenue was [MASK]")
        years = _YEAR.findall(before)
        if years:
            return years[-1]
    return None


_CHANGE_WORD = (
    r"(?:increas|decreas|grew|grow|declin|rose|fell|chang|improv|reduc|drop|offset|higher|lower"
    r"|rise)\w*"
)
_CHANGE_BEFORE = re.compile(
    _CHANGE_WORD + r"(?:\s+(?:by|of|favorably|unfavorably|approximately|about|nearly|roughly|"
    r"more than|over|\$))*\s*$",
    re.I,
)
# one amount as filings write it: "$894 million", "$(2.7) million", "€3.1bn", "$11.4M"
AMOUNT = (
    r"[$€£¥]?\s?\(?\.?\d[\d,.]*\)?(?:\s*(?:thousand|million|billion)s?\b|\s?(?:bn|mn|[mbk])\b)?"
)
# "increased $894 million, or [MASK]", "an increase of $4 million ([MASK])": the second
# figure of a change
_CHANGE_PAIR_BEFORE = re.compile(
    _CHANGE_WORD + r"\s+(?:(?:by|of)\s+)?(?:approximately\s+)?"
    rf"(?:{AMOUNT}|[\d.,]+\s*(?:%|percent))(?:,?\s+or|\s*\()\s*$",
    re.I,
)
_FROM_BEFORE = re.compile(r"\bfrom\s*(?:approximately\s+|about\s+)?$", re.I)
_COMPARED_BEFORE = re.compile(
    r"(compared (?:with|to)|versus|vs\.?|from|prior year(?:'s)?|as compared to)"
    r"(?:\s+(?:approximately|about|a|an|net|\w+\s+of))*\s*$",
    re.I,
)
_CHANGE_AFTER = re.compile(
    r"\s*(?:,?\s*(?:and|or)\s+[\d.,]+\s*(?:%|percent)?\s*)?(?:\w+\s+)?"
    r"(?:increase|decrease|change|growth|decline|rise|reduction|more|less|higher|lower|"
    r"improvement|drop)s?\b",
    re.I,
)


def mask_role(before: str, after: str) -> str:
    """What the blank is, from the words around it ("increased [MASK]" is a change)."""
    before = before.rstrip()
    if _FROM_BEFORE.search(before) and re.match(r"\s*to\b", after):
        return "older"
    if re.search(r"\b(?:by|of)\s*(?:approximately\s+|about\s+)?$", before) and re.search(
        _CHANGE_WORD + r"\s+(?:by|of)\s*(?:approximately\s+|about\s+)?$", before, re.I
    ):
        return "change"  # "decreased by [MASK] to $13.26 billion"
    if _CHANGE_BEFORE.search(before):
        return "change"  # "increased [MASK] to 152.0" is the change, too
    if re.search(
        _CHANGE_WORD
        + r"(?:\s+(?:[a-z][\w.'-]*|U\.S\.)){1,4}\s+by(?:\s+approximately|\s+about)?\s*$",
        before,
        re.I,
    ) and not re.search(r"\b(?:offset|driven|caused|impacted|affected)\s+by\s*$", before, re.I):
        return "change"  # "decreased total international sales by [MASK]"
    if _CHANGE_PAIR_BEFORE.search(before):
        return "change"
    if _CHANGE_AFTER.match(after):
        return "change"
    if _COMPARED_BEFORE.search(before):
        return "older"
    return "level"


def _respectively_slot(before: str, after: str, years: list[str]) -> str | None:
    """In "2023 and 2022 were $X and [MASK], respectively" the blank belongs to 2022."""
    if "respectively" not in after or len(years) < 2:
        return None
    slots = len(
        re.findall(r"\d[\d,.]*|\[MASK\]", before + "[MASK]" + after.split("respectively")[0])
    )
    # the blank's place in its own list: numbers after the years, and after any earlier
    # "A and B, respectively" list ("losses of $3.6M and $10.8M, respectively, and [MASK]")
    own = before.split(years[-1])[-1] if years[-1] in before else ""
    position = len(find_numbers(own.rsplit("respectively", 1)[-1]))
    ordered = [y for y in dict.fromkeys(years)]
    if position < len(ordered) and slots >= 2:
        return ordered[position]
    return None


_ACRONYM = re.compile(r"\b[A-Z][A-Z&]{1,6}\b")


def acronym_words(text: str) -> set[str]:
    """The text's acronyms as lower-case letters ("R&D" -> "rd"), to meet a label's initials."""
    return {re.sub(r"[^a-z]", "", a.lower()) for a in _ACRONYM.findall(text)}


_MINOR = frozenset(["and", "of", "the", "for", "in", "on", "to", "&"])


def _initials(label: str) -> str:
    words = re.findall(r"[A-Za-z]+", label)
    return "".join(w[0].upper() for w in words if w.lower() not in _MINOR)


def initials_run(label: str, letters: str, beside: set[str]) -> list[str]:
    """The run of a label's words that an acronym of three or more letters abbreviates
    ("PPP" in "Paycheck protection plan loan forgiveness"), within one comma-free part of the
    label, and only when a word the sentence writes beside the acronym ("PPP loan") is
    another word of that part: "the SEC inquiry" does not name "Severance and exit costs".
    [] if none."""
    if len(letters) < 3:
        return []
    for part in re.split(r"[,;:()]", label):
        words = [w for w in re.findall(r"[A-Za-z]+", part) if w.lower() not in _MINOR]
        for i in range(len(words) - len(letters) + 1):
            run = words[i : i + len(letters)]
            rest = {w.lower() for w in words} - {w.lower() for w in run}
            if _initials(" ".join(run)) == letters and rest & beside:
                return run
    return []


# -- periods named without a year -----------------------------------------------

_PRIOR_PERIOD = re.compile(
    r"\b(?:prior|previous|preceding|last)(?:[- ]fiscal)?[- ](?:year|period)\b|\byear[- ]ago\b"
    r"|\ba year (?:ago|earlier)\b",
    re.I,
)
_CURRENT_PERIOD = re.compile(r"\b(?:current|this)(?:[- ]fiscal)?[- ](?:year|period)\b", re.I)


_THAN = re.compile(r"\bthan\b|\brelative to\b", re.I)


def relative_period(before: str, after: str) -> int | None:
    """The blank's own clause names its period against the report's: "[MASK] in the
    prior year" is one year back (-1), "[MASK] this year" the report's own (0).

    The clause is cut as in ``_target_year``; a clause that names no such period
    gives None.
    """
    breaks = list(_CLAUSE_BREAK.finditer(before))
    own_before = before[breaks[-1].end() :] if breaks else before
    stop = _CLAUSE_BREAK.search(after)
    own_after = after[: stop.start()] if stop else after
    # "was [MASK], 200 basis points higher than the same period last year": the period
    # after "than" is the compared side's
    own_after = _THAN.split(own_after, maxsplit=1)[0]
    for text in (own_after, own_before):
        prior = _PRIOR_PERIOD.search(text)
        current = _CURRENT_PERIOD.search(text)
        if prior and not current:
            return -1
        if current and not prior:
            return 0
    return None


_PERIOD_MONTHS = [
    (re.compile(p, re.I), months)
    for p, months in [
        (r"\bthree[- ]months?\b|\b3 months\b|\bquarter(?:ly)?\b|\bQ[1-4]\b|\b13 weeks\b", 3),
        (r"\bsix[- ]months?\b|\b6 months\b|\bhalf[- ]year\b|\bfirst half\b|\b26 weeks\b", 6),
        (r"\bnine[- ]months?\b|\b9 months\b|\b39 weeks\b", 9),
        (r"\btwelve[- ]months?\b|\b12 months\b|\b(?:fiscal )?years? ended\b|\bfull[- ]year\b"
         r"|\bannual\b|\b5[23] weeks\b|\bfiscal year\b", 12),
    ]
]  # fmt: skip


def period_months(text: str) -> int | None:
    """The length of the period a text names (a quarter: 3; a year: 12), if exactly one."""
    found = {months for pattern, months in _PERIOD_MONTHS if pattern.search(text)}
    return found.pop() if len(found) == 1 else None


def change_pair(
    years: list[str], current_year: str | None, compared: str | None = None
) -> set[str] | None:
    """The two periods a change compares: the sentence's first two years; one year named
    ("grew [MASK] in 2023") is compared with the year before, unless it is the side compared
    with (``compared``: "compared to 2022" is 2023 against 2022, when the report has 2023);
    none, the report's latest year with the one before."""
    named = list(dict.fromkeys(years))
    if len(named) >= 2:
        return set(named[:2])
    if compared and current_year and int(compared) < int(current_year):
        return {compared, str(int(compared) + 1)}
    base = named[0] if named else current_year
    if base is None:
        return None
    return {base, str(int(base) - 1)}


# verb and comparative forms only: the nouns "contract liabilities", "leasehold
# improvements", "gain on sale" and "lower of cost or market" say no direction
_UP_WORDS = re.compile(
    r"\b(?:increas\w*|grew|grow(?:s|n|ing)?|rose|ris(?:e|es|en|ing)|higher|improv(?:ed|es|ing)"
    r"|up|gain(?:ed|s)?(?!\s+on\b)|expand(?:ed|s|ing)?|expansion)\b",
    re.I,
)
_DOWN_WORDS = re.compile(
    r"\b(?:decreas\w*|declin\w*|fell|fall(?:s|en|ing)?|lower(?:ed|s|ing)?(?!\s+of\b)|reduc\w*"
    r"|drop\w*|down|contract(?:ed|ion)|shr[aiu]nk\w*)\b",
    re.I,
)


def change_direction(before: str, after: str) -> int | None:
    """The way a change blank moves, from the words right around it: "rose [MASK]" and
    "[MASK] increase" are up (+1), "declined by [MASK]" down (-1); None if unsaid."""
    words_before = " ".join(before.split()[-4:])
    words_after = " ".join(after.split()[:3])
    for text in (words_before, words_after):
        up, down = bool(_UP_WORDS.search(text)), bool(_DOWN_WORDS.search(text))
        if up != down:
            return 1 if up else -1
    return None


_IMPROVED = re.compile(r"\b(?:improv|worsen|deteriorat)\w*", re.I)
# a comma (not one inside a number: "$1,234"), a semicolon, colon, bracket, bullet, dash or
# sentence end closes the blank's clause
_DIRECTION_CLAUSE_END = re.compile(r",(?!\d{3})|[;:()•—–]|\.\s")
_DIRECTION_WORD = re.compile(f"{_UP_WORDS.pattern}|{_DOWN_WORDS.pattern}", re.I)
# words that may stand between the blank and its noun: "a [MASK] year-over-year increase"
_CHANGE_MODIFIERS = frozenset(
    ["year-over-year", "year-on-year", "sequential", "net", "overall", "total", "annual"]
)


def stated_direction(before: str, after: str) -> int | None:
    """The way the blank's own words say its change goes: up (+1), down (-1) or None.

    Stricter than ``change_direction`` (a ranker feature, where a guess costs little): the
    builder refuses a derivation on it, so it reads only the blank's own clause. The noun
    right after the blank ("a [MASK] increase in homes delivered"), else the
    nearest word before it in its clause ("a decrease in net loss of [MASK]"); never a
    word past the clause's end ("[MASK], an increase in asset impairment of ..." is the
    next item's), nor what follows the figure ("decreased [MASK] on higher
    cancellations"), nor "improved" or "worsened", which a loss or a cost may be either way.
    """
    following = _DIRECTION_CLAUSE_END.split(after, maxsplit=1)[0].split()
    while following and following[0].lower() in _CHANGE_MODIFIERS:
        following = following[1:]
    right = following[0] if following else ""
    left = " ".join(_DIRECTION_CLAUSE_END.split(before)[-1].split()[-6:])
    if _IMPROVED.search(right + " " + left):
        return None
    for text in (right, left):
        words = list(_DIRECTION_WORD.finditer(text))
        if words:
            return 1 if _UP_WORDS.fullmatch(words[-1].group(0)) else -1
    return None


# words that start no new subject after a figure's comma: ", or 10%", ", to $X", ", compared
# with", ", primarily due to" (read by the parallel clauses here and by rules' list items)
NOT_A_NEW_SUBJECT = (
    r"or|to|from|compared|as|and|but|while|primarily|mainly|partially|largely|offset|due|"
    r"driven|reflecting|representing|including|excluding|which|respectively|an?|up|down|for|"
    r"in|during|versus|vs"
)


# a run of parallel clauses, each a subject, a verb and its figure: "construction loans
# decreased 16.6%, commercial loans decreased [MASK], agricultural loans decreased 5.6%":
# a comma after a figure ends a clause when a new subject and its verb follow, with or
# without "and" (", and real estate loans decreased 3.7%"), but not ", or 10%", ", to $X",
# ", compared with", ", primarily due to", nor a thousands separator
PARALLEL_CLAUSE_END = re.compile(
    r"(?:(?<=[\d%\]])|^)(?:\s*(?:million|billion|thousand|basis points|points|percent))?,\s+"
    rf"(?:and\s+)?(?=(?!(?:{NOT_A_NEW_SUBJECT})\b)"
    r"(?:[A-Za-z][\w&'/-]*\s+){1,7}"
    r"(?:increased|decreased|rose|fell|grew|declined|dropped|improved|was|were|totaled|"
    r"totalled|amounted|represented)\b)",
    re.I,
)


def parallel_clauses(text: str) -> list[str]:
    """``text`` split into its parallel clauses (``PARALLEL_CLAUSE_END``); one piece
    when it has none."""
    pieces, start = [], 0
    for match in PARALLEL_CLAUSE_END.finditer(text):
        pieces.append(text[start : match.start()])
        start = match.end()
    return pieces + [text[start:]]
