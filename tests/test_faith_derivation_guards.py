"""The derivation finder's guards against a list item's coincidences (issue 10, round 12).

Each case comes from a wrong instance of the round-11 hand audit, rewritten on small
tables of our own: a driver's figure matched to the total the sentence heads with, a
bridge's net line, or a round figure read coarser than the sentence writes it.
"""

from __future__ import annotations

import pytest

from finprobe.benchmarks.faith.blank import item_words
from finprobe.benchmarks.faith.derivation import find_derivation
from finprobe.benchmarks.faith.derivation_index import DerivationIndex
from finprobe.benchmarks.faith.sentence import _tokens
from finprobe.document import Table


def _nth(sentence: str, text: str, n: int) -> tuple[int, int]:
    """The mask of the n-th (0-based) occurrence of text in sentence."""
    at = -1
    for _ in range(n + 1):
        at = sentence.index(text, at + 1)
    return at, at + len(text)


BRIDGE = Table(
    id="t0",
    cells=[["", "Sales", "Segment EBITDA"], ["2022", "900", "80"], ["Performance", "54", "6"]],
    pre_text="Power Technologies",
)


def test_a_list_items_round_figure_is_not_the_bridges_net_line():
    # DAN: "higher program launch costs of [MASK]" found the bridge's "Performance" cell 6
    drivers = (
        "Partially offsetting these performance-related earnings increases were inflationary "
        "cost increases of $34, higher program launch costs of $6 and commodity cost "
        "increases of $2."
    )
    assert find_derivation("$6", [BRIDGE], drivers) is None
    # "related to" inside an item is no comparison: the item is still its own line
    related = (
        "Offsetting these performance-related increases were inflationary costs of $34 and "
        "higher costs related to program launches of $6."
    )
    assert find_derivation("$6", [BRIDGE], related) is None
    # the item that names the line keeps it
    named = (
        "Segment EBITDA rose on volume of $20, partially offset by lower performance of $6 "
        "in the year."
    )
    found = find_derivation("$6", [BRIDGE], named)
    assert found is not None and found.cells[0]["row_label"] == "Performance"


CASH = Table(
    id="t0",
    cells=[
        ["", "Year Ended December 31, 2023", "Year Ended December 31, 2022"],
        ["Net cash used in financing activities", "(76)", "(1,084)"],
    ],
    pre_text="The following table summarizes our cash flows (in thousands):",
)
FINANCING = (
    "For the year ended December 31, 2023, net cash used in financing activities was "
    "$0.1 million, reflecting $0.1 million cash paid for payroll taxes on shares withheld "
    "by the Company."
)


def test_a_drivers_figure_is_not_the_total_the_sentence_states():
    # BLDE: the driver's "$0.1 million" found the total the same sentence states
    span = "$0.1 million"
    total = find_derivation(span, [CASH], FINANCING, mask=_nth(FINANCING, span, 0))
    assert total is not None
    assert total.cells[0]["row_label"] == "Net cash used in financing activities"
    assert find_derivation(span, [CASH], FINANCING, mask=_nth(FINANCING, span, 1)) is None


INTEREST = Table(
    id="t0",
    cells=[["", "2023", "2022", "Change"], ["Total interest income", "60,220", "49,100", "11,120"]],
    pre_text="(dollars in thousands)",
)
UBFO = (
    "For 2023, total interest income increased $11.1 million, or 22.6%, compared to 2022, "
    "reflecting increases of $11.1 million in loan interest income and $1.3 million in "
    "investment income."
)


def test_a_cell_belongs_to_the_twin_figure_that_names_its_row():
    # UBFO: "increases of $11.1 million in loan interest income" is not the total's cell
    span = "$11.1 million"
    total = find_derivation(span, [INTEREST], UBFO, mask=_nth(UBFO, span, 0))
    assert total is not None and total.cells[0]["row_label"] == "Total interest income"
    loan = _nth(UBFO, span, 1)
    assert find_derivation(span, [INTEREST], UBFO, mask=loan) is None
    # without the twin check the loan item takes the total's cell: what the check undoes
    unchecked = find_derivation(span, [INTEREST], UBFO, mask=loan, twins=False)
    assert unchecked is not None and unchecked.cells[0]["text"] == "11,120"


def test_twins_that_fit_a_cell_alike_are_both_refused():
    # DAN: two "$6" items of one list; no cell can say which of them it is
    table = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Launch and incentive costs", "6", "4"]],
    )
    sentence = (
        "Costs rose on launch and incentive costs of $6 in 2023, and launch and incentive "
        "costs of $6 in 2023 were offset."
    )
    for n in (0, 1):
        assert find_derivation("$6", [table], sentence, mask=_nth(sentence, "$6", n)) is None


NONINTEREST = Table(
    id="t0",
    cells=[
        ["", "For the Years Ended December 31, 2023", "For the Years Ended December 31, 2022",
         "Increase (Decrease) Amount"],
        ["Total non-interest income", "$4,875", "$7,374", "(2,499)"],
    ],
    pre_text="(dollars in thousands)",
)  # fmt: skip
CALB = (
    "The increase was primarily attributable to an increase in net interest income of $3.6 "
    "million and a decrease in the provision for credit losses of $2.5 million, partially "
    "offset by a decrease in non-interest income of $2.5 million in 2023."
)


def test_a_twin_that_reads_the_row_from_another_column_still_claims_it():
    # CALB: the provision's "$2.5 million" took the two years of non-interest income while
    # the sentence's own non-interest income figure read the row's change column
    span = "$2.5 million"
    provision, income = _nth(CALB, span, 0), _nth(CALB, span, 1)
    own = find_derivation(span, [NONINTEREST], CALB, mask=income)
    assert own is not None and own.cells[0]["row_label"] == "Total non-interest income"
    assert find_derivation(span, [NONINTEREST], CALB, mask=provision) is None
    unchecked = find_derivation(span, [NONINTEREST], CALB, mask=provision, twins=False)
    assert unchecked is not None and len(unchecked.cells) == 2  # the two years' change


AP = Table(
    id="t0",
    cells=[
        ["", "2023", "2022", "Change"],
        ["Net cash flows provided by financing activities", "21,688", "42,587", "(20,899)"],
    ],
)


def test_a_round_figure_in_a_sentence_written_to_the_unit_is_exact():
    # AP: "$20,000" beside "$21,688" and "$8,412" is exact, so 21,688 is no support
    exact = (
        "Net cash flows provided by financing activities were $20,000 in 2023, a decrease of "
        "$20,899."
    )
    assert find_derivation("$20,000", [AP], exact) is None
    # a sentence of round figures rounds: "approximately $22,000 ... $43,000"
    rounded = (
        "Net cash flows provided by financing activities were approximately $43,000 in 2022 "
        "and $22,000 in 2023."
    )
    found = find_derivation("$22,000", [AP], rounded)
    assert found is not None and found.cells[0]["text"] == "21,688"


def test_an_exact_round_figure_still_needs_its_label_named_as_a_round_one():
    # review 12: exactness must not lower the label words a round figure needs
    fees = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Fees paid to consultants and directors", "20,000", "8,000"]],
    )
    sentence = "In 2023 we paid fees of $20,000 to our auditors and $12,345 in legal fees."
    assert find_derivation("$20,000", [fees], sentence) is None


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        # the gap names nothing: the blank is its figure's own line
        ("Revenue was $5.0 million, an increase of [MASK] over 2022.", None),
        ("Amortization was $13 in 2023 and [MASK] in 2022.", None),
        ("A loss of $9 in 2023 and earnings of [MASK] in 2022.", None),
        # a comparison restates the metric, it lists no driver
        ("Pretax income was $27.2 million in 2023, compared to pretax income of [MASK].", None),
        (
            "Costs rose on inflation of $34, higher program launch costs of [MASK], and more.",
            "program launch costs",
        ),
        (
            "Interest income rose $11.1 million, or 22.6%, reflecting increases of [MASK] in "
            "loan interest income and $1.3 million in investment income.",
            "loan interest income",
        ),
        (
            "Cash used was $0.1 million, reflecting [MASK] cash paid for payroll taxes.",
            "cash paid payroll taxes",
        ),
        (
            "Non-cash items were $90.1 million, including a charge of [MASK] from the "
            "impairment of goodwill.",
            "impairment goodwill",
        ),
    ],
)
def test_the_list_item_a_blank_belongs_to(sentence, words):
    at = sentence.index("[MASK]")
    found = item_words(sentence, (at, at + len("[MASK]")))
    if words is None:
        assert found is None
    else:
        assert found is not None and set(_tokens(words)) <= found, found


# -- round 13: a round percentage (q45 hand audit: "increased 20%" from a 16% cell,
#    "100%" from a 54% share) -------------------------------------------------------------

FEES = Table(
    id="t0",
    cells=[
        ["", "Three Months Ended March 31, 2024", "Three Months Ended March 31, 2023", "Change"],
        ["Pawn loan fees", "120,000", "103,448", "16%"],
        ["Retail merchandise sales", "236,000", "199,300", "18.4%"],
        ["Share of revenue", "54.0%", "51.2%", ""],
    ],
)


@pytest.mark.parametrize(
    ("sentence", "span", "row"),
    [
        # 16% is three points off "20%" (it rounds to it only at the tens): not support
        ("Pawn loan fees increased 20% in the quarter.", "20%", None),
        # 18.4% is prose's "20%" (within 2.5 points): support
        (
            "Retail merchandise sales increased 20% in the quarter.",
            "20%",
            "Retail merchandise sales",
        ),
        # a written 100% is not a 54.0% share
        ("Share of revenue was 100% in the quarter ended March 31, 2024.", "100%", None),
    ],
)
def test_a_round_percentage_admits_at_most_five_points(sentence, span, row):
    found = find_derivation(span, [FEES], sentence)
    if row is None:
        assert found is None
    else:
        assert found is not None and found.cells[0]["row_label"] == row


def test_a_share_of_a_header_less_column_is_refused():
    # Bank of America: "Approximately 51 percent of the residential mortgage portfolio was
    # in Consumer Banking" matched 124 / 243, two rows of a table whose columns had no
    # header: without a period on the column, nothing ties the cells to the sentence
    rows = [["Residential mortgage in Consumer Banking", "124"], ["Residential mortgage", "243"]]
    sentence = (
        "At March 31, 2024, approximately 51 percent of the residential mortgage portfolio "
        "was in Consumer Banking."
    )
    bare = Table(id="t0", cells=[["", ""], *rows])
    assert find_derivation("51 percent", [bare], sentence) is None
    dated = Table(id="t0", cells=[["", "March 31, 2024"], *rows])
    found = find_derivation("51 percent", [dated], sentence)
    assert found is not None and found.kind == "share"


# q45's ANGO 10-Q: a quarter's and nine months' columns side by side
QUARTER_AND_NINE = Table(
    id="t2",
    cells=[
        ["", "Three Months Ended", "Three Months Ended", "Nine Months Ended", "Nine Months Ended"],
        ["(in thousands)", "Feb 29, 2024", "Feb 28, 2023", "Feb 29, 2024", "Feb 28, 2023"],
        ["Net sales", "$75,200", "$80,800", "$232,900", "$247,800"],
        ["Gross profit % of sales", "47.7%", "50.2%", "49.9%", "51.6%"],
    ],
)


def test_a_change_compares_periods_of_one_length() -> None:
    # 47.7% (three months, 2024) against 51.6% (nine months, 2023) "derived" 400 bps:
    # no change of one metric, a coincidence. The quarter's own change (250 bps) and the
    # nine months' (170 bps) are still found.
    def derive(span: str):
        sentence = f"Gross profit as a percentage of sales decreased {span} to 47.7%."
        at = sentence.index(span)
        return find_derivation(span, [QUARTER_AND_NINE], sentence, mask=(at, at + len(span)))

    assert derive("400 bps") is None and derive("390 bps") is None
    for span, period in (("250 bps", "Three Months"), ("170 bps", "Nine Months")):
        found = derive(span)
        assert found is not None and found.kind == "pp_change", span
        assert all(c["column_label"].startswith(period) for c in found.cells), found.formula


# q45's M/I Homes 10-Q: two regions' homes delivered and average prices
HOMES = Table(
    id="t3",
    cells=[
        ["", "Three Months Ended March 31,", "Three Months Ended March 31,"],
        ["", "2024", "2023"],
        ["Northern homes delivered", "843", "797"],
        ["Southern homes delivered", "1,052", "1,160"],
        ["Southern average sales price of homes delivered", "$463", "$490"],
    ],
)


def test_a_change_goes_the_way_the_sentence_says() -> None:
    # "a [MASK] increase in ..." was "derived" from a 5.5% fall, negated: a change that
    # falls is no increase. A rise, or the fall said as one, is still found.
    def derive(sentence: str, span: str):
        at = sentence.index(span)
        return find_derivation(span, [HOMES], sentence, mask=(at, at + len(span)))

    rise = derive("Revenue grew on a 6% increase in the number of homes delivered.", "6%")
    assert rise is not None and rise.cells[0]["row_label"] == "Northern homes delivered"
    assert derive("Homes delivered increased 9% in the quarter.", "9%") is None
    fell = derive("Homes delivered decreased 9% in the quarter.", "9%")
    assert fell is not None and fell.cells[0]["row_label"] == "Southern homes delivered"
    assert derive("It reflects a 6% increase in the average sales price of homes.", "6%") is None
    price = derive("It reflects a 6% decrease in the average sales price of homes.", "6%")
    assert price is not None and "average sales price" in price.cells[0]["row_label"]
    # "improved" says no way: a loss or a cost may have shrunk
    assert derive("Homes delivered improved 9% in the quarter.", "9%") is not None


def test_the_direction_is_the_blanks_own_not_the_next_items() -> None:
    # more40's BODY: "a decrease in net loss of [MASK], an increase in asset impairment of
    # $27.2 million": the loss shrank ($(194,192) to $(152,641)); "increase" is the next item's
    table = Table(
        id="t4",
        cells=[
            ["(in thousands)", "Year Ended December 31, 2023", "Year Ended December 31, 2022"],
            ["Net loss", "$(152,641)", "$(194,192)"],
            ["Asset impairment", "45,000", "17,800"],
        ],
    )
    sentence = (
        "Cash used in operating activities decreased, primarily due to a decrease in net loss of"
        " $41.6 million, an increase in asset impairment of $27.2 million."
    )
    at = sentence.index("$41.6 million")
    found = find_derivation("$41.6 million", [table], sentence, mask=(at, at + 13))
    assert found is not None and found.cells[0]["row_label"] == "Net loss"


def test_a_multiple_is_never_a_sum_of_money() -> None:
    # q45's Hertz: a covenant's "ratio of less than or equal to 3.0x in the first quarter"
    # was "found" as the first quarter's "$3" of disposal proceeds, read as written
    table = Table(
        id="t14",
        cells=[
            [
                "Cash inflow (cash outflow)",
                "Non-Vehicle Capital Assets",
                "Non-Vehicle Capital Assets",
            ],
            ["", "Expenditures", "Disposal Proceeds"],
            ["First Quarter", "$(41)", "$3"],
        ],
    )
    sentence = "The covenant requires a ratio of less than or equal to 3.0x in the first quarter."
    at = sentence.index("3.0x")
    assert find_derivation("3.0x", [table], sentence, mask=(at, at + 4)) is None
    money = sentence.replace("a ratio of less than or equal to 3.0x", "proceeds of $3")
    at = money.index("$3")
    assert find_derivation("$3", [table], money, mask=(at, at + 2)) is not None


def test_a_per_share_figure_as_written_is_a_per_share_cell() -> None:
    # dev15's AFGC: "special dividends of $12.00 per share" was "found" as the "(12)" of a
    # "Special A&E charge, net of tax" row in a table in millions, read as written
    segments = Table(
        id="t38",
        cells=[
            ["(in millions)", "Property and casualty", "Other", "Total"],
            ["Special A&E charge, net of tax", "—", "(12)", "(12)"],
            ["Net earnings", "1,120", "(60)", "1,060"],
        ],
    )
    sentence = (
        "Dividends fell due to special dividends of $5.50 per share in 2023 compared to special"
        " dividends of $12.00 per share in 2022."
    )
    at = sentence.index("$12.00")
    assert find_derivation("$12.00", [segments], sentence, mask=(at, at + 6)) is None
    # a per-share row of the same table is read as written
    per_share = Table(
        id="t39",
        cells=[
            ["(in millions, except per share data)", "2023", "2022"],
            ["Net earnings", "852", "898"],
            ["Special dividends per share", "5.50", "12.00"],
        ],
    )
    found = find_derivation("$12.00", [per_share], sentence, mask=(at, at + 6))
    assert found is not None and found.cells[0]["row_label"] == "Special dividends per share"


def test_a_10k_sentence_without_a_period_length_is_not_a_quarters_figure() -> None:
    # dev15's AFGC: "The $12 million (41%) increase in interest expense ... in 2023" was
    # "found" as the fourth quarter's "12" of that line
    table = Table(
        id="t34",
        cells=[
            ["(in millions)", "Three months ended December 31,", "Year ended December 31,"],
            ["", "2023", "2023"],
            ["Interest expense on funds withheld", "12", "41"],
        ],
    )
    annual = DerivationIndex([table], annual=True)
    sentence = "Interest expense on funds withheld was $12 million in 2023."
    at = sentence.index("$12 million")
    mask = (at, at + len("$12 million"))
    assert find_derivation("$12 million", annual, sentence, mask=mask) is None
    # a 10-Q's "in 2023" may be its quarter's
    quarterly = DerivationIndex([table], annual=False)
    assert find_derivation("$12 million", quarterly, sentence, mask=mask) is not None
    # the form is the sentence's report's, whoever's tables are searched (the swapped-tables
    # negative): a 10-K's sentence in a 10-Q's tables, and the reverse
    assert find_derivation("$12 million", quarterly, sentence, mask=mask, annual=True) is None
    assert find_derivation("$12 million", annual, sentence, mask=mask, annual=False) is not None
    # a 10-K's sentence that names the quarter
    fourth = sentence.replace("in 2023", "in the fourth quarter of 2023")
    at = fourth.index("$12 million")
    found = find_derivation("$12 million", annual, fourth, mask=(at, at + len("$12 million")))
    assert found is not None and found.cells[0]["column_label"].startswith("Three months")


def test_a_change_column_of_other_years_is_not_the_sentences_change() -> None:
    # dev15's AFGC: "premiums increased 8% and 9%, respectively, in 2022 compared to 2021"
    # was "found" in the "% Change 2023 - 2022" column
    table = Table(
        id="t41",
        cells=[
            ["", "2023", "2022", "2021", "% Change 2023 - 2022", "% Change 2022 - 2021"],
            ["Net written premiums", "6,692", "6,206", "5,573", "8%", "11%"],
        ],
    )
    sentence = "Net written premiums increased 8% in 2022 compared to 2021."
    at = sentence.index("8%")
    assert find_derivation("8%", [table], sentence, mask=(at, at + 2)) is None
    # a year named outside the comparison does not make a pair
    aside = (
        "Net written premiums increased 8% in 2023 compared to 2022, after the 2019 acquisition."
    )
    at = aside.index("8%")
    assert find_derivation("8%", [table], aside, mask=(at, at + 2)) is not None
    right = sentence.replace("8%", "11%")
    at = right.index("11%")
    found = find_derivation("11%", [table], right, mask=(at, at + 3))
    assert found is not None and found.cells[0]["column_label"] == "% Change 2022 - 2021"


# INOD's 10-K: one table stacks the consolidated figures and each segment's, each block
# under its own header row; ETD's 10-Q: segment net sales, but only a consolidated margin
STACKED = Table(
    id="t1",
    cells=[
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["Consolidated", "2023", "2022"],
        ["Gross Profit", "$31,293", "$27,468"],
        ["Gross Margin", "36%", "35%"],
        ["DDS Segment", "2023", "2022"],
        ["Gross Profit attributable to DDS Segment", "$21,519", "$21,347"],
        ["Gross Margin", "35%", "38%"],
        ["Synodex Segment", "2023", "2022"],
        ["Gross Profit attributable to Synodex Segment", "$799", "$(874)"],
        ["Gross Margin", "11%", "(12)%"],
    ],
)
CONSOLIDATED = Table(
    id="t2",
    cells=[
        [
            "(in thousands)",
            "Three months ended December 31, 2023",
            "Three months ended December 31, 2022",
        ],
        ["Wholesale net sales", "$90,627", "$106,247"],
        ["Retail net sales", "$76,649", "$96,914"],
        ["Consolidated gross margin", "60.2%", "61.0%"],
        ["Pawn loan fees", "$189,000", "$163,000"],
    ],
)


def test_a_part_of_a_line_is_not_the_whole_line() -> None:
    def derive(sentence: str, span: str, table: Table):
        at = sentence.index(span)
        return find_derivation(span, [table], sentence, mask=(at, at + len(span)))

    # the segment's own block, under its header row "DDS Segment | 2023 | 2022"
    dds = derive("Gross margin for the DDS segment was 35% in 2023.", "35%", STACKED)
    assert dds is not None and dds.cells[0]["row"] == 6
    synodex = derive("Gross margin for the Synodex segment was 11% in 2023.", "11%", STACKED)
    assert synodex is not None and synodex.cells[0]["row"] == 9
    # a consolidated margin is no segment's; a sibling row ("Wholesale net sales") is no
    # heading of the margin's row
    wholesale = "Our wholesale segment gross margin decreased 80 basis points in the quarter."
    assert derive(wholesale, "80 basis points", CONSOLIDATED) is None
    assert derive(
        wholesale.replace("Our wholesale segment", "Our"), "80 basis points", CONSOLIDATED
    )
    # same-store and organic figures are not the total's
    same_store = "Same-store pawn fees increased 16% in the first quarter of 2023."
    assert derive(same_store, "16%", CONSOLIDATED) is None
    assert derive(same_store.replace("Same-store pawn", "Pawn"), "16%", CONSOLIDATED) is not None


def test_the_verb_before_the_blank_outranks_what_follows_the_figure() -> None:
    # "decreased 9% on higher cancellations": "higher" is the cause's, not the change's
    def derive(sentence: str):
        at = sentence.index("9%")
        return find_derivation("9%", [HOMES], sentence, mask=(at, at + 2))

    for sentence in (
        "Southern homes delivered decreased 9% on higher cancellations.",
        "Southern homes delivered decreased 9% despite higher traffic.",
        "Southern homes delivered saw a 9% decrease.",
    ):
        found = derive(sentence)
        assert found is not None and found.cells[0]["row_label"] == "Southern homes delivered"
    assert derive("Southern homes delivered saw a 9% increase.") is None


# one table, two segments, each block under its heading row
SEGMENT_BLOCKS = Table(
    id="t5",
    cells=[
        [
            "(in thousands)",
            "Three months ended December 31, 2023",
            "Three months ended December 31, 2022",
        ],
        ["Wholesale segment", "", ""],
        ["Net sales", "$90,627", "$106,247"],
        ["Gross margin", "45.0%", "45.8%"],
        ["Retail segment", "", ""],
        ["Net sales", "$76,649", "$96,914"],
        ["Gross margin", "61.0%", "61.4%"],
        ["Total net sales", "$167,276", "$203,161"],
    ],
)


def test_a_segments_heading_stays_with_its_own_block() -> None:
    def derive(sentence: str, span: str):
        at = sentence.index(span)
        return find_derivation(span, [SEGMENT_BLOCKS], sentence, mask=(at, at + len(span)))

    wholesale = derive(
        "Our wholesale segment gross margin decreased 80 basis points.", "80 basis points"
    )
    assert wholesale is not None and wholesale.cells[0]["row"] == 3
    # retail's margin fell 40 basis points; "Wholesale segment" heads another block
    assert (
        derive("Our wholesale segment gross margin decreased 40 basis points.", "40 basis points")
        is None
    )
    retail = derive("Our retail segment gross margin decreased 40 basis points.", "40 basis points")
    assert retail is not None and retail.cells[0]["row"] == 6
    # a segment's share: the part is the numerator's, the base is the whole
    share = derive("Net sales of our wholesale segment were 54.2% of total net sales.", "54.2%")
    assert share is not None and share.kind == "share", share
    assert [c["row"] for c in share.cells] == [2, 7]


CEDED = Table(
    id="t0",
    cells=[
        ["", "Three months ended December 31, 2023", "Three months ended December 31, 2022"],
        ["", "Ceded", "Ceded"],
        ["Specialty casualty", "(369)", "(352)"],
        ["Specialty financial", "(50)", "(38)"],
    ],
    pre_text="Detail of reinsurance premiums ceded is shown below (dollars in millions):",
)
PROFIT = Table(
    id="t1",
    cells=[
        ["", "Three months ended December 31, 2023", "Three months ended December 31, 2022"],
        ["Underwriting profit", "$45", "$33"],
    ],
    pre_text="Specialty financial (dollars in millions)",
)
AFG = (
    "Specialty financial Underwriting profit for this group was $45 million in the fourth "
    "quarter of 2023 compared to $33 million in the fourth quarter of 2022, an increase of "
    "$12 million (36%)."
)


def test_a_change_whose_ends_the_sentence_states_is_between_those_figures():
    # AFG 758b4946: the ceded premiums (50) and (38) also moved by 12; the sentence's own
    # $45 million and $33 million say which row moved
    found = find_derivation("$12 million", [CEDED, PROFIT], AFG)
    assert found is not None and found.cells[0]["row_label"] == "Underwriting profit"
    assert find_derivation("$12 million", [CEDED], AFG) is None
    # the percentage change too: 12 / 33 is 36%
    pct = find_derivation("36%", [CEDED, PROFIT], AFG)
    assert pct is not None and pct.cells[0]["row_label"] == "Underwriting profit"


DEPRECIATION = Table(
    id="t0",
    cells=[
        ["", "Year Ended December 31, 2022", "Year Ended December 31, 2021"],
        ["Depreciation and amortization", "18,650,336", "19,909,226"],
    ],
)


def test_stated_ends_may_be_cut_and_the_table_unscaled():
    # "approximately $18.6 million" cuts 18,650,336; "$221 million" is a "221" cell of a
    # table that states no scale
    da = (
        "Depreciation and amortization for the year ended December 31, 2022 decreased by "
        "approximately $1.3 million or 6.3%, to approximately $18.6 million, compared to "
        "approximately $19.9 million for the year ended December 31, 2021."
    )
    assert find_derivation("$1.3 million", [DEPRECIATION], da) is not None
    taxes = Table(
        id="t0",
        cells=[
            ["", "Year ended December 31, 2023", "Year ended December 31, 2022"],
            ["Total provision for income taxes", "221", "225"],
        ],
    )
    said = (
        "AFG's consolidated provision for income taxes was $221 million in 2023 compared to "
        "$225 million in 2022, a decrease of $4 million (2%)."
    )
    assert find_derivation("2%", [taxes], said) is not None


def test_stated_ends_are_read_in_the_blanks_own_bullet():
    # a run of bullets: "$187.7 million" and "$170.9 million" of other bullets move by 9.8%
    # too; they are not Med Tech's ends
    med = Table(
        id="t0",
        cells=[
            ["", "Nine Months Ended Feb 29, 2024", "Nine Months Ended Feb 28, 2023"],
            ["Med Tech", "$77,068", "$70,193"],
        ],
        pre_text="(in thousands)",
    )
    bullets = (
        "Nine months ended February 29, 2024: •Net loss increased to $187.7 million from "
        "$170.9 million •Med Tech revenue growth of 9.8% •Loss per share increased to $4.67"
    )
    found = find_derivation("9.8%", [med], bullets)
    assert found is not None and found.cells[0]["row_label"] == "Med Tech"


def test_stated_ends_of_another_line_do_not_refuse_the_blanks_own():
    # the pair $110.0M / $106.0M moved by $4.0M too, but it is net sales'; gross profit's
    # own $44.0 million is one of its cells
    table = Table(
        id="t0",
        cells=[
            ["", "Year ended December 31, 2023", "Year ended December 31, 2022"],
            ["Net sales", "110.0", "106.0"],
            ["Gross profit", "44.0", "40.0"],
        ],
        pre_text="(in millions)",
    )
    said = (
        "Gross profit increased $4.0 million to $44.0 million in 2023, on net sales of "
        "$110.0 million compared to $106.0 million in 2022."
    )
    found = find_derivation("$4.0 million", [table], said, mask=_nth(said, "$4.0 million", 0))
    assert found is not None and found.cells[0]["row_label"] == "Gross profit"


def test_stated_ends_are_read_at_the_spans_own_precision():
    # "20%" admits 17.5-22.5%: net sales' $116.0M / $100.0M (16%) are no pair for it
    table = Table(
        id="t0",
        cells=[
            ["", "Year ended December 31, 2023", "Year ended December 31, 2022"],
            ["Gross profit", "48", "40"],
        ],
        pre_text="(in millions)",
    )
    said = (
        "Net sales were $116.0 million in 2023 compared to $100.0 million in 2022, and gross "
        "profit increased 20%."
    )
    found = find_derivation("20%", [table], said)
    assert found is not None and found.cells[0]["row_label"] == "Gross profit"
