"""Error injection: deterministic rule injectors for all 15 subtypes, plus an LLM
in-context injector that works from error seeds (the paper's method).

Rule injectors change one sentence (or insert one, for clause conflicts) and record
what they did; ``filter.check_injection`` then rejects any change that would add a
second, unintended error. Everything is seeded: the same input and seed give the
same benchmark.
"""

from __future__ import annotations

import calendar
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import permutations
from typing import Any

from finprobe.benchmarks.fined.dataset import (
    AnnotatedError,
    FinEDDocument,
    detect_language,
    word_count,
)
from finprobe.benchmarks.fined.filter import check_injection
from finprobe.benchmarks.fined.segment import (
    BlockSpan,
    SentenceSpan,
    calculation_segments,
    figures,
    knowledge_segments,
    reasoning_segments,
    split_sentences,
)
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS, TAXONOMY
from finprobe.numbers import find_numbers


@dataclass
class Change:
    modified: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Injection:
    subtype: str
    original: str  # "" when a sentence is inserted
    modified: str
    start: int  # offset of the original sentence (insertion point when inserted)
    end: int
    injector: str
    detail: dict[str, Any] = field(default_factory=dict)
    insert: bool = False


@dataclass
class SourceText:
    """A document ready for injection: plain text plus the blocks it was made from."""

    id: str
    text: str
    blocks: list[BlockSpan]
    language: str
    scene: str | None = None
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    _sentence_cache: dict[str, list[SentenceSpan]] = field(default_factory=dict, repr=False)


# ----------------------------------------------------------------------------- assembling sources


def source_from_text(
    text: str, doc_id: str, scene: str | None = None, title: str = "", language: str | None = None
) -> SourceText:
    """Plain text (e.g. a Chinese announcement): paragraphs are its non-empty lines."""
    blocks = []
    pos = 0
    for i, line in enumerate(text.split("\n")):
        if line.strip():
            kind = "table" if line.lstrip().startswith("|") else "paragraph"
            blocks.append(BlockSpan(f"p{i}", kind, pos, pos + len(line)))
        pos += len(line) + 1
    return SourceText(doc_id, text, blocks, language or detect_language(text), scene, title)


def source_from_document(
    doc: Any, max_words: int = 4500, scene: str | None = "annual_report"
) -> SourceText:
    """A window of a FinancialDocument (MD&A first when present) as text with markdown tables."""
    from finprobe.document import Paragraph, mdna_blocks

    blocks = list(doc.blocks)
    mdna = mdna_blocks(doc)
    start = blocks.index(mdna[0]) if mdna and mdna[0] in blocks else len(blocks) // 3
    parts: list[str] = []
    spans: list[BlockSpan] = []
    pos = words = 0
    for b in blocks[start:] + blocks[:start]:
        if isinstance(b, Paragraph):
            body, kind = b.text.strip(), "paragraph"
        else:
            body, kind = b.to_markdown().strip(), "table"
        if not body:
            continue
        w = word_count(body)
        if parts and words + w > max_words:
            break
        spans.append(BlockSpan(b.id, kind, pos, pos + len(body), getattr(b, "section", None)))
        parts.append(body)
        pos += len(body) + 2
        words += w
    text = "\n\n".join(parts)
    meta = {k: v for k, v in doc.metadata.items() if isinstance(v, str | int | float)}
    title = f"{meta.get('company', doc.id)} {meta.get('report_type', '')} {meta.get('filing_date', '')}".strip()
    return SourceText(doc.id, text, spans, "en", scene, title, meta)


# ----------------------------------------------------------------------------- helpers

_MONTHS = {m: i for i, m in enumerate(calendar.month_name) if m}
_MONTH_RE = "|".join(_MONTHS)
_EN_DATE = re.compile(rf"\b({_MONTH_RE}) (\d{{1,2}}), (\d{{4}})\b")
_ZH_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")


def _dec(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _bump_digit(token: str, rng: random.Random) -> str | None:
    """Change one significant digit of a written number (keeps its format and digit count)."""
    digits = [i for i, ch in enumerate(token) if ch.isdigit()]
    if len(digits) < 2:
        return None
    # the second significant digit: a visible but plausible change
    first_nonzero = next((k for k, i in enumerate(digits) if token[i] != "0"), 0)
    k = min(first_nonzero + 1, len(digits) - 1)
    i = digits[k]
    old = int(token[i])
    new = (old + rng.choice((2, 3, 4, 5, 6, 7))) % 10
    return token[:i] + str(new) + token[i + 1 :]


def _cap(template: str, like: str) -> str:
    return template[:1].upper() + template[1:] if like[:1].isupper() else template


# ----------------------------------------------------------------------------- sentence injectors
# Each takes (sentence, language, rng) and returns a Change or None.


def inject_illegal_time(s: str, lang: str, rng: random.Random) -> Change | None:
    m = _EN_DATE.search(s)
    if m:
        month = _MONTHS[m.group(1)]
        bad = calendar.monthrange(int(m.group(3)), month)[1] + 1
        new = f"{m.group(1)} {bad}, {m.group(3)}"
        return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    m = _ZH_DATE.search(s)
    if m:
        y, mo = int(m.group(1)), int(m.group(2))
        if not 1 <= mo <= 12:
            return None
        bad = calendar.monthrange(y, mo)[1] + 1
        new = f"{y}年{mo}月{bad}日"
        return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    return None


def inject_redundant_statement(s: str, lang: str, rng: random.Random) -> Change | None:
    sep = "，" if lang == "zh" else ", "
    parts = s.split(sep)
    if len(parts) < 3:
        return None
    # a middle clause with some content, repeated right after itself
    choices = [
        i
        for i in range(1, len(parts) - 1)
        if 8 <= len(parts[i]) <= 90
        and (lang == "zh" or len(parts[i].split()) >= 2)
        and re.search(r"[^\W\d]", parts[i])
    ]
    if not choices:
        return None
    i = rng.choice(choices)
    new_parts = parts[: i + 1] + [parts[i]] + parts[i + 1 :]
    return Change(sep.join(new_parts), {"repeated": parts[i]})


_PHONE = re.compile(r"\(?\b\d{3}\)?[ .-]\d{3}-\d{4}\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b")
_URL = re.compile(r"\b(?:https?://)?www\.[\w-]+(?:\.[\w-]+)*\.(?:com|gov|org|net|cn)\b")
_ZIP = re.compile(r"\b([A-Z]{2}) (\d{5})\b")
_ZH_POST = re.compile(r"(邮\s*编|邮政编码)([：:为]?\s*)(\d{6})")
_ZH_PHONE = re.compile(r"(电话|联系方式|手机)([：:]?\s*)(\d{3,4}-?\d{7,8}|1\d{10})")
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])")


def inject_value_format_error(s: str, lang: str, rng: random.Random) -> Change | None:
    for rx, fix in (
        (_ZH_POST, lambda m: m.group(1) + m.group(2) + m.group(3)[:5]),
        (_ZH_PHONE, lambda m: m.group(1) + m.group(2) + m.group(3)[:-3]),
        (_PHONE, lambda m: m.group(0)[:-2]),
        (_EMAIL, lambda m: m.group(0).replace("@", "", 1)),
        (_URL, lambda m: m.group(0).rsplit(".", 1)[0]),
        (_ZIP, lambda m: f"{m.group(1)} {m.group(2)[:4]}"),
    ):
        m = rx.search(s)
        if m:
            new = fix(m)
            return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    m = _THOUSANDS.search(s)
    if m and lang == "en":
        digits = m.group(0).replace(",", "")
        new = digits[:1] + "," + digits[1:]  # a separator in the wrong place
        return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    return None


_CORE = re.compile(r"[$€£¥]?\s?\(?\d[\d,]*(?:\.\d+)?\)?\s?")


def _figure_spans(s: str) -> list[Any]:
    return [n for n in find_numbers(s) if n.kind not in ("year", "date", "ordinal", "other")]


def inject_numerical_missing(s: str, lang: str, rng: random.Random) -> Change | None:
    spans = [n for n in _figure_spans(s) if _CORE.match(n.text)]
    if not spans:
        return None
    n = rng.choice(spans)
    rest = _CORE.sub("", n.text, count=1)
    new = (
        (s[: n.start] + rest + s[n.end :])
        if rest
        else (s[: n.start].rstrip() + " " + s[n.end :].lstrip())
    )
    if lang == "zh":
        new = s[: n.start] + rest + s[n.end :]
    return Change(re.sub(r"  +", " ", new), {"removed": n.text})


_ENUM = re.compile(
    r"\b([a-z][a-z\s'&-]{2,40}), ([a-z][a-z\s'&-]{2,40}),? (and|or) ([a-z][a-z\s'&-]{2,40})\b"
)
_FIELD = re.compile(r"^([A-Z][\w ]{2,30}): ([^\d;:]{2,60}?)([;.]|$)")
_ZH_FIELD = re.compile(r"([\u4e00-\u9fff]{2,10})([：:])\s*([^；;。：:\d，,]{2,40})")
_ZH_ENUM = re.compile(r"([\u4e00-\u9fff]{2,8})、([\u4e00-\u9fff]{2,8})、([\u4e00-\u9fff]{2,8})")


def inject_non_numerical_value_missing(s: str, lang: str, rng: random.Random) -> Change | None:
    if lang == "zh":
        m = _ZH_FIELD.search(s)
        if m:
            return Change(
                s[: m.start(3)] + s[m.end(3) :], {"removed": m.group(3), "field": m.group(1)}
            )
        m = _ZH_ENUM.search(s)
        if m:
            return Change(s[: m.start(2)] + s[m.end(2) :], {"removed": m.group(2)})
        return None
    m = _FIELD.search(s)
    if m:
        return Change(s[: m.start(2)] + s[m.end(2) :], {"removed": m.group(2), "field": m.group(1)})
    m = _ENUM.search(s)
    if m and not re.search(r"\b(?:and|or)\b", m.group(1) + " " + m.group(2)):
        return Change(s[: m.start(2)] + s[m.end(2) :], {"removed": m.group(2)})
    return None


_UNIT_SWAPS_EN = (
    (re.compile(r"(?<=\d )square feet\b"), "square inches"),
    (re.compile(r"(?<=\d )acres\b"), "square inches"),
    (re.compile(r"(?<=\d )(?:years)\b(?! ended)"), "hours"),
    (re.compile(r"(?<=\d )months\b"), "minutes"),
    (re.compile(r"(?<=\d )days\b"), "seconds"),
    (re.compile(r"(?<=\d )employees\b"), "employee-hours"),
)
_UNIT_SWAPS_ZH = (
    (re.compile(r"(?<=\d)平方米"), "平方分米"),
    (re.compile(r"(?<=\d)(?:个)?月"), "分钟"),
    (re.compile(r"(?<=\d)(?:日历)?天"), "小时"),
    (re.compile(r"(?<=\d)亿元"), "亿分"),
)


def inject_numerical_unit_error(s: str, lang: str, rng: random.Random) -> Change | None:
    swaps = _UNIT_SWAPS_ZH if lang == "zh" else _UNIT_SWAPS_EN
    for rx, new in swaps:
        m = rx.search(s)
        if m:
            return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    return None


# (pattern, replacement, cue that must also be in the sentence): a curated list of
# term pairs where the swap is wrong in that context.
TERM_SWAPS: tuple[tuple[str, str, str | None], ...] = (
    ("equity financing", "debt financing", None),
    ("debt financing", "equity financing", None),
    ("price-to-earnings", "price-to-book", None),
    ("price-to-book", "price-to-earnings", None),
    ("accounts receivable", "accounts payable", r"customer"),
    ("accounts payable", "accounts receivable", r"supplier|vendor"),
    ("amortization", "depreciation", r"intangible"),
    ("depreciation", "amortization", r"property(?:,)? (?:plant )?and equipment"),
    ("gross margin", "net margin", r"cost of (?:sales|revenue|goods)"),
    ("operating activities", "financing activities", r"collections|customers"),
    ("investing activities", "operating activities", r"capital expenditures|purchases of property"),
    ("financing activities", "investing activities", r"repurchase|dividends|borrowings"),
    ("diluted", "basic", r"dilutive"),
    ("unrealized", "realized", r"available-for-sale|other comprehensive"),
    ("股权融资", "债权融资", None),
    ("债权融资", "股权融资", None),
    ("市盈率", "市净率", None),
    ("市净率", "市盈率", None),
    ("应收账款", "应付账款", r"客户"),
    ("毛利率", "净利率", r"营业成本|成本"),
)


def inject_terminology_misuse(s: str, lang: str, rng: random.Random) -> Change | None:
    for old, new, cue in TERM_SWAPS:
        m = re.search(rf"(?<![\w-]){re.escape(old)}(?![\w-])", s, re.I)
        if m and (cue is None or re.search(cue, s, re.I)):
            return Change(
                s[: m.start()] + _cap(new, m.group(0)) + s[m.end() :],
                {"old": m.group(0), "new": new},
            )
    return None


# (pattern, wrong replacement, cue): citations whose replacement does not govern the matter.
LEGAL_SWAPS: tuple[tuple[str, str, str | None], ...] = (
    (r"ASC 842", "ASC 606", r"lease"),
    (r"ASC 606", "ASC 842", r"revenue"),
    (r"ASC 740", "ASC 718", r"income tax"),
    (r"ASC 718", "ASC 740", r"stock-based|share-based"),
    (r"Section 404 of the Sarbanes-Oxley Act", "Section 404 of the Internal Revenue Code", None),
    (
        r"Securities Exchange Act of 1934",
        "Investment Company Act of 1940",
        r"Section 1[35]|Rule 1[03]",
    ),
    (
        r"Securities Act of 1933",
        "Trust Indenture Act of 1939",
        r"registration|Rule 144|Regulation D",
    ),
    (r"Internal Revenue Code of 1986", "Internal Revenue Code of 1954", None),
    (r"Tax Cuts and Jobs Act", "Inflation Reduction Act", r"2017"),
    (r"《中华人民共和国社会保险法》", "《政府投资条例》", None),
    (r"《中华人民共和国招标投标法》", "《中华人民共和国商业银行法》", None),
    (r"《中华人民共和国政府采购法》", "《中华人民共和国保险法》", None),
    (r"《中华人民共和国公司法》", "《中华人民共和国物权法》", None),
    (r"《中华人民共和国证券法》", "《中华人民共和国合同法》", None),
    (r"《中华人民共和国保险法》", "《中华人民共和国招标投标法》", None),
)


def inject_incorrect_legal_reference(s: str, lang: str, rng: random.Random) -> Change | None:
    for old, new, cue in LEGAL_SWAPS:
        m = re.search(old, s)
        if m and (cue is None or re.search(cue, s, re.I)):
            return Change(s[: m.start()] + new + s[m.end() :], {"old": m.group(0), "new": new})
    return None


_OBLIGATION_EN = re.compile(
    r"\b(?:shall|must|is required to|are required to|will not|may not|is obligated)\b"
)
_OBLIGATION_ZH = re.compile(r"应当|必须|不得|须|应于")
HEDGES_EN = (
    ", except in special circumstances",
    ", unless otherwise determined",
    ", where appropriate",
    ", subject to certain exceptions",
)
HEDGES_ZH = ("，特殊情况除外", "，原则上如此", "，视情况而定")


def inject_ambiguous_expression(s: str, lang: str, rng: random.Random) -> Change | None:
    body = s.rstrip()
    end = len(body)
    while end and body[end - 1] in ".。;；":
        end -= 1
    if lang == "zh":
        if not _OBLIGATION_ZH.search(s):
            return None
        hedge = rng.choice(HEDGES_ZH)
    else:
        if not _OBLIGATION_EN.search(s) or any(h.strip(", ") in s for h in HEDGES_EN):
            return None
        hedge = rng.choice(HEDGES_EN)
    return Change(body[:end] + hedge + body[end:] + s[len(body) :], {"hedge": hedge})


# clause text that may hold decimals and digit groups ("4.1%", "1,234") but stops at a clause break
_CLAUSE = r"(?:[^,;.]|(?<=\d)[.,](?=\d)|,(?= \d{4}\b))*?"
_COMPARISON_EN = re.compile(
    r",? (?:an? (?:increase|decrease|decline|improvement|reduction) of|representing an? (?:increase|decrease) of"
    rf"|compared (?:to|with)|as compared (?:to|with)|up|down)\b{_CLAUSE}\d{_CLAUSE}(?=,(?! \d{{4}}\b)|;|\.(?!\d)|$)"
)
_FROM_BASE_EN = re.compile(
    r"(?<=\d)( million| billion| thousand|%)?( from \$?\d[\d,.]*(?: million| billion| thousand|%)?(?: (?:in|for|during) (?:fiscal )?\d{4})?)"
)
_COMPARISON_ZH = re.compile(
    r"[，,]?(?:同比|环比|较上年|较去年同期)(?:增长|下降|上升|减少|增加)?[\d.]+%"
)


def inject_omitted_financial_element(s: str, lang: str, rng: random.Random) -> Change | None:
    rx = _COMPARISON_ZH if lang == "zh" else _COMPARISON_EN
    m = rx.search(s)
    if m:
        return Change(s[: m.start()] + s[m.end() :], {"removed": m.group(0)})
    if lang == "en":
        m = _FROM_BASE_EN.search(s)
        if m and re.search(r"\b(?:increased|decreased|rose|fell|grew|declined)\b", s):
            return Change(s[: m.start(2)] + s[m.end(2) :], {"removed": m.group(2)})
    return None


_FLIP_EN = {
    "increased": "decreased",
    "decreased": "increased",
    "rose": "fell",
    "fell": "rose",
    "grew": "declined",
    "declined": "grew",
}
_MOVE_EN = re.compile(
    r"\b(increased|decreased|rose|fell|grew|declined)\b([^.;]{0,60}?)\b(?:to|was) (\$?\d[\d,.]*(?: million| billion| thousand|%)?)"
    r"[^.;]{0,40}?\bfrom (\$?\d[\d,.]*(?: million| billion| thousand|%)?)"
)
_MOVE_FROM_EN = re.compile(
    r"\b(increased|decreased|rose|fell|grew|declined)\b[^.;]{0,60}?\bfrom (\$?\d[\d,.]*(?: million| billion| thousand|%)?)"
    r"[^.;]{0,40}?\bto (\$?\d[\d,.]*(?: million| billion| thousand|%)?)"
)
_MOVE_ZH = re.compile(
    r"由([\d.,]+[万亿]?元?)(增长|增加|上升|下降|减少)(?:至|到)([\d.,]+[万亿]?元?)"
)
_FLIP_ZH = {"增长": "下降", "增加": "减少", "上升": "下降", "下降": "增长", "减少": "增加"}


def _value(text: str) -> Decimal | None:
    nums = find_numbers(text)
    return nums[0].number.value if nums else None


def inject_conflicting_expression(s: str, lang: str, rng: random.Random) -> Change | None:
    """Flip a direction word that the sentence's own figures confirm, so words and figures conflict."""
    if lang == "zh":
        m = _MOVE_ZH.search(s)
        if not m:
            return None
        a, b = _value(m.group(1)), _value(m.group(3))
        up = m.group(2) in ("增长", "增加", "上升")
        if a is None or b is None or (b > a) != up or a == b:
            return None
        return Change(s[: m.start(2)] + _FLIP_ZH[m.group(2)] + s[m.end(2) :], {"old": m.group(2)})
    for rx, new_i, old_i in ((_MOVE_EN, 3, 4), (_MOVE_FROM_EN, 3, 2)):
        m = rx.search(s)
        if not m:
            continue
        new_v, old_v = _value(m.group(new_i)), _value(m.group(old_i))
        verb = m.group(1)
        up = verb in ("increased", "rose", "grew")
        if new_v is None or old_v is None or new_v == old_v or (new_v > old_v) != up:
            continue
        return Change(
            s[: m.start(1)] + _FLIP_EN[verb] + s[m.end(1) :], {"old": verb, "new": _FLIP_EN[verb]}
        )
    return None


_COMPARE_YEAR = re.compile(
    r"\b(?:in |for |during )?(?:fiscal (?:year )?)?(20\d\d)\b([^.;]{0,80}?\b(?:compared (?:to|with)|versus|from|over) (?:the (?:prior|previous) year |fiscal (?:year )?)?)(20\d\d)\b"
)
_RANGE_EN = re.compile(
    rf"\b(?:from|between) ({_MONTH_RE}) (\d{{1,2}}), (\d{{4}}),? (?:to|through|and|until) ({_MONTH_RE}) (\d{{1,2}}), (\d{{4}})\b"
)


def inject_time_contradiction(s: str, lang: str, rng: random.Random) -> Change | None:
    if lang == "zh":
        dates = list(_ZH_DATE.finditer(s))
        if len(dates) >= 2 and re.search(r"截止|开标|至|到", s):
            a, b = dates[0], dates[1]
            ya, yb = int(a.group(1)), int(b.group(1))
            if (yb, int(b.group(2)), int(b.group(3))) > (ya, int(a.group(2)), int(a.group(3))):
                new = f"{ya - 1}年{b.group(2)}月{b.group(3)}日"
                return Change(s[: b.start()] + new + s[b.end() :], {"old": b.group(0), "new": new})
        return None
    m = _RANGE_EN.search(s)
    if m and int(m.group(6)) >= int(m.group(3)):
        new_year = str(int(m.group(3)) - 1)
        return Change(
            s[: m.start(6)] + new_year + s[m.end(6) :], {"old": m.group(6), "new": new_year}
        )
    m = _COMPARE_YEAR.search(s)
    if m and int(m.group(3)) < int(m.group(1)):
        new_year = str(int(m.group(1)) + 1)  # the "prior" period is now later than the current one
        return Change(
            s[: m.start(3)] + new_year + s[m.end(3) :], {"old": m.group(3), "new": new_year}
        )
    return None


def _calc_numbers(s: str) -> list[Any]:
    return [n for n in find_numbers(s) if n.kind in ("money", "quantity", "count", "percent")]


def find_calculation(s: str) -> dict[str, Any] | None:
    """A relation among three figures of the sentence that holds as written: a=b+c, a=b-c, or pct=(b-c)/c."""
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
        if ib < ic and abs(va - (vb + vc)) <= tol:
            return {"formula": "a=b+c", "spans": [ia, ib, ic], "tolerance": str(tol)}
        if abs(va - (vb - vc)) <= tol and vc < vb:
            return {"formula": "a=b-c", "spans": [ia, ib, ic], "tolerance": str(tol)}
    return None


# A relation among figures is only a formula when the sentence says so (a total, a change).
CALC_CUE = re.compile(
    r"total|sum|combined|aggregate|increase|decrease|change|compared|representing|growth|合计|共计|总|增长|减少|增加|下降",
    re.I,
)


def inject_calculation_error(s: str, lang: str, rng: random.Random) -> Change | None:
    calc = find_calculation(s) if CALC_CUE.search(s) else None
    if calc is None:
        return None
    nums = _calc_numbers(s)[:8]
    target = nums[calc["spans"][0]]  # change the stated result
    m = re.search(r"\d[\d,]*(?:\.\d+)?", target.text)
    if not m:
        return None
    for _ in range(6):
        new_token = _bump_digit(m.group(0), rng)
        if new_token is None:
            return None
        new_text = target.text[: m.start()] + new_token + target.text[m.end() :]
        modified = s[: target.start] + new_text + s[target.end :]
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
        from finprobe.benchmarks.fined.filter import verify_calculation

        if verify_calculation(detail)[0]:
            return Change(modified, detail)
    return None


SENTENCE_INJECTORS: dict[str, Callable[[str, str, random.Random], Change | None]] = {
    "illegal_time": inject_illegal_time,
    "redundant_statement": inject_redundant_statement,
    "value_format_error": inject_value_format_error,
    "numerical_missing": inject_numerical_missing,
    "non_numerical_value_missing": inject_non_numerical_value_missing,
    "terminology_misuse": inject_terminology_misuse,
    "incorrect_legal_reference": inject_incorrect_legal_reference,
    "ambiguous_expression": inject_ambiguous_expression,
    "numerical_unit_error": inject_numerical_unit_error,
    "omitted_financial_element": inject_omitted_financial_element,
    "conflicting_expression": inject_conflicting_expression,
    "time_contradiction": inject_time_contradiction,
    "calculation_error": inject_calculation_error,
}
# Whole-document injectors: numerical_inconsistency, clause_conflict (below).
RULE_SUBTYPES: tuple[str, ...] = (*SENTENCE_INJECTORS, "numerical_inconsistency", "clause_conflict")

# Which fragments each subtype is injected into (the paper's segmentation).
SEGMENT_KIND = {s: "knowledge" for s in SUBTYPE_IDS}
SEGMENT_KIND.update(
    {
        "calculation_error": "calculation",
        "numerical_inconsistency": "reasoning",
        "time_contradiction": "reasoning",
        "clause_conflict": "reasoning",
        "conflicting_expression": "reasoning",
    }
)


# ----------------------------------------------------------------------------- document injectors

_NEGATED_EN = (
    (re.compile(r"\b(may|shall|must) not\b"), r"\1"),
    (re.compile(r"\b(is|are) not (permitted|allowed) to\b"), r"\1 \2 to"),
)
_NEGATED_ZH = (
    (re.compile(r"不得"), "可以"),
    (re.compile(r"禁止"), "允许"),
    (re.compile(r"不能"), "可以"),
)


def _block_sentences(src: SourceText, b: BlockSpan) -> list[SentenceSpan]:
    """A block's sentences, cut again at line breaks (a heading line is not part of a sentence)."""
    if b.id not in src._sentence_cache:
        out: list[SentenceSpan] = []
        for s in split_sentences(src.text[b.start : b.end]):
            pos = b.start + s.start
            for line in s.text.split("\n"):
                stripped = line.strip()
                if stripped:
                    lead = len(line) - len(line.lstrip())
                    out.append(SentenceSpan(pos + lead, pos + lead + len(stripped), stripped))
                pos += len(line) + 1
        src._sentence_cache[b.id] = out
    return src._sentence_cache[b.id]


def _sentences_in(src: SourceText, block_ids: tuple[str, ...]) -> list[SentenceSpan]:
    by_id = {b.id: b for b in src.blocks}
    return [
        s
        for bid in block_ids
        if by_id[bid].kind == "paragraph"
        for s in _block_sentences(src, by_id[bid])
    ]


def _usable(s: SentenceSpan) -> bool:
    return 25 <= len(s.text) <= 700 and "|" not in s.text


def clause_conflict_candidates(src: SourceText, seg_blocks: tuple[str, ...]) -> list[Injection]:
    """Negate a prohibition and insert it as a new clause in another, far-away paragraph."""
    if len(seg_blocks) < 2:
        return []
    rules = _NEGATED_ZH if src.language == "zh" else _NEGATED_EN
    by_id = {b.id: b for b in src.blocks}
    out = []
    for s in _sentences_in(src, seg_blocks[:1]):
        if not _usable(s) or re.search(r"\bnor\b|\bnot only\b", s.text):
            continue
        for rx, repl in rules:
            if rx.search(s.text):
                conflicting = rx.sub(repl, s.text, count=1)
                target = by_id[seg_blocks[-1]]
                joiner = "" if src.language == "zh" else " "
                out.append(
                    Injection(
                        "clause_conflict",
                        "",
                        conflicting,
                        target.end,
                        target.end,
                        "rule:clause_conflict",
                        {"conflicts_with": s.text, "joiner": joiner},
                        insert=True,
                    )
                )
                break
    return out


def numerical_inconsistency_candidates(
    src: SourceText, seg_blocks: tuple[str, ...], rng: random.Random
) -> list[Injection]:
    """Change one occurrence of a figure that the document states in two places."""
    if len(seg_blocks) < 2:
        return []
    first = {f for s in _sentences_in(src, seg_blocks[:1]) for f in figures(s.text)}
    out = []
    for s in _sentences_in(src, seg_blocks[1:]):
        if not _usable(s):
            continue
        for n in find_numbers(s.text):
            if n.kind in ("year", "date", "ordinal", "other") or n.text not in first:
                continue
            m = re.search(r"\d[\d,]*(?:\.\d+)?", n.text)
            token = _bump_digit(m.group(0), rng) if m else None
            if token is None:
                continue
            new_text = n.text[: m.start()] + token + n.text[m.end() :]
            modified = s.text[: n.start] + new_text + s.text[n.end :]
            out.append(
                Injection(
                    "numerical_inconsistency",
                    s.text,
                    modified,
                    s.start,
                    s.end,
                    "rule:numerical_inconsistency",
                    {"old": n.text, "new": new_text, "also_stated_in": seg_blocks[0]},
                )
            )
            break
    return out


# ----------------------------------------------------------------------------- the planner


def rule_candidates(
    src: SourceText, rng: random.Random, per_subtype: int = 8
) -> dict[str, list[Injection]]:
    """Up to ``per_subtype`` checked candidate injections per subtype, from the right fragments."""
    knowledge = knowledge_segments(src.blocks)
    calculation = calculation_segments(src.text, src.blocks)
    reasoning = reasoning_segments(src.text, src.blocks)
    # far-apart pairs (reasoning segments) also give sentence-level reasoning injectors context
    fragments = {
        "knowledge": [s.blocks for s in knowledge],
        "calculation": [s.blocks for s in calculation],
        "reasoning": [s.blocks for s in reasoning] or [s.blocks for s in knowledge],
    }
    out: dict[str, list[Injection]] = {}
    for subtype in RULE_SUBTYPES:
        kind = SEGMENT_KIND[subtype]
        frags = list(fragments[kind])
        rng.shuffle(frags)
        found: list[Injection] = []
        seen: set[int] = set()
        for blocks in frags:
            if len(found) >= per_subtype:
                break
            if subtype == "numerical_inconsistency":
                cands = numerical_inconsistency_candidates(src, blocks, rng)
            elif subtype == "clause_conflict":
                cands = clause_conflict_candidates(src, blocks)
            else:
                cands = []
                sentences = _sentences_in(src, blocks if kind != "reasoning" else blocks[:1])
                for s in sentences:
                    if not _usable(s) or s.start in seen:
                        continue
                    change = SENTENCE_INJECTORS[subtype](s.text, src.language, rng)
                    if change is not None:
                        cands.append(
                            Injection(
                                subtype,
                                s.text,
                                change.modified,
                                s.start,
                                s.end,
                                f"rule:{subtype}",
                                change.detail,
                            )
                        )
            for c in cands:
                ok, why = check_injection(
                    c.subtype, c.original, c.modified, src.text, c.start, c.end, c.detail, c.insert
                )
                if ok and c.start not in seen:
                    seen.add(c.start)
                    found.append(c)
        if found:
            out[subtype] = found
    return out


def choose_injections(
    candidates: dict[str, list[Injection]],
    rng: random.Random,
    max_errors: int = 4,
    global_counts: Counter | None = None,
) -> list[Injection]:
    """At most ``max_errors`` injections, rarest subtypes (so far in the corpus) first, no overlaps."""
    counts = global_counts if global_counts is not None else Counter()
    order = sorted(candidates, key=lambda s: (counts[s], rng.random()))
    chosen: list[Injection] = []
    for subtype in order:
        if len(chosen) >= max_errors:
            break
        for c in rng.sample(candidates[subtype], len(candidates[subtype])):
            overlaps = any(
                c.start < o.end + 1
                and o.start < c.end + 1
                or c.modified in o.modified
                or o.modified in c.modified
                for o in chosen
            )
            if not overlaps:
                chosen.append(c)
                break
    return chosen


def apply_injections(
    src: SourceText, injections: list[Injection], doc_id: str | None = None
) -> FinEDDocument:
    """Write the injections into the text (right to left) and annotate each error at its final offset."""
    text = src.text
    for inj in sorted(injections, key=lambda i: (i.start, i.insert), reverse=True):
        if inj.insert:
            joiner = inj.detail.get("joiner", " ")
            text = text[: inj.start] + joiner + inj.modified + text[inj.start :]
        else:
            text = text[: inj.start] + inj.modified + text[inj.end :]
    errors = []
    cursor_shift = 0
    for inj in sorted(injections, key=lambda i: (i.start, not i.insert)):
        if inj.insert:
            start = inj.start + cursor_shift + len(inj.detail.get("joiner", " "))
            cursor_shift += len(inj.detail.get("joiner", " ")) + len(inj.modified)
        else:
            start = inj.start + cursor_shift
            cursor_shift += len(inj.modified) - (inj.end - inj.start)
        assert text[start : start + len(inj.modified)] == inj.modified
        errors.append(
            AnnotatedError(
                sentence=inj.modified,
                subtype=inj.subtype,
                original=inj.original,
                start=start,
                source=inj.injector,
                detail=inj.detail,
            )
        )
    return FinEDDocument(
        id=doc_id or src.id,
        text=text,
        scene=src.scene,
        language=src.language,
        errors=errors,
        title=src.title,
        metadata={**src.metadata, "words": word_count(text)},
    )


def inject_rules(
    src: SourceText, seed: int = 0, max_errors: int = 4, global_counts: Counter | None = None
) -> FinEDDocument:
    """The rule pipeline for one document: segment, generate candidates, filter, choose, apply."""
    rng = random.Random(f"{seed}:{src.id}")
    chosen = choose_injections(rule_candidates(src, rng), rng, max_errors, global_counts)
    if global_counts is not None:
        global_counts.update(i.subtype for i in chosen)
    return apply_injections(src, chosen)


# ----------------------------------------------------------------------------- LLM in-context injection

LLM_INJECT_PROMPT = """You help build a benchmark of errors in financial documents by planting one realistic error.

Error type: {name} ({category})
Definition: {definition}
Seed examples of this error (wrong -> right):
{seeds}

Fragment:
{fragment}

Pick ONE sentence of the fragment and rewrite it so that it contains exactly one error of this type and no other error. Keep every other word and number unchanged. Copy the chosen sentence exactly as it appears in the fragment.
Reply with JSON only: {{"original": "<sentence copied from the fragment>", "modified": "<the sentence with the error>"}}"""


def llm_inject_prompt(
    fragment: str, subtype: str, seeds: list[tuple[str, str]] | None = None
) -> str:
    s = TAXONOMY.subtype(subtype)
    pairs = seeds or [(s.example_wrong, s.example_right)]
    seed_text = "\n".join(f"- {w} -> {r}" for w, r in pairs)
    return LLM_INJECT_PROMPT.format(
        name=s.en,
        category=TAXONOMY.category(s.category).en,
        definition=s.definition,
        seeds=seed_text,
        fragment=fragment,
    )


def parse_llm_injection(completion: str) -> tuple[str, str] | None:
    """(original, modified) from the injector model's JSON reply, or None."""
    text = re.sub(r"<think>.*?</think>", "", completion, flags=re.S)
    for m in reversed(list(re.finditer(r"\{[^{}]*\}", text, re.S))):
        try:
            data = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        orig, mod = data.get("original"), data.get("modified")
        if isinstance(orig, str) and isinstance(mod, str) and orig.strip() and mod.strip():
            return orig.strip(), mod.strip()
    return None


async def llm_inject(
    model: Any,
    src: SourceText,
    subtype: str,
    block_ids: tuple[str, ...],
    seeds: list[tuple[str, str]] | None = None,
) -> Injection | None:
    """Ask a model (inspect Model or model name) to plant one error of ``subtype`` in a fragment."""
    from inspect_ai.model import get_model

    by_id = {b.id: b for b in src.blocks}
    fragment = "\n\n".join(src.text[by_id[b].start : by_id[b].end] for b in block_ids)
    m = get_model(model) if isinstance(model, str) else model
    out = await m.generate(llm_inject_prompt(fragment, subtype, seeds))
    parsed = parse_llm_injection(out.completion)
    if parsed is None:
        return None
    original, modified = parsed
    for b in block_ids:
        blk = by_id[b]
        pos = src.text.find(original, blk.start, blk.end)
        if pos >= 0:
            inj = Injection(subtype, original, modified, pos, pos + len(original), f"llm:{m}", {})
            ok, _ = check_injection(
                subtype, original, modified, src.text, inj.start, inj.end, {"formula": None}
            )
            # a model's calculation error has no recorded formula: keep it for the verifier and reviewers
            if (
                ok
                or subtype == "calculation_error"
                and modified not in src.text
                and modified != original
            ):
                return inj
            return None
    return None
