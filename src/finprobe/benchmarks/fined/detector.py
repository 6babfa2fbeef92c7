"""`finprobe/fined-detector`: a rule baseline (no LLM) for what rules can catch.

impossible dates, repeated statements, malformed phone numbers / postcodes / e-mail
and web addresses / digit grouping, empty values and missing figures, totals and
changes that do not add up, one figure stated with two values, periods out of
order, implausible units. Knowledge and most reasoning errors are beyond it.
"""

from __future__ import annotations

import calendar
import re
from collections import defaultdict
from decimal import Decimal
from itertools import permutations
from typing import Any

from finprobe.benchmarks.fined.scorer import Detection, detections_to_json
from finprobe.benchmarks.fined.segment import split_sentences
from finprobe.numbers import find_numbers

_MONTHS = {m: i for i, m in enumerate(calendar.month_name) if m}
_EN_DATE = re.compile(rf"\b({'|'.join(_MONTHS)}) (\d{{1,2}}), (\d{{4}})\b")
_ZH_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")


def _sentences(text: str) -> list[str]:
    out = []
    for s in split_sentences(text):
        out.extend(line.strip() for line in s.text.split("\n") if line.strip())
    return out


def _impossible_date(s: str) -> bool:
    for m in _EN_DATE.finditer(s):
        if (
            int(m.group(2)) > calendar.monthrange(int(m.group(3)), _MONTHS[m.group(1)])[1]
            or int(m.group(2)) == 0
        ):
            return True
    for m in _ZH_DATE.finditer(s):
        y, mo, d = (int(g) for g in m.groups())
        if not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(y, mo)[1]:
            return True
    return bool(re.search(r"(?<!\d)(?:2[4-9]|[3-9]\d)[:：][0-5]\d(?!\d)", s))  # hour beyond 23


def _repeated_clause(s: str) -> bool:
    for sep in (", ", "，", "；", "; "):
        parts = [p.strip() for p in s.split(sep)]
        for a, b in zip(parts, parts[1:], strict=False):
            if a and a == b and (len(a.split()) >= 2 or re.search(r"[\u4e00-\u9fff]{4}", a)):
                return True
    return False


_BAD_FORMAT = (
    re.compile(r"\(\d{3}\) \d{3}-\d{1,3}(?!\d)"),  # US phone number short of digits
    re.compile(r"(?:电话|联系方式|手机)[：:]?\s*(?:\d{1,6}|\d{3,4}-\d{1,6})(?![\d-])"),
    re.compile(r"(?:邮\s*编|邮政编码)[：:为]?\s*(?:\d{1,5}|\d{7,})(?!\d)"),
    re.compile(r"\b[A-Z]{2} \d{4}(?!\d)(?=[\s,.;)]|$)"),  # ZIP code with four digits
    re.compile(r"\bwww\.[\w-]+(?![\w.-]*\.(?:com|gov|org|net|cn|edu|io|co)\b)(?![\w-])"),
    re.compile(r"(?<![\d,.])\d,\d{4,}(?![\d,])"),  # digit grouping in the wrong place
    re.compile(r"(?<![\d,.])\d{1,3},\d{1,2}(?:,\d{3})+(?![\d])"),
    re.compile(
        r"(?:e-?mail|邮箱)[：:\s]+(?:address\s+)?[\w.+-]+\.(?:com|cn|net|org)\b(?<!@)", re.I
    ),
)


def _bad_format(s: str) -> bool:
    if any(rx.search(s) for rx in _BAD_FORMAT):
        # an e-mail pattern must really lack its @
        m = _BAD_FORMAT[-1].search(s)
        return not (m and "@" in m.group(0)) or any(rx.search(s) for rx in _BAD_FORMAT[:-1])
    return False


_MISSING_FIGURE = re.compile(
    r"(?:\b(?:was|were|of|totaled|to|by|is|are|approximately)\s+(?:million|billion|thousand|%)\b)"
    r"|(?:\$\s*(?:million|billion|thousand)\b)|(?:(?:为|达|约|共计|金额)[万亿]?元)|(?:\bwas\s*,)"
)
_EMPTY_VALUE = re.compile(
    r"(?:^|[\s(（])[\w\u4e00-\u9fff ]{2,30}[：:]\s*[;；。]|[\u4e00-\u9fff]{2,10}[：:]\s*$|,\s+,|,\s{2,}(?:and|or)\b|、、|，，"
)


def _missing_figure(s: str) -> bool:
    return bool(_MISSING_FIGURE.search(s))


def _empty_value(s: str) -> bool:
    return bool(_EMPTY_VALUE.search(s))


_CALC_CUE = re.compile(
    r"total|sum|combined|aggregate|increase|decrease|change|compared|representing|growth|合计|共计|增长|减少|增加|下降",
    re.I,
)


def _calc_numbers(s: str) -> list[Any]:
    return [n for n in find_numbers(s) if n.kind in ("money", "quantity", "count", "percent")][:8]


def _calculation_off(s: str) -> bool:
    """Some triple nearly satisfies a sum/difference/growth formula but none satisfies one."""
    if not _CALC_CUE.search(s):
        return False
    nums = _calc_numbers(s)
    if len(nums) < 3:
        return False
    near = False
    for a, b, c in permutations(nums, 3):
        pa = "percent" in a.number.units
        va, vb, vc = a.number.value, b.number.value, c.number.value
        if pa:
            if (
                "percent" in b.number.units
                or "percent" in c.number.units
                or vc <= 0
                or vb <= 0
                or va == 0
            ):
                continue
            tol = max(a.number.precision, Decimal("0.1")) / 2 + abs(va) * Decimal("0.005")
            residual, scale = abs(va - (vb - vc) / vc * 100), abs(va)
        else:
            if (
                any("percent" in x.number.units for x in (a, b, c))
                or min(va, vb, vc) <= 0
                or len({va, vb, vc}) < 3
            ):
                continue
            tol = max(a.number.precision, b.number.precision, c.number.precision)
            residual = min(abs(va - (vb + vc)), abs(va - (vb - vc)))
            scale = abs(va)
        if residual <= tol:
            return False  # a formula holds: the figures are consistent
        if scale and residual / scale <= Decimal("0.3"):
            near = True
    return near


_UNIT_ODD = re.compile(
    r"\b\d[\d,.]*\s+(?:square inches|employee-hours)\b"
    r"|\b(?:next|over|term of|period of|within|following|remaining|first|last)\s+\d[\d,.]*\s+(?:seconds|minutes)\b"
    r"|\d\s*(?:平方分米|亿分)|(?:工期|期限|服务期)[^，。；]{0,10}\d+\s*(?:分钟|秒)"
)


def _implausible_unit(s: str) -> bool:
    return bool(_UNIT_ODD.search(s))


_RANGE = re.compile(
    rf"\b(?:from|between) ({'|'.join(_MONTHS)}) (\d{{1,2}}), (\d{{4}}),? (?:to|through|and|until) ({'|'.join(_MONTHS)}) (\d{{1,2}}), (\d{{4}})\b"
)
_COMPARE_YEAR = re.compile(
    r"\b(20\d\d)\b[^.;]{0,80}?\b(?:compared (?:to|with)|versus) (?:the (?:prior|previous) year |fiscal (?:year )?)?(20\d\d)\b"
)


def _time_out_of_order(s: str) -> bool:
    m = _RANGE.search(s)
    if m:
        a = (int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
        b = (int(m.group(6)), _MONTHS[m.group(4)], int(m.group(5)))
        if b < a:
            return True
    m = _COMPARE_YEAR.search(s)
    if m and int(m.group(2)) > int(m.group(1)):
        return True
    dates = list(_ZH_DATE.finditer(s))
    if (
        len(dates) >= 2
        and re.search(r"截止", s[: dates[0].start()])
        and re.search(r"开标", s[dates[0].end() :])
    ):
        key = [tuple(int(g) for g in d.groups()) for d in dates[:2]]
        return key[1] < key[0]
    return False


def _digit_skeleton(token: str) -> str:
    return re.sub(r"\d", "#", token)


_WORD = re.compile(r"[A-Za-z]{4,}|[\u4e00-\u9fff]{2,}")


def _near_twins(sentences: list[str]) -> set[int]:
    """Later sentences stating a figure that differs in one digit from a figure stated earlier
    in a similar context (a shared word just before it)."""
    seen: dict[tuple[str, str], list[tuple[int, str, set[str]]]] = defaultdict(list)
    flagged: set[int] = set()
    for i, s in enumerate(sentences):
        if "|" in s:
            continue
        for n in find_numbers(s):
            if n.kind in ("year", "date", "ordinal", "other"):
                continue
            token = re.search(r"\d[\d,]*(?:\.\d+)?", n.text)
            if not token or sum(ch.isdigit() for ch in token.group(0)) < 4:
                continue
            t = token.group(0)
            key = (_digit_skeleton(t), n.kind)
            for j, other in seen[key]:
                if (
                    j != i
                    and other != t
                    and sum(x != y for x, y in zip(other, t, strict=True)) == 1
                ):
                    flagged.add(i)
            seen[key].append((i, t))
    return flagged


CHECKS = (
    ("illegal_time", _impossible_date),
    ("redundant_statement", _repeated_clause),
    ("value_format_error", _bad_format),
    ("numerical_missing", _missing_figure),
    ("non_numerical_value_missing", _empty_value),
    ("numerical_unit_error", _implausible_unit),
    ("time_contradiction", _time_out_of_order),
    ("calculation_error", _calculation_off),
)


def detect(text: str) -> list[Detection]:
    """Rule detections for one document: at most one subtype per sentence, first matching check wins."""
    sentences = _sentences(text)
    out: list[Detection] = []
    twins = _near_twins(sentences)
    for i, s in enumerate(sentences):
        if s.lstrip().startswith("|"):  # table rows: the rules are written for prose
            continue
        for subtype, check in CHECKS:
            if check(s):
                out.append(Detection(s, subtype, subtype))
                break
        else:
            if i in twins:
                out.append(Detection(s, "numerical_inconsistency", "numerical_inconsistency"))
    return out


def fined_detector(metadata: dict[str, Any]) -> str:
    """Baseline entry point: sample metadata -> completion text (a JSON list of detections)."""
    return detections_to_json(detect(metadata.get("text", "")))
