"""The no-LLM FAITH baseline: golden synthetic reports and hand-made reading rules."""

from __future__ import annotations

from typing import Any

import pytest

from finprobe.benchmarks.faith.dataset import unit_hint
from finprobe.benchmarks.faith.ranker import Ranker
from finprobe.benchmarks.faith.sensitivity import _listed_items
from finprobe.benchmarks.faith.sentence import mask_role
from finprobe.benchmarks.faith.solver import SolverOptions, rank_candidates, solve_from_tables
from finprobe.numbers import reference_scorer_match
from finprobe.synth import make_report, to_faith_record


def _instance(tables: list[dict[str, Any]], masked: str, hint_of: str, **extra: Any) -> dict:
    """Metadata as a model sees it; the hint is derived from an example answer's units."""
    return {
        "tables": tables,
        "masked_sentence": masked,
        "pre_sentence": extra.get("pre", ""),
        "post_sentence": extra.get("post", ""),
        "hint": unit_hint(hint_of),
        "filing_date": "2024-02-20",
    }


def _table(index: str, cells: list[list[str]], pre_text: str = "") -> dict[str, Any]:
    return {"index": index, "pre_text": pre_text, "cells": cells}


def _assert_answer(metadata: dict, expected: str) -> None:
    answer = solve_from_tables(metadata).answer
    assert reference_scorer_match(expected, answer), f"{answer!r} != {expected!r}"


# -- golden cases from synthetic reports ----------------------------------------


def _synthetic_instances(seed: int) -> list[tuple[str, dict, str]]:
    report = make_report(seed=seed)
    record = to_faith_record(report)
    tables = [
        {"index": t["table_index"], "pre_text": t["pre_text"], "cells": t["cells"]}
        for t in record["tables"]
    ]
    out = []
    for sentence in report.sentences:
        if sentence.derivation is None:
            continue
        start, end = sentence.span
        masked = sentence.text[:start] + "[MASK]" + sentence.text[end:]
        out.append(
            (
                sentence.derivation.kind,
                _instance(tables, masked, sentence.span_text),
                sentence.span_text,
            )
        )
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_synthetic_lookups_and_changes_are_answered(seed: int) -> None:
    cases = [c for c in _synthetic_instances(seed) if c[0] in ("lookup", "change")]
    assert cases, "the synthetic report should hold lookup sentences"
    for kind, metadata, span_text in cases:
        answer = solve_from_tables(metadata).answer
        assert reference_scorer_match(span_text, answer), (kind, metadata["masked_sentence"])


def test_solver_ignores_a_ground_truth_it_is_given() -> None:
    _, metadata, _ = next(c for c in _synthetic_instances(0) if c[0] == "lookup")
    clean = solve_from_tables(metadata)
    poisoned = solve_from_tables({**metadata, "ground_truth": "$1", "mask_type": "D"})
    assert poisoned.answer == clean.answer
    assert poisoned.to_completion() == clean.to_completion()


# -- hand-made tables: one per reading rule ------------------------------------

EXPENSES = _table(
    "3",
    [
        [
            "",
            "Year Ended December 31,",
            "Year Ended December 31,",
            "2023 vs. 2022 Change",
            "2023 vs. 2022 Change",
        ],
        ["(Dollars in millions)", "2023", "2022", "$", "%"],
        ["Research and development", "$3,969", "$3,075", "$894", "29%"],
        ["Selling, general and administrative", "4,800", "3,946", "854", "22%"],
        ["Total operating expenses", "8,769", "7,021", "1,748", "25%"],
    ],
    "Operating Expenses",
)


def test_change_blank_with_acronym_and_anchor_reads_the_change_column() -> None:
    masked = "R&D expenses increased [MASK], or 29%, in 2023 as compared to 2022."
    _assert_answer(_instance([EXPENSES], masked, "$1"), "$894,000,000")


def test_second_figure_of_a_change_pair_is_the_percent_column() -> None:
    masked = "SG&A expenses increased $854 million, or [MASK], in 2023 as compared to 2022."
    _assert_answer(_instance([EXPENSES], masked, "1%"), "22%")


def test_level_blank_takes_the_current_period() -> None:
    masked = "Research and development expenses were [MASK] in 2023."
    _assert_answer(_instance([EXPENSES], masked, "$1"), "$3,969,000,000")


VENUES = _table(
    "1",
    [
        ["", "Years Ended December 31,", "Years Ended December 31,"],
        ["", "2022", "2023"],
        ["Revenue:", "", ""],
        ["Restaurant revenue - company-owned restaurants", "$9,704,169", "$8,744,158"],
        ["Franchising revenue", "4,002,824", "4,665,187"],
        ["Total revenue", "14,452,765", "14,373,574"],
    ],
)


def test_from_blank_to_anchor_is_the_older_figure_of_the_anchor_row() -> None:
    masked = (
        "Revenue from this venue decreased from [MASK] to $8.7 million for the 12 months"
        " ended December 31, 2023 compared to the corresponding period in 2022."
    )
    _assert_answer(_instance([VENUES], masked, "$1"), "$9,704,169")


SEGMENTS = _table(
    "13",
    [
        [
            "",
            "Year Ended December 31, 2023",
            "Year Ended December 31, 2023",
            "Year Ended December 31, 2023",
        ],
        ["", "Core", "Funds", "Total"],
        ["Total revenues", "$203.5", "$135.1", "$338.7"],
        ["Interest expense", "(44.5)", "(48.7)", "(93.3)"],
    ],
    "Results by segment (in millions):",
)


def test_column_named_by_the_sentence_is_chosen() -> None:
    masked = "Interest expense for the Funds was [MASK] for the year ended December 31, 2023."
    _assert_answer(_instance([SEGMENTS], masked, "$1"), "$48,700,000")


PER_SHARE = _table(
    "7",
    [
        ["", "For the Years Ended December 31,", "For the Years Ended December 31,"],
        ["(in thousands, except per share data)", "2023", "2022"],
        ["Net income", "$817,880", "$1,111,952"],
        ["Diluted net income per common share", "$6.86", "$8.96"],
    ],
)


def test_per_share_rows_are_not_scaled() -> None:
    masked = "Net income per diluted share was [MASK] for 2022."
    _assert_answer(_instance([PER_SHARE], masked, "$1"), "$8.96")


PRODUCTION = _table(
    "6",
    [
        ["", "For the Years Ended December 31,", "For the Years Ended December 31,"],
        ["", "2023", "2022"],
        ["Revenue (in millions):", "", ""],
        ["Oil production revenue", "$1,620.1", "$2,012.3"],
        ["Production:", "", ""],
        ["Oil (MMBbl)", "23.4", "22.1"],
        ["Average daily equivalent production (MBOE per day)", "152.0", "145.1"],
    ],
)


def test_section_heading_scale_applies_below_it() -> None:
    masked = "Oil production revenue was [MASK] for 2023."
    _assert_answer(_instance([PRODUCTION], masked, "$1"), "$1,620,100,000")


def test_physical_unit_rows_keep_their_written_value() -> None:
    masked = (
        "Average daily equivalent production increased to 152.0 MBOE, compared with [MASK]"
        " for 2022."
    )
    _assert_answer(_instance([PRODUCTION], masked, "1 MBOE"), "145.1 MBOE")


SALES = _table(
    "1",
    [
        ["", "2023", "2022", "Total Change", "Impact of Exchange", "Total Change Excl. Exchange"],
        ["(dollars in millions)", "", "", "", "", ""],
        ["Medical Devices —", "", "", "", "", ""],
        ["Vascular", "$2,681", "$2,483", "8.0%", "(1.3)%", "9.3%"],
        ["Structural Heart", "1,944", "1,712", "13.6", "(0.7)", "14.3"],
    ],
)


def test_excluding_exchange_reads_the_excluding_column_and_bare_percent_cells() -> None:
    masked = (
        "In Structural Heart, excluding the effect of foreign exchange, sales increased"
        " [MASK] in 2023."
    )
    _assert_answer(_instance([SALES], masked, "1%"), "14.3%")


DEBT = _table(
    "18",
    [
        ["", "December 31,", "December 31,"],
        ["", "2023", "2022"],
        ["Total Debt - Fixed Rate", "$1,454,707", "$1,440,773"],
        ["Total Debt - Variable Rate", "426,380", "364,641"],
        ["Total indebtedness", "1,881,087", "1,805,414"],
    ],
    "A summary of our consolidated debt is as follows:",
)


def test_unstated_scale_is_inferred_from_the_sentence_figures() -> None:
    masked = (
        "As of December 31, 2023, our total indebtedness was [MASK], of which $426.4 million"
        " was variable-rate indebtedness."
    )
    _assert_answer(_instance([DEBT], masked, "$1"), "$1,881,087,000")


COSTS = _table(
    "2",
    [
        ["", "For the Year Ended December 31,"],
        ["(in millions)", "2023"],
        ["Development costs", "$765.7"],
        ["Exploration costs", "172.6"],
        ["Acquisitions", "292.8"],
        ["Total costs incurred", "1,231.1"],
    ],
)


def test_share_of_total_is_a_fraction_when_the_hint_says_plain_number() -> None:
    masked = "Development costs totaled $765.7 million, or [MASK] of our total 2023 costs incurred."
    metadata = _instance([COSTS], masked, "0.62")
    best = rank_candidates(metadata)[0]
    assert best.kind == "share"
    assert solve_from_tables(metadata).answer.startswith("0.62")


# -- the blank's role from the words around it --------------------------------


@pytest.mark.parametrize(
    ("masked", "role"),
    [
        ("Revenue increased [MASK], or 20 percent, year over year.", "change"),
        ("Net cash decreased by [MASK] to $13.26 billion in 2023.", "change"),
        ("Production increased [MASK] to 152.0 MBOE in 2023.", "change"),
        ("Revenue increased $405.0 million, or [MASK], year over year.", "change"),
        ("Expenses increased from [MASK] to $168,000 in 2023.", "older"),
        ("Net income was $5 million, compared with [MASK] in 2022.", "older"),
        ("Cash and cash equivalents totaled [MASK] at year end.", "level"),
        ("We recorded a net derivative loss of [MASK] for 2022.", "level"),
    ],
)
def test_mask_role(masked: str, role: str) -> None:
    before, _, after = masked.partition("[MASK]")
    assert mask_role(before, after) == role


def test_empty_tables_give_a_zero_answer_not_an_error() -> None:
    answer = solve_from_tables(_instance([], "Revenue was [MASK].", "$1"))
    assert answer.answer == "0"
    assert "No numeric table cell" in answer.reasoning


# -- measures the sentence defines: margins, rates, totals, definitions ----------------

_KINDS = ("ratio", "sum", "multi_step", "share", "pct_change")


@pytest.mark.parametrize("seed", [3, 11, 23])
def test_synthetic_ratios_sums_and_multi_step_are_answered(seed: int) -> None:
    cases = [c for c in _synthetic_instances(seed) if c[0] in _KINDS]
    assert {k for k, _, _ in cases} >= {"ratio", "multi_step"}
    for kind, metadata, span_text in cases:
        answer = solve_from_tables(metadata).answer
        assert reference_scorer_match(span_text, answer), (kind, metadata["masked_sentence"])


STATEMENTS = _table(
    "5",
    [
        ["", "2024", "2023", "2022"],
        ["Revenue", "1,000", "800", "640"],
        ["Cost of revenue", "600", "500", "400"],
        ["Gross profit", "400", "300", "240"],
        ["Selling, general and administrative", "150", "120", "100"],
        ["Total operating expenses", "250", "200", "160"],
        ["Operating income", "150", "100", "80"],
        ["Income before income taxes", "120", "90", "70"],
        ["Provision for income taxes", "30", "18", "14"],
        ["Net income", "90", "72", "56"],
        ["Diluted earnings per share", "1.80", "1.44", "1.12"],
    ],
    "Consolidated Statements of Operations (in millions, except per share data)",
)
BALANCE = _table(
    "6",
    [
        ["", "2024", "2023", "2022"],
        ["Current assets:", "", "", ""],
        ["Cash and cash equivalents", "200", "150", "100"],
        ["Accounts receivable, net", "120", "110", "90"],
        ["Inventories", "80", "70", "60"],
        ["Total current assets", "400", "330", "250"],
        ["Total current liabilities", "160", "150", "125"],
        ["Total stockholders' equity", "500", "400", "350"],
    ],
    "Consolidated Balance Sheets (in millions)",
)
CASH_FLOWS = _table(
    "7",
    [
        ["", "2024", "2023", "2022"],
        ["Accounts receivable", "(10)", "(20)", "(5)"],
        ["Net cash provided by operating activities", "180", "150", "120"],
        ["Purchases of property and equipment", "(60)", "(50)", "(40)"],
        ["Net increase (decrease) in cash and cash equivalents", "50", "50", "20"],
    ],
    "Consolidated Statements of Cash Flows (in millions)",
)
REPORT = [STATEMENTS, BALANCE, CASH_FLOWS]


@pytest.mark.parametrize(
    ("masked", "hint_of", "expected"),
    [
        ("Gross margin was [MASK] in 2024, compared to 37.5% in 2023.", "1%", "40%"),
        ("Operating margin was [MASK] for fiscal 2023.", "1%", "12.5%"),
        ("Net income as a percentage of revenue was [MASK] in 2024.", "1%", "9%"),
        ("Our effective tax rate was [MASK] for 2024.", "1%", "25%"),
        ("Our current ratio was [MASK] at the end of 2024.", "2.5", "2.50"),
        ("Return on average stockholders' equity was [MASK] in 2024.", "1%", "20%"),
        (
            "Selling, general and administrative expenses were $150 million, or [MASK] of "
            "revenue, in 2024.",
            "1%",
            "15%",
        ),
        (
            "Over the last two fiscal years, revenue grew at a compound annual rate of [MASK].",
            "1%",
            "25%",
        ),
    ],
)
def test_named_ratios_combine_the_lines_they_name(masked: str, hint_of: str, expected: str) -> None:
    _assert_answer(_instance(REPORT, masked, hint_of), expected)


def test_listed_items_together_are_summed_from_one_statement() -> None:
    masked = (
        "Cash and cash equivalents, accounts receivable and inventories together totaled "
        "[MASK] at year-end 2024."
    )
    _assert_answer(_instance(REPORT, masked, "$1"), "$400 million")
    answer = solve_from_tables(_instance(REPORT, masked, "$1"))
    assert answer.scenario == "D" and len(answer.metrics) == 3


def test_a_line_whose_name_has_and_is_not_a_list() -> None:
    masked = "Cash and cash equivalents totaled [MASK] at December 31, 2024."
    _assert_answer(_instance(REPORT, masked, "$1"), "$200 million")


def test_sum_as_share_of_a_base_line() -> None:
    masked = (
        "Cost of revenue and operating expenses together represented [MASK] of revenue in 2024."
    )
    _assert_answer(_instance(REPORT, masked, "1%"), "85%")


def test_definition_in_the_sentence_is_computed() -> None:
    masked = (
        "Working capital, defined as current assets less current liabilities, was [MASK] at "
        "December 31, 2024."
    )
    _assert_answer(_instance(REPORT, masked, "$1"), "$240 million")
    masked = (
        "Free cash flow, which we define as net cash provided by operating activities less "
        "capital expenditures, was [MASK] in 2024."
    )
    _assert_answer(_instance(REPORT, masked, "$1"), "$120 million")


def test_change_of_a_defined_measure() -> None:
    # free cash flow 120 (2024) against 100 (2023)
    _assert_answer(_instance(REPORT, "Free cash flow grew [MASK] from 2023.", "1%"), "20%")


def test_excluding_a_line_changes_the_total_without_it() -> None:
    segments = _table(
        "8",
        [
            ["", "2024", "2023"],
            ["Products", "700", "560"],
            ["Services", "300", "240"],
            ["Total revenue", "1,000", "800"],
        ],
        "Revenue by segment (in millions)",
    )
    masked = "Excluding Services, revenue grew [MASK] compared with 2023."
    _assert_answer(_instance([segments], masked, "1%"), "25%")


def test_synonym_reaches_the_tables_spelling() -> None:
    masked = "Capital expenditures were [MASK] in 2024, primarily for capacity expansion."
    _assert_answer(_instance(REPORT, masked, "$1"), "$60 million")


def test_reason_clause_does_not_pick_the_row() -> None:
    segments = _table(
        "8",
        [
            ["", "2024", "2023"],
            ["Subscription", "700", "690"],
            ["Services", "300", "110"],
            ["Total revenue", "1,000", "800"],
        ],
        "Revenue by segment (in millions)",
    )
    masked = "Compared with 2023, revenue rose [MASK], reflecting higher subscription renewals."
    _assert_answer(_instance([segments], masked, "1%"), "25%")


def test_per_share_anchor_explains_its_own_row_not_the_blank() -> None:
    masked = "We reported net income of [MASK] in 2024, or $1.80 per diluted share."
    _assert_answer(_instance(REPORT, masked, "$1"), "$90 million")


@pytest.mark.parametrize(
    "masked",
    [
        "In 2023, revenue increased [MASK] from 2022.",
        "Free cash flow rose [MASK] from 2023.",
    ],
)
def test_change_word_before_the_blank_and_from_after_is_a_change(masked: str) -> None:
    before, _, after = masked.partition("[MASK]")
    assert mask_role(before, after) == "change"


# -- rules added for share counts, rate-named amounts, sensitivities, lists -----

DEBT_2024 = _table(
    "18",
    [
        ["", "December 31,", "December 31,"],
        ["", "2024", "2023"],
        ["Total Debt - Fixed Rate", "$1,454,707", "$1,440,773"],
        ["Total Debt - Variable Rate", "426,380", "364,641"],
        ["Net unamortized debt issuance costs", "(11,186)", "(12,697)"],
        ["Unamortized premium", "240", "343"],
        ["Total Indebtedness", "$1,870,141", "$1,793,060"],
    ],
    "A summary of our consolidated debt is as follows (in thousands):",
)
SHARES = _table(
    "11",
    [
        ["Outstanding Common Shares as of December 31, 2024", "95,361,676"],
        ["Outstanding OP Units as of December 31, 2024", "5,346,042"],
    ],
    "Remaining Common Shares available under the Plan are as follows:",
)


def test_rate_named_debt_rows_take_the_money_scale() -> None:
    masked = "As of December 31, 2024, [MASK] of our debt was fixed-rate debt."
    _assert_answer(_instance([DEBT_2024], masked, "$1"), "$1,454.7 million")


def test_money_blank_is_never_a_share_count() -> None:
    masked = "As of December 31, 2024, our outstanding indebtedness was $1,881.1 million, of which [MASK] was variable-rate indebtedness."
    _assert_answer(_instance([SHARES, DEBT_2024], masked, "$1"), "$426.4 million")


def test_anchor_names_its_own_row_for_the_blanks_period() -> None:
    masked = "As of December 31, 2024, our indebtedness excluded unamortized premium of $0.2 million and unamortized debt issuance costs of [MASK]."
    _assert_answer(_instance([DEBT_2024], masked, "$1"), "$11.2 million")


REVENUE = _table(
    "7",
    [
        ["", "2024", "2023"],
        ["Oil production revenue", "$1,813.8", "$2,270.1"],
        ["Gas production revenue", "327.9", "790.9"],
        ["NGL production revenue", "222.2", "285.0"],
        ["Total production revenue", "$2,363.9", "$3,346.0"],
    ],
    "Production revenue (in millions):",
)
TAX = _table(
    "19",
    [
        ["", "2024", "2023"],
        ["Income tax expense", "$(96.3)", "$(283.8)"],
        ["Effective tax rate", "10.5%", "20.3%"],
    ],
    "Income tax expense (in millions, except tax rate)",
)


@pytest.mark.parametrize(
    ("masked", "expected"),
    [
        (
            "Based on our 2024 production, a 10 percent decrease in realized prices would have "
            "reduced our oil, gas, and NGL production revenues by approximately $181.4 million, "
            "[MASK], and $22.2 million, respectively.",
            "$32.8 million",
        ),
        (
            "A one percent change in our effective tax rate would have changed our income tax "
            "expense by approximately [MASK] for 2024.",
            "$9.2 million",
        ),
        (
            "Interest expense on our variable-rate debt would increase by approximately [MASK] "
            "for a 100-basis-point increase in interest rates.",
            "$4.3 million",
        ),
    ],
)
def test_what_if_sensitivity_is_the_shock_times_its_base(masked: str, expected: str) -> None:
    _assert_answer(_instance([REVENUE, TAX, DEBT_2024], masked, "$1"), expected)


def test_blank_shock_is_the_effect_over_its_base() -> None:
    masked = (
        "Based on our 2024 production, a [MASK] decrease in realized prices would have reduced "
        "our oil, gas, and NGL production revenues by approximately $181.4 million, $32.8 "
        "million, and $22.2 million, respectively."
    )
    _assert_answer(_instance([REVENUE], masked, "0.1"), "0.1")


def test_parallel_list_slot_names_the_row() -> None:
    regions = _table(
        "3",
        [
            ["Region", "Annualized Base Rent", "Percentage of Total"],
            ["New York Metro", "$40,000", "31.8%"],
            ["Southeast", "28,160", "22.4%"],
            ["Northeast", "32,690", "26.0%"],
            ["Midwest", "24,890", "19.8%"],
        ],
    )
    masked = "Our Funds derive 31.8%, 22.4% and [MASK] of their annual base rents in the New York metropolitan, Southeast, and Northeast regions."
    _assert_answer(_instance([regions], masked, "1%"), "26.0%")


@pytest.mark.parametrize(
    "masked",
    [
        "The stronger dollar decreased total international sales by [MASK] in 2024.",
        "Currency moves reduced U.S. sales by approximately [MASK].",
    ],
)
def test_change_word_then_object_then_by_is_a_change(masked: str) -> None:
    before, _, after = masked.partition("[MASK]")
    assert mask_role(before, after) == "change"


# -- periods without a year, period lengths, synonyms, point changes (round 5) -----

QUARTERS = _table(
    "21",
    [
        ["", "Three Months Ended December 31,", "Three Months Ended December 31,",
         "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022", "2023", "2022"],
        ["Net revenues", "$412.5", "$398.1", "$1,640.2", "$1,577.9"],
        ["Operating income", "61.3", "58.0", "240.8", "221.4"],
    ],
)  # fmt: skip


# the same figures with the year columns first: a rule, not the columns' order, decides
YEARS_FIRST = _table(
    "21",
    [[row[0], *row[3:], *row[1:3]] for row in QUARTERS["cells"]],
)


def test_prior_year_without_a_year_is_the_year_before_the_report() -> None:
    masked = "Operating income was $240.8 million, up from [MASK] in the prior year."
    _assert_answer(_instance([QUARTERS], masked, "$1"), "$221.4 million")
    masked = "Operating income for the prior year was [MASK]."
    _assert_answer(_instance([QUARTERS], masked, "$1"), "$221.4 million")


def test_a_quarter_sentence_reads_the_quarter_columns() -> None:
    masked = "Net revenues for the three months ended December 31, 2023 were [MASK]."
    _assert_answer(_instance([YEARS_FIRST], masked, "$1"), "$412.5 million")
    masked = "Net revenues for the fourth quarter of 2023 were [MASK]."
    _assert_answer(_instance([YEARS_FIRST], masked, "$1"), "$412.5 million")


def test_a_sentence_without_a_period_length_reads_the_year_columns() -> None:
    masked = "Net revenues were [MASK] in 2023."
    _assert_answer(_instance([QUARTERS], masked, "$1"), "$1,640.2 million")


def test_period_words_are_read() -> None:
    from finprobe.benchmarks.faith.sentence import change_pair, period_months, relative_period

    assert period_months("for the three months ended March 31, 2024") == 3
    assert period_months("in the fourth quarter of fiscal 2023") == 3
    assert period_months("for the year ended December 31, 2023") == 12
    assert period_months("for the nine months ended September 30") == 9
    assert period_months("Revenue grew [MASK].") is None
    # both a quarter and a year: no single length
    assert period_months("fourth quarter and full year 2023") is None
    assert relative_period("Revenue was $5 million compared to ", " in the prior year.") == -1
    assert relative_period("Revenue was ", " in the current year, up 5%.") == 0
    # the prior year belongs to the other figure's clause, not the blank's
    assert relative_period("Revenue was ", " compared to $4 million in the prior year.") is None
    assert change_pair(["2023", "2022"], "2023") == {"2023", "2022"}
    assert change_pair(["2023"], "2023") == {"2023", "2022"}
    assert change_pair([], "2024") == {"2024", "2023"}
    assert change_pair([], None) is None


THREE_YEARS = _table(
    "22",
    [
        ["", "Year Ended December 31,", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022", "2021"],
        ["Net sales", "$950.0", "$900.0", "$700.0"],
        ["Interest income", "4.0", "3.0", "1.0"],
        ["Royalty income", "20.0", "17.5", "16.0"],
        ["Gross margin", "41.2%", "39.8%", "38.0%"],
    ],
)


def test_a_change_in_one_named_year_is_against_the_year_before() -> None:
    masked = "Net sales increased [MASK] in 2023."
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$50.0 million")
    # oldest year first: 2023 against 2021 comes first among the pairs, and is not it
    ascending = _table("22", [[r[0], r[3], r[2], r[1]] for r in THREE_YEARS["cells"]])
    _assert_answer(_instance([ascending], masked, "$1"), "$50.0 million")
    masked = "Net sales increased [MASK] compared to the prior year."
    _assert_answer(_instance([ascending], masked, "$1"), "$50.0 million")


def test_a_change_with_no_year_is_the_reports_latest_against_the_prior() -> None:
    masked = "Net sales increased [MASK] compared to the prior year."
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$50.0 million")


def test_revenue_in_the_sentence_reaches_a_sales_row() -> None:
    masked = "Revenue for 2023 was [MASK], driven by higher volumes."
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$950.0 million")


def test_synonyms_are_kept_apart_from_the_sentences_own_words() -> None:
    metadata = _instance([THREE_YEARS], "Revenue for 2023 was [MASK].", "$1")
    top = rank_candidates(metadata)[0]
    assert top.features.get("synonym_hits", 0) > 0
    assert top.features.get("sentence_hits", 0) == 0


def test_a_rate_changes_by_points() -> None:
    masked = "Gross margin improved [MASK] in 2023, reflecting a favorable product mix."
    _assert_answer(_instance([THREE_YEARS], masked, "1%"), "1.4%")


def test_up_and_year_over_year_say_a_change() -> None:
    from finprobe.benchmarks.faith.context import _solver_role

    assert _solver_role("Net sales were up ", " in 2023.") == "change"
    assert _solver_role("Net sales were down by approximately ", " from 2022.") == "change"
    assert _solver_role("Net sales rose ", " year-over-year.") == "change"
    assert _solver_role("Net sales were ", " year over year.") == "change"
    # a new level, not a change
    assert _solver_role("Net sales grew to ", " year-over-year.") == "level"
    assert _solver_role("Capacity of up to ", " in 2023.") == "level"
    assert _solver_role("In 2023, Household made up ", " of our revenue.") == "level"
    masked = "Net sales were up [MASK] in 2023."
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$50.0 million")


UNSCALED_DEBT = _table(
    "23",
    [
        ["", "December 31,", "December 31,"],
        ["", "2024", "2023"],
        ["Fixed rate debt", "1,454,707", "1,440,773"],
        ["Variable rate debt", "426,380", "364,641"],
    ],
    "Debt summary:",
)


def test_neighbouring_sentences_tell_an_unscaled_tables_scale() -> None:
    masked = "Variable rate debt was [MASK] as of December 31, 2024."
    pre = "Fixed rate debt totaled $1,454.7 million as of December 31, 2024."
    _assert_answer(_instance([UNSCALED_DEBT], masked, "$1", pre=pre), "$426.4 million")
    # the neighbours' figures match the cells as written: no scale
    pre = "Fixed rate debt totaled $1,454,707 as of December 31, 2024."
    _assert_answer(_instance([UNSCALED_DEBT], masked, "$1", pre=pre), "$426,380")


def test_a_label_written_as_one_phrase_is_a_feature() -> None:
    from finprobe.benchmarks.faith.context import Scorer, read_context
    from finprobe.benchmarks.faith.sentence import _tokens
    from finprobe.document import Table

    table = Table(id="t", cells=THREE_YEARS["cells"])

    def parts(masked: str, label: str) -> dict[str, float]:
        ctx = read_context(_instance([THREE_YEARS], masked, "$1"))
        words = _tokens(label)
        return Scorer([table], ctx).label_parts(set(words), set(), words)

    together = parts("Interest income was [MASK] in 2023.", "Interest income")
    assert together["phrase_sentence"] == 1.0 and together["phrase_near"] == 1.0
    apart = parts("Income from interest was [MASK] in 2023.", "Interest income")
    assert apart["phrase_sentence"] == 0.0 and apart["phrase_near"] == 0.0
    far = parts(
        "Interest income grew strongly this year across all of our markets while sales were"
        " [MASK] in 2023.",
        "Interest income",
    )
    assert far["phrase_sentence"] == 1.0 and far["phrase_near"] == 0.0
    assert "phrase_sentence" not in parts("Sales were [MASK].", "Sales")  # one word: no phrase


def test_a_change_across_zero_counts_both_sides() -> None:
    table = _table(
        "24",
        [
            ["", "Year Ended December 31,", "Year Ended December 31,"],
            ["(in millions)", "2023", "2022"],
            ["Revenue", "$120.0", "$100.0"],
            ["Other income (expense), net", "3.0", "(5.0)"],
        ],
    )
    masked = "Other income (expense), net increased [MASK] in 2023 compared to 2022."
    _assert_answer(_instance([table], masked, "$1"), "$8.0 million")
    masked = "Other income (expense), net changed by [MASK] in 2023 compared to 2022."
    _assert_answer(_instance([table], masked, "1%"), "160%")


def test_the_direction_word_picks_the_change_that_moved_that_way() -> None:
    table = _table(
        "25",
        [
            ["", "Year Ended December 31,", "Year Ended December 31,"],
            ["(in millions)", "2023", "2022"],
            ["Product sales", "$130.0", "$100.0"],
            ["Service sales", "70.0", "90.0"],
        ],
    )
    masked = "Segment sales declined [MASK] in 2023 compared to 2022."
    _assert_answer(_instance([table], masked, "$1"), "$20.0 million")
    masked = "Segment sales rose [MASK] in 2023 compared to 2022."
    _assert_answer(_instance([table], masked, "$1"), "$30.0 million")


def test_direction_words_are_read() -> None:
    from finprobe.benchmarks.faith.sentence import change_direction

    assert change_direction("Revenue rose ", " in 2023.") == 1
    assert change_direction("Costs declined by ", " in 2023.") == -1
    assert change_direction("This was an ", " increase over 2022.") == 1
    assert change_direction("Net loss decreased $3.1 million, or ", ".") == -1
    assert change_direction("Revenue was ", " in 2023.") is None
    # nouns that look like direction words say nothing
    assert change_direction("The change in contract liabilities of ", " was due to timing.") is None
    assert change_direction("Proceeds included a gain on sale of ", ".") is None
    assert change_direction("Inventories are stated at the lower of ", ".") is None
    assert change_direction("Spending on leasehold improvements grew ", ".") == 1


def test_footnotes_and_values_in_a_header_do_not_name_the_column() -> None:
    from finprobe.benchmarks.faith.cells import numeric_cells
    from finprobe.benchmarks.faith.context import _column_words
    from finprobe.document import Table

    cells = [
        ["", "Hotel", "Hotel", "Restaurant"],
        ["", "December 31, 2023 $30,248,929 31,749,695", "Funds", "Funds"],
        [
            "",
            "(1) Includes amounts reclassified from discontinued operations of the Company",
            "",
            "",
        ],
        ["Rooms revenue", "1,200", "300", "50"],
    ]
    table = Table(id="t", cells=cells)
    table.header_rows = 3
    by_col = {c.col: c for c in numeric_cells(table, "1")}
    assert _column_words(by_col[1]) == "Hotel"
    assert _column_words(by_col[2]) == "Hotel Funds"


def test_the_change_in_a_line_of_mask_is_a_change() -> None:
    from finprobe.benchmarks.faith.context import _solver_role

    assert _solver_role("The decrease in product sales of ", " for 2023 was due to.") == "change"
    assert _solver_role("The increase in revenue was ", " in 2023.") == "change"
    # a line item named "Change in fair value of ..." is a level
    assert _solver_role("The change in fair value of warrants of ", " was a gain.") == "level"
    masked = "The decrease in service sales of [MASK] in 2023 reflected lower volumes."
    table = _table(
        "26",
        [
            ["", "Year Ended December 31,", "Year Ended December 31,"],
            ["(in millions)", "2023", "2022"],
            ["Product sales", "$130.0", "$100.0"],
            ["Service sales", "70.0", "90.0"],
        ],
    )
    _assert_answer(_instance([table], masked, "$1"), "$20.0 million")


def test_dates_in_a_row_label_do_not_match_a_dated_sentence() -> None:
    table = _table(
        "27",
        [
            ["", "Amount"],
            ["Balance as of December 31, 2022", "$38,120"],
            ["Home equity loans", "36"],
            ["Balance as of December 31, 2023", "$38,493"],
        ],
        "Loan portfolio (in thousands):",
    )
    masked = "The balance of home equity loans was [MASK] at December 31, 2023."
    _assert_answer(_instance([table], masked, "$1"), "$36,000")


def test_a_sentence_that_names_years_speaks_of_them() -> None:
    # SOHOO (built): a 2022 sentence in a 2023 report; "to [MASK]" is 2022's level and
    # "compared to [MASK] ... 2021" 2021's, never the report's latest year
    masked = (
        "Interest income for the year ended December 31, 2022 increased approximately $2.0 "
        "million, or 200.0%, to approximately [MASK], compared to approximately $1.0 million "
        "of interest income for the year ended December 31, 2021."
    )
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$3.0 million")
    masked = (
        "Interest income for the year ended December 31, 2022 increased approximately $2.0 "
        "million, or 200.0%, to approximately $3.0 million, compared to approximately [MASK] "
        "of interest income for the year ended December 31, 2021."
    )
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$1.0 million")
    # a year named only in a comparison after the blank is the comparison's
    masked = "Interest income was [MASK], compared to a lower amount in 2022."
    _assert_answer(_instance([THREE_YEARS], masked, "$1"), "$4.0 million")
    # a sentence with no year still reads the report's latest year
    _assert_answer(_instance([THREE_YEARS], "Interest income was [MASK].", "$1"), "$4.0 million")


INCOME = _table(
    "31",
    [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in thousands)", "2023", "2022"],
        ["Net revenue", "$412,500", "$380,000"],
        ["Cost of revenue", "250,000", "228,000"],
        ["Selling, general and administrative", "118,800", "97,660"],
        ["Operating income", "43,700", "54,340"],
    ],
)


def test_a_percentage_of_a_base_named_first_or_last_is_the_ratio() -> None:
    # the base leads the clause: "As a percentage of Y, X increased to [MASK]"
    masked = (
        "As a percentage of net revenue, SG&A increased to [MASK] from 25.7% for the years"
        " ended December 31, 2023 and 2022, respectively."
    )
    _assert_answer(_instance([INCOME], masked, "1%"), "28.8%")
    # "X as a percentage of Y decreased [MASK]": the ratio's change, in points
    # (54,340 / 380,000 = 14.3%; 43,700 / 412,500 = 10.6%)
    masked = "For 2023, operating income as a percentage of net revenue decreased [MASK] compared to 2022."
    _assert_answer(_instance([INCOME], masked, "1%"), "3.7%")
    # the last clause's noun is the part
    masked = "Net revenue grew 8.6%, and cost of revenue as a percentage of net revenue was [MASK] in 2023."
    _assert_answer(_instance([INCOME], masked, "1%"), "60.6%")


RESULTS = _table(
    "32",
    [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022"],
        ["Revenue", "$310.4", "$288.1"],
        ["Gross profit", "88.2", "80.6"],
        ["Net income", "24.7", "21.3"],
    ],
)


def test_a_respectively_list_of_two_metrics_gives_the_blank_its_own() -> None:
    # "[MASK] and $24.7 million of gross profit and net income, respectively": the first
    # item's row. A hard rule: it holds even for weights that favour the other item's row
    # (here: the sentence's own figure, net income's $24.7 million)
    perverse = SolverOptions(ranker=Ranker({"is_anchor": 10.0, "period_target_match": 1.0}))
    cases = [
        (
            "For the year ended December 31, 2023, we recognized [MASK] and $24.7 million of"
            " gross profit and net income, respectively.",
            "$88.2 million",
        ),
        ("Net income and gross profit were $24.7 million and [MASK], respectively, in 2023.",
         "$88.2 million"),
        ("Gross profit and net income were [MASK] and $21.3 million, respectively, in 2022.",
         "$80.6 million"),
    ]  # fmt: skip
    for masked, expected in cases:
        metadata = _instance([RESULTS], masked, "$1")
        _assert_answer(metadata, expected)
        answer = solve_from_tables(metadata, perverse).answer
        assert reference_scorer_match(expected, answer), (masked, answer)
    # nested "and"s or a clause's subject: the items are unclear, the list says nothing
    assert (
        _listed_items(
            "In 2023, we received oil and gas royalty and lease revenues of [MASK] and $635,363,"
            " respectively."
        )
        is None
    )
    assert _listed_items(
        "Decreases of $12.8 million and [MASK] in payroll and other operating expenses,"
        " respectively."
    ) == (1, ["payroll", "other operating expenses"])


REPURCHASES = _table(
    "2",
    [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in thousands, except per share data)", "2023", "2022"],
        ["Total number of shares repurchased", "1,200", "800"],
        ["Total cost of shares repurchased", "$54,240", "$31,280"],
    ],
)


def test_unit_kind_part_and_naming_rules_hold_whatever_the_weights() -> None:
    # hard rules (rules.py), not weights: each case gets weights that favour the wrong
    # candidate (the learned ranker once did), and the rule still decides
    cases = [
        # a per-share blank is a per-share row (net income's row covers the words better)
        (_instance([PER_SHARE], "Net income per diluted share was [MASK] for 2022.", "$1"),
         {"coverage": 10.0}, "$8.96"),
        # the part after "of which" is named by its own words, not the whole's
        (_instance([SHARES, DEBT_2024], "As of December 31, 2024, our outstanding indebtedness"
                   " was $1,881.1 million, of which [MASK] was variable-rate indebtedness.", "$1"),
         {"coverage": 10.0}, "$426.4 million"),
        # a money blank is never a count row, even when the weights like counts: both rows
        # are named ("shares", "repurchased"), so the named-rows rule cannot decide it
        (_instance([REPURCHASES], "In 2023, we repurchased shares for a total of [MASK].", "$1"),
         {"money_count": 20.0}, "$54.2 million"),
        # "revenue" names "Net sales" through the synonym table; unnamed rows come after it
        (_instance([THREE_YEARS], "Revenue for 2023 was [MASK].", "$1"),
         {"missing": 5.0, "period_target_match": 1.0}, "$950.0 million"),
    ]  # fmt: skip
    for metadata, weights, expected in cases:
        weights.setdefault("period_target_match", 1.0)
        answer = solve_from_tables(metadata, SolverOptions(ranker=Ranker(weights))).answer
        assert reference_scorer_match(expected, answer), (metadata["masked_sentence"], answer)


def test_a_difference_of_two_lines_is_the_first_less_the_second() -> None:
    # no row holds it: "the difference between A and B" and "A exceeded B by" name the
    # two lines of one period (412,500 - 250,000; 2022: 380,000 - 228,000)
    masked = "In 2023, the difference between net revenue and cost of revenue was [MASK]."
    _assert_answer(_instance([INCOME], masked, "$1"), "$162.5 million")
    masked = "For 2022, net revenue exceeded cost of revenue by [MASK]."
    _assert_answer(_instance([INCOME], masked, "$1"), "$152.0 million")
