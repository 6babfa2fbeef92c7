"""Rule injectors for the financial reasoning errors (FRE): conflicting expression, time
contradiction, calculation error (one sentence each), numerical inconsistency and clause
conflict (two places of the document).

Each reasoning error is checkable from the text alone: the figures that contradict a
direction word, the period a comparison is against, the formula the figures satisfied,
the other mention of the same quantity, the other statement of the same stipulation.
"""

from __future__ import annotations

import calendar
import random
import re
from collections.abc import Iterator
from decimal import Decimal
from itertools import permutations
from typing import Any

from finprobe.benchmarks.fined.edits import (
    EN_DATE,
    MONTH_RE,
    MONTHS,
    ZH_DATE,
    Change,
    Injection,
    bump_digit,
    cap,
    splice,
    value_of,
)
from finprobe.benchmarks.fined.segment import SentenceSpan
from finprobe.numbers import find_numbers

_UP = ("increased", "rose", "grew", "climbed")
_DOWN = ("decreased", "fell", "declined", "dropped")
_DIRECTION = "|".join(_UP + _DOWN)
_AMOUNT = r"\$?\d[\d,.]*(?: million| billion| thousand|%)?"
_MOVE_TO_FROM = re.compile(
    rf"\b({_DIRECTION})\b([^.;]{{0,60}}?)\bto ({_AMOUNT})[^.;]{{0,40}}?\bfrom ({_AMOUNT})"
)
_MOVE_FROM_TO = re.compile(
    rf"\b({_DIRECTION})\b[^.;]{{0,60}}?\bfrom ({_AMOUNT})[^.;]{{0,40}}?\bto ({_AMOUNT})"
)
_NOUN_TO_FROM = re.compile(
    rf"\b(increase|decrease|decline)\b([^.;]{{0,60}}?)\bto ({_AMOUNT})[^.;]{{0,40}}?\bfrom ({_AMOUNT})"
)
_NOUN_FROM_TO = re.compile(
    rf"\b(increase|decrease|decline)\b[^.;]{{0,60}}?\bfrom ({_AMOUNT})[^.;]{{0,40}}?\bto ({_AMOUNT})"
)
_MOVE_ZH = re.compile(
    r"由([\d.,]+[万亿]?元?)(增长|增加|上升|下降|减少)(?:至|到)([\d.,]+[万亿]?元?)"
)
_FLIP_ZH = {"增长": "下降", "增加": "减少", "上升": "下降", "下降": "增长", "减少": "增加"}


def inject_conflicting_expression(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Flip a direction word that the sentence's own figures confirm, so words and figures conflict."""
    if lang == "zh":
        m = _MOVE_ZH.search(s)
        if not m:
            return None
        a, b = value_of(m.group(1)), value_of(m.group(3))
        up = m.group(2) in ("增长", "增加", "上升")
        if a is None or b is None or (b > a) != up or a == b:
            return None
        return Change(splice(s, m.start(2), m.end(2), _FLIP_ZH[m.group(2)]), {"old": m.group(2)})
    options = []
    # "Revenue increased to $5.0 million from $4.0 million. The decrease was due to ...": the
    # sentence names the previous sentence's change with the opposite word
    m = ANAPHORA.match(s)
    if m and stated_direction(context.strip()) == _NOUN_DIRECTION[m.group("noun").lower()]:
        up = _NOUN_DIRECTION[m.group("noun").lower()] == "up"
        flipped = rng.choice(("decrease", "decline", "reduction") if up else ("increase", "rise"))
        new_text = cap(flipped, m.group("noun")) + ("s" if m.group("noun").endswith("s") else "")
        return Change(
            splice(s, m.start("noun"), m.end("noun"), new_text),
            {"old": m.group("noun"), "new": new_text, "family": "names the change the other way"},
        )
    for m, up in _confirmed_moves(s):
        word = m.group(1)
        as_verb = re.search(r"\bto\s*$", s[: m.start(1)]) or re.match(
            r"\s+(?:the|its|our|their|a|an)\b", s[m.end(1) :]
        )
        if word in ("increase", "decrease", "decline") and as_verb:
            flipped = rng.choice(("decrease", "reduce", "lower") if up else ("increase", "raise"))
        elif word in ("increase", "decrease", "decline"):
            flipped = rng.choice(("decrease", "decline") if up else ("increase",))
        elif not re.match(
            r"\s+(?:by|to|from|\$|\d|approximately|slightly|significantly)", s[m.end(1) :]
        ):
            # "increased the sublimit from...": the flip must be transitive too
            flipped = rng.choice(
                ("decreased", "reduced", "lowered") if up else ("increased", "raised")
            )
        else:
            flipped = rng.choice(_DOWN if up else _UP)
        options.append((m.start(1), m.end(1), word, flipped))
    if not options:
        return None
    start, end, word, flipped = rng.choice(options)
    modified = splice(s, start, end, flipped)
    # keep the article right: "a decrease" -> "an increase"
    if s[max(0, start - 3) : start].lower() == "an " and flipped[0] not in "aeiou":
        modified = modified[: start - 2] + " " + modified[start:]
        modified = (
            modified[: start - 3]
            + modified[start - 3 : start - 1].replace("an", "a")
            + modified[start - 1 :]
        )
    elif s[max(0, start - 2) : start].lower() == "a " and flipped[0] in "aeiou":
        modified = modified[: start - 1] + "n" + modified[start - 1 :]
    return Change(modified, {"old": word, "new": flipped})


ANAPHORA = re.compile(
    r"^(?:The|This|These|Such) (?P<noun>increases?|decreases?|declines?|growth|improvements?|reductions?|rises?)"
    r"\b(?: in [a-z][\w ,’'-]{0,60}?)? (?:was|were|is|reflects?|reflected|resulted)\b"
)
_NOUN_DIRECTION = {
    **dict.fromkeys(
        ("increase", "increases", "growth", "improvement", "improvements", "rise", "rises"), "up"
    ),
    **dict.fromkeys(
        ("decrease", "decreases", "decline", "declines", "reduction", "reductions"), "down"
    ),
}


# "rose to A from B", "rose from B to A", "an increase to A from B", "an increase from B
# to A": the pattern and the groups of its new and old figures
_FROM_TO_FORMS = (
    (_MOVE_TO_FROM, 3, 4),
    (_MOVE_FROM_TO, 3, 2),
    (_NOUN_TO_FROM, 3, 4),
    (_NOUN_FROM_TO, 3, 2),
)


def _confirmed_moves(sentence: str) -> Iterator[tuple[re.Match, bool]]:
    """Each direction word (group 1) whose own from/to figures move its way, with whether
    it says up."""
    for rx, new_i, old_i in _FROM_TO_FORMS:
        for m in rx.finditer(sentence):
            new_v, old_v = value_of(m.group(new_i)), value_of(m.group(old_i))
            up = m.group(1) in _UP or m.group(1) == "increase"
            if new_v is not None and old_v is not None and new_v != old_v and (new_v > old_v) == up:
                yield m, up


def stated_direction(sentence: str) -> str | None:
    """The direction of change a sentence states and its own from/to figures confirm."""
    for _, up in _confirmed_moves(sentence):
        return "up" if up else "down"
    return None


# ----------------------------------------------------------------------------- time

_TIME = rf"(?:(?:{MONTH_RE}) \d{{1,2}}, )?(?:fiscal (?:year )?)?(?:19|20)\d\d\b"
_COMPARE = re.compile(
    rf"(?P<cur>{_TIME})(?P<mid>[^.;]{{0,100}}?\b(?:compared (?:to|with)|versus|as compared (?:to|with)|relative to|over)\b[^.;0-9]{{0,60}}?)(?P<base>{_TIME})"
)
_RANGE = re.compile(
    rf"\b(?:from|between) (?P<a>(?:{MONTH_RE}) \d{{1,2}}, \d{{4}}),? (?:to|through|and|until) (?P<b>(?:{MONTH_RE}) \d{{1,2}}, \d{{4}})\b"
)


def _time_key(text: str) -> tuple[int, int, int]:
    m = EN_DATE.search(text)
    if m:
        return int(m.group(3)), MONTHS[m.group(1)], int(m.group(2))
    year = int(re.search(r"\d{4}", text).group(0))
    return year, 12, 31


def comparison_times(
    s: str,
) -> list[tuple[tuple[tuple[int, int, int], Any], tuple[tuple[int, int, int], Any]]]:
    """(current, baseline) time pairs of the sentence's comparisons, each with its match."""
    out = []
    for m in _COMPARE.finditer(s):
        cur, base = m.group("cur"), m.group("base")
        # both must be of the same granularity (two years, or two dates)
        if bool(EN_DATE.search(cur)) != bool(EN_DATE.search(base)):
            continue
        out.append(((_time_key(cur), m), (_time_key(base), m)))
    return out


def date_ranges(s: str) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    return [(_time_key(m.group("a")), _time_key(m.group("b"))) for m in _RANGE.finditer(s)]


def _with_year(text: str, year: int) -> str:
    return re.sub(r"(?:19|20)\d\d", str(year), text, count=1)


_QUARTER_ENDS = ((3, "March", 31), (6, "June", 30), (9, "September", 30), (12, "December", 31))


def inject_time_contradiction(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Break the order of two times the sentence relates: the baseline of a comparison made
    later than (or the same as) the period compared with it, in either direction and across
    quarters; or a range that ends before it starts."""
    if lang == "zh":
        dates = list(ZH_DATE.finditer(s))
        if len(dates) >= 2 and re.search(r"截止|开标|至|到", s):
            a, b = dates[0], dates[1]
            ka = tuple(int(g) for g in a.groups())
            kb = tuple(int(g) for g in b.groups())
            if kb > ka:
                new = f"{ka[0] - rng.choice((1, 2))}年{b.group(2)}月{b.group(3)}日"
                return Change(splice(s, b.start(), b.end(), new), {"old": b.group(0), "new": new})
        return None
    options: list[tuple[int, int, str, str]] = []
    for m in _RANGE.finditer(s):
        (ya, _, _), kb = _time_key(m.group("a")), _time_key(m.group("b"))
        if kb >= _time_key(m.group("a")):
            new = _with_year(m.group("b"), ya - rng.choice((1, 2)))
            options.append((m.start("b"), m.end("b"), new, "range ends before it starts"))
    for m in _COMPARE.finditer(s):
        cur, base = m.group("cur"), m.group("base")
        if bool(EN_DATE.search(cur)) != bool(EN_DATE.search(base)):
            continue
        kc, kbase = _time_key(cur), _time_key(base)
        if kbase >= kc:
            continue
        # baseline moved after the current period
        later = _with_year(base, kc[0] + rng.choice((1, 2)))
        options.append((m.start("base"), m.end("base"), later, "baseline later"))
        # current period moved before its baseline
        earlier = _with_year(cur, kbase[0] - rng.choice((1, 2)))
        options.append((m.start("cur"), m.end("cur"), earlier, "current earlier"))
        d = EN_DATE.search(base)
        if d and kbase[0] == kc[0] - 1:
            # across quarters: compared with a quarter end after the current one
            later_ends = [q for q in _QUARTER_ENDS if (kc[0], q[0], q[2]) > kc]
            if later_ends:
                _, month, day = rng.choice(later_ends)
                new = f"{month} {day}, {kc[0]}"
                options.append(
                    (m.start("base") + d.start(), m.start("base") + d.end(), new, "later quarter")
                )
    # a comparison with "the prior year" of a stated period turned into one with a period
    # that comes after it ("for fiscal 2023 ... compared to the following year")
    for m in RELATIVE_BASE.finditer(s):
        if _PERIOD_ANCHOR.search(s[: m.start()]):
            new = rng.choice(LATER_WORDS)
            options.append((m.start("rel"), m.end("rel"), new, "baseline a later period"))
    if not options:
        return None
    start, end, new, family = rng.choice(options)
    return Change(splice(s, start, end, new), {"old": s[start:end], "new": new, "family": family})


RELATIVE_BASE = re.compile(
    r"\b(?:compared (?:to|with)|versus|relative to|over) (?:the |that of the )?"
    r"(?P<rel>prior|previous|preceding) (?:fiscal )?(?:year|quarter|period)\b"
)
LATER_WORDS = ("following", "next", "subsequent")
LATER_BASE = re.compile(
    r"\b(?:compared (?:to|with)|versus|relative to|over) (?:the |that of the )?"
    rf"(?:{'|'.join(LATER_WORDS)}) (?:fiscal )?(?:year|quarter|period)\b"
)
# the period the sentence reports on, stated before the comparison
_PERIOD_ANCHOR = re.compile(
    r"\b(?:(?:19|20)\d\d|(?:three|six|nine|twelve) months ended|(?:first|second|third|fourth) quarter)\b"
)


# ----------------------------------------------------------------------------- calculation


def _calc_numbers(s: str) -> list[Any]:
    return [n for n in find_numbers(s) if n.kind in ("money", "quantity", "count", "percent")]


def find_calculation(s: str) -> dict[str, Any] | None:
    """A relation among three figures of the sentence that holds as written: a=b+c, a=b-c, or pct=(b-c)/c."""
    if not CALC_CUE.search(s):
        return None
    nums = _calc_numbers(s)[:8]
    if len(nums) < 3:
        return None
    for ia, ib, ic in permutations(range(len(nums)), 3):
        a, b, c = nums[ia], nums[ib], nums[ic]
        pa = "percent" in a.number.units
        if pa and not ("percent" in b.number.units or "percent" in c.number.units):
            va, vb, vc = a.number.value, b.number.value, c.number.value
            if vc <= 0 or vb <= 0 or va == 0:
                continue
            tol = max(a.number.precision, Decimal("0.1")) / 2 + abs(va) * Decimal("0.005")
            if abs(va - (vb - vc) / vc * 100) <= tol and abs(va) >= 1:
                return {"formula": "pct=(b-c)/c", "spans": [ia, ib, ic], "tolerance": str(tol)}
            continue
        if any("percent" in x.number.units for x in (a, b, c)):
            continue
        va, vb, vc = a.number.value, b.number.value, c.number.value
        if min(va, vb, vc) <= 0 or len({va, vb, vc}) < 3:
            continue
        tol = max(a.number.precision, b.number.precision, c.number.precision)
        # a sum or difference is only a stated relation when a cue announces its result
        # ("total of", "increased by"); otherwise three figures can fit by chance
        before = s[max(0, a.start - 40) : a.start]
        total_cue = _TOTAL_CUE.search(before)
        change_cue = _CHANGE_CUE.search(before)
        if total_cue and ib < ic and abs(va - (vb + vc)) <= tol:
            return {"formula": "a=b+c", "spans": [ia, ib, ic], "tolerance": str(tol)}
        if change_cue and abs(va - (vb - vc)) <= tol and vc < vb:
            return {"formula": "a=b-c", "spans": [ia, ib, ic], "tolerance": str(tol)}
    return None


_TOTAL_CUE = re.compile(
    r"total|sum|combined|aggregate|consist|compris|including|of which|合计|共计|总", re.I
)
_CHANGE_CUE = re.compile(
    r"(?:increase|decrease|decline|change|grew|rose|fell|improve|growth|增长|减少|增加|下降)\w*"
    r"\s+(?:of\s+|by\s+)?(?:approximately\s+|about\s+|nearly\s+)?\(?$",
    re.I,
)
# A relation among figures is only a formula when the sentence says so (a total, a change).
CALC_CUE = re.compile(
    r"total|sum|combined|aggregate|increase|decrease|change|compared|representing|growth|合计|共计|总|增长|减少|增加|下降",
    re.I,
)


def inject_calculation_error(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    calc = find_calculation(s)
    if calc is None:
        return None
    nums = _calc_numbers(s)[:8]
    # change the stated result or one of its parts
    target = nums[rng.choice(calc["spans"])]
    m = re.search(r"\d[\d,]*(?:\.\d+)?", target.text)
    if not m:
        return None
    from finprobe.benchmarks.fined.filter import verify_calculation
    from finprobe.benchmarks.fined.review import _direction_conflict

    for _ in range(12):
        new_token = bump_digit(m.group(0), rng)
        if new_token is None:
            return None
        new_text = target.text[: m.start()] + new_token + target.text[m.end() :]
        modified = splice(s, target.start, target.end, new_text)
        new_nums = _calc_numbers(modified)[:8]
        if len(new_nums) != len(nums):
            continue
        detail = {
            "formula": calc["formula"],
            "tolerance": calc["tolerance"],
            "original_values": [str(nums[i].number.value) for i in calc["spans"]],
            "modified_values": [str(new_nums[i].number.value) for i in calc["spans"]],
            "operands": [nums[i].text for i in calc["spans"]],
            "old": target.text,
            "new": new_text,
        }
        # the direction word must still fit the figures (else a conflicting expression too)
        if verify_calculation(detail)[0] and not (
            _direction_conflict(modified) and not _direction_conflict(s)
        ):
            return Change(modified, detail)
    return None


# ----------------------------------------------------------------------------- two-place errors


def _usable(s: SentenceSpan) -> bool:
    return 25 <= len(s.text) <= 700 and "|" not in s.text


def numerical_inconsistency_candidates(
    first: list[SentenceSpan],
    later: list[SentenceSpan],
    rng: random.Random,
    first_block: str,
    document: str = "",
) -> list[Injection]:
    """Change the later of two mentions of the same quantity (same figure, same metric words,
    same period): the reader has seen the figure once and meets it again, different.
    ``document`` (the whole text) gives a sentence that names no period its section's."""
    from finprobe.benchmarks.fined.matchers import figure_mentions, period_at, same_quantity

    earlier = [(a, span) for a in first if _usable(a) for span in figure_mentions(a.text)]
    out = []
    for s in later:
        if not _usable(s):
            continue
        for start, end, text in figure_mentions(s.text):
            match = next(
                (
                    a
                    for a, (s0, e0, _) in earlier
                    if same_quantity(a.text, (s0, e0), s.text, (start, end))
                    and period_at(document, a.text, a.start) == period_at(document, s.text, s.start)
                ),
                None,
            )
            if match is None:
                continue
            m = re.search(r"\d[\d,]*(?:\.\d+)?", text)
            token = bump_digit(m.group(0), rng) if m else None
            if token is None:
                continue
            new_text = text[: m.start()] + token + text[m.end() :]
            out.append(
                Injection(
                    "numerical_inconsistency",
                    s.text,
                    splice(s.text, start, end, new_text),
                    s.start,
                    s.end,
                    "rule:numerical_inconsistency",
                    {
                        "old": text,
                        "new": new_text,
                        "consistent_with": match.text,
                        "also_stated_in": first_block,
                    },
                )
            )
            break
    return out


def _shift_value(kind: str, value: str, rng: random.Random) -> str | None:
    if kind == "rate":
        number = value.rstrip("%").strip()
        v = Decimal(number)
        places = len(number.partition(".")[2])
        delta = Decimal(rng.choice(("0.25", "0.50", "0.75", "1.00", "1.50", "2.00"))) * rng.choice(
            (1, -1)
        )
        if not places:
            delta = Decimal(rng.choice((1, 2, 3))) * rng.choice((1, -1))
        new = v + delta if v + delta > 0 else v - delta
        return f"{new:.{places}f}%"
    if kind == "maturity":
        m = EN_DATE.search(value)
        if value.isdigit():  # a year: "notes due 2026"
            return str(int(value) + rng.choice((1, 2, -1)))
        if m is None:  # stated to the month: "August 2024"
            month, year = value.split()
            if rng.random() < 0.5:
                return f"{month} {int(year) + rng.choice((1, 2, -1))}"
            other = rng.choice([q[1] for q in _QUARTER_ENDS if q[1] != month])
            return f"{other} {year}"
        year = int(m.group(3)) + rng.choice((1, 2, 3, -1))
        if rng.random() < 0.5:
            return f"{m.group(1)} {m.group(2)}, {year}"
        month = rng.choice([q for q in _QUARTER_ENDS if q[1] != m.group(1)])
        return f"{month[1]} {month[2]}, {m.group(3)}"
    if kind in ("effective date", "payment date", "record date"):
        # another day of the same year: a different signing date, not a different period
        m = EN_DATE.search(value)
        if m is None:
            return None
        month, day, year = MONTHS[m.group(1)], int(m.group(2)), int(m.group(3))
        if rng.random() < 0.5:
            last = calendar.monthrange(year, month)[1]
            days = [d for d in range(1, last + 1) if abs(d - day) >= 3]
            return f"{m.group(1)} {rng.choice(days)}, {year}"
        names = list(MONTHS)[:12]
        other = rng.choice([n for n in names if MONTHS[n] != month and abs(MONTHS[n] - month) <= 3])
        day = min(day, calendar.monthrange(year, MONTHS[other])[1])
        return f"{other} {day}, {year}"
    if kind == "covenant":  # a tighter or looser threshold, as precise as the original
        places = len(value.partition(".")[2])
        step = (
            Decimal(rng.choice(("0.25", "0.50", "0.75"))) if places else Decimal(rng.choice((1, 2)))
        )
        new = Decimal(value) + step * rng.choice((1, -1))
        return f"{new:.{places}f}" if new > 0 else None
    if kind in ("exercise price", "conversion price", "dividend amount"):
        m = re.search(r"\d[\d,]*(?:\.\d+)?", value)
        token = bump_digit(m.group(0), rng) if m else None
        return value[: m.start()] + token + value[m.end() :] if token else None
    if kind == "amount":
        m = re.search(r"\d[\d,]*(?:\.\d+)?", value)
        token = bump_digit(m.group(0), rng) if m else None
        return value[: m.start()] + token + value[m.end() :] if token else None
    return None


def _plural(subject: str) -> bool:
    return bool(
        re.search(r"(?:Notes|notes|Loans|loans|Debentures|Bonds|Warrants|facilities)$", subject)
    )


# restatements of a stipulation in new words, by kind and by what the subject is
_RESTATE = {
    ("rate", "debt"): (
        "Interest on the {subj} accrues at {val} per annum.",
        "The {subj} {carry} a stated interest rate of {val}.",
        "Under its terms, the {subj} {bear} interest at {val}.",
    ),
    ("maturity", "debt"): (
        "The {subj} {be} scheduled to mature on {val}.",
        "All amounts outstanding under the {subj} are due on {val}.",
    ),
    ("maturity", "program"): (
        "The {subj} {expire} on {val}.",
        "Repurchases under the {subj} may be made until {val}.",
    ),
    ("amount", "debt"): (
        "The {subj} {provide} for borrowings of up to {val}.",
        "Total commitments under the {subj} amount to {val}.",
    ),
    ("amount", "notes"): (
        "The {subj} {have} an aggregate principal amount of {val}.",
        "The principal amount of the {subj} totals {val}.",
    ),
    ("rate", "notes"): (
        "Interest on the {subj} accrues at {val} per annum.",
        "The {subj} {carry} a stated interest rate of {val}.",
    ),
    ("maturity", "notes"): (
        "The {subj} {be} scheduled to mature on {val}.",
        "The {subj} {become} due on {val}.",
    ),
    ("exercise price", "warrants"): (
        "The {subj} {be} exercisable at {val} per share.",
        "Holders may exercise the {subj} at {val} per share.",
    ),
    ("maturity", "warrants"): ("The {subj} {expire} on {val}.",),
    ("effective date", "debt"): (
        "The Company entered into the {subj} on {val}.",
        "The {subj} {was} signed on {val}.",
    ),
    ("effective date", "notes"): ("The {subj} {was} entered into on {val}.",),
    ("effective date", "program"): ("The {subj} {was} entered into on {val}.",),
    ("maturity", "lease"): (
        "The {subj} {expire} on {val}.",
        "The {subj} {be} set to expire on {val}.",
    ),
    ("conversion price", "notes"): (
        "The {subj} {be} convertible at a conversion price of {val} per share.",
        "Holders may convert the {subj} at a conversion price of {val} per share.",
    ),
    ("dividend amount", "dividend"): (
        "The {subj} {be} {val} per share.",
        "The {subj} amounts to {val} per share.",
    ),
    ("payment date", "dividend"): (
        "The {subj} {be} payable on {val}.",
        "The {subj} {be} to be paid on {val}.",
    ),
    ("record date", "dividend"): (
        "The {subj} {be} payable to shareholders of record as of {val}.",
        "The {subj} goes to stockholders of record on {val}.",
    ),
    ("covenant", "covenant"): (
        "The financial covenants set a {subj} of {val}.",
        "Under its credit agreement, the Company must observe a {subj} of {val}.",
    ),
    ("amount", "program"): (
        "The {subj} {permit} repurchases of up to {val}.",
        "Under the {subj}, the Company may repurchase shares worth up to {val}.",
    ),
}


# ... and in the forms that follow how the first statement puts it
_DATED = ("The {subj} {be} dated as of {val}.",)
_DUE_IN = ("The {subj} {be} scheduled to mature in {val}.", "The {subj} {become} due in {val}.")
_EXPIRES_IN = ("The {subj} {expire} in {val}.", "The {subj} {be} set to expire in {val}.")
_PAID = ("The {subj} {was} paid on {val}.", "The {subj} {was} paid to shareholders on {val}.")
_CEILING = ("The {subj} {provide} for borrowings of up to {val}.",)
RESTATE_FORMS = _DATED + _DUE_IN + _EXPIRES_IN + _PAID + _CEILING


def _stip_key(st: Any) -> object:
    from finprobe.benchmarks.fined.matchers import _stip_value

    return _stip_value(st.kind, st.value)


def _restatement(
    kind: str, subject: str, value: str, rng: random.Random, form: str = ""
) -> str | None:
    plural = _plural(subject)
    what = (
        "covenant"
        if kind == "covenant"
        else "dividend"
        if re.search(r"[Dd]ividends?$", subject)
        else "lease"
        if re.search(r"[Ll]ease$", subject)
        else "program"
        if re.search(r"[Pp]rogram$", subject)
        else "warrants"
        if re.search(r"Warrants?$", subject)
        else "notes"
        if re.search(r"(?:[Nn]otes?|Debentures|Bonds)$", subject)
        else "debt"
    )
    if kind == "effective date" and what == "warrants":
        return None
    if kind == "effective date" and form == "dated":
        templates: tuple[str, ...] = _DATED
    elif kind == "maturity" and not EN_DATE.search(value):  # "in August 2024", "in 2026"
        templates = _DUE_IN if what not in ("program", "lease") else _EXPIRES_IN
    elif kind == "payment date" and form == "paid":
        templates = _PAID
    elif kind == "amount" and form == "ceiling" and what == "notes":
        templates = _CEILING
    else:
        templates = _RESTATE.get((kind, what), ())
    if not templates:
        return None
    verbs = {
        "carry": "carry" if plural else "carries",
        "bear": "bear" if plural else "bears",
        "be": "are" if plural else "is",
        "expire": "expire" if plural else "expires",
        "provide": "provide" if plural else "provides",
        "permit": "permit" if plural else "permits",
        "have": "have" if plural else "has",
        "become": "become" if plural else "becomes",
        "was": "were" if plural else "was",
        "run": "run" if plural else "runs",
    }
    return rng.choice(templates).format(subj=subject, val=value, **verbs)


# text (one sentence or more) between a statement and a restatement placed near it
_NEAR_GAP = 150


def _distant(paragraph_end: int, s: SentenceSpan, gap: int) -> bool:
    return paragraph_end > s.end + gap or paragraph_end + gap < s.start


# a stipulation a later agreement changed: "amended", "increased the ... to", "extended"...
# (not a possibility: "it may be extended, suspended or discontinued")
_SUPERSEDED = re.compile(
    r"(?<!may be )(?<!can be )(?<!could be )(?<!, )(?<!or )"
    r"\b(?:amend\w*|increased|decreased|extended|extension|replaced|refinanc\w*"
    r"|terminated|upsiz\w*|reduced|modified|restated|superseded|renew\w*|adjust\w*)\b",
    re.I,
)


def superseded(subject: str, document: str) -> bool:
    """Does a sentence of the document that names the subject say its terms were changed
    (amended, increased, extended, replaced...)? Then which value holds is not clear-cut."""
    from finprobe.benchmarks.fined.matchers import stipulations
    from finprobe.benchmarks.fined.review import _prose_sentences

    subj = subject.lower()
    for x in _prose_sentences(document):
        low = x.lower()
        if subj not in low:
            continue
        # a sentence that states the term as it stands after the change ("The Norton facility
        # lease was renewed in February 2021, expires in February 2026") gives one value; any
        # other value the document gives makes the subject ambiguous (checked by the caller)
        after = [st.start for st in stipulations(x) if st.subject.lower() == subj]
        for change in _SUPERSEDED.finditer(x):
            if any(a > change.end() for a in after):
                continue
            for m in re.finditer(re.escape(subj), low):
                a, b = sorted((change.start(), m.start()))
                between = x[a:b]
                # the change word belongs to this subject: near it, with no other agreement,
                # facility or note named in between ("Upsize of ... ABL ... Senior Notes" is
                # the ABL's change, not the notes')
                if b - a <= 120 and not _OTHER_SUBJECT.search(between.replace(subject, "")):
                    return True
    return False


_OTHER_SUBJECT = re.compile(
    r"\b(?:[Aa]greement|[Ff]acility|[Nn]otes?|[Ll]oans?|[Ll]ine of [Cc]redit|[Ii]ndenture|[Pp]rogram"
    r"|[Ww]arrants?|[Ll]ease)\b"
)


def _value_elsewhere(kind: str, value: str, document: str) -> bool:
    """Is the new value (or, for an amount or a rate, its bare figure) already in the document?"""
    if value in document:
        return True
    if kind in ("maturity", "effective date", "payment date", "record date"):
        return False
    if kind == "rate":  # a rate is a figure with its % sign (a bare "6" is in every document)
        figure = value.rstrip("%").strip()
        return bool(re.search(rf"(?<![\d.,]){re.escape(figure)}\s?(?:%|percent)", document))
    m = re.search(r"\d+(?:,\d{3})*(?:\.\d+)?", value)
    figure = m.group(0) if m else ""
    return bool(figure) and re.search(rf"(?<![\d.,]){re.escape(figure)}(?![\d]|[.,]\d)", document)


def names(text: str, subject: str) -> bool:
    """Does the text name the subject itself, not a longer name that ends with it ("Stock
    Purchase Agreement" does not name the "Purchase Agreement")?"""
    for m in re.finditer(rf"\b{re.escape(subject)}\b", text, re.I):
        before = text[: m.start()].rstrip().split()
        # nor the tail of a longer name joined by "of"/"to" ("Warrants to Purchase Shares of
        # Series M-3 Preferred Stock Agreement")
        joined = (
            len(before) >= 2
            and before[-1] in ("of", "to", "for", "and")
            and before[-2][:1].isupper()
        )
        if joined:
            continue
        if not before or not before[-1][:1].isupper() or before[-1] in ("The", "A", "An", "Our"):
            return True
    return False


def _insertable(p: tuple[str, int, str], subject: str) -> bool:
    """A paragraph a restatement may close: it names the subject and ends a sentence, so it
    is neither a lead-in to what follows ("...in the following table:") nor cut by a page
    break mid-sentence ("As of February 29, 2024," then the page number)."""
    return names(p[2], subject) and bool(re.search(r"[.!?。！？][”\"’')]*$", p[2].rstrip()))


def clause_conflict_candidates(
    sentences: list[SentenceSpan],
    paragraphs: list[tuple[str, int, str]],
    rng: random.Random,
    document: str = "",
) -> list[Injection]:
    """Two statements of the same stipulation (a rate, a maturity date, a committed amount of a
    named agreement or debt) that cannot both hold.

    Where the document already states the stipulation twice, the later statement is changed;
    otherwise a restatement with another value (new wording, not a copy) goes at the end of
    the farthest paragraph that names the same agreement.
    ``sentences``: the document's prose sentences; ``paragraphs``: (block id, end offset, text)
    of the paragraphs a sentence may be added to (the caller leaves out those right before a
    table); ``document``: the whole text. A subject whose terms the document says were amended
    is skipped, and so is a new value that is already a figure of the document.
    """
    document = document or "\n\n".join(p[2] for p in paragraphs)
    from finprobe.benchmarks.fined.matchers import stipulations

    found = [(s, st) for s in sentences if _usable(s) for st in stipulations(s.text)]
    # a subject the document already gives two values of the same kind is ambiguous (two
    # agreements of one name, or terms that changed): which one a restatement contradicts
    # would be unclear
    from finprobe.benchmarks.fined.review import _prose_sentences

    values: dict[tuple[str, str], set[object]] = {}
    everywhere = [st for x in _prose_sentences(document) for st in stipulations(x)]
    for st in everywhere + [st for _, st in found]:
        values.setdefault((st.kind, st.subject.lower()), set()).add(_stip_key(st))
    out: list[Injection] = []
    for i, (s, st) in enumerate(found):
        # one value for the subject, and the statement names the subject itself
        if len(values[(st.kind, st.subject.lower())]) > 1 or not names(s.text, st.subject):
            continue
        if superseded(st.subject, document):
            continue
        # a few draws: the new value must be one the document does not already state
        new_value = None
        for _ in range(4):
            drawn = _shift_value(st.kind, st.value, rng)
            if drawn and drawn != st.value and not _value_elsewhere(st.kind, drawn, document):
                new_value = drawn
                break
        if new_value is None:
            continue
        # a later statement of the same stipulation: change it
        twin = next(
            (
                (s2, st2)
                for s2, st2 in found[i + 1 :]
                if s2.start > s.end
                and st2.kind == st.kind
                and st2.subject.lower() == st.subject.lower()
                and st2.value == st.value
            ),
            None,
        )
        if twin:
            s2, st2 = twin
            out.append(
                Injection(
                    "clause_conflict",
                    s2.text,
                    splice(s2.text, st2.start, st2.end, new_value),
                    s2.start,
                    s2.end,
                    "rule:clause_conflict",
                    {
                        "kind": st.kind,
                        "subject": st.subject,
                        "old": st.value,
                        "new": new_value,
                        "conflicts_with": s.text,
                        # the family is the kind of term (it decides the wording); where
                        # the conflict sits is its placement
                        "family": st.kind,
                        "placement": "stated twice",
                    },
                )
            )
            continue
        # far from the first statement (after it or before it), in a paragraph naming the
        # same agreement
        far = [p for p in paragraphs if _distant(p[1], s, 1500) and _insertable(p, st.subject)]
        # else a paragraph nearer by that names it too, the first statement's own included when
        # other sentences follow it there (another clause of the same passage, never the
        # sentence right after the statement)
        near = [
            p
            for p in paragraphs
            if (p[1] - s.end >= _NEAR_GAP or p[1] + _NEAR_GAP < s.start)
            and _insertable(p, st.subject)
        ]
        # a bare "agreement" or "notes" does not say which one; and a borrowing restatement
        # needs a statement about borrowing (an equity line is also an "agreement")
        # (a defined term is capitalised; a lowercase one needs a full name: "promissory
        # note" may be any of several, "committed revolving credit facility" is one)
        specific = len(st.subject.split()) >= 3 or any(w[:1].isupper() for w in st.subject.split())
        debt_talk = re.search(
            r"borrow|loan|credit|notes?\b|debt|indebtedness|principal", s.text, re.I
        )
        # how the first statement puts it: a ceiling ("up to", "capacity") is restated as a
        # ceiling, not as an outstanding principal; a date an agreement is "dated" as such
        lead = s.text[max(0, st.start - 80) : st.start]
        form = (
            "ceiling"
            if re.search(r"up to|capacity|commitment|authori[sz]", lead, re.I)
            else "dated"
            if re.search(r"\bdated\b", lead)
            else "paid"
            if re.search(r"\bpaid\b", lead)
            else ""
        )
        sentence = _restatement(st.kind, st.subject, new_value, rng, form) if specific else None
        if (
            sentence
            and st.kind == "amount"
            and "program" not in st.subject.lower()
            and not debt_talk
        ):
            sentence = None
        if not (far or near) or sentence is None:
            continue
        places = far or near
        block, end, _ = places[-1] if rng.random() < 0.5 else rng.choice(places)
        out.append(
            Injection(
                "clause_conflict",
                "",
                sentence,
                end,
                end,
                "rule:clause_conflict",
                {
                    "kind": st.kind,
                    "subject": st.subject,
                    "old": st.value,
                    "new": new_value,
                    "conflicts_with": s.text,
                    "joiner": " ",
                    "family": st.kind,
                    "placement": "restated elsewhere" if far else "restated nearby",
                    "inserted_in": block,
                },
                insert=True,
            )
        )
    return out
