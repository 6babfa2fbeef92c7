"""MD&A sentences whose numbers are looked up or computed from the tables, each with its derivation."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from finprobe.synth.builder import _Builder
from finprobe.synth.formatting import money_text, pct_text, ratio_text
from finprobe.synth.profiles import _BALANCE_LINES, _CASHFLOW_LINES, _CITIES, _MONTHS
from finprobe.synth.records import CellRef, Derivation, SynthSentence, SynthSpan
from finprobe.synth.simulate import _r

_FORMATTER = string.Formatter()


@dataclass
class _Val:
    text: str
    derivation: Derivation | None = None


def _render(
    template: str, primary: str, values: dict[str, Any]
) -> tuple[str, list[tuple[str, int, int, Any]]]:
    """Fill a template; returns the text and (field, start, end, value) for every field."""
    out: list[str] = []
    spans: list[tuple[str, int, int, Any]] = []
    pos = 0
    for literal, fname, _spec, _conv in _FORMATTER.parse(template):
        out.append(literal)
        pos += len(literal)
        if fname is None:
            continue
        val = values[fname]
        text = val.text if isinstance(val, _Val) else str(val)
        spans.append((fname, pos, pos + len(text), val))
        out.append(text)
        pos += len(text)
    if sum(1 for f, *_ in spans if f == primary) != 1:
        raise ValueError(f"template must use {{{primary}}} exactly once: {template}")
    return "".join(out), spans


def _sentence(
    template: str, primary: str, topic: str, answerable: bool = True, **values: Any
) -> SynthSentence:
    text, spans = _render(template, primary, values)
    text = text[0].upper() + text[1:]
    main = next(s for s in spans if s[0] == primary)
    val = main[3]
    deriv = val.derivation if isinstance(val, _Val) else None
    others = [
        SynthSpan(s, e, v.text, v.derivation)
        for f, s, e, v in spans
        if f != primary and isinstance(v, _Val)
    ]
    return SynthSentence(
        id="", text=text, span=(main[1], main[2]), span_text=text[main[1] : main[2]],
        derivation=deriv if answerable else None, answerable=answerable, topic=topic, other_spans=others,
    )  # fmt: skip


class _Writer:
    """MD&A sentence generators over one simulated company."""

    def __init__(self, b: _Builder) -> None:
        self.b = b
        self.rng = b.rng
        self.p = b.periods
        self.label = {ln.key: ln.label for ln in b.income_lines + _BALANCE_LINES + _CASHFLOW_LINES}
        for j, name in enumerate(b.segment_names):
            self.label[f"seg{j}"] = f"{name} revenue"

    # -- derivation helpers ------------------------------------------------

    def name(self, ref: CellRef) -> str:
        return f"{ref.metric} {ref.period}"

    def lookup(self, key: str, period: str, table: str | None = None) -> _Val:
        ref = self.b.ref(key, period, table)
        formula = self.name(ref) if ref.value >= 0 else f"-({self.name(ref)})"
        unit = "usd_per_share" if key.startswith("eps") else "usd"
        d = Derivation("lookup", "A", [ref], formula, abs(ref.value), unit)
        return _Val(self.fmt(d), d)

    def fmt(self, d: Derivation) -> str:
        if d.unit == "usd":
            return money_text(d.value, self.rng)
        if d.unit == "usd_per_share":
            return f"${d.value:.2f}"
        if d.unit == "percent":
            return pct_text(d.value, self.rng)
        return ratio_text(d.value)

    def change(self, key: str, cur: str, prev: str, pct: bool) -> tuple[_Val, bool] | None:
        a, b = self.b.ref(key, cur), self.b.ref(key, prev)
        if a.value == b.value:
            return None
        if a.value <= 0 and b.value <= 0:  # an expense shown in parentheses: compare magnitudes
            av, bv, bars = -a.value, -b.value, "|"
        else:
            av, bv, bars = a.value, b.value, ""
        up = av > bv
        hi, lo = (a, b) if up else (b, a)
        hi_s, lo_s = f"{bars}{self.name(hi)}{bars}", f"{bars}{self.name(lo)}{bars}"
        if pct:
            if av <= 0 or bv <= 0:
                return None
            formula = f"({hi_s} - {lo_s}) / {bars}{self.name(b)}{bars} * 100"
            d = Derivation("pct_change", "B", [a, b], formula, abs(av - bv) * 100 / bv, "percent")
        else:
            d = Derivation("change", "B", [a, b], f"{hi_s} - {lo_s}", abs(av - bv))
        return _Val(self.fmt(d), d), up

    def ratio(
        self, num: str, den: str, period: str, percent: bool = True, kind: str = "ratio"
    ) -> _Val | None:
        a, b = self.b.ref(num, period), self.b.ref(den, period)
        if b.value <= 0 or a.value == 0:
            return None
        mult = 100 if percent else 1
        value = abs(a.value) * mult / b.value
        formula = f"{self.name(a)} / {self.name(b)}" + (" * 100" if percent else "")
        d = Derivation(kind, "C", [a, b], formula, value, "percent" if percent else "ratio")
        return _Val(self.fmt(d), d)

    def combo(self, terms: list[tuple[str, str, int]], kind: str = "sum") -> _Val | None:
        """Signed sum of displayed cells; scenario C for two metrics, D for more."""
        refs = [self.b.ref(k, p) for k, p, _ in terms]
        value = sum((w * r.value for r, (_, _, w) in zip(refs, terms, strict=True)), Decimal(0))
        if value <= 0:
            return None
        formula = " ".join(
            ("" if i == 0 else ("+ " if w > 0 else "- ")) + self.name(r)
            for i, (r, (_, _, w)) in enumerate(zip(refs, terms, strict=True))
        )
        d = Derivation(kind, "C" if len(refs) == 2 else "D", refs, formula, value)
        return _Val(self.fmt(d), d)

    @staticmethod
    def updown(up: bool, rng: random.Random) -> str:
        return (
            rng.choice(("increased", "rose", "grew"))
            if up
            else rng.choice(("decreased", "declined", "fell"))
        )

    def fy(self, period: str) -> str:
        return self.rng.choice((f"fiscal {period}", period, f"fiscal year {period}"))

    # -- generators: each returns a sentence or None --------------------------

    def revenue(self) -> list[SynthSentence]:
        r, (c, pv) = self.rng, self.p[:2]
        out = []
        cur, prev = self.lookup("revenue", c), self.lookup("revenue", pv)
        out.append(_sentence(r.choice((
            "Total revenue was {cur} for {y0}, compared to {prev} for {y1}.",
            "We generated revenue of {cur} in {y0}, compared with {prev} in {y1}.",
            "Revenue for {y0} totaled {cur}.",
        )), "cur", "revenue", cur=cur, prev=prev, y0=self.fy(c), y1=self.fy(pv)))  # fmt: skip
        if (pc := self.change("revenue", c, pv, pct=True)) and (
            ch := self.change("revenue", c, pv, pct=False)
        ):
            (pct, up), (amt, _) = pc, ch
            word = self.updown(up, r)
            driver = r.choice(self.b.ind.drivers) if up else "lower volumes across our end markets"
            cur2 = self.lookup("revenue", c)
            out.append(_sentence(r.choice((
                "Revenue {word} {pct} to {cur} in {y0}, primarily due to {driver}.",
                "Compared with {y1}, revenue {word} {pct}, reflecting {driver}.",
            )), "pct", "revenue", word=word, pct=pct, cur=cur2, y0=c, y1=pv, driver=driver))  # fmt: skip
            out.append(_sentence(r.choice((
                "The {amt} {noun} in revenue was driven primarily by {driver}.",
                "Revenue {word} by {amt}, or {pct2}, year over year.",
            )), "amt", "revenue", amt=amt, noun="increase" if up else "decrease", word=word,
                pct2=_Val(pct_text(pct.derivation.value, r), pct.derivation), driver=driver))  # fmt: skip
        if len(self.p) == 3:
            if pc := self.change("revenue", self.p[1], self.p[2], pct=True):
                pct, up = pc
                out.append(_sentence(
                    "In {y1}, revenue {word} {pct} from {y2}.", "pct", "revenue",
                    y1=self.p[1], y2=self.p[2], word=self.updown(up, r), pct=pct,
                ))  # fmt: skip
            a, b = self.b.ref("revenue", c), self.b.ref("revenue", self.p[2])
            if a.value > b.value > 0:
                value = ((a.value / b.value).sqrt() - 1) * 100
                d = Derivation("multi_step", "D", [a, b], f"(sqrt({self.name(a)} / {self.name(b)}) - 1) * 100",
                               value, "percent")  # fmt: skip
                out.append(_sentence(
                    "Over the last two fiscal years, revenue grew at a compound annual rate of {cagr}.",
                    "cagr", "revenue", cagr=_Val(self.fmt(d), d),
                ))  # fmt: skip
        return out

    def segments(self) -> list[SynthSentence]:
        r, (c, pv) = self.rng, self.p[:2]
        out = []
        j = r.randrange(len(self.b.segment_names))
        seg = self.b.segment_names[j]
        share = self.ratio(f"seg{j}", "revenue", c, kind="share")
        share1 = self.ratio(f"seg{j}", "revenue", pv, kind="share")
        if share and share1:
            out.append(_sentence(r.choice((
                "{seg} accounted for {share} of total revenue in {y0}, compared with {share1} in {y1}.",
                "In {y0}, our {seg} segment represented {share} of total revenue.",
            )), "share", "segments", seg=seg, share=share, share1=share1, y0=c, y1=pv))  # fmt: skip
        k = (j + 1) % len(self.b.segment_names)
        if pc := self.change(f"seg{k}", c, pv, pct=True):
            pct, up = pc
            amt = self.lookup(f"seg{k}", c)
            out.append(_sentence(r.choice((
                "{seg} revenue {word} {pct} to {amt}.",
                "Revenue from {seg} {word} {pct} in {y0} compared to {y1}.",
            )), "pct", "segments", seg=self.b.segment_names[k], word=self.updown(up, r), pct=pct, amt=amt,
                y0=c, y1=pv))  # fmt: skip
        # the percent column itself: a direct lookup
        t, rows, cols = self.b.tables["segments"], self.b.rows["segments"], self.b.cols["segments"]
        m = r.randrange(len(self.b.segment_names))
        row, col = rows[f"seg{m}"], cols[pv + "%"]
        ref = CellRef(t.id, row, col, t.cells[row][0], pv, self.b.cell_value(t, row, col))
        d = Derivation(
            "lookup", "A", [ref], f"{self.b.segment_names[m]} % of total {pv}", ref.value, "percent"
        )
        out.append(_sentence(
            "In {y1}, {seg} made up {pct} of our revenue.", "pct", "segments",
            y1=pv, seg=self.b.segment_names[m], pct=_Val(t.cells[row][col], d),
        ))  # fmt: skip
        # revenue excluding one segment: differences first, then the growth rate
        a, b = self.b.ref("revenue", c), self.b.ref("revenue", pv)
        sa, sb = self.b.ref(f"seg{j}", c), self.b.ref(f"seg{j}", pv)
        ex0, ex1 = a.value - sa.value, b.value - sb.value
        if ex0 > 0 and ex1 > 0 and ex0 != ex1:
            value = abs(ex0 - ex1) * 100 / ex1
            formula = (f"|({self.name(a)} - {self.name(sa)}) - ({self.name(b)} - {self.name(sb)})|"
                       f" / ({self.name(b)} - {self.name(sb)}) * 100")  # fmt: skip
            d = Derivation("multi_step", "D", [a, sa, b, sb], formula, value, "percent")
            out.append(_sentence(
                "Excluding {seg}, revenue {word} {pct} compared with {y1}.", "pct", "segments",
                seg=seg, word=self.updown(ex0 > ex1, r), pct=_Val(self.fmt(d), d), y1=pv,
            ))  # fmt: skip
        return out

    def margins(self) -> list[SynthSentence]:
        r, (c, pv) = self.rng, self.p[:2]
        out = []
        gm, gm1 = (
            self.ratio("gross_profit", "revenue", c),
            self.ratio("gross_profit", "revenue", pv),
        )
        if gm and gm1 and self.b.v[c]["gross_profit"] > 0:
            out.append(_sentence(r.choice((
                "Gross margin was {gm} in {y0}, compared to {gm1} in {y1}.",
                "Our gross margin of {gm} in {y0} reflected {driver}.",
            )), "gm", "margins", gm=gm, gm1=gm1, y0=c, y1=pv,
                driver=r.choice(("favorable product mix", "lower input costs", "improved productivity"))))  # fmt: skip
        if ch := self.change("gross_profit", c, pv, pct=False):
            amt, up = ch
            out.append(_sentence(
                "Gross profit {word} {amt} to {gp} in {y0}.", "amt", "margins",
                word=self.updown(up, r), amt=amt, gp=self.lookup("gross_profit", c), y0=c,
            ))  # fmt: skip
        o1 = self.b.ind.opex[0][1]
        if pctv := self.ratio("opex1", "revenue", c):
            out.append(_sentence(
                "{label} expenses were {amt}, or {pct} of revenue, in {y0}.", "pct", "expenses",
                label=o1, amt=self.lookup("opex1", c), pct=pctv, y0=c,
            ))  # fmt: skip
        o2 = self.b.ind.opex[1][1]
        if pc := self.change("opex2", c, pv, pct=True):
            pct, up = pc
            out.append(_sentence(r.choice((
                "{label} expenses {word} {pct} in {y0} compared to {y1}, primarily due to {reason}.",
                "{label} expenses {word} {pct} year over year, reflecting {reason}.",
            )), "pct", "expenses", label=o2, word=self.updown(up, r), pct=pct, y0=c, y1=pv,
                reason=r.choice(("higher personnel costs", "increased marketing spend",
                                 "cost-reduction initiatives"))))  # fmt: skip
        if self.b.v[c]["operating_income"] > 0:
            if om := self.ratio("operating_income", "revenue", c):
                out.append(_sentence(
                    "Operating margin was {om} for {y0}.", "om", "margins", om=om, y0=self.fy(c),
                ))  # fmt: skip
        else:
            out.append(_sentence(
                "We reported an operating loss of {ol} in {y0}.", "ol", "margins",
                ol=self.lookup("operating_income", c), y0=c,
            ))  # fmt: skip
        # cost of revenue and both expense lines together: three metrics
        refs = [self.b.ref(k, c) for k in ("cogs", "opex1", "opex2", "revenue")]
        total = refs[0].value + refs[1].value + refs[2].value
        d = Derivation("multi_step", "D", refs,
                       f"({self.name(refs[0])} + {self.name(refs[1])} + {self.name(refs[2])}) / "
                       f"{self.name(refs[3])} * 100", total * 100 / refs[3].value, "percent")  # fmt: skip
        out.append(_sentence(
            "Cost of revenue and operating expenses together represented {pct} of revenue in {y0}.",
            "pct", "expenses", pct=_Val(self.fmt(d), d), y0=c,
        ))  # fmt: skip
        return out

    def earnings(self) -> list[SynthSentence]:
        r, (c, pv) = self.rng, self.p[:2]
        out = []
        ni = self.b.v[c]["net_income"]
        if ni > 0:
            out.append(_sentence(r.choice((
                "Net income was {ni} in {y0}, compared with {ni1} in {y1}.",
                "We reported net income of {ni} for {y0}.",
            )), "ni", "earnings", ni=self.lookup("net_income", c), ni1=self.lookup("net_income", pv),
                y0=self.fy(c), y1=self.fy(pv)))  # fmt: skip
            out.append(_sentence(
                "Diluted earnings per share were {eps} in {y0}, compared to {eps1} in {y1}.", "eps", "earnings",
                eps=self.lookup("eps_diluted", c), eps1=self.lookup("eps_diluted", pv), y0=c, y1=pv,
            ))  # fmt: skip
            if nm := self.ratio("net_income", "revenue", c):
                out.append(_sentence(
                    "Net income as a percentage of revenue was {nm} in {y0}.", "nm", "earnings", nm=nm, y0=c,
                ))  # fmt: skip
        elif ni < 0:
            out.append(_sentence(
                "We incurred a net loss of {nl} in {y0}, or {eps} per diluted share.", "nl", "earnings",
                nl=self.lookup("net_income", c), eps=self.lookup("eps_diluted", c), y0=self.fy(c),
            ))  # fmt: skip
        etr = self.ratio("income_tax", "pretax", c)
        if etr and self.b.v[c]["pretax"] > 0 and self.b.v[c]["income_tax"] > 0:
            out.append(_sentence(
                "Our effective tax rate was {etr} for {y0}.", "etr", "earnings", etr=etr, y0=self.fy(c),
            ))  # fmt: skip
        if ch := self.change("interest_expense", c, pv, pct=False):
            amt, up = ch
            out.append(_sentence(
                "Interest expense {word} {amt} in {y0}, reflecting {reason}.", "amt", "earnings",
                word=self.updown(up, r), amt=amt, y0=c,
                reason="higher average borrowings" if up else "lower average debt outstanding",
            ))  # fmt: skip
        return out

    def liquidity(self) -> list[SynthSentence]:
        r, (c, pv) = self.rng, self.p[:2]
        out = []
        out.append(_sentence(r.choice((
            "As of {fye}, {y0}, we had {cash} in cash and cash equivalents.",
            "Cash and cash equivalents totaled {cash} at {fye}, {y0}.",
        )), "cash", "liquidity", fye=self.b.fye, y0=c, cash=self.lookup("cash", c, "balance")))  # fmt: skip
        ocf = self.b.v[c]["ocf"]
        verb = "provided by" if ocf > 0 else "used in"
        out.append(_sentence(
            "Net cash {verb} operating activities was {ocf} in {y0}, compared with {ocf1} in {y1}.", "ocf",
            "liquidity", verb=verb, ocf=self.lookup("ocf", c), ocf1=self.lookup("ocf", pv), y0=c, y1=pv,
        ))  # fmt: skip
        out.append(_sentence(r.choice((
            "Capital expenditures were {capex} in {y0}, primarily for {use}.",
            "We invested {capex} in property and equipment during {y0}, primarily for {use}.",
        )), "capex", "liquidity", capex=self.lookup("capex", c, "cashflow"), y0=c,
            use=r.choice(("capacity expansion", "new locations", "information technology"))))  # fmt: skip
        if fcf := self.combo([("ocf", c, 1), ("capex", c, 1)]):
            # capex is displayed negative, so "+" subtracts it
            fcf.derivation.formula = fcf.derivation.formula.replace(" + ", " - |") + "|"
            out.append(_sentence(
                "Free cash flow, which we define as net cash provided by operating activities less capital "
                "expenditures, was {fcf} in {y0}.", "fcf", "liquidity", fcf=fcf, y0=c,
            ))  # fmt: skip
            prev = self.combo([("ocf", pv, 1), ("capex", pv, 1)])
            if prev and prev.derivation.value != fcf.derivation.value:
                a, b = fcf.derivation.value, prev.derivation.value
                d = Derivation("multi_step", "D", fcf.derivation.inputs + prev.derivation.inputs,
                               f"|FCF {c} - FCF {pv}| / FCF {pv} * 100 with FCF = operating cash flow - "
                               "|capital expenditures|", abs(a - b) * 100 / b, "percent")  # fmt: skip
                out.append(_sentence(
                    "Free cash flow {word} {pct} from {y1}.", "pct", "liquidity",
                    word=self.updown(a > b, r), pct=_Val(self.fmt(d), d), y1=pv,
                ))  # fmt: skip
        if wc := self.combo([("current_assets", c, 1), ("current_liabilities", c, -1)]):
            out.append(_sentence(
                "Working capital, defined as current assets less current liabilities, was {wc} at {fye}, {y0}.",
                "wc", "liquidity", wc=wc, fye=self.b.fye, y0=c,
            ))  # fmt: skip
        if cr := self.ratio("current_assets", "current_liabilities", c, percent=False):
            out.append(_sentence(
                "Our current ratio was {cr} at the end of {y0}.", "cr", "liquidity", cr=cr, y0=self.fy(c),
            ))  # fmt: skip
        if self.b.v[c]["ltd"] > 0:
            out.append(_sentence(
                "As of {fye}, {y0}, long-term debt was {ltd}.", "ltd", "liquidity",
                fye=self.b.fye, y0=c, ltd=self.lookup("ltd", c),
            ))  # fmt: skip
        quick = self.combo([("cash", c, 1), ("ar", c, 1), ("inventory", c, 1)])
        if quick and self.b.v[c]["inventory"] > 0:
            out.append(_sentence(
                "Cash and cash equivalents, accounts receivable and inventories together totaled {q} at "
                "year-end {y0}.", "q", "liquidity", q=quick, y0=c,
            ))  # fmt: skip
        if self.b.v[c]["dividends"] > 0:
            out.append(_sentence(
                "We paid cash dividends of {div} in {y0}.", "div", "liquidity",
                div=self.lookup("dividends", c, "cashflow"), y0=c,
            ))  # fmt: skip
        e0, e1 = self.b.v[c]["total_equity"], self.b.v[pv]["total_equity"]
        if self.b.v[c]["net_income"] > 0 and e0 > 0 and e1 > 0:
            a, x, y = (
                self.b.ref("net_income", c, "income"),
                self.b.ref("total_equity", c),
                self.b.ref("total_equity", pv),
            )
            d = Derivation("multi_step", "D", [a, x, y],
                           f"{self.name(a)} / (({self.name(x)} + {self.name(y)}) / 2) * 100",
                           a.value * 200 / (x.value + y.value), "percent")  # fmt: skip
            out.append(_sentence(
                "Return on average stockholders' equity was {roe} in {y0}.", "roe", "liquidity",
                roe=_Val(self.fmt(d), d), y0=c,
            ))  # fmt: skip
        return out

    def unanswerable(self) -> list[SynthSentence]:
        r, c = self.rng, self.p[0]
        b = self.b
        nxt = str(int(c) + 1)
        heads = _r(b.v[c]["revenue"] * float(b.scale) / r.uniform(150_000, 450_000))
        out = [
            _sentence("As of {fye}, {y0}, we had approximately {n} full-time employees.", "n", "overview",
                      answerable=False, fye=b.fye, y0=c, n=_Val(f"{max(heads, 40):,}")),
            _sentence("We operate {n} {fac} in {m} countries.", "n", "overview", answerable=False,
                      n=_Val(str(r.randint(6, 480))), fac=b.ind.facility, m=r.randint(2, 30)),
            _sentence("For additional information, see Note {k}, Debt, to our consolidated financial statements.",
                      "k", "liquidity", answerable=False, k=_Val(str(r.randint(5, 12)))),
            _sentence("In {month} {y}, our Board of Directors authorized a share repurchase program of up to "
                      "{amt}.", "amt", "liquidity", answerable=False, month=r.choice(_MONTHS[:3]), y=nxt,
                      amt=_Val(_buyback(b.v[c]["revenue"] * b.scale, r))),
            _sentence("We were founded in {year} and are headquartered in {city}.", "year", "overview",
                      answerable=False, year=_Val(str(r.randint(1948, 2012))), city=r.choice(_CITIES)),
        ]  # fmt: skip
        return out


def _buyback(revenue: Decimal, rng: random.Random) -> str:
    """A round authorisation of about 2-8% of revenue: "$50.0 million", "$1.5 billion"."""
    target = float(revenue) * rng.uniform(0.02, 0.08)
    if target >= 1e9:
        return f"${round(target / 1e9 * 2) / 2:.1f} billion"
    return f"${max(5, round(target / 25e6) * 25 if target >= 25e6 else round(target / 5e6) * 5)}.0 million"
