"""finprobe.synth: the numbers add up, sentences state their derivations, exports round-trip."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from decimal import Decimal

import pytest

from finprobe.document import Paragraph, Table, load_faith_report, load_findver_report, mdna_blocks
from finprobe.numbers import parse_number, precision_relaxed_match
from finprobe.synth import (
    ITEM8_HEADING,
    MDNA_HEADING,
    SynthReport,
    make_corpus,
    make_report,
    money_text,
    pct_text,
    to_faith_record,
    to_findver_json,
)

SEEDS = range(50)


@pytest.fixture(scope="module")
def reports() -> list[SynthReport]:
    # every fourth report has two periods so both layouts are covered
    return [make_report(seed, periods=2 if seed % 4 == 0 else 3) for seed in SEEDS]


def value(table: Table, label: str, period: str) -> Decimal:
    """Scaled cell value by row label and period column (the first column whose label holds it)."""
    rows = [r for r in range(table.header_rows, table.n_rows) if table.row_label(r) == label]
    cols = [c for c in range(table.header_cols, table.n_cols) if period in table.column_label(c)]
    assert rows and cols, (label, period)
    v = table.scaled_value(rows[-1], cols[0])
    assert v is not None, (label, period)
    return v


def values(table: Table, period: str, first: str, last: str) -> list[Decimal]:
    """Values of the item rows strictly between rows `first` and `last` (header rows skipped)."""
    labels = [table.row_label(r) for r in range(table.n_rows)]
    i, j = labels.index(first), labels.index(last)
    col = table.header_cols + table.cells[0][table.header_cols :].index(period)
    return [table.scaled_value(r, col) for r in range(i + 1, j) if any(table.cells[r][1:])]


# -- the statements add up -----------------------------------------------------


def test_income_statement_adds_up(reports: list[SynthReport]) -> None:
    for rep in reports:
        t = rep.statements["income"]
        labels = [t.row_label(r) for r in range(t.n_rows)]
        ni = "Net income" if "Net income" in labels else "Net income (loss)"
        oi = "Operating income" if "Operating income" in labels else "Operating income (loss)"
        pretax = next(
            lbl for lbl in labels if lbl.startswith("Income") and "before income taxes" in lbl
        )
        for p in rep.periods:
            gp = value(t, "Revenue", p) - value(t, "Cost of revenue", p)
            assert gp == value(t, "Gross profit", p)
            opex = values(t, p, "Operating expenses:", "Total operating expenses")
            assert len(opex) == 2 and sum(opex) == value(t, "Total operating expenses", p)
            assert gp - value(t, "Total operating expenses", p) == value(t, oi, p)
            # interest expense is shown in parentheses: the displayed values simply add
            pre = (
                value(t, oi, p)
                + value(t, "Interest expense", p)
                + value(t, "Other income (expense), net", p)
            )
            assert pre == value(t, pretax, p)
            assert pre - value(t, "Provision for (benefit from) income taxes", p) == value(t, ni, p)


def test_balance_sheet_balances(reports: list[SynthReport]) -> None:
    for rep in reports:
        t = rep.statements["balance"]
        for p in rep.periods:
            ca = values(t, p, "Current assets:", "Total current assets")
            assert sum(ca) == value(t, "Total current assets", p)
            noncurrent = values(t, p, "Total current assets", "Total assets")
            assert value(t, "Total current assets", p) + sum(noncurrent) == value(
                t, "Total assets", p
            )
            cl = values(t, p, "Current liabilities:", "Total current liabilities")
            assert sum(cl) == value(t, "Total current liabilities", p)
            lt = values(t, p, "Total current liabilities", "Total liabilities")
            assert value(t, "Total current liabilities", p) + sum(lt) == value(
                t, "Total liabilities", p
            )
            eq = values(t, p, "Stockholders' equity:", "Total stockholders' equity")
            assert sum(eq) == value(t, "Total stockholders' equity", p)
            total = value(t, "Total liabilities", p) + value(t, "Total stockholders' equity", p)
            assert total == value(t, "Total liabilities and stockholders' equity", p)
            assert total == value(t, "Total assets", p)


def test_cash_flow_reconciles_with_balance_sheet(reports: list[SynthReport]) -> None:
    for rep in reports:
        cf, bs = rep.statements["cashflow"], rep.statements["balance"]
        ocf = "Net cash provided by (used in) operating activities"
        icf = "Net cash used in investing activities"
        fin = "Net cash provided by (used in) financing activities"
        change = "Net increase (decrease) in cash and cash equivalents"
        for i, p in enumerate(rep.periods):
            assert sum(values(cf, p, "Cash flows from operating activities:", ocf)) == value(
                cf, ocf, p
            )
            assert sum(values(cf, p, "Cash flows from investing activities:", icf)) == value(
                cf, icf, p
            )
            assert sum(values(cf, p, "Cash flows from financing activities:", fin)) == value(
                cf, fin, p
            )
            assert value(cf, ocf, p) + value(cf, icf, p) + value(cf, fin, p) == value(cf, change, p)
            begin = value(cf, "Cash and cash equivalents, beginning of year", p)
            end = value(cf, "Cash and cash equivalents, end of year", p)
            assert begin + value(cf, change, p) == end
            assert end == value(bs, "Cash and cash equivalents", p)
            if i + 1 < len(rep.periods):  # this year's opening cash is last year's balance
                assert begin == value(bs, "Cash and cash equivalents", rep.periods[i + 1])
            labels = {cf.row_label(r) for r in range(cf.n_rows)}
            ni_label = "Net income" if "Net income" in labels else "Net income (loss)"
            assert value(cf, ni_label, p) == value(rep.statements["income"], ni_label, p)


def test_calculation_relations_hold_on_facts(reports: list[SynthReport]) -> None:
    for rep in reports:
        facts = {(f.concept, f.period): f.value for f in rep.facts if f.member is None}
        assert len(rep.calculations) >= 15
        for rel in rep.calculations:
            assert len(rel.children) == len(rel.weights) >= 1
            for p in rep.periods:
                total = sum(
                    w * facts[(c, p)] for c, w in zip(rel.children, rel.weights, strict=True)
                )
                assert total == facts[(rel.parent, p)], (rep.seed, rel.parent, p)


def test_facts_are_consistent_and_match_tables(reports: list[SynthReport]) -> None:
    for rep in reports:
        seen: dict[tuple, set[Decimal]] = defaultdict(set)
        for f in rep.facts:
            seen[(f.concept, f.period, f.member)].add(f.value)
            assert f.period_type == ("instant" if f.statement == "balance" else f.period_type)
        # a concept reported twice (net income, cash) carries one value per period
        assert all(len(v) == 1 for v in seen.values())
        # the earliest opening cash is a fact for the year before the first period
        earliest = str(int(rep.periods[-1]) - 1)
        assert ("us-gaap:CashAndCashEquivalentsAtCarryingValue", earliest, None) in seen
        income = rep.statements["income"]
        revenue = {
            f.period: f.value for f in rep.facts if f.concept == "us-gaap:Revenues" and not f.member
        }
        eps = {
            f.period: f.value for f in rep.facts if f.concept == "us-gaap:EarningsPerShareDiluted"
        }
        for p in rep.periods:
            assert revenue[p] == value(income, "Revenue", p)
            labels = {income.row_label(r) for r in range(income.n_rows)}
            eps_label = next(lbl for lbl in labels if lbl.startswith("Diluted earnings"))
            assert eps[p] == value(income, eps_label, p)
            segs = [f.value for f in rep.facts if f.member and f.period == p]
            assert sum(segs) == revenue[p]


def test_segment_table_sums_and_shares(reports: list[SynthReport]) -> None:
    for rep in reports:
        t = rep.mdna_tables["segments"]
        assert t.header_rows == 2
        for p in rep.periods:
            amount_col = t.cells[0].index(p)
            assert t.cells[1][amount_col] == "Amount" and t.cells[1][amount_col + 1] == "% of total"
            body = range(t.header_rows, t.n_rows - 1)
            total = t.scaled_value(t.n_rows - 1, amount_col)
            assert sum(t.scaled_value(r, amount_col) for r in body) == total
            assert total == value(rep.statements["income"], "Revenue", p)
            for r in body:
                share = t.scaled_value(r, amount_col) * 100 / total
                assert abs(t.scaled_value(r, amount_col + 1) - share) <= Decimal("0.05")


def test_tables_look_like_10k_tables(reports: list[SynthReport]) -> None:
    rep = reports[1]
    inc = rep.statements["income"]
    assert inc.cells[0] == ["", *rep.periods] and len(rep.periods) == 3
    assert [int(p) for p in rep.periods] == sorted((int(p) for p in rep.periods), reverse=True)
    assert "except per share data" in rep.mdna_tables["results"].pre_text
    for rep in reports:
        word = rep.scale_word
        assert rep.scale == {"thousands": 1000, "millions": 10**6}[word]
        assert all(t.scale == rep.scale for t in rep.document.tables)
        assert all(f"in {word}" in t.pre_text for t in rep.document.tables)
        # negatives in parentheses: capital expenditures are always an outflow
        capex = next(
            r
            for r in rep.statements["cashflow"].cells
            if r[0] == "Purchases of property and equipment"
        )
        assert all(c.startswith("(") and c.endswith(")") for c in capex[1:])
    # some companies lose money, and say so
    losers = [
        r
        for r in reports
        if any(c.startswith("(") for c in _row(r.statements["income"], "Net income (loss)"))
    ]
    assert losers
    assert any("net loss" in s.text for r in losers for s in r.sentences)


def _row(table: Table, label: str) -> list[str]:
    return next((r[1:] for r in table.cells if r[0] == label), [])


# -- sentences and derivations -------------------------------------------------


def test_spans_match_their_derivations(reports: list[SynthReport]) -> None:
    kinds: set[str] = set()
    scenarios: set[str] = set()
    for rep in reports:
        assert 10 <= len(rep.sentences) <= 25
        answerable = [s for s in rep.sentences if s.answerable]
        for s in answerable:
            d = s.derivation
            assert d is not None
            assert s.text[s.span[0] : s.span[1]] == s.span_text
            result = precision_relaxed_match(d.reference, s.span_text)
            assert result.numeric and result.unit, (rep.seed, s.text, d.reference)
            # the rounded text is not the exact value written out (analysts round)
            assert parse_number(s.span_text) is not None
            for ref in d.inputs:
                table = rep.document.block(ref.table_id)
                assert isinstance(table, Table)
                assert table.scaled_value(ref.row, ref.col) == ref.value
                assert table.row_label(ref.row) == ref.metric
                assert ref.period in table.column_label(ref.col)
            for other in s.other_spans:
                assert s.text[other.start : other.end] == other.text
                if other.derivation:
                    assert precision_relaxed_match(other.derivation.reference, other.text).both
            kinds.add(d.kind)
            scenarios.add(d.scenario)
    assert kinds == {"lookup", "change", "pct_change", "ratio", "share", "sum", "multi_step"}
    assert scenarios == {"A", "B", "C", "D"}


def test_derivation_values_recompute_from_inputs(reports: list[SynthReport]) -> None:
    expected_scenario = {
        "lookup": "A",
        "change": "B",
        "pct_change": "B",
        "ratio": "C",
        "share": "C",
    }
    for rep in reports:
        for s in rep.sentences:
            d = s.derivation
            if d is None:
                continue
            v = [ref.value for ref in d.inputs]
            if d.kind in expected_scenario:
                assert d.scenario == expected_scenario[d.kind]
            if d.kind == "lookup":
                assert len(v) == 1 and d.value == abs(v[0])
            elif d.kind in ("change", "pct_change"):
                a, b = d.inputs
                assert a.metric == b.metric and a.period != b.period  # B: one metric, two periods
                if a.value <= 0 and b.value <= 0:
                    v = [-x for x in v]
                assert d.value == (
                    abs(v[0] - v[1]) if d.kind == "change" else abs(v[0] - v[1]) * 100 / v[1]
                )
            elif d.kind in ("ratio", "share"):
                a, b = d.inputs
                assert a.metric != b.metric and a.period == b.period  # C: two metrics
                mult = 100 if d.unit == "percent" else 1
                assert d.value == abs(v[0]) * mult / v[1]
            elif d.kind == "sum":
                assert d.scenario == ("C" if len(v) == 2 else "D")
                signs = [1] + [-1 if f"- {ref.metric}" in d.formula else 1 for ref in d.inputs[1:]]
                if "|" in d.formula:  # capital expenditures are shown negative, "- |x|" adds them
                    signs = [1] * len(v)
                assert d.value == sum(sg * x for sg, x in zip(signs, v, strict=True))
            else:
                assert d.kind == "multi_step" and d.scenario == "D" and len(v) >= 2


def test_sentences_live_in_mdna_paragraphs(reports: list[SynthReport]) -> None:
    for rep in reports:
        doc = rep.document
        assert [s.id for s in rep.sentences] == [f"s{i}" for i in range(len(rep.sentences))]
        mdna_ids = {b.id for b in mdna_blocks(doc)}
        for s in rep.sentences:
            block = doc.block(s.block_id)
            assert isinstance(block, Paragraph) and block.id in mdna_ids
            assert block.text[s.offset : s.offset + len(s.text)] == s.text


def test_unanswerable_numbers_are_marked(reports: list[SynthReport]) -> None:
    for rep in reports:
        un = [s for s in rep.sentences if not s.answerable]
        assert 2 <= len(un) <= 4
        for s in un:
            assert s.derivation is None
            assert parse_number(s.span_text) is not None  # a number, just not from the tables
        assert sum(s.answerable for s in rep.sentences) >= 8


def test_document_layout(reports: list[SynthReport]) -> None:
    for rep in reports:
        blocks = rep.document.blocks
        assert isinstance(blocks[0], Paragraph) and blocks[0].text == MDNA_HEADING
        item8 = next(
            i for i, b in enumerate(blocks) if isinstance(b, Paragraph) and b.text == ITEM8_HEADING
        )
        mdna_tables = [b for b in blocks[:item8] if isinstance(b, Table)]
        assert mdna_tables == list(rep.mdna_tables.values())
        assert [b for b in blocks[item8:] if isinstance(b, Table)] == list(rep.statements.values())
        for i, b in enumerate(blocks):
            if isinstance(b, Table):  # pre_text is the sentence right before the table
                before = blocks[i - 1]
                assert isinstance(before, Paragraph) and before.text.endswith(b.pre_text)
        ids = [b.id for b in blocks]
        assert len(set(ids)) == len(ids)
    # ids do not depend on anything but the seed and layout
    assert [b.id for b in make_report(3).document.blocks] == [
        b.id for b in reports[3].document.blocks
    ]


# -- determinism and corpora ---------------------------------------------------


def test_same_seed_same_report_and_no_global_random() -> None:
    random.seed(123)
    expected = random.random()
    random.seed(123)
    a = make_report(11)
    assert random.random() == expected  # the global generator was not touched
    b = make_report(11)
    assert a.document.text() == b.document.text()
    assert a.facts == b.facts and a.calculations == b.calculations
    assert [(s.text, s.span, s.derivation) for s in a.sentences] == [
        (s.text, s.span, s.derivation) for s in b.sentences
    ]
    assert make_report(12).document.text() != a.document.text()


def test_options() -> None:
    rep = make_report(5, periods=2, company="Acme Widgets, Inc.")
    assert rep.company == "Acme Widgets, Inc." and len(rep.periods) == 2
    assert rep.document.metadata["company"] == "Acme Widgets, Inc."
    assert "Acme Widgets, Inc." in rep.document.text()
    with pytest.raises(ValueError):
        make_report(5, periods=4)


def test_corpus_has_distinct_companies() -> None:
    corpus = make_corpus(8, seed=2)
    assert len(corpus) == 8
    assert len({r.company for r in corpus}) == 8
    assert len({r.seed for r in corpus}) == 8
    assert [r.company for r in make_corpus(8, seed=2)] == [r.company for r in corpus]
    assert [r.company for r in make_corpus(8, seed=3)] != [r.company for r in corpus]


# -- exports -------------------------------------------------------------------


def test_findver_round_trip(reports: list[SynthReport], tmp_path) -> None:
    for rep in reports[:20]:
        data = to_findver_json(rep)
        assert (
            set(data) == {"url", "report_type", "context", "html_tables"}
            and data["html_tables"] == []
        )
        assert all(set(c) == {"id", "context", "type"} for c in data["context"])
        path = tmp_path / f"synth-{rep.seed}.json"
        path.write_text(json.dumps(data))
        doc = load_findver_report(path)
        assert [t.cells for t in doc.tables] == [t.cells for t in rep.document.tables]
        assert [t.scale for t in doc.tables] == [t.scale for t in rep.document.tables]
        for orig, back in zip(rep.document.tables, doc.tables, strict=True):
            assert back.pre_text.endswith(orig.pre_text)
        prose = " ".join(p.text for p in doc.paragraphs)
        assert all(s.text in prose for s in rep.sentences)


def test_faith_round_trip(reports: list[SynthReport]) -> None:
    for rep in reports[:20]:
        record = json.loads(json.dumps(to_faith_record(rep)))  # plain JSON types only
        assert record["metadata"] == {"cik": rep.cik, "filing_date": rep.filing_date}
        assert record["instances"] == []
        doc = load_faith_report(record, f"synth-{rep.seed}")
        assert [t.cells for t in doc.tables] == [t.cells for t in rep.document.tables]
        assert [t.pre_text for t in doc.tables] == [t.pre_text for t in rep.document.tables]


# -- analyst rounding ----------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "allowed"),
    [
        ("817880000", {"$817.9 million", "$818 million"}),
        ("1250000", {"$1.25 million"}),  # "$1.2"/"$1.3 million" would depend on the tie rule
        ("168092", {"$168,000"}),
        ("2363900000", {"$2.4 billion", "$2.36 billion", "$2,363.9 million"}),
    ],
)
def test_money_text_rounds_like_an_analyst(amount: str, allowed: set[str]) -> None:
    for seed in range(20):
        text = money_text(Decimal(amount), random.Random(seed))
        assert text in allowed
        assert precision_relaxed_match(f"${Decimal(amount):,}", text).both


def test_pct_text_avoids_ties() -> None:
    for seed in range(20):
        text = pct_text(Decimal("12.45"), random.Random(seed))
        # 12.45 sits on a tie at one decimal: either whole percents or two decimals
        assert text in {"12.45%", "12.45 percent", "12%", "12 percent"}
        assert pct_text(Decimal("34.2914980"), random.Random(seed)) in {
            "34.3%",
            "34%",
            "34.3 percent",
            "34 percent",
        }
