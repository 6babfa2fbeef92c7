"""The FAITH solver: measures the sentence defines (ratios, sums, definitions), what-if
sentences, parallel and "respectively" lists, differences."""

from __future__ import annotations

import pytest
from faith_solver_cases import (
    BALANCE,
    DEBT_2024,
    REPORT,
    STATEMENTS,
    _assert_answer,
    _instance,
    _synthetic_instances,
    _table,
)

from finprobe.benchmarks.faith.ranker import HAND_RANKER, Ranker
from finprobe.benchmarks.faith.sensitivity import _listed_items
from finprobe.benchmarks.faith.solver import SolverOptions, rank_candidates, solve_from_tables
from finprobe.numbers import reference_scorer_match

# -- measures the sentence defines: margins, rates, totals, definitions ----------------

_KINDS = ("ratio", "sum", "multi_step", "share", "pct_change")


@pytest.mark.parametrize("seed", [3, 11, 23])
def test_synthetic_ratios_sums_and_multi_step_are_answered(seed: int) -> None:
    cases = [c for c in _synthetic_instances(seed) if c[0] in _KINDS]
    assert {k for k, _, _ in cases} >= {"ratio", "multi_step"}
    for kind, metadata, span_text in cases:
        answer = solve_from_tables(metadata).answer
        assert reference_scorer_match(span_text, answer), (kind, metadata["masked_sentence"])


@pytest.mark.parametrize(
    ("masked", "hint_of", "expected"),
    [
        ("Gross margin was [MASK] in 2024, compared to 37.5% in 2023.", "1%", "40%"),
        ("Operating margin was [MASK] for fiscal 2023.", "1%", "12.5%"),
        ("Net income as a percentage of revenue was [MASK] in 2024.", "1%", "9%"),
        ("Our effective tax rate was [MASK] for 2024.", "1%", "25%"),
        ("Our ETR was [MASK] for 2024.", "1%", "25%"),
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


def test_a_difference_of_two_lines_is_the_first_less_the_second() -> None:
    # no row holds it: "the difference between A and B" and "A exceeded B by" name the
    # two lines of one period (412,500 - 250,000; 2022: 380,000 - 228,000)
    masked = "In 2023, the difference between net revenue and cost of revenue was [MASK]."
    _assert_answer(_instance([INCOME], masked, "$1"), "$162.5 million")
    masked = "For 2022, net revenue exceeded cost of revenue by [MASK]."
    _assert_answer(_instance([INCOME], masked, "$1"), "$152.0 million")


MARGINS = _table("21", [
    ["", "Year Ended December 31,", "Year Ended December 31,"],
    ["(in thousands)", "2023", "2022"],
    ["Net sales", "$2,434,000", "$2,362,000"],
    ["Cost of sales", "1,446,100", "1,488,100"],
    ["Gross profit", "987,900", "873,900"],
    ["Selling and administrative expenses", "811,600", "720,200"],
])  # fmt: skip


def test_a_ratios_change_asked_in_basis_points_is_its_change_in_points() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER

    # 40.59% of net sales in 2023 against 37.00% in 2022: 3.59 points, 359 basis points
    cases = [
        ("Gross profit as a percentage of net sales increased [MASK] in 2023 compared to 2022.",
         "359 basis points"),
        ("Selling and administrative expenses as a percentage of net sales increased [MASK] in"
         " 2023 compared to 2022.", "285 basis points"),
        ("Gross profit as a percentage of net sales increased [MASK] in 2023 compared to 2022.",
         "3.6%"),
    ]  # fmt: skip
    for masked, expected in cases:
        for ranker in (None, HAND_RANKER):
            metadata = _instance([MARGINS], masked, expected)
            answer = solve_from_tables(metadata, SolverOptions(ranker=ranker)).answer
            assert reference_scorer_match(expected, answer), (masked, answer)
    assert answer.endswith("%")
    metadata = _instance([MARGINS], cases[0][0], cases[0][1])
    assert solve_from_tables(metadata).answer == "358.92 basis points"


# a company's revenue by type: product sales were 68% of revenues in 2022 and 71% in 2023,
# services 32% and 29%
REVENUE_MIX = _table("3", [
    ["", "Year Ended December 31,", "Year Ended December 31,"],
    ["(in thousands)", "2023", "2022"],
    ["Product sales", "$76,000", "$68,000"],
    ["Services", "31,000", "32,000"],
    ["Total revenues", "107,000", "100,000"],
    ["Cost of product sales", "45,600", "44,880"],
    ["Selling, general and administrative", "33,170", "25,700"],
], "Results of operations (in thousands):")  # fmt: skip


def test_a_shares_companion_figure_is_the_same_share_in_the_other_year() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER
    from finprobe.benchmarks.faith.solver import rank_candidates

    # the 2022 share's companion is the sentence's 29% (2023's services share)
    masked = "Services revenue was 29% of total revenues in 2023 compared to [MASK] in 2022."
    metadata = _instance([REVENUE_MIX], masked, "32%")
    ranked = rank_candidates(metadata, SolverOptions(ranker=HAND_RANKER))
    fired = {round(float(c.value), 2) for c in ranked if c.features.get("companion")}
    # services / total in 2022 only: no other row's 2023 share (SG&A 31.0%, product 71.0%,
    # cost 42.6%) reads as "29%"
    assert fired == {32.0}
    answer = solve_from_tables(metadata, SolverOptions(ranker=HAND_RANKER)).answer
    assert reference_scorer_match("32%", answer), answer
    # a share whose other year matches no figure of the sentence gets nothing
    masked = "Services revenue was [MASK] of total revenues in 2023."
    ranked = rank_candidates(_instance([REVENUE_MIX], masked, "29%"))
    assert not any(c.features.get("companion") for c in ranked)


DEPOSITS = _table("5", [
    ["", "December 31,", "December 31,"],
    ["(in thousands)", "2023", "2022"],
    ["Noninterest-bearing deposits", "$409,600", "$487,000"],
    ["Interest-bearing deposits", "649,400", "726,400"],
    ["Total deposits", "1,059,000", "1,213,400"],
], "Deposits (in thousands):")  # fmt: skip


def test_a_changes_companion_figure_is_its_other_form() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER
    from finprobe.benchmarks.faith.solver import rank_candidates

    # "$77.4 million, or [MASK]": the percentage change whose change is $77.4 million
    masked = (
        "The decrease in noninterest-bearing deposits of $77.4 million, or [MASK], was due to"
        " lower balances."
    )
    metadata = _instance([DEPOSITS], masked, "15.9%")
    hand = SolverOptions(ranker=HAND_RANKER)
    fired = [c for c in rank_candidates(metadata, hand) if c.features.get("companion")]
    assert [(c.kind, round(float(c.value), 2)) for c in fired] == [("pct_change", 15.89)]
    answer = solve_from_tables(metadata, hand).answer
    assert reference_scorer_match("15.9%", answer), answer
    # the figure with a thousands separator is read whole ("$77,400", not "400")
    masked = "The decrease in noninterest-bearing deposits of $77,400 thousand, or [MASK] was due to lower balances."
    fired = [
        c
        for c in rank_candidates(_instance([DEPOSITS], masked, "15.9%"), hand)
        if c.features.get("companion")
    ]
    assert [(c.kind, round(float(c.value), 2)) for c in fired] == [("pct_change", 15.89)]
    # "decreased [MASK], or 12.7%": the change whose percentage change is 12.7%
    masked = "Total deposits decreased [MASK], or 12.7%, during 2023."
    fired = [
        c
        for c in rank_candidates(_instance([DEPOSITS], masked, "$154.4 million"), hand)
        if c.features.get("companion")
    ]
    assert [(c.kind, c.cells[0].row) for c in fired] == [("change", 4)]


# the review's probe table (review10-s9): net sales +22.3 (7.74%), gross profit +7.6
# (9.43%), service revenue +3.0 (10%), SG&A +18.2 (69.2%), operating income -13.3 (29.7%)
RESULTS = _table("4", [
    ["", "Year Ended December 31,", "Year Ended December 31,"],
    ["(in millions)", "2023", "2022"],
    ["Product revenue", "$277.4", "$258.1"],
    ["Service revenue", "33.0", "30.0"],
    ["Net sales", "$310.4", "$288.1"],
    ["Cost of revenue", "222.2", "207.5"],
    ["Gross profit", "88.2", "80.6"],
    ["Research and development", "12.2", "9.5"],
    ["Selling, general and administrative", "44.5", "26.3"],
    ["Operating income", "31.5", "44.8"],
    ["Net income", "24.7", "21.3"],
])  # fmt: skip


def test_a_changes_companion_is_only_the_figure_beside_the_blank() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER
    from finprobe.benchmarks.faith.solver import rank_candidates

    hand = SolverOptions(ranker=HAND_RANKER)

    def fired(masked: str, hint_of: str) -> set[tuple[str, str]]:
        ranked = rank_candidates(_instance([RESULTS], masked, hint_of), hand)
        return {
            (c.kind, c.cells[0].table.row_label(c.cells[0].row))
            for c in ranked
            if c.features.get("companion") and c.kind in ("change", "pct_change")
        }

    # another clause's figure is another row's: SG&A's $18.2 million, service's $3.0 million
    others = [
        ("Operating income decreased [MASK] in 2023, as SG&A increased $18.2 million.", "29.7%"),
        ("Net sales increased [MASK] in 2023, including $3.0 million from services.", "7.7%"),
    ]
    for masked, expected in others:
        assert fired(masked, expected) == set(), masked
        answer = solve_from_tables(_instance([RESULTS], masked, expected)).answer
        assert reference_scorer_match(expected, answer), (masked, answer)
    # the figure joined to the blank by "or" is its other form
    assert fired("Net sales increased $22.3 million, or [MASK], in 2023.", "7.7%") == {
        ("pct_change", "Net sales")
    }
    pair = (
        "Net sales and gross profit increased $22.3 million and [MASK], or 7.7% and 9.4%,"
        " respectively, in 2023."
    )
    assert ("change", "Gross profit") in fired(pair, "$7.6 million")


def test_a_change_from_one_stated_rate_to_another_is_their_difference_in_points() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER

    # the table's amounts (not its rates): 17.1% and 17.5% are the sentence's own
    masked = (
        "Compensation and benefits as a percentage of net sales increased approximately"
        " [MASK] from 17.1% in fiscal 2022 to 17.5% in fiscal 2023."
    )
    for expected in ("40 basis points", "0.4%"):
        for ranker in (None, HAND_RANKER):
            metadata = _instance([MARGINS], masked, expected)
            answer = solve_from_tables(metadata, SolverOptions(ranker=ranker)).answer
            assert reference_scorer_match(expected, answer), (expected, answer)
    assert solve_from_tables(_instance([MARGINS], masked, "40 basis points")).answer == (
        "40 basis points"
    )
    # a money change "from $X to $Y" is left to the tables (their figures are unrounded)
    masked = "Net sales increased [MASK] from $2,362.0 million in 2022 to $2,434.0 million."
    assert solve_from_tables(_instance([MARGINS], masked, "3%")).answer == "3.0483%"


def _stated(masked: str, hint_of: str) -> object:
    from finprobe.benchmarks.faith.context import read_context
    from finprobe.benchmarks.faith.measures import stated_points_change

    return stated_points_change(masked, read_context(_instance([], masked, hint_of)))


# the review's probes (review10-s9): net sales 310.4 / 288.1, largest customer 21.7 / 14.4
CUSTOMERS = _table("6", [
    ["", "Year Ended December 31,", "Year Ended December 31,"],
    ["(in millions)", "2023", "2022"],
    ["Net sales", "$310.4", "$288.1"],
    ["Sales to our largest customer", "21.7", "14.4"],
])  # fmt: skip
RATES = _table("7", [
    ["", "2023", "2022"],
    ["Net interest margin", "3.45%", "3.20%"],
    ["Effective tax rate", "24.5%", "21.0%"],
    ["Income tax expense (in millions)", "$12.3", "$9.8"],
])  # fmt: skip


def test_stated_rates_are_a_points_change_only_when_the_blank_names_a_rate() -> None:
    from finprobe.benchmarks.faith.ranker import HAND_RANKER

    # the rate's own change: points
    rate = "The effective tax rate increased [MASK], from 21.0% in 2022 to 24.5% in 2023."
    assert float(_stated(rate, "3.5%").value) == pytest.approx(3.5)
    # a level blank "from A% to B%" is no change
    assert _stated(rate.replace("increased", "was"), "24.5%") is None
    # the amount's change: the rates are shares of another base (net sales, pretax income)
    customer = "Sales to our largest customer increased [MASK], from 5.0% to 7.0% of net sales."
    assert _stated(customer, "50.7%") is None
    for ranker in (None, HAND_RANKER):
        metadata = _instance([CUSTOMERS], customer, "50.7%")
        answer = solve_from_tables(metadata, SolverOptions(ranker=ranker)).answer
        assert reference_scorer_match("50.7%", answer), answer
    tax = "Income tax expense increased [MASK], from 21.0% to 24.5% of pretax income."
    assert _stated(tax, "25.5%") is None
    answer = solve_from_tables(_instance([RATES], tax, "25.5%"), SolverOptions(ranker=HAND_RANKER))
    assert reference_scorer_match("25.5%", answer.answer), answer.answer
    # "per share" names no rate
    assert (
        _stated("Earnings per share increased [MASK], from 5.0% to 7.0% of net income.", "1%")
        is None
    )


def _endpoint(masked: str, hint_of: str) -> object:
    from finprobe.benchmarks.faith.context import read_context
    from finprobe.benchmarks.faith.measures import stated_rate_endpoint

    return stated_rate_endpoint(masked, read_context(_instance([], masked, hint_of)))


@pytest.mark.parametrize(
    ("masked", "expected"),
    [
        # the older rate undoes the move; the newer one makes it
        ("Our gross margin improved by 360 basis points to 25.1% from [MASK].", 21.5),
        ("Gross margin decreased 120 basis points from 39.7% in fiscal 2022 to [MASK].", 38.5),
        ("Operating margin expanded 2.1 percentage points to [MASK] in 2023 from 14.0% in 2022.",
         16.1),
        ("The net interest margin fell 25 bps from [MASK] to 3.20% in 2023.", 3.45),
    ],
)  # fmt: skip
def test_a_rate_at_one_end_of_a_stated_move_is_the_other_end_moved(
    masked: str, expected: float
) -> None:
    found = _endpoint(masked, "1.1%")
    assert found is not None and float(found.value) == pytest.approx(expected)


def test_a_stated_move_gives_no_endpoint_without_a_known_direction_or_points() -> None:
    # "improved" says nothing of the way an expense ratio went
    assert _endpoint("SG&A as a percentage of sales improved 50 bps to 20.1% from [MASK].",
                     "20.6%") is None  # fmt: skip
    # the rate named just before the verb says whether "improved" is up (review14)
    for masked in (
        "Gross margin expanded 100 bps and SG&A as a percentage of sales improved 50 bps to "
        "20.1% from [MASK].",
        "Selling expenses, net of returns, as a percentage of sales improved 40 basis points "
        "to 20.1% from [MASK].",
        "SG&A as a percentage of gross margin improved 50 bps to 30.0% from [MASK].",
    ):
        assert _endpoint(masked, "20.6%") is None, masked
    # a move in money, not points, is left to the tables
    assert _endpoint("Revenue increased $3.6 million to $25.1 million from [MASK].", "1%") is None
    # a blank asked in basis points is a move, not a rate
    masked = "Margin rose 360 basis points to 25.1% from [MASK]."
    assert _endpoint(masked, "21.5%") is not None
    assert _endpoint(masked, "360 basis points") is None
    # the whole solver: the table holds only this year's rates, the sentence states the move
    this_year = _table("8", [
        ["", "2023"],
        ["Net interest margin", "3.20%"],
        ["Effective tax rate", "24.5%"],
    ])  # fmt: skip
    masked = "The net interest margin fell 25 bps to 3.20% in 2023 from [MASK] in 2022."
    _assert_with_both_rankers([this_year], masked, "3.45%")


def _assert_with_both_rankers(tables: list[dict], masked: str, expected: str) -> None:
    """The learned and the hand weights both answer ``expected``."""
    for ranker in (None, HAND_RANKER):
        answer = solve_from_tables(_instance(tables, masked, expected),
                                   SolverOptions(ranker=ranker)).answer  # fmt: skip
        assert reference_scorer_match(expected, answer), (ranker, answer)


SEGMENT_MARGINS = {
    "index": "9",
    "pre_text": "Gross margin by segment:",
    "cells": [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in thousands, except percentages)", "2023", "2022"],
        ["Net revenue", "$1,000,000", "$900,000"],
        ["Cost of revenue", "700,000", "640,000"],
        ["Gross profit", "300,000", "260,000"],
        ["Peripherals segment gross margin", "33.7%", "28.6%"],
        ["Components segment gross margin", "24.0%", "27.0%"],
    ],
}


def test_a_segments_margin_is_not_the_consolidated_lines_measure() -> None:
    # the consolidated margin changed 1.1 points (30.0% from 28.9%); the segment's own row 5.1
    for masked, expected in (
        (
            "The gross margin of the Peripherals segment increased [MASK] in 2023 compared to 2022.",
            "5.1%",
        ),
        ("The Peripherals segment's gross margin was [MASK] in 2023.", "33.7%"),
    ):
        _assert_answer(_instance([SEGMENT_MARGINS], masked, "5%"), expected)


def test_a_measure_named_in_a_heading_is_not_the_blanks() -> None:
    # "gross margin" is the heading's; the blank is cost of revenue's change (9.4%)
    masked = (
        "Cost of revenue and gross margin — Cost of revenue for 2023 increased $60,000, or"
        " [MASK], compared to 2022."
    )
    _assert_answer(_instance([SEGMENT_MARGINS], masked, "5%"), "9.4%")


def _t(index: str, rows: list[list[str]]) -> dict:
    header = [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in millions)", "2023", "2022"],
    ]
    return {"index": index, "pre_text": "", "cells": header + rows}


RESULTS_2023 = _t("4", [
    ["Net sales", "$310.4", "$288.1"],
    ["Cost of revenue", "222.2", "207.5"],
    ["Gross profit", "88.2", "80.6"],
    ["Operating income", "40.0", "35.0"],
    ["Income before income taxes", "32.0", "28.0"],
    ["Provision for income taxes", "7.3", "6.0"],
    ["Net income", "24.7", "22.0"],
])  # fmt: skip
CASH_FLOWS_2023 = _t("8", [
    ["Net cash provided by operating activities", "$500.1", "$455.3"],
    ["Purchases of property and equipment", "(120.4)", "(98.7)"],
    ["Net cash used in investing activities", "(130.2)", "(101.9)"],
    ["Net cash used in financing activities", "(99.2)", "(71.8)"],
    ["Net increase in cash and cash equivalents", "270.7", "281.6"],
])  # fmt: skip


@pytest.mark.parametrize(
    ("table", "masked", "expected"),
    [
        # a pair of dashes is an aside, a dash between years a range: the measure stays
        (CASH_FLOWS_2023, "Free cash flow — a non-GAAP measure — was [MASK] in 2023.", "$379.7 million"),
        (RESULTS_2023, "Gross margin for 2022 – 2023 improved to [MASK].", "28.4%"),
        # a clause that starts with a pronoun speaks of the measure named before ";"
        (RESULTS_2023, "Gross margin was 28.0% in 2022; it improved to [MASK] in 2023.", "28.4%"),
        (RESULTS_2023, "The effective tax rate was 21.4% in 2022; it increased to [MASK] in 2023.",
         "22.8%"),
        # "the business", "the Company and its subsidiaries" name no segment
        (RESULTS_2023, "Operating margin for the business was [MASK] in 2023.", "12.9%"),
        (RESULTS_2023, "The effective tax rate of the Company and its subsidiaries was [MASK] in 2023.",
         "22.8%"),
    ],
)  # fmt: skip
def test_a_measures_aside_range_pronoun_or_generic_business_keeps_it(
    table, masked, expected
) -> None:
    # review10-s10: each of these lost its measure to the first heading/segment guards
    hint_of = expected if "%" in expected else "$1"
    for ranker in (None, HAND_RANKER):
        answer = solve_from_tables(
            _instance([table], masked, hint_of), SolverOptions(ranker=ranker)
        )
        assert reference_scorer_match(expected, answer.answer), (masked, ranker, answer.answer)


BANK_THREE_YEARS = {
    "index": "12",
    "pre_text": "Selected financial data",
    "cells": [
        ["", "Year Ended December 31,", "Year Ended December 31,", "Year Ended December 31,"],
        ["(in thousands)", "2023", "2022", "2021"],
        ["Net income", "$19,796", "$15,686", "$14,000"],
        ["Total assets", "1,210,000", "1,300,000", "1,250,000"],
    ],
}


def test_a_measures_older_figure_is_the_earlier_years() -> None:
    from finprobe.benchmarks.faith.context import older_year, read_context

    # ROAA: 2023 19,796 / 1,255,000 = 1.58%; 2022 15,686 / 1,275,000 = 1.23%
    for masked in (
        "Return on average assets was 1.58%, compared to [MASK] for the year ended December 31,"
        " 2022.",
        "Return on average assets was 1.58% for the year ended December 31, 2023 compared to"
        " [MASK] for the year ended December 31, 2022.",
    ):
        _assert_answer(_instance([BANK_THREE_YEARS], masked, "5%"), "1.23%")
        ctx = read_context(_instance([BANK_THREE_YEARS], masked, "5%"))
        assert older_year(ctx, "2023") == "2022"
    # the one year named is the other figure's: the blank's is the year before it
    ctx = read_context(
        _instance([BANK_THREE_YEARS], "In 2022, ROAA was 1.23%, compared to [MASK].", "5%")
    )
    assert older_year(ctx, "2023") == "2021"
    # the blank's own year stays the latest
    masked = "Return on average assets was [MASK] for 2023, compared to 1.23% for 2022."
    _assert_answer(_instance([BANK_THREE_YEARS], masked, "5%"), "1.58%")


def test_a_rounded_figure_is_read_from_the_line_the_subject_names() -> None:
    # "$0.5 million" fits "Other income" (499) and "Income tax expense" (519): the subject
    # names the tax line, so the share is 519 / 27,232 = 1.9%, not 499 / 27,232 = 1.8%
    table = {
        "index": "13",
        "pre_text": "",
        "cells": [
            ["", "Fiscal 2023", "Fiscal 2022"],
            ["(in thousands)", "$", "$"],
            ["Other income", "499", "335"],
            ["Loss before income taxes", "(27,232)", "(41,100)"],
            ["Income tax expense", "519", "493"],
            ["Net loss", "(27,751)", "(41,593)"],
        ],
    }
    masked = (
        "We recorded income tax expense of $0.5 million, or [MASK] of the loss before income"
        " taxes, during fiscal 2023."
    )
    for ranker in (None, HAND_RANKER):
        answer = solve_from_tables(_instance([table], masked, "5%"), SolverOptions(ranker=ranker))
        assert reference_scorer_match("1.9%", answer.answer), (ranker, answer.answer)


def test_a_part_as_a_percentage_of_a_base_is_read_from_one_table() -> None:
    # the consolidated table has the most periods; the segment's table holds both lines
    consolidated = {
        "index": "14",
        "pre_text": "Consolidated results",
        "cells": [
            ["", "Years ended December 31,", "Years ended December 31,",
             "Years ended December 31,"],
            ["(amounts in millions)", "2023", "2022", "2021"],
            ["Net revenue", "$9,449", "$9,887", "$10,500"],
            ["Operating income", "400", "500", "600"],
        ],
    }  # fmt: skip
    segment = {
        "index": "15",
        "pre_text": "CBI results",
        "cells": [
            ["", "Years ended December 31,", "Years ended December 31,"],
            ["(amounts in millions)", "2023", "2022"],
            ["Net revenue", "$1,165", "$1,314"],
            ["Cost of goods sold", "717", "850"],
            ["Operating expenses", "300", "320"],
        ],
    }
    masked = (
        "CBI's cost of goods sold as a percentage of net revenue was [MASK] and 64.7% for the"
        " years ended December 31, 2023 and 2022, respectively."
    )
    _assert_answer(_instance([consolidated, segment], masked, "5%"), "61.5%")


def test_a_named_rate_that_a_table_states_is_read_not_recomputed() -> None:
    # net income / average assets gives 1.40% for 2022; the bank's own row says 1.16%
    # (averaged from daily balances)
    bank = _table("31", [
        ["", "2023", "2022", "2021"],
        ["(in millions)", "", "", ""],
        ["Net income", "$20.0", "$18.0", "$12.0"],
        ["Total assets", "1,250.0", "1,300.0", "1,280.0"],
        ["Return on average assets", "1.57%", "1.16%", "0.95%"],
    ])  # fmt: skip
    masked = "Return on average assets was 1.57% for 2023 compared to [MASK] for 2022."
    _assert_with_both_rankers([bank], masked, "1.16%")
    # a percent-change column is no stated rate: "Gross margin" in dollars with "% Change"
    # is still computed, 400 / 1,000 (review14)
    dollars = _table("32", [
        ["", "2023", "2022", "$ Change", "% Change"],
        ["Net sales", "$1,000", "$800", "$200", "25%"],
        ["Gross margin", "$400", "$300", "$100", "33%"],
    ])  # fmt: skip
    masked_margin = "Our gross margin was [MASK] in 2023, compared to 37.5% in 2022."
    answer = solve_from_tables(_instance([dollars], masked_margin, "40%")).answer
    assert reference_scorer_match("40%", answer), answer
    # without the stated row, the measure is computed from the lines
    computed = _table("31", bank["cells"][:4])
    answer = solve_from_tables(_instance([computed], masked, "1.16%")).answer
    assert reference_scorer_match("1.40%", answer), answer


PRODUCTION = _table("31", [
    ["", "2023", "2022", "Increase/ (Decrease)"],
    ["(in thousands of units)", "", "", ""],
    ["North America", "3,950", "4,030", "(80)"],
    ["Europe", "1,000", "862", "138"],
    ["South America", "600", "561", "39"],
    ["Asia Pacific", "1,520", "1,345", "175"],
])  # fmt: skip


def test_a_respectively_list_may_have_an_item_of_several_words() -> None:
    # rest24's DAN: "Europe, South America and Asia Pacific increased [MASK], 7% and
    # 13%, respectively": the blank is Europe's (16.0%), not the nearest item's (13.0%)
    masked = (
        "North America production decreased 2% while production in Europe, South America and"
        " Asia Pacific increased [MASK], 7% and 13%, respectively."
    )
    assert _listed_items(masked) == (0, ["europe", "south america", "asia"])
    _assert_with_both_rankers([PRODUCTION], masked, "16%")
    dated = masked.replace("13%, respectively", "13% in 2023, respectively")
    assert _listed_items(dated) == (0, ["europe", "south america", "asia"])
    # figures before such a list are not paired with it: no "respectively", no list
    assert (
        _listed_items(
            "Sales were $5 million, $7 million and [MASK] in Europe, South America and Asia Pacific."
        )
        is None
    )


# a loss-making company's statement (more40 ca1a27fc): no income line before tax
LOSS_STATEMENT = _table("12", [
    ["", "Year Ended December 31,", "Year Ended December 31,"],
    ["", "2023", "2022"],
    ["Total sales", "286,020", "315,251"],
    ["Gross profit", "97,511", "109,953"],
    ["Impairment of goodwill and indefinite-lived intangible assets", "-", "92,311"],
    ["Operating loss", "(21,107)", "(106,483)"],
    ["Loss before income tax", "(20,079)", "(107,518)"],
    ["Income tax benefit", "(4,291)", "(14,716)"],
    ["Loss from continuing operations", "(15,788)", "(92,802)"],
    ["Discontinued operations, net of tax", "5,642", "23,022"],
    ["Net loss", "$(10,146)", "$(69,780)"],
])  # fmt: skip
# an insurer: pre-tax earnings, and a segment's loss line that excludes gains
PRETAX_EARNINGS = _table("13", [
    ["", "Year ended December 31,", "Year ended December 31,"],
    ["(in millions)", "2023", "2022"],
    ["GAAP earnings before income taxes", "$1,300", "$1,419"],
    ["Loss before income taxes, excluding realized gains and losses", "(90)", "(86)"],
])  # fmt: skip


@pytest.mark.parametrize(
    "label",
    ["Loss before income tax", "Loss from continuing operations before income taxes"],
)
def test_a_tax_rate_of_a_loss_making_company_divides_by_the_loss_before_tax(label: str) -> None:
    table = {**LOSS_STATEMENT, "cells": [
        [label if row[0] == "Loss before income tax" else row[0], *row[1:]]
        for row in LOSS_STATEMENT["cells"]
    ]}  # fmt: skip
    masked = (
        "Our effective income tax rate was a benefit of [MASK] for the year ended December 31, "
        "2022, and differed compared to the statutory tax rates due to the impact of impairment "
        "of goodwill."
    )
    ranked = rank_candidates(_instance([table], masked, "10%"))
    # the named measure is read (tax over the loss before tax), not only a table pairing
    assert "effective income tax rate" in ranked[0].formula
    assert reference_scorer_match("13.7%", f"{ranked[0].value:.1f}%")


def test_pretax_earnings_do_not_name_a_loss_line() -> None:
    # the refused first form read "Loss before income taxes" as any pre-tax line
    masked = (
        "Our insurance operations contributed $1.30 billion in GAAP pretax earnings in 2023 "
        "compared to [MASK] in 2022."
    )
    _assert_answer(_instance([PRETAX_EARNINGS], masked, "$1"), "$1,419 million")


# -- a measure rule's candidate gets the checks a table's own candidates get (round 26) --

QUARTER_MARGINS = _table(
    "9",
    [
        ["", "Three Months Ended December 31, 2024", "Three Months Ended December 31, 2023"],
        ["Revenue", "300", "250"],
        ["Gross profit", "135", "100"],
    ],
    "Fourth quarter results (in millions)",
)


def _measure_rule_candidates(metadata: dict) -> list:
    return [
        c
        for c in rank_candidates(metadata)
        if c.formula.lower().startswith("change in gross margin")
    ]


def test_a_measure_change_against_the_stated_direction_is_not_offered() -> None:
    # the annual gross margin rose from 37.5% to 40%: "decreased [MASK]" is not that change
    up = "Gross margin increased [MASK] in 2024 compared to 2023."
    down = "Gross margin decreased [MASK] in 2024 compared to 2023."
    assert _measure_rule_candidates(_instance(REPORT, up, "1%"))
    assert not _measure_rule_candidates(_instance(REPORT, down, "1%"))
    _assert_answer(_instance(REPORT, up, "1%"), "2.5%")
    # "improved" says no way: a cost or a loss may improve either way
    improved = "Gross margin improved [MASK] in 2024 compared to 2023."
    assert _measure_rule_candidates(_instance(REPORT, improved, "1%"))


def test_a_years_measure_is_not_computed_from_quarter_columns() -> None:
    # an annual report (the balance sheet's year columns) whose only gross profit line is
    # a quarter's: the year's margin cannot be computed, the quarter's can
    masked = "Gross margin increased [MASK] in 2024 compared to 2023."
    assert not _measure_rule_candidates(_instance([QUARTER_MARGINS, BALANCE], masked, "1%"))
    quarter = "Gross margin increased [MASK] in the fourth quarter of 2024."
    (cand,) = _measure_rule_candidates(_instance([QUARTER_MARGINS, BALANCE], quarter, "1%"))
    assert {c.period_months for c in cand.cells} == {3} and cand.value == 5


def test_a_measure_named_after_the_blank_with_its_own_figure_is_not_the_blanks() -> None:
    masked = (
        "Revenue increased [MASK] in 2024 compared to 2023, generating a gross margin of 40.0%."
    )
    assert not _measure_rule_candidates(_instance(REPORT, masked, "1%"))
    _assert_answer(_instance(REPORT, masked, "1%"), "25%")
    # a year after the name is no figure of the measure's
    at_levels = "Gross margin increased [MASK], back to gross margin at 2021 levels."
    assert _measure_rule_candidates(_instance(REPORT, at_levels, "1%"))


def test_a_gross_profit_margin_is_not_the_net_profit_margin() -> None:
    # no gross profit line to compute it from, but net income and revenue: "profit margin"
    # inside "gross profit margin" names no net margin (9%); the stated margin is read
    lines = [row for row in STATEMENTS["cells"] if row[0] != "Gross profit"]
    margins = _table("8", [["", "2024", "2023"], ["Merchandise sales margin", "41.0%", "37.5%"]])
    masked = "The gross profit margin on merchandise sales was [MASK] in 2024."
    _assert_answer(_instance([_table("5", lines), margins], masked, "1%"), "41%")


def test_a_rate_is_not_the_percent_form_of_a_money_change() -> None:
    # a heading glued to the sentence names the margin; the blank pairs with a money change
    masked = (
        "Gross Margin Cost of revenue increased $100 million, or [MASK], in 2024 compared to 2023."
    )
    assert not _measure_rule_candidates(_instance(REPORT, masked, "1%"))
    _assert_answer(_instance(REPORT, masked, "1%"), "20%")
    # however the money change is written: short scales, brackets, other currencies
    for change in ("$100M", "$(100) million", "€100 million"):
        written = masked.replace("$100 million", change)
        assert not _measure_rule_candidates(_instance(REPORT, written, "1%")), change
    # a level paired with its money figure is still the measure's share
    level = "Gross margin was $400 million, or [MASK] of revenue, in 2024."
    _assert_answer(_instance(REPORT, level, "1%"), "40%")
