"""make_report / make_corpus: a whole synthetic report (document, sentences, facts, calculations)."""

from __future__ import annotations

import random
import re
from decimal import Decimal

from finprobe.document import FinancialDocument, Paragraph, Table
from finprobe.synth.builder import _Builder
from finprobe.synth.profiles import (
    _BALANCE_LINES,
    _CASHFLOW_LINES,
    _LIQUIDITY_KEYS,
    _calc_relations,
)
from finprobe.synth.records import SynthFact, SynthReport, SynthSentence
from finprobe.synth.sentences import _Writer

MDNA_HEADING = (
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
)
ITEM8_HEADING = "Item 8. Financial Statements and Supplementary Data"


def _pick(rng: random.Random, items: list[SynthSentence], lo: int, hi: int) -> list[SynthSentence]:
    """A random subset in the original order."""
    k = min(len(items), rng.randint(lo, hi))
    keep = sorted(rng.sample(range(len(items)), k))
    return [items[i] for i in keep]


def make_report(seed: int = 0, periods: int = 3, company: str | None = None) -> SynthReport:
    """A synthetic 10-K excerpt (MD&A + statements) for ``seed``; same seed, same report."""
    b = _Builder(seed, periods, company)
    rng = b.rng
    sc = b.scale_word
    # tables, in document order
    results_pre = (
        f"The following table summarizes our results of operations ({b._unit_phrase(True)}):"
    )
    seg_pre = f"The following table presents revenue by segment and as a percentage of total revenue (in {sc}):"
    liq_pre = f"The following table summarizes our cash flows for the periods indicated (in {sc}):"
    results = b._subset_table("results", "t0", ["revenue", "cogs", "gross_profit", "opex1", "opex2",
                                                "total_opex", "operating_income", "net_income", "eps_diluted"],
                              b.income_lines, results_pre)  # fmt: skip
    segments = b._segment_table("t1", seg_pre)
    liquidity = b._subset_table("liquidity", "t2", list(_LIQUIDITY_KEYS), _CASHFLOW_LINES, liq_pre)
    inc_pre = f"Consolidated Statements of Operations ({b._unit_phrase(True)})"
    bal_pre = f"Consolidated Balance Sheets (in {sc})"
    cf_pre = f"Consolidated Statements of Cash Flows (in {sc})"
    income = b._statement_table("t3", "income", b.income_lines, inc_pre, "Item 8")
    balance = b._statement_table("t4", "balance", _BALANCE_LINES, bal_pre, "Item 8")
    cashflow = b._statement_table("t5", "cashflow", _CASHFLOW_LINES, cf_pre, "Item 8")

    w = _Writer(b)
    un = w.unanswerable()
    groups = {
        "overview": [s for s in un if s.topic == "overview"],
        "revenue": _pick(rng, w.revenue(), 2, 4),
        "segments": _pick(rng, w.segments(), 2, 4),
        "margins": _pick(rng, w.margins() + w.earnings(), 4, 7),
        "liquidity": _pick(rng, w.liquidity(), 3, 6)
        + _pick(rng, [s for s in un if s.topic == "liquidity"], 1, 2),
    }
    groups["overview"] = _pick(rng, groups["overview"], 1, 2)

    blocks: list[Paragraph | Table] = []
    sentences: list[SynthSentence] = []

    def para(parts: list[str | SynthSentence], section: str = "Item 7") -> None:
        pid = f"p{sum(isinstance(x, Paragraph) for x in blocks)}"
        text = ""
        for part in parts:
            s = part.text if isinstance(part, SynthSentence) else part
            if text:
                text += " "
            if isinstance(part, SynthSentence):
                part.block_id, part.offset = pid, len(text)
                part.id = f"s{len(sentences)}"
                sentences.append(part)
            text += s
        blocks.append(Paragraph(id=pid, text=text, section=section))

    para([MDNA_HEADING])
    para(["Overview"])
    para([f"{b.company} is {b.ind.description}.", *groups["overview"],
          "The following discussion should be read together with our consolidated financial statements and "
          "the related notes included in Item 8 of this Annual Report on Form 10-K."])  # fmt: skip
    para(["Results of Operations"])
    para([results_pre])
    blocks.append(results)
    para(groups["revenue"])
    para(["Segment Results"])
    para([seg_pre])
    blocks.append(segments)
    para(groups["segments"])
    para(groups["margins"] or ["Our results reflect the factors described above."])
    para(["Liquidity and Capital Resources"])
    para(["Our primary sources of liquidity are cash on hand, cash generated "
          "from operations and borrowings under our credit facility.", liq_pre])  # fmt: skip
    blocks.append(liquidity)
    para(groups["liquidity"])
    para([ITEM8_HEADING], "Item 8")
    for t in (income, balance, cashflow):
        para([t.pre_text], "Item 8")
        blocks.append(t)

    doc = FinancialDocument(
        id=f"synth-{seed}",
        blocks=blocks,
        metadata={
            "company": b.company, "cik": b.cik, "filing_date": b.filing_date, "report_type": "10-K",
            "url": f"https://example.com/finprobe/synthetic/{seed}/10-K.htm", "source": f"finprobe.synth seed={seed}",
            "format": "synth", "industry": b.ind.name, "fiscal_year_end": b.fye, "ticker": b.ticker,
        },
    )  # fmt: skip
    return SynthReport(
        company=b.company,
        periods=list(b.periods),
        document=doc,
        statements={"income": income, "balance": balance, "cashflow": cashflow},
        sentences=sentences,
        facts=_facts(b),
        calculations=_calc_relations(b.ind),
        mdna_tables={"results": results, "segments": segments, "liquidity": liquidity},
        seed=seed,
        industry=b.ind.name,
        scale=b.scale,
        scale_word=b.scale_word,
        cik=b.cik,
        filing_date=b.filing_date,
        fiscal_year_end=b.fye,
        ticker=b.ticker,
    )


def _facts(b: _Builder) -> list[SynthFact]:
    decimals = -3 if b.scale == 1000 else -6

    def end(year: int) -> str:
        return f"{year}-{b.fye_month:02d}-{b.fye_day:02d}"

    def start(year: int) -> str:
        # the day after the prior fiscal year end
        m, d, y = b.fye_month, b.fye_day, year - 1
        if m == 12:
            return f"{year}-01-01"
        return f"{y}-{m + 1:02d}-01" if d >= 28 else f"{y}-{m:02d}-{d + 1:02d}"

    out: list[SynthFact] = []
    for stmt, lines in (
        ("income", b.income_lines),
        ("balance", _BALANCE_LINES),
        ("cashflow", _CASHFLOW_LINES),
    ):
        instant = stmt == "balance"
        for ln in lines:
            if ln.concept is None:
                continue
            for p in b.periods:
                year = int(p)
                raw = b.v[p][ln.key]
                if ln.kind == "per_share":
                    value, unit, dec = Decimal(raw), "usd_per_share", 2
                else:
                    value, unit, dec = (
                        Decimal(raw) * b.scale,
                        "shares" if ln.kind == "shares" else "usd",
                        decimals,
                    )
                period, ptype, pstart, pend = p, "duration", start(year), end(year)
                if instant or ln.key == "cash_end":
                    ptype, pstart = "instant", None
                if ln.key == "cash_begin":  # an instant at the prior year end
                    period, ptype, pstart, pend = str(year - 1), "instant", None, end(year - 1)
                out.append(
                    SynthFact(
                        ln.concept,
                        b._label(ln),
                        period,
                        value,
                        stmt,
                        ptype,
                        pstart,
                        pend,
                        unit,
                        dec,
                    )
                )
    for j, name in enumerate(b.segment_names):
        member = "finprobe:" + re.sub(r"[^A-Za-z]", "", name.title()) + "Member"
        for p in b.periods:
            value = Decimal(b.v[p]["segments"][j]) * b.scale
            out.append(SynthFact("us-gaap:Revenues", f"{name} revenue", p, value, "segments", "duration",
                                 start(int(p)), end(int(p)), "usd", decimals, member))  # fmt: skip
    return out


def make_corpus(n: int, seed: int = 0) -> list[SynthReport]:
    """n reports with distinct seeds and distinct company names."""
    out: list[SynthReport] = []
    names: set[str] = set()
    s = seed * 1009  # spread corpora with different seeds apart
    while len(out) < n:
        rep = make_report(s)
        s += 1
        if rep.company in names:
            continue
        names.add(rep.company)
        out.append(rep)
    return out
