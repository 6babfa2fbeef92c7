"""Financial numbers: parse, find in running text, normalise and compare.

One module so every benchmark reads "$1,230 million", "(1,284)", "five percent"
or "1.15亿元" the same way.

Conventions
- ``ParsedNumber.value`` is the signed base value with the scale applied.
  Percent and basis points stay in their own points ("12.5%" -> 12.5, "35 bps"
  -> 35); ``as_fraction()`` divides them out.
- ``precision`` is the place value of the least significant written digit after
  scaling: the last written decimal place when there is a fractional part
  ("152.0" -> 0.1, "$1.2 billion" -> 1e8), otherwise the place of the last
  non-zero digit ("1,230,000" -> 1e4, as in the FAITH paper); zero -> 1 * scale.
- Unit groups come from ``data/units.json``; a user file (argument or the
  ``FINPROBE_UNITS`` environment variable) adds groups or extends aliases.

Not handled (yet): European decimal commas ("1.234,5"), Indian digit grouping,
exponent notation, fractions written in words ("a third").
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from importlib import resources
from pathlib import Path

from finprobe.errors import InputError

__all__ = [
    "MatchResult",
    "NumberSpan",
    "ParsedNumber",
    "UnitGroup",
    "UnitGroups",
    "extract_units",
    "find_numbers",
    "load_unit_groups",
    "parse_number",
    "precision_relaxed_match",
    "reference_scorer_match",
    "released_value_and_resolution",
]

# Enough digits for "$96,773,000,000.12345" divided by 1e-8 without rounding.
_CTX = Context(prec=60)
_ONE = Decimal(1)
_HUNDRED = Decimal(100)
_TEN_THOUSAND = Decimal(10000)

# ---------------------------------------------------------------------------
# Unit groups


@dataclass(frozen=True)
class UnitGroup:
    name: str
    kind: str  # "scale" | "currency" | "percent" | "per_share" | "energy" | "count" | ...
    aliases: tuple[str, ...]  # matched case-insensitively
    case_sensitive: tuple[str, ...] = ()  # short aliases like "M", "B", "mm": exact case only
    factor: Decimal | None = None  # scales only


def _alias_pattern(alias: str) -> str:
    """Regex for one alias: flexible whitespace, word boundaries only where the alias has letters."""
    parts = alias.split()
    body = r"\s+".join(re.escape(part) for part in parts)
    # A letter-initial alias must not continue a word ("MMBOE" is not "M" + "MBOE"),
    # but may follow a digit ("3.6B", "1.2x"). The check sits after the first
    # character so the pattern still starts with a literal, which lets the regex
    # engine skip ahead quickly when scanning.
    if alias[0].isascii() and alias[0].isalpha():
        first = re.escape(alias[0])
        body = first + r"(?<![A-Za-z].)" + body[len(first) :]
    # A word-final alias must not run into more letters or digits ("m2", "Bcfe" vs "Bcf").
    right = r"(?![A-Za-z0-9])" if alias[-1].isascii() and alias[-1].isalnum() else ""
    return body + right


def _norm_alias(text: str) -> str:
    return " ".join(text.split()).lower()


class UnitGroups:
    """Unit groups with their compiled alias tables (build once, reuse)."""

    def __init__(self, groups: list[UnitGroup]) -> None:
        self.groups: tuple[UnitGroup, ...] = tuple(groups)
        self.by_name: dict[str, UnitGroup] = {g.name: g for g in groups}
        self._exact: dict[str, UnitGroup] = {}
        self._folded: dict[str, UnitGroup] = {}
        for g in groups:
            for a in g.aliases:
                self._folded.setdefault(_norm_alias(a), g)
            for a in g.case_sensitive:
                self._exact.setdefault(" ".join(a.split()), g)
        scale_aliases = [(a, False) for g in groups if g.kind == "scale" for a in g.aliases]
        scale_aliases += [(a, True) for g in groups if g.kind == "scale" for a in g.case_sensitive]
        unit_aliases = [(a, False) for g in groups if g.kind != "scale" for a in g.aliases]
        unit_aliases += [(a, True) for g in groups if g.kind != "scale" for a in g.case_sensitive]
        # Currency written before the number: symbols and upper-case codes ("$", "US$", "EUR").
        prefix = [
            (a, True)
            for g in groups
            if g.kind == "currency"
            for a in (*g.aliases, *g.case_sensitive)
            if not a.replace(".", "").isalpha() or (a.isascii() and a.isupper() and len(a) <= 3)
        ]
        # Used with .match(text, pos) after a number, and with .finditer for ExtractUnits.
        self._scale_re = self._compile(scale_aliases)
        self._unit_re = self._compile(unit_aliases)
        alts = self._alternation(prefix)
        self._prefix_re = re.compile(
            r"(?P<open>\(\s?)?(?P<s1>[-−]\s?)?(?P<cur>"
            + alts
            + r")\s?(?P<open2>\(\s?)?(?P<s2>[-−])?\Z"
            if alts
            else r"(?!)"
        )

    @staticmethod
    def _alternation(aliases: list[tuple[str, bool]]) -> str:
        # Longest first so "MMBOE" wins over "MBOE" and "US$" over "$".
        ordered = sorted(set(aliases), key=lambda t: (-len(t[0]), t[0]))
        parts = []
        for alias, exact in ordered:
            pat = _alias_pattern(alias)
            parts.append(f"(?-i:{pat})" if exact else pat)
        return "|".join(parts)

    def _compile(self, aliases: list[tuple[str, bool]]) -> re.Pattern[str]:
        alts = self._alternation(aliases)
        return re.compile("(?i:" + alts + ")") if alts else re.compile(r"(?!)")

    def lookup(self, alias_text: str) -> UnitGroup | None:
        """The group an alias (as written) belongs to; exact-case aliases first."""
        exact = self._exact.get(" ".join(alias_text.split()))
        if exact is not None:
            return exact
        return self._folded.get(_norm_alias(alias_text))

    def __repr__(self) -> str:
        return f"UnitGroups({len(self.groups)} groups)"


def _group_from_json(raw: object, path: Path | str) -> UnitGroup:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise InputError(path, "each unit group needs a string 'name'")
    name = raw["name"]
    aliases = raw.get("aliases", [])
    exact = raw.get("case_sensitive", [])
    if not isinstance(aliases, list) or not isinstance(exact, list):
        raise InputError(path, f"unit group {name!r}: 'aliases' must be a list of strings")
    if not all(isinstance(a, str) and a.strip() for a in [*aliases, *exact]):
        raise InputError(path, f"unit group {name!r}: aliases must be non-empty strings")
    kind = raw.get("kind", "other")
    factor = None
    if kind == "scale":
        try:
            factor = Decimal(str(raw["factor"]))
        except (KeyError, InvalidOperation):
            raise InputError(path, f"scale group {name!r} needs a numeric 'factor'") from None
    return UnitGroup(
        name=name,
        kind=str(kind),
        aliases=tuple(a.strip() for a in aliases),
        case_sensitive=tuple(a.strip() for a in exact),
        factor=factor,
    )


def _read_groups(path: Path | str, text: str) -> list[UnitGroup]:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON (line {exc.lineno}): {exc.msg}") from None
    if not isinstance(raw, list):
        raise InputError(path, "unit groups file must hold a JSON list of groups")
    return [_group_from_json(item, path) for item in raw]


def _merge(base: list[UnitGroup], extra: list[UnitGroup]) -> list[UnitGroup]:
    """A group with a known name adds its aliases (and may change kind/factor); new names append."""
    merged = {g.name: g for g in base}
    for g in extra:
        old = merged.get(g.name)
        if old is None:
            merged[g.name] = g
            continue
        merged[g.name] = UnitGroup(
            name=g.name,
            kind=g.kind if g.kind != "other" else old.kind,
            aliases=old.aliases + tuple(a for a in g.aliases if a not in old.aliases),
            case_sensitive=old.case_sensitive
            + tuple(a for a in g.case_sensitive if a not in old.case_sensitive),
            factor=g.factor if g.factor is not None else old.factor,
        )
    return list(merged.values())


@functools.lru_cache(maxsize=16)
def _load_cached(extra: str | None, env: str | None) -> UnitGroups:
    builtin = resources.files("finprobe").joinpath("data/units.json")
    groups = _read_groups("finprobe/data/units.json", builtin.read_text(encoding="utf-8"))
    for path in (env, extra):
        if not path:
            continue
        p = Path(path)
        if not p.is_file():
            raise InputError(p, "unit groups file not found")
        text = p.read_text(encoding="utf-8")
        if not text.strip():
            raise InputError(p, "unit groups file is empty")
        groups = _merge(groups, _read_groups(p, text))
    return UnitGroups(groups)


def load_unit_groups(extra: Path | None = None) -> UnitGroups:
    """Built-in groups, then FINPROBE_UNITS's file, then ``extra`` (later files extend earlier)."""
    return _load_cached(str(extra) if extra else None, os.environ.get("FINPROBE_UNITS") or None)


def _default_groups() -> UnitGroups:
    return load_unit_groups(None)


# ---------------------------------------------------------------------------
# Parsed numbers


@dataclass(frozen=True)
class ParsedNumber:
    text: str
    value: Decimal
    sign: int
    scale_word: str | None
    scale: Decimal
    units: frozenset[str]
    precision: Decimal

    def as_fraction(self) -> Decimal:
        """Value as a plain fraction: percent / 100, basis points / 10000."""
        if "percent" in self.units:
            return _CTX.divide(self.value, _HUNDRED)
        if "bps" in self.units:
            return _CTX.divide(self.value, _TEN_THOUSAND)
        return self.value

    def fraction_precision(self) -> Decimal:
        """``precision`` on the same footing as ``as_fraction()``."""
        if "percent" in self.units:
            return _CTX.divide(self.precision, _HUNDRED)
        if "bps" in self.units:
            return _CTX.divide(self.precision, _TEN_THOUSAND)
        return self.precision


@dataclass(frozen=True)
class NumberSpan:
    start: int
    end: int
    text: str
    number: ParsedNumber
    # "money" | "percent" | "quantity" | "count" | "year" | "date" | "ordinal" | "other"
    kind: str = field(default="other")


_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip

_SMALL_ALT = "|".join(sorted(_SMALL, key=len, reverse=True))
_TENS_ALT = "|".join(_TENS)
_UNDER_100 = rf"(?:(?:{_TENS_ALT})(?:[- ](?:{_SMALL_ALT}))?|(?:{_SMALL_ALT}))"
_WORD_NUMBER = rf"{_UNDER_100}(?:\s+hundred(?:\s+(?:and\s+)?{_UNDER_100})?)?"

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DATE_RE = re.compile(
    rf"\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"
    rf"|\b\d{{1,2}}\s+{_MONTH}\.?,?\s+\d{{4}}\b"
    rf"|\b{_MONTH}\.?,?\s+\d{{4}}\b"
    r"|\b\d{4}-\d{1,2}-\d{1,2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?|\d{1,2}月\d{1,2}日"
)
# Number cores: grouped digits, plain digits, or number words.
_CORE_RE = re.compile(
    r"(?P<digits>(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)"
    rf"|(?P<words>(?i:\b{_WORD_NUMBER}\b))"
    rf"|(?P<ordword>(?i:\b(?:{'|'.join(_ORDINALS)})\b))"
)
_ORD_SUFFIX_RE = re.compile(r"(?:st|nd|rd|th)\b")
_LABEL_BEFORE_RE = re.compile(
    r"(?:\b(?:Item|Items|Note|Notes|Section|Rule|Level|Tier|Phase|Class|Series|Part|Article"
    r"|Schedule|Exhibit|Form|Chapter|Page|Topic|ASC|ASU|No\.|Nos\.)\s*)\Z",
    re.IGNORECASE,
)
_CURRENCY_SYMBOLS = frozenset("$€£¥￥₹")
_SPACE_RE = re.compile(r"[ \t\u00a0\u202f]*")
_DEAD_TEXT = frozenset({"", "-", "—", "–", "n/a", "na", "nm", "none", "nil", "null"})


def _words_value(words: str) -> int:
    total = 0
    current = 0
    for tok in re.split(r"[\s-]+", words.lower()):
        if tok in _SMALL:
            current += _SMALL[tok]
        elif tok in _TENS:
            current += _TENS[tok]
        elif tok == "hundred":
            current = max(current, 1) * 100
    total += current
    return total


def _digit_precision(digits: str) -> Decimal:
    """Place value of the last significant written digit, before scaling."""
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1]))
    stripped = digits.rstrip("0")
    if not stripped:
        return _ONE
    return Decimal(1).scaleb(len(digits) - len(stripped))


@dataclass
class _Raw:
    """Intermediate result of scanning one number in text."""

    start: int
    end: int
    magnitude: Decimal
    base_precision: Decimal
    negative: bool
    scale_word: str | None
    scale: Decimal
    units: list[str]
    is_words: bool
    plain_core: str
    core_start: int
    core_end: int
    trailing_letters: bool = False
    ordinal: bool = False


def _scan_suffix(
    text: str, pos: int, groups: UnitGroups, allow_close: bool
) -> tuple[int, str | None, Decimal, list[str], bool]:
    """Scale word then up to three units after a number; a ')' closes an accounting negative."""
    scale_word: str | None = None
    scale = _ONE
    units: list[str] = []
    end = pos
    n = len(text)
    closed = False
    for _ in range(5):
        p = _SPACE_RE.match(text, end).end()
        if p >= n:
            break
        if allow_close and not closed and text[p] == ")":
            closed = True
            end = p + 1
            continue
        # Scale word: attached ("3.6B", "350万") or after spaces ("1.23 billion"), and
        # only before any unit ("$(5.2) million" but not "5 shares M").
        if scale_word is None and not units and (m := groups._scale_re.match(text, p)):
            g = groups.lookup(m.group(0))
            u = groups._unit_re.match(text, p)
            # A longer unit alias at the same place wins ("mm" never eats a unit).
            if g is not None and g.factor is not None and not (u and u.end() > m.end()):
                scale_word = m.group(0)
                scale = g.factor
                end = m.end()
                continue
        m = groups._unit_re.match(text, p)
        if not m:
            break
        g = groups.lookup(m.group(0))
        if g is None or g.kind == "scale":
            break
        # A currency symbol after a number opens the next amount ("2023 $1.25").
        if g.kind == "currency" and not _CURRENCY_SYMBOLS.isdisjoint(m.group(0)):
            break
        if g.name not in units:
            units.append(g.name)
        end = m.end()
    return end, scale_word, scale, units, closed


def _scan_at(text: str, core: re.Match[str], groups: UnitGroups) -> _Raw:
    cs, ce = core.span()
    digits = core.group("digits")
    ordinal = False
    if digits is not None:
        plain = digits.replace(",", "")
        magnitude = Decimal(plain)
        base_precision = _digit_precision(plain)
        is_words = False
    elif core.group("words") is not None:
        plain = str(_words_value(core.group("words")))
        magnitude = Decimal(plain)
        base_precision = _digit_precision(plain)
        is_words = True
    else:
        plain = str(_ORDINALS[core.group("ordword").lower()])
        magnitude = Decimal(plain)
        base_precision = _ONE
        is_words = True
        ordinal = True

    start = cs
    negative = False
    open_paren = False
    units: list[str] = []
    # Prefix: optional "(" / sign, a currency, then "(" / sign again: "-$710", "$(5.2)", "US$ 5".
    m = groups._prefix_re.search(text, max(0, cs - 12), cs) if not ordinal else None
    if m:
        if _sign_ok(text, m):
            start = m.start()
            negative = bool(m.group("s1") or m.group("s2"))
            open_paren = bool(m.group("open") or m.group("open2"))
        else:
            # "$5-$10": the hyphen is a range dash, the currency still belongs here.
            start = m.start("cur")
            negative = bool(m.group("s2"))
            open_paren = bool(m.group("open2"))
        cur = groups.lookup(m.group("cur"))
        if cur is not None:
            units.append(cur.name)
    elif not ordinal:
        p = cs
        if p > 0 and text[p - 1] in "-−" and (p < 2 or not _joins(text[p - 2])):
            negative = True
            p -= 1
        # "( 92,291)": split table cells leave a space inside the parenthesis.
        q = p
        while q > 0 and text[q - 1] == " " and p - q < 2:
            q -= 1
        if q > 0 and text[q - 1] == "(":
            open_paren = True
            p = q - 1
        start = p

    end = ce
    trailing = False
    scale_word: str | None = None
    scale = _ONE
    if ordinal:
        pass
    elif digits is not None and (om := _ORD_SUFFIX_RE.match(text, ce)):
        ordinal = True
        end = om.end()
    else:
        end, scale_word, scale, more, closed = _scan_suffix(text, ce, groups, open_paren)
        units.extend(u for u in more if u not in units)
        if open_paren and closed:
            negative = True
        elif open_paren:
            # An unclosed "(" belongs to the prose, not to the number.
            while text[start] in "( ":
                start += 1
        if end == ce and ce < len(text) and text[ce].isascii() and text[ce].isalpha():
            trailing = True
    return _Raw(
        start=start,
        end=end,
        magnitude=magnitude,
        base_precision=base_precision,
        negative=negative,
        scale_word=scale_word,
        scale=scale,
        units=units,
        is_words=is_words,
        plain_core=plain,
        core_start=cs,
        core_end=ce,
        trailing_letters=trailing,
        ordinal=ordinal,
    )


def _joins(before: str) -> bool:
    """A hyphen after this character joins two things ("2019-2023", "10%-15%"): a range
    dash, not a minus sign."""
    return before.isalnum() or before == "%"


def _sign_ok(text: str, m: re.Match[str]) -> bool:
    """A '-' before a currency is a sign only when it does not join two words ("2019-$5")."""
    s = m.start("s1") if m.group("s1") else -1
    if s > 0 and _joins(text[s - 1]):
        return False
    # A letter-initial currency code must not continue a word ("FUSD 5").
    c = m.start("cur")
    return not (c > 0 and text[c].isalpha() and text[c - 1].isalpha())


def _to_parsed(text: str, raw: _Raw, units: frozenset[str] | None = None) -> ParsedNumber:
    value = _CTX.multiply(raw.magnitude, raw.scale)
    if value.as_tuple().exponent > 0:
        # Print scaled amounts as plain integers: 1230000000, not 1.230E+9.
        value = value.quantize(_ONE, context=_CTX)
    if raw.negative and value != 0:
        value = -value
    sign = 0 if value == 0 else (-1 if value < 0 else 1)
    return ParsedNumber(
        text=text,
        value=value,
        sign=sign,
        scale_word=raw.scale_word,
        scale=raw.scale,
        units=frozenset(raw.units) if units is None else units,
        precision=_CTX.multiply(raw.base_precision, raw.scale),
    )


def _kind(raw: _Raw, text: str, groups: UnitGroups) -> str:
    if raw.ordinal:
        return "ordinal"
    kinds = {groups.by_name[u].kind for u in raw.units if u in groups.by_name}
    if "currency" in kinds:
        return "money"
    if "percent" in kinds:
        return "percent"
    if raw.trailing_letters or _LABEL_BEFORE_RE.search(
        text, max(0, raw.core_start - 12), raw.start
    ):
        return "other"
    # "10-K", "8-K", "10-year": a label or compound adjective, not an amount.
    if (
        not kinds
        and raw.scale_word is None
        and raw.core_end < len(text) - 1
        and text[raw.core_end] == "-"
        and text[raw.core_end + 1].isalpha()
    ):
        return "other"
    if kinds and kinds != {"count"}:
        return "quantity"
    core = raw.plain_core
    is_int = "." not in core
    if (
        not kinds
        and raw.scale_word is None
        and is_int
        and not raw.is_words
        and not raw.negative
        and "," not in text[raw.core_start : raw.core_end]
        and len(core) == 4
        and 1900 <= int(core) <= 2099
    ):
        return "year"
    if raw.scale_word is None and is_int:
        return "count"
    return "quantity"


def _find(text: str, groups: UnitGroups) -> tuple[NumberSpan, ...]:
    out: list[NumberSpan] = []
    date_spans = [m.span() for m in _DATE_RE.finditer(text)] if _has_date_hint(text) else []
    di = 0
    pos = 0
    n = len(text)
    while pos < n:
        core = _CORE_RE.search(text, pos)
        if core is None:
            break
        cs = core.start()
        # Dates come whole: "December 31, 2023" is one span, not a count and a year.
        while di < len(date_spans) and date_spans[di][1] <= cs:
            di += 1
        if di < len(date_spans) and date_spans[di][0] <= cs < date_spans[di][1]:
            ds, de = date_spans[di]
            out.append(_date_span(text, ds, de))
            pos = de
            di += 1
            continue
        raw = _scan_at(text, core, groups)
        span_text = text[raw.start : raw.end]
        out.append(
            NumberSpan(
                raw.start, raw.end, span_text, _to_parsed(span_text, raw), _kind(raw, text, groups)
            )
        )
        pos = max(raw.end, core.end())
    return tuple(out)


def _date_span(text: str, start: int, end: int) -> NumberSpan:
    """A date as one span; its number is the year when written, else the first figure."""
    figures = re.findall(r"\d+", text[start:end])
    year = next((f for f in figures if len(f) == 4), figures[0])
    value = Decimal(year)
    number = ParsedNumber(text[start:end], value, 1 if value else 0, None, _ONE, frozenset(), _ONE)
    return NumberSpan(start, end, text[start:end], number, "date")


_DATE_HINT_RE = re.compile(r"[A-Z][a-z]{2}|\d[-/年月]")


def _has_date_hint(text: str) -> bool:
    return _DATE_HINT_RE.search(text) is not None


@functools.lru_cache(maxsize=65536)
def _find_cached(text: str, groups: UnitGroups) -> tuple[NumberSpan, ...]:
    return _find(text, groups)


def find_numbers(text: str, groups: UnitGroups | None = None) -> list[NumberSpan]:
    """Every numeric span in running text, left to right, with its kind.

    Spans include a leading sign or "(", a currency written before the number,
    a scale word and up to two units after it ("-$710.7 million", "$0.91 per
    share", "55.5 MMBOE", "five percent"). Dates, years and ordinals are
    returned too, with their kind, so callers can skip them.
    """
    return list(_find_cached(text, groups or _default_groups()))


_SKIP_KINDS = frozenset({"year", "date", "ordinal", "other"})


@functools.lru_cache(maxsize=65536)
def _parse_cached(text: str, groups: UnitGroups) -> ParsedNumber | None:
    stripped = text.strip()
    if stripped.lower() in _DEAD_TEXT:
        return None
    spans = _find(stripped, groups)
    if not spans:
        return None
    # An answer like "FY2023 revenue: $5.2 million" means the amount, not the year.
    chosen = next((s for s in spans if s.kind not in _SKIP_KINDS), spans[0])
    return chosen.number


def plain_decimal(value: Decimal) -> str:
    """A Decimal as plain digits: no exponent, no trailing zeros ("1.2E+7" -> "12000000")."""
    return format(value.normalize(), "f")


def parse_number(text: str, groups: UnitGroups | None = None) -> ParsedNumber | None:
    """Parse the number a short text states ("$1,230 million", "(1,284)", "five percent").

    Returns None when there is no number ("n/a", "—"). In longer text the first
    amount wins; years, dates and ordinals are used only when nothing else is there.
    """
    return _parse_cached(text, groups or _default_groups())


def extract_units(text: str, groups: UnitGroups | None = None) -> frozenset[str]:
    """Every non-scale unit group named anywhere in ``text`` (Algorithm 1's ExtractUnits)."""
    g = groups or _default_groups()
    return _extract_units_cached(text, g)


@functools.lru_cache(maxsize=65536)
def _extract_units_cached(text: str, groups: UnitGroups) -> frozenset[str]:
    found: set[str] = set()
    for m in groups._unit_re.finditer(text):
        g = groups.lookup(m.group(0))
        if g is not None and g.kind != "scale":
            found.add(g.name)
    return frozenset(found)


# ---------------------------------------------------------------------------
# Matching


@dataclass(frozen=True)
class MatchResult:
    numeric: bool
    unit: bool

    @property
    def both(self) -> bool:
        return self.numeric and self.unit


def _round_half_up(x: Decimal, step: Decimal) -> Decimal:
    return _CTX.divide(x, step).quantize(_ONE, rounding=ROUND_HALF_UP, context=_CTX)


def precision_relaxed_match(
    reference: str, prediction: str, groups: UnitGroups | None = None
) -> MatchResult:
    """FAITH Algorithm 1 ("paper" mode).

    Numeric: both spans go to base values (percent / 100, bps / 10000) and are
    compared by magnitude after rounding half up to the coarser precision.
    Magnitudes, because FAITH masks a span of a sentence whose wording carries
    the direction ("decreased by $710.7 million" has ground truth -$710,700,000):
    the span itself is a positive amount.
    Unit: every non-scale unit group in the reference appears in the prediction.
    """
    g = groups or _default_groups()
    ref = parse_number(reference, g)
    pred = parse_number(prediction, g)
    numeric = False
    if ref is not None and pred is not None:
        step = max(ref.fraction_precision(), pred.fraction_precision())
        numeric = _round_half_up(abs(ref.as_fraction()), step) == _round_half_up(
            abs(pred.as_fraction()), step
        )
    unit = extract_units(reference, g) <= extract_units(prediction, g)
    return MatchResult(numeric=numeric, unit=unit)


# ---------------------------------------------------------------------------
# The FAITH authors' released scorer ("reference" mode)
#
# Its own small parser, kept apart from ``parse_number`` on purpose: it must
# accept and reject exactly what the released ``src/eval.py`` does, quirks
# included (binary floats, the first number wins, any unknown trailing text
# fails the parse). Its unit aliases are data: ``data/faith_released_units.json``.

_RELEASED_CURRENCY_RE = re.compile(r"[$€£¥]")
_RELEASED_PAREN_RE = re.compile(r"\(\s*([-+]?\d*\.?\d+(?:e[-+]?\d+)?)\s*\)")
_RELEASED_NUMBER_RE = re.compile(r"[-+]?\d*\.?\d+(?:e[-+]?\d+)?")
_RELEASED_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
# Case-sensitive, as released: "Five" stays a word and the parse finds no number in it.
_RELEASED_WORD_RE = re.compile(r"\b(" + "|".join(_RELEASED_WORDS) + r")\b")


@dataclass(frozen=True)
class _ReleasedUnits:
    scales: dict[str, float]  # alias as written -> scale (looked up with a lower-cased key)
    postfixes: tuple[str, ...]  # unscaled, non-currency aliases, longest first


@functools.lru_cache(maxsize=1)
def _released_units() -> _ReleasedUnits:
    raw = json.loads(
        resources.files("finprobe").joinpath("data/faith_released_units.json").read_text("utf-8")
    )
    scales: dict[str, float] = {}
    postfixes: set[str] = set()
    for name, block in raw["units"].items():
        aliases = [name, *block.get("aliases", [])]
        if block.get("scale") is not None:
            for alias in aliases:
                scales[alias] = float(block["scale"])
        elif block.get("kind") != "currency":
            postfixes.update(aliases)
    return _ReleasedUnits(scales, tuple(sorted(sorted(postfixes), key=len, reverse=True)))


def _released_scale(unit_text: str) -> float | None:
    """Scale of the text after the number: empty, a scale alias, a postfix alias, or scale + postfix."""
    units = _released_units()
    key = unit_text.lower().strip()
    if not key:
        return 1.0
    if key in units.scales:
        return units.scales[key]
    for alias in units.postfixes:
        alias = alias.lower().strip()
        if key == alias:
            return 1.0
        if key.endswith(" " + alias):
            scale = units.scales.get(key[: -(len(alias) + 1)].rstrip())
            if scale is not None:
                return scale
    return None


def released_value_and_resolution(text: str) -> tuple[float, float] | None:
    """(value, resolution) as the released FAITH scorer reads ``text``; None when it cannot.

    Commas and ``$ € £ ¥`` go; a parenthesised number or a leading "-" is
    negative; the words zero..twenty become digits; the first number is read
    (scientific notation too) and the rest must be empty or a unit alias.
    Resolution = scale x 10^(trailing zeros of an integer) x 10^-(decimals
    without trailing zeros). Empty text gives None (the released code raises).
    """
    if not text.strip():
        return None
    s = _RELEASED_CURRENCY_RE.sub("", text.replace(",", "").strip())
    negative = False
    paren = _RELEASED_PAREN_RE.search(s)
    if paren:
        negative = True
        s = s[: paren.start()] + paren.group(1) + s[paren.end() :]
    if s.startswith("-"):
        negative, s = True, s[1:]
    s = _RELEASED_WORD_RE.sub(lambda m: str(_RELEASED_WORDS.index(m.group(1))), s)
    m = _RELEASED_NUMBER_RE.search(s)
    if not m:
        return None
    digits = m.group()
    try:
        number = float(digits)
    except OverflowError:  # pragma: no cover - float() returns inf rather than raising
        return None
    decimals = len(digits.split(".", 1)[1].rstrip("0")) if "." in digits else 0
    trailing_zeros = 0 if "." in digits else len(digits) - len(digits.rstrip("0") or "0")
    scale = _released_scale(s[m.end() :].strip())
    if scale is None:
        return None
    value = number * scale
    # Same operations in the same order as released, so floats round the same way.
    resolution = scale * (10**trailing_zeros) * (10**-decimals)
    return (-value if negative else value), resolution


_RELATIVE_TOLERANCE = 0.02


def reference_scorer_match(reference: str, prediction: str) -> bool:
    """What the FAITH authors' released scorer accepts ("reference" mode), verdict for verdict.

    Exact (case-insensitive, stripped) string match, else both sides are read
    by ``released_value_and_resolution``: a side that does not parse, or a
    negative prediction, is wrong. Otherwise correct when the difference is at
    most half the coarser resolution or at most 2% of the ground truth (a
    negative ground truth compares magnitudes), in binary floating point, as
    released. Units are not checked. An empty prediction is wrong.
    """
    if reference.strip().lower() == prediction.strip().lower():
        return True
    pred = released_value_and_resolution(prediction)
    ref = released_value_and_resolution(reference)
    if pred is None or ref is None:
        return False
    pred_val, pred_res = pred
    ref_val, ref_res = ref
    if pred_val < 0:
        return False
    res = pred_res if pred_res > ref_res else ref_res
    diff = abs(abs(pred_val) - abs(ref_val)) if ref_val < 0 else abs(pred_val - ref_val)
    rel = diff / (abs(ref_val) if ref_val else 1)
    return diff <= 0.5 * res or rel <= _RELATIVE_TOLERANCE
