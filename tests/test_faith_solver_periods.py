"""The FAITH solver: the blank's period and role (level, change, older figure), direction words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from faith_solver_cases import (
    QUARTERS,
    REPORT,
    THREE_YEARS,
    _assert_answer,
    _instance,
    _table,
)

from finprobe.benchmarks.faith.cells import names_whole
from finprobe.benchmarks.faith.context import _solver_role
from finprobe.benchmarks.faith.ranker import HAND_RANKER
from finprobe.benchmarks.faith.sentence import mask_role
from finprobe.benchmarks.faith.solver import SolverOptions, _change_ends, solve_from_tables
from finprobe.numbers import reference_scorer_match

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


# -- the blank's role from the words around it --------------------------------


@pytest.mark.parametrize(
    ("masked", "role"),
    [
        ("Revenue increased [MASK], or 20 percent, year over year.", "change"),
        ("Net cash decreased by [MASK] to $13.26 billion in 2023.", "change"),
        ("Production increased [MASK] to 152.0 MBOE in 2023.", "change"),
        ("Revenue increased $405.0 million, or [MASK], year over year.", "change"),
        ("Revenue increased $405.0M, or [MASK], year over year.", "change"),
        ("Deposits decreased by $(77.0) million, or [MASK], in 2023.", "change"),
        ("Revenue increased €1.2bn ([MASK]) in 2023.", "change"),
        ("Revenue increased $11.4 M, or [MASK], in 2023.", "change"),
        ("Revenue increased $.5 million, or [MASK], in 2023.", "change"),
        ("Expenses increased from [MASK] to $168,000 in 2023.", "older"),
        ("Net income was $5 million, compared with [MASK] in 2022.", "older"),
        ("Cash and cash equivalents totaled [MASK] at year end.", "level"),
        ("We recorded a net derivative loss of [MASK] for 2022.", "level"),
    ],
)
def test_mask_role(masked: str, role: str) -> None:
    before, _, after = masked.partition("[MASK]")
    assert mask_role(before, after) == role


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
    # ... and after "than" to the compared side (BARK, q45r)
    higher = ", 200 basis points higher than the same period last year."
    assert relative_period("Gross margin was ", higher) is None
    # "over" may mean "during": the period stays the blank's
    assert relative_period("Share repurchases totaled ", " over the prior year.") == -1
    assert change_pair(["2023", "2022"], "2023") == {"2023", "2022"}
    assert change_pair(["2023"], "2023") == {"2023", "2022"}
    assert change_pair([], "2024") == {"2024", "2023"}
    assert change_pair([], None) is None


def test_the_compared_sides_last_year_is_not_the_blanks_period() -> None:
    margins = _table(
        "2",
        [
            ["", "Three Months Ended December 31, 2023", "Three Months Ended December 31, 2022"],
            ["Direct to Consumer Gross Margin", "63.8%", "61.8%"],
        ],
    )
    masked = "Direct to Consumer gross margin was [MASK], 200 basis points higher than the same period last year."
    _assert_answer(_instance([margins], masked, "1%"), "63.8%")
    # the blank's own clause still names its period
    prior = "Direct to Consumer gross margin was [MASK] in the same period last year."
    _assert_answer(_instance([margins], prior, "1%"), "61.8%")


def test_an_interim_sentence_takes_the_period_the_sentence_before_names() -> None:
    # BARK's 10-Q: the cash-flow paragraph opens "For the nine months ended ..."; the next
    # sentence names no period, and the quarter's and nine months' net loss tie
    results = _table(
        "17",
        [
            [
                "(in thousands)",
                "Three Months Ended December 31, 2023",
                "Three Months Ended December 31, 2022",
                "Nine Months Ended December 31, 2023",
                "Nine Months Ended December 31, 2022",
            ],
            ["Revenue", "$140,000", "$150,000", "$380,000", "$400,000"],
            ["Net loss", "$(10,108)", "$(5,000)", "$(32,108)", "$(40,000)"],
        ],
    )
    masked = "Net cash provided by operating activities consisted of net loss of [MASK] adjusted for non-cash charges."
    pre = "For the nine months ended December 31, 2023, net cash provided by operating activities was $7.1 million."
    _assert_answer(_instance([results], masked, "$1", pre=pre), "$32,108,000")
    # a passing mention of the annual report is no period for the 10-Q's own figures
    annual_mention = "As described in our Annual Report on Form 10-K for the fiscal year ended March 31, 2023, we restructured."
    yearly = _table(
        "18", [["(in thousands)", "2023", "2022"], ["Net loss", "$(7,000)", "$(6,000)"]]
    )
    _assert_answer(_instance([results, yearly], masked, "$1", pre=annual_mention), "$10,108,000")


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


def test_a_row_that_moved_by_the_figure_beside_the_blank_gets_its_change() -> None:
    from finprobe.benchmarks.faith.cells import numeric_cells
    from finprobe.benchmarks.faith.solver import _beside_blank, _rows_moved_by
    from finprobe.document import Table

    # fourteen rows that each rose 5%, and the total that fell 12.7%
    rows = [[f"Deposit category {i}", f"{1050 * i:,}", f"{1000 * i:,}"] for i in range(1, 15)]
    table = Table(
        id="t",
        cells=[["", "2023", "2022"], ["(in thousands)", "Average", "Average"]]
        + rows
        + [["Total average deposits", "1,061,200", "1,215,600"]],
    )
    by_row: dict = {}
    for cell in numeric_cells(table, "1"):
        by_row.setdefault((cell.table_index, cell.row), []).append(cell)
    masked = "On a year-to-date average basis, total deposits decreased [MASK], or 12.7%, in 2023."
    beside = _beside_blank(masked)
    assert _rows_moved_by(by_row, beside) == [("1", 16)]  # 154.4 million, 12.7%
    # a figure that many rows moved by points at none of them
    assert _rows_moved_by(by_row, _beside_blank("Deposits rose [MASK], or 5%, in 2023.")) == []
    assert _rows_moved_by(by_row, []) == []


def test_a_level_whose_own_change_is_written_beside_it_is_the_row_that_moved_so() -> None:
    from finprobe.benchmarks.faith.solver import _level_change_figures

    segment = _table("5", [
        ["", "Year Ended October 31,", "Year Ended October 31,"],
        ["(in thousands)", "2023", "2022"],
        ["Segment revenue", "$95,400", "$90,100"],
        ["Interest expense, net", "2,825", "3,300"],
    ], "Interest expense, net by segment (U.K. Operations)")  # fmt: skip
    consolidated = _table("6", [
        ["", "Year Ended October 31,", "Year Ended October 31,"],
        ["(in thousands)", "2023", "2022"],
        ["Revenue", "$442,000", "$401,000"],
        ["Interest expense, net", "28,119", "25,919"],
        ["Net income", "31,790", "28,676"],
    ])  # fmt: skip
    masked = (
        "Interest expense, net for the year ended October 31, 2023 was [MASK], up $2.2 million"
        " from the same period a year ago."
    )
    assert [str(n.value) for n in _level_change_figures(masked)] == ["2200000"]
    for ranker in (None, HAND_RANKER):
        answer = solve_from_tables(
            _instance([segment, consolidated], masked, "$1"), SolverOptions(ranker=ranker)
        ).answer
        assert reference_scorer_match("$28.1 million", answer), (ranker, answer)
    # no change written after the blank: no figures
    assert _level_change_figures("Interest expense was [MASK] in 2023.") == []


@pytest.mark.parametrize(
    ("masked", "year"),
    [
        ("Total assets decreased [MASK] to $1.21 billion, compared to $1.30 billion at "
         "December 31, 2022.", "2022"),
        ("Net sales increased [MASK] from 2022.", "2022"),
        ("Sales rose [MASK] over 2022 levels.", "2022"),
        # the year is not the compared side, or two years are named
        ("Net sales increased [MASK] vs. 2022.", "2022"),
        ("Revenue from 2023 sales grew [MASK].", None),
        # "from" / "over" far from the year name the newer side or nothing (review14)
        ("Net sales increased [MASK] from $4.5 billion to $5.0 billion in 2023.", None),
        ("Revenue increased [MASK] over the prior year, to $5.0 billion in 2023.", None),
        ("Net sales grew [MASK], as we benefited from price increases during 2023.", None),
        ("Income from continuing operations for 2023, increased [MASK].", None),
        ("Net sales increased [MASK] in 2023 compared to 2022.", None),
        ("Net sales increased [MASK] in 2023.", None),
    ],
)  # fmt: skip
def test_the_one_year_a_change_is_compared_with_is_read(masked: str, year: str | None) -> None:
    from finprobe.benchmarks.faith.context import compared_year

    assert compared_year(masked) == year


def test_a_change_compared_with_a_named_year_is_against_the_year_after_it() -> None:
    from finprobe.benchmarks.faith.sentence import change_pair

    assert change_pair(["2022"], "2023", "2022") == {"2023", "2022"}
    assert change_pair(["2023"], "2023", "2023") == {"2023", "2022"}  # nothing after it
    # 2023 - 2022 = 50.0, not 2022 - 2021 = 200.0
    for masked in (
        "Net sales increased [MASK] compared to 2022.",
        "Net sales increased [MASK] to $950.0 million, compared to $900.0 million in 2022.",
    ):
        for ranker in (None, HAND_RANKER):
            answer = solve_from_tables(
                _instance([THREE_YEARS], masked, "$1"), SolverOptions(ranker=ranker)
            ).answer
            assert reference_scorer_match("$50.0 million", answer), (masked, answer)


def test_a_change_columns_cell_is_never_one_end_of_a_derived_change() -> None:
    from finprobe.benchmarks.faith.cells import numeric_cells
    from finprobe.benchmarks.faith.context import _derived
    from finprobe.document import Table

    table = Table(id="t3", cells=EXPENSES["cells"])
    cells = numeric_cells(table, "3")
    assert any(c.change_column for c in cells)
    by_row: dict = {}
    for cell in cells:
        by_row.setdefault((cell.table_index, cell.row), []).append(cell)
    derived = _derived(by_row, list(by_row))
    assert derived and all(not c.change_column for cand in derived for c in cand.cells)


def test_a_bullet_lists_other_items_are_neighbours_not_the_blanks_sentence() -> None:
    from finprobe.benchmarks.faith.context import read_context
    from finprobe.benchmarks.faith.sentence import _tokens

    masked = (
        "For the year ended December 31, 2023, as compared to the year ended December 31, "
        "2022: •Total revenue was $527.1 million, a 24% decrease; •Digital revenue was "
        "[MASK], a 14% decrease; •Connected fitness revenue was $19.2 million, a 50% decrease"
    )
    context = read_context(_instance([], masked, "$1"))
    own, others = set(_tokens("digital revenue 2023")), set(_tokens("connected fitness total"))
    assert own <= set(context.sentence)
    assert not others & set(context.sentence)
    assert others <= set(context.neighbours)
    # one bullet is no list: the whole sentence stays
    single = "•Digital revenue was [MASK], a 14% decrease, and connected fitness revenue fell."
    assert others - set(_tokens("total")) <= set(read_context(_instance([], single, "$1")).sentence)


def test_change_column_titles_are_the_document_layers_plus_versus_and_slash():
    # one change-title pattern (document.pipes.CHANGE_TITLE), which FAITH widens by
    # "versus" and "2023/2022"; "Foreign exchange" is a line's title, not a change's
    from finprobe.benchmarks.faith.cells import _change_header

    for title in ("Change", "Increase (Decrease)", "2023 vs. 2022", "2023 versus 2022", "2023/2022",
                  "Variance", "% Change"):  # fmt: skip
        assert _change_header(title), title
    for title in ("Foreign exchange", "Year Ended December 31, 2023", "Amount", "Interchange fees"):
        assert not _change_header(title), title


@pytest.mark.parametrize(
    ("masked", "role"),
    [
        # a "from" no move leads to is no comparison
        ("Cash used was $3.3 million, which resulted from net loss of [MASK] in 2022.", "level"),
        ("We recorded income from operations of [MASK] during 2023.", "level"),
        # ... and the ones a move leads to are
        ("Segment income was $5.1 million in 2023, down from net income of [MASK].", "older"),
        ("Interest expense increased $4.0 million to $17.1 million from [MASK] in 2022.", "older"),
        ("Gross margin improved 310 basis points from [MASK] in fiscal 2022.", "older"),
        ("Our gross margin was 74% in 2023 from [MASK] to 76%.", "older"),
        # review: a move whose verb is not a change word, and "to" later in the clause
        ("Revenue climbed 10.6% from [MASK] in 2022.", "older"),
        ("Net loss narrowed from [MASK] in 2022 to $3.1 million in 2023.", "older"),
        ("Gross margin went from [MASK] to 45.1%.", "older"),
    ],
)
def test_the_solver_reads_from_as_a_comparison_only_after_a_move(masked: str, role: str) -> None:
    before, _, after = masked.partition("[MASK]")
    assert _solver_role(before, after) == role


def test_a_net_loss_a_cash_flow_resulted_from_is_the_sentences_year() -> None:
    # dev15 3bd99b83: read as the older figure of a comparison, the 2023 column tied
    table = _table("6", [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["", "2023", "2022"],
        ["Net loss", "$(3,997,686)", "$(3,554,897)"],
        ["Stock compensation", "441,000", "390,000"],
        ["Net cash used in operating activities", "(2,950,000)", "(3,318,000)"],
    ])  # fmt: skip
    masked = (
        "Net cash used in operating activities during the year ended December 31, 2022 was "
        "approximately $3.3 million, which resulted from net loss of [MASK], non-cash charges "
        "of $441,000 for stock compensation."
    )
    _assert_answer(_instance([table], masked, "$1"), "$3.6 million")


def test_a_tie_goes_to_the_row_the_sentence_names_not_its_neighbour() -> None:
    # rest24 75db5726: rows named by the next sentence tie "Total loans" on coverage
    table = _table("7", [
        ["", "December 31,", "December 31,"],
        ["(in thousands)", "2023", "2022"],
        ["Real estate construction and development loans", "80,900", "102,600"],
        ["Agricultural loans", "101,200", "107,200"],
        ["Total loans", "786,400", "837,800"],
    ])  # fmt: skip
    post = (
        "Real estate construction and development loans decreased 21.1%, and agricultural "
        "loans decreased 5.6%."
    )
    _assert_answer(_instance([table], "Total loans decreased [MASK] during 2023.", "5%", post=post),
                   "6.1%")  # fmt: skip


def test_a_count_the_sentence_writes_unscaled_is_read_unscaled() -> None:
    # "(In thousands)" is for the table's money; the sentence writes the count's other
    # year as the cell is written, so the blank is a count too (DTGI, q45r)
    metrics = _table(
        "4",
        [
            ["", "2024", "2023"],
            ["Revenue", "$12,500", "$11,900"],
            ["Total Customers", "4,298", "4,464"],
        ],
        "Key metrics (In thousands)",
    )
    masked = "Our total number of customers decreased from 4,464 in 2023 to [MASK] in 2024."
    _assert_answer(_instance([metrics], masked, "4,298"), "4,298")
    # a money row that holds a figure of the sentence, unnamed there, keeps its scale
    masked = "Store count reached 400 in 2024, and our current ratio was [MASK] at year-end 2024."
    _assert_answer(_instance(REPORT, masked, "2.5"), "2.50")


def test_a_change_that_ends_at_the_sentences_figure_is_the_blanks() -> None:
    # segment columns beside their whole tie on every other feature; only the whole's
    # change ends at "$2.7 billion" (BAC, q45r). The whole's column is not named "Total",
    # so the tie-break to a total cannot decide in its stead.
    segments = _table(
        "3",
        [
            ["", "Deposits", "Deposits", "Lending", "Lending", "Combined", "Combined"],
            ["", "2024", "2023", "2024", "2023", "2024", "2023"],
            ["Net income", "1,500", "1,700", "1,200", "1,452", "2,700", "3,152"],
        ],
        "Consumer Banking (in millions)",
    )
    masked = "Net income for Consumer Banking decreased [MASK] to $2.7 billion in 2024."
    _assert_answer(_instance([segments], masked, "$1 million"), "$452 million")
    # each end is its own cell: "to" the newer, "from" the older
    both = "Net income decreased [MASK] to $2,700 million from $3,152 million in 2024."
    _assert_answer(_instance([segments], both, "$1 million"), "$452 million")
    # an end written short ("$2.7bn") is read with its scale, not as $2.70
    for written in ("$2.7bn", "$2.7 B"):
        short = f"Net income for Consumer Banking decreased [MASK] to {written} in 2024."
        _assert_answer(_instance([segments], short, "$1 million"), "$452 million")


def test_change_ends_read_short_scales_negatives_and_other_currencies() -> None:
    ends = _change_ends("Net loss narrowed [MASK] to $(2.7) million from €3.1bn in 2024.")
    assert [(word, n.value) for word, n in ends] == [
        ("to", Decimal("-2700000")),
        ("from", Decimal("3100000000")),
    ]
    # a rate a change moves to is the stated-rates rule's, never an end
    assert _change_ends("Tax expense increased [MASK], to 24.5% of pretax income.") == []


def test_a_tie_between_parts_and_their_total_goes_to_the_total() -> None:
    # one label under each region's heading and the total's: the sentence names no region
    # (MHO, q45r)
    regions = _table(
        "3",
        [
            ["", "2024", "2023"],
            ["Northern Region", "", ""],
            ["New contracts, net", "1,162", "828"],
            ["Southern Region", "", ""],
            ["New contracts, net", "1,385", "1,343"],
            ["Total", "", ""],
            ["New contracts, net", "2,547", "2,171"],
        ],
        "Selected operating information by reportable segment:",
    )
    masked = "Our new contracts increased [MASK] in 2024 compared to 2023."
    _assert_answer(_instance([regions], masked, "17%"), "17%")
    # a total of the parts the other headings name (MHO's "Total Homebuilding Regions")
    named = [
        ["Total Homebuilding Regions", "", ""] if r[0] == "Total" else r for r in regions["cells"]
    ]
    _assert_answer(_instance([_table("3", named, regions["pre_text"])], masked, "17%"), "17%")
    # wherever the total's section stands
    rows = regions["cells"]
    middle = _table("3", [rows[0], *rows[5:7], *rows[1:5]], regions["pre_text"])
    _assert_answer(_instance([middle], masked, "17%"), "17%")
    # a region the sentence names wins over the total
    northern = "Northern Region new contracts increased [MASK] in 2024 compared to 2023."
    _assert_answer(_instance([regions], northern, "40%"), "40.34%")
    # a total's column, beside its parts' columns
    columns = _table(
        "3",
        [
            ["", "Northern", "Northern", "Southern", "Southern", "Total", "Total"],
            ["", "2024", "2023", "2024", "2023", "2024", "2023"],
            ["New contracts, net", "1,162", "828", "1,385", "1,343", "2,547", "2,171"],
        ],
        regions["pre_text"],
    )
    _assert_answer(_instance([columns], masked, "17%"), "17%")


@pytest.mark.parametrize("heading", ["Total International", "Sub-total", "Total return swaps"])
def test_a_heading_that_begins_with_total_is_not_a_whole(heading: str) -> None:
    # a part ("Total International") or another line: the tie stays in table order
    rows = [
        ["", "2024", "2023"],
        ["United States", "", ""],
        ["New contracts, net", "1,162", "828"],
        ["Interest rate swaps", "", ""],
        ["Notional amount", "900", "800"],
        [heading, "", ""],
        ["New contracts, net", "2,547", "2,171"],
    ]
    masked = "Our new contracts increased [MASK] in 2024 compared to 2023."
    _assert_answer(_instance([_table("3", rows, "Contracts:")], masked, "40%"), "40.34%")
    assert not names_whole(heading)
    assert names_whole("Total") and names_whole("Consolidated 2024") and names_whole("Totals")
