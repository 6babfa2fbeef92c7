"""Rule injectors for the general-knowledge errors (GKE): illegal time, redundant statement,
value format error, numerical missing, non-numerical value missing.

Each draws one edit from a family of edits that fit the sentence (several kinds of
impossible date, several kinds of broken format...), so no single edit becomes a
template a surface rule could learn. Each takes (sentence, language, rng, context) and
returns a Change or None; ``context`` is the text before the sentence in its fragment.
"""

from __future__ import annotations

import calendar
import random
import re

from finprobe.benchmarks.fined.edits import (
    EN_DATE,
    MONTHS,
    NON_FIGURE_KINDS,
    ZH_DATE,
    Change,
    splice,
)
from finprobe.numbers import find_numbers
from finprobe.text import FUNCTION_WORDS

# how a restated clause is joined to the sentence
RESTATE_JOINERS = ("; ", ", and ", "; in addition, ", " (", "; again, ", ". As noted, ")
_THIRTY_DAY_MONTHS = ("April", "June", "September", "November")


def _illegal_en_dates(
    month: str, day: int, year: int | None, rng: random.Random
) -> list[tuple[str, str]]:
    """Impossible versions of a date, each with its kind: a day past the month's end, the 31st
    of a 30-day month, February 30 or 31, February 29 of a common year, day zero. ``year`` is
    None for a date written without one ("the quarter ended June 30")."""
    tail = f", {year}" if year else ""
    last = calendar.monthrange(year or 2023, MONTHS[month])[1]
    if year is None and month == "February":
        last = 29
    out = [(f"{month} {last + rng.choice((1, 2, 3, 4))}{tail}", "day past the month's end")]
    if day >= 29:
        thirty = rng.choice([m for m in _THIRTY_DAY_MONTHS if m != month])
        out.append((f"{thirty} 31{tail}", "31st of a 30-day month"))
        out.append((f"February {rng.choice((30, 31))}{tail}", "February 30 or 31"))
        if year and not calendar.isleap(year):
            out.append((f"February 29{tail}", "February 29 of a common year"))
    if day <= 9:
        out.append((f"{month} 0{tail}", "day zero"))
    return out


_QUARTER = re.compile(r"\b(first|second|third|fourth) (fiscal )?quarter\b")
_HALF = re.compile(r"\b(first|second) half\b")
_Q_CODE = re.compile(r"\bQ([1-4])(?= ?(?:20\d\d|FY|fiscal)\b)")
_NUM_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
# a month and day without a year ("the quarter ended June 30")
_MONTH_DAY = re.compile(rf"\b({'|'.join(MONTHS)}) (\d{{1,2}})\b(?!,? \d{{4}})(?![\d.,]\d)")


def inject_illegal_time(s: str, lang: str, rng: random.Random, context: str = "") -> Change | None:
    options: list[tuple[int, int, str, str]] = []
    for m in EN_DATE.finditer(s):
        for new, kind in _illegal_en_dates(m.group(1), int(m.group(2)), int(m.group(3)), rng):
            options.append((m.start(), m.end(), new, kind))
    for m in _MONTH_DAY.finditer(s):
        day = int(m.group(2))
        if 1 <= day <= calendar.monthrange(2024, MONTHS[m.group(1)])[1]:
            for new, kind in _illegal_en_dates(m.group(1), day, None, rng):
                options.append((m.start(), m.end(), new, kind))
    for m in _HALF.finditer(s):
        options.append((m.start(), m.end(), "third half", "third half of a year"))
    for m in _NUM_DATE.finditer(s):
        mo, d, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            options.append((m.start(), m.end(), f"{rng.choice((13, 14, 15))}/{d}/{y}", "month 13+"))
            last = calendar.monthrange(y, mo)[1]
            options.append((m.start(), m.end(), f"{mo}/{last + 1}/{y}", "day past the month's end"))
    for m in _QUARTER.finditer(s):
        options.append((m.start(), m.end(), f"fifth {m.group(2) or ''}quarter", "fifth quarter"))
    for m in _Q_CODE.finditer(s):
        options.append((m.start(), m.end(), f"Q{rng.choice((5, 6))}", "fifth quarter"))
    for m in ZH_DATE.finditer(s):
        y, mo = int(m.group(1)), int(m.group(2))
        if 1 <= mo <= 12:
            last = calendar.monthrange(y, mo)[1]
            options.append(
                (m.start(), m.end(), f"{y}年{mo}月{last + 1}日", "day past the month's end")
            )
            options.append((m.start(), m.end(), f"{y}年13月{m.group(3)}日", "month 13+"))
    if not options:
        return None
    start, end, new, family = rng.choice(options)
    return Change(splice(s, start, end, new), {"old": s[start:end], "new": new, "family": family})


# an enumeration of short items: "legal, accounting, investor relations and other expenses"
_ITEM = r"(?!(?:and|or)\b)[a-z][a-z'’-]*(?: (?!(?:and|or)\b)[a-z][a-z'’-]*){0,3}"
# fixed pairs that look like the end of a list but are one item
_BINOMIALS = re.compile(
    r"general and administrative|research and development|property and equipment|plant and equipment"
    r"|depreciation and amortization|cash and cash equivalents|profit and loss|principal and interest"
    r"|terms and conditions|mergers and acquisitions",
    re.I,
)
_ENUM = re.compile(rf"\b((?:{_ITEM}, ){{1,6}}{_ITEM})(,?) (and|or) ({_ITEM})\b")
_STOP = FUNCTION_WORDS
_CLAUSE_HEAD = re.compile(
    r"^(?:(?:The |Our |Total |Net )?[A-Za-z][\w’'-]*(?: [\w’'-]+){0,6}) (?:was|were|is|are|totaled|amounted to|increased|decreased) "
)


# other common sentence openers that are no names ("No meaningful changes were...")
_LOWER_STARTS = frozenset(
    [
        "no",
        "none",
        "there",
        "it",
        "we",
        "a",
        "an",
        "both",
        "during",
        "since",
        "while",
        "although",
        "after",
        "before",
        "in",
        "for",
        "on",
        "approximately",
        "substantially",
        "most",
        "some",
        "certain",
    ]
)
_COMMON_STARTS = frozenset(
    [
        "The",
        "Our",
        "Total",
        "Net",
        "Its",
        "This",
        "These",
        "Those",
        "Revenue",
        "Revenues",
        "Sales",
        "Cash",
        "Gross",
        "Operating",
        "Interest",
        "Income",
        "Expenses",
        "Costs",
        "General",
        "Research",
        "Selling",
        "Other",
        "Such",
        "Each",
        "All",
    ]
)


def _restatable(prev: str, here: str = "") -> str | None:
    """The previous sentence as a clause that can be repeated: a statement of a figure,
    short enough to read as a restatement rather than a copied paragraph."""
    prev = prev.strip()
    if not (30 <= len(prev) <= 180) or not prev.endswith(".") or "|" in prev:
        return None
    if not _CLAUSE_HEAD.match(prev) or not re.search(r"\d", prev):
        return None
    if re.search(r"[;:•(]", prev):
        return None
    body = prev[:-1]
    # a restatement inside a sentence starts in lower case, unless it starts with a name
    first = body.split()[0]
    # "This was partially offset by ..." points back to its own context: moved, it means
    # something else
    if first.lower() in ("this", "these", "that", "those", "it", "they", "such"):
        return None
    if first in _COMMON_STARTS or first.lower() in _STOP or first.lower() in _LOWER_STARTS:
        return body[0].lower() + body[1:]
    # a name: an acronym, an inner capital, or the word written capitalised inside the sentence
    name = (
        (first.isupper() and len(first) > 1)
        or any(ch.isupper() for ch in first[1:])
        or re.search(rf"(?<=[a-z,] ){re.escape(first)}\b", f"{body} {here}")
    )
    return body if name else None  # neither a common word nor a sure name: leave it


def inject_redundant_statement(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Repeat information the text already gives: an item of a list named again further
    down the list (the paper's 'floor area ratio: 2.8 ... floor area ratio: 2.8'), or the
    statement of the previous sentence restated at the end of this one."""
    options: list[Change] = []
    if lang == "en":
        m = _ENUM.search(s)
        if m:
            # an item with a comma on both sides (the first may be the tail of a longer phrase)
            # not the item just before the conjunction either: the repeat must not be adjacent
            items = [x.strip() for x in m.group(1).split(",") if x.strip()][1:-1]
            repeat = rng.choice(items) if items else ""
            # the conjunction must close the list ("..., changes in interest and foreign
            # currency rates, natural disasters" is not a list ending at "and")
            closes = not s[m.end() :].lstrip().startswith(",") and not _BINOMIALS.search(
                s[m.start() : m.end() + 20]
            )
            plain = repeat and not set(repeat.split()) & (_STOP | {"such"})
            if closes and plain and len(repeat) >= 4:
                new = f"{m.group(1)}, {repeat}{m.group(2)} {m.group(3)} {m.group(4)}"
                options.append(
                    Change(
                        splice(s, m.start(), m.end(), new),
                        {"restated": repeat, "family": "list item repeated"},
                    )
                )
        prev_sents = re.split(r"(?<=[.!?])\s+", context.strip()) if context.strip() else []
        clause = _restatable(prev_sents[-1], s) if prev_sents else None
        body = s.rstrip()
        if clause and body.endswith(".") and not body.endswith("..") and len(s) < 400:
            joiner = rng.choice(RESTATE_JOINERS)
            tail = clause + (")" if joiner == " (" else "")
            options.append(
                Change(
                    body[:-1] + joiner + tail + ".",
                    {"restated": clause, "family": "statement restated"},
                )
            )
    else:
        parts = s.split("，")
        if len(parts) >= 3:
            i = rng.randrange(0, len(parts) - 2)
            if len(parts[i]) >= 4 and re.search(r"\d", parts[i]):
                new_parts = [*parts[:-1], parts[i], parts[-1]]
                options.append(
                    Change(
                        "，".join(new_parts), {"restated": parts[i], "family": "list item repeated"}
                    )
                )
    return rng.choice(options) if options else None


_PHONE = re.compile(r"\(?\b\d{3}\)?[ .-]\d{3}-\d{4}\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b")
_URL = re.compile(r"\b(?:https?://)?www\.[\w-]+(?:\.[\w-]+)*\.(?:com|gov|org|net|cn)\b")
_ZIP = re.compile(r"\b([A-Z]{2}) (\d{5})\b")
_ZH_POST = re.compile(r"(邮\s*编|邮政编码)([：:为]?\s*)(\d{6})")
_ZH_PHONE = re.compile(r"(电话|联系方式|手机)([：:]?\s*)(\d{3,4}-?\d{7,8}|1\d{10})")
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,]|\.\d)")
_DECIMAL = re.compile(r"(?<![\d.,])\d{1,3}\.\d{1,2}(?![\d,.]|\.\d)")


def _regroup(token: str, rng: random.Random) -> list[tuple[str, str]]:
    """Digit groupings that break the standard 3-digit pattern: a separator moved, one
    dropped, periods used for the thousands."""
    whole, _, frac = token.partition(".")
    digits = whole.replace(",", "")
    tail = f".{frac}" if frac else ""
    out = []
    cuts = [i for i in range(1, len(digits)) if (len(digits) - i) % 3 != 0]
    if cuts:
        cut = rng.choice(cuts)
        out.append((digits[:cut] + "," + digits[cut:] + tail, "separator misplaced"))
    groups = whole.split(",")
    if len(groups) >= 3:
        k = rng.randrange(1, len(groups))
        merged = [*groups[: k - 1], groups[k - 1] + groups[k], *groups[k + 1 :]]
        out.append((",".join(merged) + tail, "separator dropped"))
    if not frac and len(groups) >= 3:
        out.append((".".join(groups), "periods as separators"))
    return out


def inject_value_format_error(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    options: list[tuple[int, int, str, str]] = []
    for rx, fix, family in (
        (_ZH_POST, lambda m: m.group(1) + m.group(2) + m.group(3)[:5], "postcode digits"),
        (_ZH_PHONE, lambda m: m.group(1) + m.group(2) + m.group(3)[:-3], "phone digits"),
        (_PHONE, lambda m: m.group(0)[:-2], "phone digits"),
        (_EMAIL, lambda m: m.group(0).replace("@", "", 1), "e-mail without @"),
        (_URL, lambda m: m.group(0).rsplit(".", 1)[0], "web address without domain"),
        (_ZIP, lambda m: f"{m.group(1)} {m.group(2)[:4]}", "ZIP code digits"),
    ):
        for m in rx.finditer(s):
            options.append((m.start(), m.end(), fix(m), family))
    if lang == "en":
        for m in _GROUPED.finditer(s):
            if len(m.group(0).replace(",", "").split(".")[0]) >= 4:
                for new, family in _regroup(m.group(0), rng):
                    options.append((m.start(), m.end(), new, family))
        for m in EN_DATE.finditer(s):
            year = m.group(3)
            bad = rng.choice((year[1:], year + year[-1], year[:2] + "0" + year[2:]))
            options.append((m.start(3), m.end(3), bad, "year not four digits"))
        for m in _DECIMAL.finditer(s):
            a, b = m.group(0).split(".")
            if s[m.end() : m.end() + 1] in ("%", " "):
                options.append(
                    (
                        m.start(),
                        m.end(),
                        f"{a}.{b}.{rng.choice('0123456789')}",
                        "two decimal points",
                    )
                )
    if not options:
        return None
    start, end, new, family = rng.choice(options)
    return Change(splice(s, start, end, new), {"old": s[start:end], "new": new, "family": family})


_SCALE = r"(?: (?:million|billion|thousand|trillion))"


def inject_numerical_missing(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Remove a figure's digits and keep what states it (currency sign, scale word, % or
    unit), so the sentence visibly lacks the number it announces ('is square meters')."""
    options = []
    for n in find_numbers(s):
        if n.kind in NON_FIGURE_KINDS:
            continue
        m = re.search(r"\d[\d,]*(?:\.\d+)?", n.text)
        if not m:
            continue
        rest = n.text[: m.start()] + n.text[m.end() :]
        rest = rest.replace("$ ", "$").strip()
        if lang == "zh":
            if not rest:
                continue
            options.append((n.start, n.end, rest))
            continue
        # what is left must still announce a figure: a scale word, a unit or a % sign
        if not re.search(r"[A-Za-z%]", rest):
            continue
        rest = re.sub(r"^\$(?=[a-z])", "$ ", rest) if rest.startswith("$") else rest
        options.append((n.start, n.end, rest))
    if not options:
        return None
    start, end, rest = rng.choice(options)
    modified = splice(s, start, end, rest)
    modified = re.sub(r"(?<=\w) {2,}(?=\w)", " ", modified)
    return Change(modified, {"removed": s[start:end], "new": rest})


_FIELD = re.compile(r"^([A-Z][\w ]{2,30}): ([^\d;:]{2,60}?)([;.]|$)")
_ZH_FIELD = re.compile(r"([\u4e00-\u9fff]{2,10})([：:])\s*([^；;。：:\d，,]{2,40})")
_ZH_ENUM = re.compile(r"([\u4e00-\u9fff]{2,8})、([\u4e00-\u9fff]{2,8})、([\u4e00-\u9fff]{2,8})")
# a value given in quotes: a defined term, a ticker symbol, a named plan or agreement
_QUOTED = re.compile(
    r"(\((?:the |collectively, |each, an? |together, )?|\bsymbol |\bunder the (?:ticker )?symbol |\bknown as |\breferred to as )([“\"])([^”\"]{2,60})([”\"])"
    # the quoted words are the value, not an adjective of the noun after them ("(“adjusted”
    # shareholders’ equity ...)": emptied, it leaves "(“” shareholders’ equity")
    r"(?!\s*[a-z])"
)


def inject_non_numerical_value_missing(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Empty a non-numerical attribute value: a field's value ('Project name: ;'), a
    defined term or ticker symbol given in quotes ('(the “”)'), an item of a Chinese list."""
    if lang == "zh":
        m = _ZH_FIELD.search(s)
        if m:
            return Change(
                s[: m.start(3)] + s[m.end(3) :],
                {"removed": m.group(3), "field": m.group(1), "family": "field value"},
            )
        m = _ZH_ENUM.search(s)
        if m:
            return Change(
                s[: m.start(2)] + s[m.end(2) :], {"removed": m.group(2), "family": "list item"}
            )
        return None
    options = []
    m = _FIELD.search(s)
    if m:
        options.append(
            Change(
                s[: m.start(2)] + s[m.end(2) :].lstrip(),
                {"removed": m.group(2), "field": m.group(1), "family": "field value"},
            )
        )
    for m in _QUOTED.finditer(s):
        if re.search(r"\d", m.group(3)) and not re.search(r"[A-Za-z]", m.group(3)):
            continue
        family = "ticker symbol" if "symbol" in m.group(1) else "defined term"
        # a full stop inside the quotes ("BPTH.”") ends the sentence: it stays, after them
        value = m.group(3).rstrip(".!?;,")
        end = m.group(3)[len(value) :]
        if not value:
            continue
        options.append(
            Change(
                s[: m.start(3)] + m.group(4) + end + s[m.end(4) :],
                {"removed": value, "family": family},
            )
        )
    return rng.choice(options) if options else None
