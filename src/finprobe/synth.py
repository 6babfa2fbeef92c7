"""Seeded synthetic company reports whose numbers add up, with recorded derivations.

``make_report(seed)`` simulates a company over two or three fiscal years with
an accounting roll-forward (balance sheet changes flow through the cash-flow
statement), renders the income statement, balance sheet and cash-flow
statement as tables, and writes MD&A sentences whose numbers are looked up or
computed from those tables. Every sentence records how its number was derived
(FAITH scenarios A-D), so builders can mask spans, make claims or inject
errors with a known ground truth. This is the offline sample for the README's
main command and for tests.

Money is simulated as whole numbers in the table unit (thousands or millions)
with ``Decimal`` arithmetic, so every total adds up exactly.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from finprobe.document import FinancialDocument, Paragraph, Table

__all__ = [
    "CalcRelation",
    "CellRef",
    "Derivation",
    "SynthFact",
    "SynthReport",
    "SynthSentence",
    "SynthSpan",
    "make_corpus",
    "make_report",
    "to_faith_record",
    "to_findver_json",
]

MDNA_HEADING = (
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
)
ITEM8_HEADING = "Item 8. Financial Statements and Supplementary Data"

# --------------------------------------------------------------------------
# public records


@dataclass(frozen=True)
class CellRef:
    """One table cell used by a derivation; ``value`` is the displayed value with
    the table scale applied (per-share and percent cells unscaled)."""

    table_id: str
    row: int
    col: int
    metric: str
    period: str
    value: Decimal


@dataclass
class Derivation:
    """How a sentence's number follows from the tables.

    ``value`` is exactly what the span states: a magnitude (the sentence's words
    carry the direction, "decreased $1.2 million"), in base units for money,
    in percent points when ``unit`` is "percent".
    """

    kind: str  # lookup | change | pct_change | ratio | share | sum | multi_step
    scenario: str  # A lookup, B same metric across periods, C two metrics, D more
    inputs: list[CellRef]
    formula: str
    value: Decimal
    unit: str = "usd"  # usd | percent | usd_per_share | ratio

    @property
    def reference(self) -> str:
        """The exact value as a FAITH-style ground-truth string ("$817,880,000", "12.41379310%")."""
        return format_reference(self.value, self.unit)


@dataclass(frozen=True)
class SynthSpan:
    """A further number in a sentence (offsets within the sentence)."""

    start: int
    end: int
    text: str
    derivation: Derivation | None


@dataclass
class SynthSentence:
    """An MD&A sentence with one primary numeric span and its derivation.

    ``answerable=False`` marks numbers that the tables cannot give (headcount,
    store counts, dates, note numbers); their ``derivation`` is None.
    ``block_id``/``offset`` locate the sentence in the document paragraph.
    """

    id: str
    text: str
    span: tuple[int, int]
    span_text: str
    derivation: Derivation | None
    answerable: bool = True
    block_id: str = ""
    offset: int = 0
    topic: str = ""
    other_spans: list[SynthSpan] = field(default_factory=list)


@dataclass(frozen=True)
class SynthFact:
    """One reported value for XBRL export: ``value`` in base units (XBRL sign
    convention, e.g. an increase in receivables is positive), per-share unscaled."""

    concept: str
    label: str
    period: str  # fiscal year label, e.g. "2024"
    value: Decimal
    statement: str  # income | balance | cashflow | segments
    period_type: str  # duration | instant
    period_start: str | None  # ISO date for durations
    period_end: str  # ISO date
    unit: str  # usd | usd_per_share | shares
    decimals: int  # -3 for thousands, -6 for millions, 2 for per-share
    member: str | None = None  # segment member for dimensional facts


@dataclass(frozen=True)
class CalcRelation:
    """Summation relation: parent = sum(weight * child) for every period."""

    parent: str
    children: tuple[str, ...]
    weights: tuple[Decimal, ...]
    statement: str


@dataclass
class SynthReport:
    company: str
    periods: list[str]  # newest first, e.g. ["2024", "2023", "2022"]
    document: FinancialDocument
    statements: dict[str, Table]  # "income", "balance", "cashflow"
    sentences: list[SynthSentence]
    facts: list[SynthFact]
    calculations: list[CalcRelation] = field(default_factory=list)
    mdna_tables: dict[str, Table] = field(
        default_factory=dict
    )  # "results", "segments", "liquidity"
    seed: int = 0
    industry: str = ""
    scale: Decimal = Decimal(1000)
    scale_word: str = "thousands"
    cik: str = ""
    filing_date: str = ""
    fiscal_year_end: str = "December 31"
    ticker: str = ""


# --------------------------------------------------------------------------
# number formatting


def _fmt_int(v: int | Decimal) -> str:
    """Table cell: 1,234 / (1,234) / — for zero."""
    v = int(v)
    if v == 0:
        return "—"
    return f"({-v:,})" if v < 0 else f"{v:,}"


def _fmt_eps(v: Decimal) -> str:
    return f"({-v:.2f})" if v < 0 else f"{v:.2f}"


def _plain(v: Decimal) -> str:
    """Decimal without exponent or trailing zeros after the point."""
    s = format(v, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s or "0"


def format_reference(value: Decimal, unit: str) -> str:
    """Exact value as ground-truth text: money with all digits, percents to 8 decimals."""
    neg = value < 0
    a = abs(value)
    if unit in ("usd", "usd_per_share"):
        q = a.quantize(Decimal("0.01")) if a != a.to_integral_value() else a.to_integral_value()
        body = f"${q:,}"
    elif unit == "percent":
        body = _plain(a.quantize(Decimal("1e-8"))) + "%"
    else:
        body = _plain(a.quantize(Decimal("1e-8")))
    return ("-" if neg else "") + body


def _round(v: Decimal, step: Decimal) -> Decimal:
    return (v / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step


def _is_tie(v: Decimal, step: Decimal) -> bool:
    """v lies exactly half-way between two multiples of step: rounding rules differ there."""
    return (abs(v) / step) % 1 == Decimal("0.5")


def _implied_precision(rounded: Decimal, step: Decimal) -> Decimal:
    """Place of the last non-zero digit: readers of "$1,230,000" assume 10^4."""
    if rounded == 0:
        return step
    p = step
    while (rounded / (p * 10)) == (rounded / (p * 10)).to_integral_value():
        p *= 10
    return p


def _safe(v: Decimal, step: Decimal) -> bool:
    """Rounding v to step gives the same figure under half-up and half-even, and
    so does the coarser precision a reader infers from trailing zeros."""
    r = _round(v, step)
    if r == 0 or _is_tie(v, step):
        return False
    return not _is_tie(v, _implied_precision(r, step))


def money_text(value: Decimal, rng: random.Random) -> str:
    """Analyst-style money: "$817.9 million", "$1.24 billion", "$168,000"."""
    a = abs(value)
    options: list[tuple[str, Decimal, str]] = []  # (scale word, step, format)
    if a >= 10**9:
        options = [("billion", Decimal("1e8"), "{:.1f}"), ("billion", Decimal("1e7"), "{:.2f}")]
        if a < Decimal("5e9"):
            options.append(("million", Decimal("1e5"), "{:,.1f}"))
    elif a >= 10**8:
        options = [("million", Decimal("1e5"), "{:.1f}"), ("million", Decimal("1e6"), "{:.0f}")]
    elif a >= 10**6:
        options = [("million", Decimal("1e5"), "{:.1f}")]
        if a < 10**7:
            options.append(("million", Decimal("1e4"), "{:.2f}"))
    elif a >= 10**3:
        options = [("", Decimal("1e3"), "{:,.0f}")]
    rng.shuffle(options)
    # finer fall-backs when every analyst rounding sits on a tie
    options += [("million", Decimal("1e3"), "{:,.3f}"), ("", Decimal(1), "{:,.0f}")]
    div = {"billion": Decimal("1e9"), "million": Decimal("1e6"), "": Decimal(1)}
    for word, step, fmt in options:
        if word == "million" and step == Decimal("1e3") and a < 10**6:
            continue
        if not _safe(a, step):
            continue
        shown = _round(a, step) / div[word]
        return "$" + fmt.format(shown) + (f" {word}" if word else "")
    return "$" + f"{a:,}"


def pct_text(value: Decimal, rng: random.Random, words: bool | None = None) -> str:
    """Percent as analysts write it: "12.4%", "34 percent", "0.45%"."""
    a = abs(value)
    steps = [Decimal("0.1"), Decimal("0.1"), Decimal(1)] if a >= 1 else [Decimal("0.01")]
    rng.shuffle(steps)
    steps += [Decimal("0.01"), Decimal("0.001"), Decimal("0.0001")]
    if words is None:
        words = rng.random() < 0.3
    for step in steps:
        if not _safe(a, step):
            continue
        digits = max(0, -step.as_tuple().exponent)
        shown = f"{_round(a, step):.{digits}f}"
        return shown + (" percent" if words else "%")
    return _plain(a) + "%"


def ratio_text(value: Decimal) -> str:
    for step in (Decimal("0.01"), Decimal("0.001"), Decimal("0.0001")):
        if _safe(abs(value), step):
            digits = -step.as_tuple().exponent
            return f"{_round(abs(value), step):.{digits}f}"
    return _plain(abs(value))


# --------------------------------------------------------------------------
# company profiles


@dataclass(frozen=True)
class _Industry:
    name: str
    description: str
    segments: tuple[str, ...]
    gross_margin: float
    opex: tuple[tuple[str, str, str, float], ...]  # (key, label, concept, share of revenue)
    capex: float  # capex as share of revenue
    inventory: float  # inventory as share of cost of revenue
    facility: str
    drivers: tuple[str, ...]


_RD = ("opex1", "Research and development", "us-gaap:ResearchAndDevelopmentExpense")
_SGA = (
    "opex2",
    "Selling, general and administrative",
    "us-gaap:SellingGeneralAndAdministrativeExpense",
)
_SM = ("opex1", "Selling and marketing", "us-gaap:SellingAndMarketingExpense")
_GA = ("opex2", "General and administrative", "us-gaap:GeneralAndAdministrativeExpense")

_INDUSTRIES = (
    _Industry("software", "a provider of cloud-based workflow software for mid-sized enterprises",
              ("Subscription", "Professional services", "Maintenance and support"), 0.72,
              ((*_RD, 0.19), (*_SGA, 0.36)), 0.03, 0.02, "data centers",
              ("higher subscription renewals", "new customer additions", "price increases on our core platform")),
    _Industry("industrial manufacturing", "a manufacturer of flow control and motion products for industrial customers",
              ("Flow Control", "Motion Systems", "Aftermarket Services"), 0.34,
              ((*_RD, 0.03), (*_SGA, 0.16)), 0.05, 0.22, "manufacturing facilities",
              ("higher volumes in our Flow Control segment", "pricing actions", "strong aftermarket demand")),
    _Industry("specialty retail", "a specialty retailer of outdoor apparel and equipment",
              ("Stores", "E-commerce"), 0.39, ((*_SM, 0.07), (*_GA, 0.22)), 0.04, 0.30, "stores",
              ("new store openings", "higher comparable store sales", "growth in digital orders")),
    _Industry("medical devices", "a medical technology company focused on minimally invasive surgical systems",
              ("Surgical Systems", "Diagnostics", "Consumables"), 0.62,
              ((*_RD, 0.11), (*_SGA, 0.33)), 0.04, 0.18, "manufacturing sites",
              ("higher procedure volumes", "the launch of our next-generation platform", "recurring consumables sales")),
    _Industry("semiconductors", "a designer of analog and mixed-signal semiconductors",
              ("Data Center", "Automotive", "Industrial"), 0.56, ((*_RD, 0.18), (*_SGA, 0.12)), 0.07, 0.16,
              "design centers", ("strong data center demand", "content gains in automotive", "a richer product mix")),
    _Industry("restaurants", "an operator and franchisor of fast-casual restaurants",
              ("Company-operated restaurants", "Franchise royalties and fees"), 0.24,
              ((*_SM, 0.04), (*_GA, 0.09)), 0.06, 0.01, "restaurants",
              ("new restaurant openings", "higher average check", "growth in franchise royalties")),
    _Industry("consumer products", "a manufacturer of branded household and personal care products",
              ("Household", "Personal Care", "International"), 0.43, ((*_SM, 0.12), (*_GA, 0.17)), 0.035, 0.20,
              "distribution centers", ("favorable pricing", "volume growth in Personal Care", "new product launches")),
    _Industry("logistics", "a provider of truckload, intermodal and brokerage transportation services",
              ("Truckload", "Intermodal", "Brokerage"), 0.21, ((*_SM, 0.03), (*_GA, 0.09)), 0.08, 0.0,
              "terminals", ("higher freight volumes", "fuel surcharge revenue", "growth in brokerage loads")),
)  # fmt: skip

_NAME_A = ("Harbor", "Summit", "Granite", "Cedar", "Northwind", "Bluewater", "Ironwood", "Meridian", "Redstone",
           "Silverline", "Keystone", "Lakeshore", "Pioneer", "Crescent", "Evergreen", "Highland", "Atlas", "Beacon",
           "Clearpath", "Westfield", "Orion", "Stonebridge", "Falcon", "Riverside", "Sterling", "Copperleaf")  # fmt: skip
_NAME_B = {
    "software": ("Software", "Systems", "Cloud", "Technologies", "Data"),
    "industrial manufacturing": ("Industries", "Manufacturing", "Controls", "Engineering"),
    "specialty retail": ("Outfitters", "Brands", "Trading", "Supply"),
    "medical devices": ("Medical", "Surgical", "Health Technologies", "Biosystems"),
    "semiconductors": ("Semiconductor", "Microsystems", "Devices", "Silicon"),
    "restaurants": ("Restaurant Group", "Kitchens", "Hospitality", "Foods"),
    "consumer products": ("Brands", "Consumer Products", "Home Products", "Goods"),
    "logistics": ("Logistics", "Freight", "Transportation", "Carriers"),
}
_FORMS = ("Inc.", "Corporation", "Holdings, Inc.", "Co.", "Group, Inc.")
_CITIES = ("Denver, Colorado", "Columbus, Ohio", "Austin, Texas", "Raleigh, North Carolina", "Minneapolis, Minnesota",
           "Portland, Oregon", "Nashville, Tennessee", "Milwaukee, Wisconsin", "Charlotte, North Carolina")  # fmt: skip
_FYE = (("December 31", 12, 31), ("December 31", 12, 31), ("December 31", 12, 31), ("September 30", 9, 30),
        ("June 30", 6, 30))  # fmt: skip
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip

# --------------------------------------------------------------------------
# statement layouts: (key, label, concept, display sign, kind)
# display sign: the table shows sign * fact (costs shown positive stay +1;
# cash-flow outflows are facts that are positive but shown in parentheses).


@dataclass(frozen=True)
class _Line:
    key: str
    label: str
    concept: str | None
    sign: int = 1
    kind: str = "item"  # item | total | header | per_share | shares


def _income_lines(ind: _Industry) -> list[_Line]:
    o1, o2 = ind.opex
    return [
        _Line("revenue", "Revenue", "us-gaap:Revenues"),
        _Line("cogs", "Cost of revenue", "us-gaap:CostOfRevenue"),
        _Line("gross_profit", "Gross profit", "us-gaap:GrossProfit", kind="total"),
        _Line("h_opex", "Operating expenses:", None, kind="header"),
        _Line(o1[0], o1[1], o1[2]),
        _Line(o2[0], o2[1], o2[2]),
        _Line("total_opex", "Total operating expenses", "us-gaap:OperatingExpenses", kind="total"),
        _Line(
            "operating_income",
            "Operating income (loss)",
            "us-gaap:OperatingIncomeLoss",
            kind="total",
        ),
        _Line("interest_expense", "Interest expense", "us-gaap:InterestExpense", sign=-1),
        _Line(
            "other_income", "Other income (expense), net", "us-gaap:OtherNonoperatingIncomeExpense"
        ),
        _Line(
            "pretax",
            "Income (loss) before income taxes",
            "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            kind="total",
        ),  # fmt: skip
        _Line(
            "income_tax",
            "Provision for (benefit from) income taxes",
            "us-gaap:IncomeTaxExpenseBenefit",
        ),
        _Line("net_income", "Net income (loss)", "us-gaap:NetIncomeLoss", kind="total"),
        _Line(
            "eps_basic",
            "Basic earnings (loss) per share",
            "us-gaap:EarningsPerShareBasic",
            kind="per_share",
        ),
        _Line(
            "eps_diluted",
            "Diluted earnings (loss) per share",
            "us-gaap:EarningsPerShareDiluted",
            kind="per_share",
        ),
        _Line(
            "shares_basic",
            "Weighted-average shares outstanding, basic",
            "us-gaap:WeightedAverageNumberOfSharesOutstandingBasic",
            kind="shares",
        ),  # fmt: skip
        _Line(
            "shares_diluted",
            "Weighted-average shares outstanding, diluted",
            "us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding",
            kind="shares",
        ),  # fmt: skip
    ]


_BALANCE_LINES = [
    _Line("h_assets", "Current assets:", None, kind="header"),
    _Line("cash", "Cash and cash equivalents", "us-gaap:CashAndCashEquivalentsAtCarryingValue"),
    _Line("ar", "Accounts receivable, net", "us-gaap:AccountsReceivableNetCurrent"),
    _Line("inventory", "Inventories", "us-gaap:InventoryNet"),
    _Line(
        "prepaid",
        "Prepaid expenses and other current assets",
        "us-gaap:PrepaidExpenseAndOtherAssetsCurrent",
    ),
    _Line("current_assets", "Total current assets", "us-gaap:AssetsCurrent", kind="total"),
    _Line("ppe", "Property and equipment, net", "us-gaap:PropertyPlantAndEquipmentNet"),
    _Line("goodwill", "Goodwill", "us-gaap:Goodwill"),
    _Line("other_assets", "Other assets", "us-gaap:OtherAssetsNoncurrent"),
    _Line("total_assets", "Total assets", "us-gaap:Assets", kind="total"),
    _Line("h_liab", "Current liabilities:", None, kind="header"),
    _Line("ap", "Accounts payable", "us-gaap:AccountsPayableCurrent"),
    _Line("accrued", "Accrued expenses", "us-gaap:AccruedLiabilitiesCurrent"),
    _Line(
        "current_liabilities",
        "Total current liabilities",
        "us-gaap:LiabilitiesCurrent",
        kind="total",
    ),
    _Line("ltd", "Long-term debt", "us-gaap:LongTermDebtNoncurrent"),
    _Line("other_liabilities", "Other long-term liabilities", "us-gaap:OtherLiabilitiesNoncurrent"),
    _Line("total_liabilities", "Total liabilities", "us-gaap:Liabilities", kind="total"),
    _Line("h_equity", "Stockholders' equity:", None, kind="header"),
    _Line(
        "common_stock",
        "Common stock and additional paid-in capital",
        "us-gaap:CommonStocksIncludingAdditionalPaidInCapital",
    ),  # fmt: skip
    _Line(
        "retained",
        "Retained earnings (accumulated deficit)",
        "us-gaap:RetainedEarningsAccumulatedDeficit",
    ),
    _Line("total_equity", "Total stockholders' equity", "us-gaap:StockholdersEquity", kind="total"),
    _Line(
        "total_le",
        "Total liabilities and stockholders' equity",
        "us-gaap:LiabilitiesAndStockholdersEquity",
        kind="total",
    ),  # fmt: skip
]

_CASHFLOW_LINES = [
    _Line("h_op", "Cash flows from operating activities:", None, kind="header"),
    _Line("cf_net_income", "Net income (loss)", "us-gaap:NetIncomeLoss"),
    _Line("da", "Depreciation and amortization", "us-gaap:DepreciationDepletionAndAmortization"),
    _Line("sbc", "Stock-based compensation", "us-gaap:ShareBasedCompensation"),
    _Line("h_wc", "Changes in operating assets and liabilities:", None, kind="header"),
    _Line("d_ar", "Accounts receivable", "us-gaap:IncreaseDecreaseInAccountsReceivable", sign=-1),
    _Line("d_inventory", "Inventories", "us-gaap:IncreaseDecreaseInInventories", sign=-1),
    _Line(
        "d_prepaid",
        "Prepaid expenses and other current assets",
        "us-gaap:IncreaseDecreaseInPrepaidDeferredExpenseAndOtherAssets",
        sign=-1,
    ),  # fmt: skip
    _Line("d_ap", "Accounts payable", "us-gaap:IncreaseDecreaseInAccountsPayable"),
    _Line("d_accrued", "Accrued expenses", "us-gaap:IncreaseDecreaseInAccruedLiabilities"),
    _Line(
        "d_other",
        "Other assets and liabilities, net",
        "us-gaap:OtherOperatingActivitiesCashFlowStatement",
    ),
    _Line(
        "ocf",
        "Net cash provided by (used in) operating activities",
        "us-gaap:NetCashProvidedByUsedInOperatingActivities",
        kind="total",
    ),  # fmt: skip
    _Line("h_inv", "Cash flows from investing activities:", None, kind="header"),
    _Line(
        "capex",
        "Purchases of property and equipment",
        "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment",
        sign=-1,
    ),  # fmt: skip
    _Line(
        "icf",
        "Net cash used in investing activities",
        "us-gaap:NetCashProvidedByUsedInInvestingActivities",
        kind="total",
    ),  # fmt: skip
    _Line("h_fin", "Cash flows from financing activities:", None, kind="header"),
    _Line("borrowings", "Proceeds from borrowings", "us-gaap:ProceedsFromIssuanceOfLongTermDebt"),
    _Line(
        "repayments", "Repayments of long-term debt", "us-gaap:RepaymentsOfLongTermDebt", sign=-1
    ),
    _Line("dividends", "Dividends paid", "us-gaap:PaymentsOfDividends", sign=-1),
    _Line(
        "fin_cf",
        "Net cash provided by (used in) financing activities",
        "us-gaap:NetCashProvidedByUsedInFinancingActivities",
        kind="total",
    ),  # fmt: skip
    _Line(
        "net_change",
        "Net increase (decrease) in cash and cash equivalents",
        "us-gaap:CashAndCashEquivalentsPeriodIncreaseDecrease",
        kind="total",
    ),  # fmt: skip
    _Line(
        "cash_begin",
        "Cash and cash equivalents, beginning of year",
        "us-gaap:CashAndCashEquivalentsAtCarryingValue",
    ),  # fmt: skip
    _Line(
        "cash_end",
        "Cash and cash equivalents, end of year",
        "us-gaap:CashAndCashEquivalentsAtCarryingValue",
        kind="total",
    ),  # fmt: skip
]

_LIQUIDITY_KEYS = ("ocf", "icf", "fin_cf", "net_change")


def _calc_relations(ind: _Industry) -> list[CalcRelation]:
    o1, o2 = ind.opex
    one, neg = Decimal(1), Decimal(-1)

    def rel(stmt: str, parent: str, *children: tuple[str, Decimal]) -> CalcRelation:
        return CalcRelation(
            f"us-gaap:{parent}",
            tuple(c if ":" in c else f"us-gaap:{c}" for c, _ in children),
            tuple(w for _, w in children),
            stmt,
        )

    return [
        rel("income", "GrossProfit", ("Revenues", one), ("CostOfRevenue", neg)),
        rel("income", "OperatingExpenses", (o1[2], one), (o2[2], one)),
        rel("income", "OperatingIncomeLoss", ("GrossProfit", one), ("OperatingExpenses", neg)),
        rel("income", "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            ("OperatingIncomeLoss", one), ("InterestExpense", neg), ("OtherNonoperatingIncomeExpense", one)),
        rel("income", "NetIncomeLoss",
            ("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", one),
            ("IncomeTaxExpenseBenefit", neg)),
        rel("balance", "AssetsCurrent", ("CashAndCashEquivalentsAtCarryingValue", one),
            ("AccountsReceivableNetCurrent", one), ("InventoryNet", one),
            ("PrepaidExpenseAndOtherAssetsCurrent", one)),
        rel("balance", "Assets", ("AssetsCurrent", one), ("PropertyPlantAndEquipmentNet", one),
            ("Goodwill", one), ("OtherAssetsNoncurrent", one)),
        rel("balance", "LiabilitiesCurrent", ("AccountsPayableCurrent", one), ("AccruedLiabilitiesCurrent", one)),
        rel("balance", "Liabilities", ("LiabilitiesCurrent", one), ("LongTermDebtNoncurrent", one),
            ("OtherLiabilitiesNoncurrent", one)),
        rel("balance", "StockholdersEquity", ("CommonStocksIncludingAdditionalPaidInCapital", one),
            ("RetainedEarningsAccumulatedDeficit", one)),
        rel("balance", "LiabilitiesAndStockholdersEquity", ("Liabilities", one), ("StockholdersEquity", one)),
        rel("cashflow", "NetCashProvidedByUsedInOperatingActivities", ("NetIncomeLoss", one),
            ("DepreciationDepletionAndAmortization", one), ("ShareBasedCompensation", one),
            ("IncreaseDecreaseInAccountsReceivable", neg), ("IncreaseDecreaseInInventories", neg),
            ("IncreaseDecreaseInPrepaidDeferredExpenseAndOtherAssets", neg),
            ("IncreaseDecreaseInAccountsPayable", one), ("IncreaseDecreaseInAccruedLiabilities", one),
            ("OtherOperatingActivitiesCashFlowStatement", one)),
        rel("cashflow", "NetCashProvidedByUsedInInvestingActivities",
            ("PaymentsToAcquirePropertyPlantAndEquipment", neg)),
        rel("cashflow", "NetCashProvidedByUsedInFinancingActivities", ("ProceedsFromIssuanceOfLongTermDebt", one),
            ("RepaymentsOfLongTermDebt", neg), ("PaymentsOfDividends", neg)),
        rel("cashflow", "CashAndCashEquivalentsPeriodIncreaseDecrease",
            ("NetCashProvidedByUsedInOperatingActivities", one), ("NetCashProvidedByUsedInInvestingActivities", one),
            ("NetCashProvidedByUsedInFinancingActivities", one)),
    ]  # fmt: skip


# --------------------------------------------------------------------------
# simulation (whole numbers in the table unit; facts in XBRL sign convention)


def _r(x: float) -> int:
    return int(round(x))


def _simulate(
    rng: random.Random, ind: _Industry, n: int, base_revenue: int
) -> list[dict[str, Any]]:
    """Years oldest first; element 0 is the hidden opening balance sheet."""
    gm = ind.gross_margin + rng.uniform(-0.05, 0.05)
    struggling = rng.random() < 0.2  # some companies lose money: parentheses and "net loss" prose
    opex_pct = [o[3] * rng.uniform(0.8, 1.2) * (1.35 if struggling else 1.0) for o in ind.opex]
    tax_rate = rng.uniform(0.19, 0.27)
    pays_dividends = not struggling and rng.random() < 0.5
    payout = rng.uniform(0.15, 0.4)
    rate = rng.uniform(0.04, 0.08)
    rev = base_revenue
    cogs = _r(rev * (1 - gm))
    y: dict[str, Any] = {
        "revenue": rev,
        "ar": _r(rev * rng.uniform(0.08, 0.18)),
        "inventory": _r(cogs * ind.inventory * rng.uniform(0.8, 1.2)),
        "prepaid": _r(rev * rng.uniform(0.015, 0.04)),
        "ppe": _r(rev * ind.capex * rng.uniform(3, 6)),
        "goodwill": _r(rev * rng.uniform(0.05, 0.4)) if rng.random() < 0.8 else 0,
        "other_assets": _r(rev * rng.uniform(0.01, 0.05)),
        "ap": _r(cogs * rng.uniform(0.07, 0.14)),
        "accrued": _r(rev * rng.uniform(0.04, 0.08)),
        "ltd": _r(rev * rng.uniform(0.1, 0.5)) if rng.random() < 0.85 else 0,
        "other_liabilities": _r(rev * rng.uniform(0.01, 0.04)),
        "cash": _r(rev * rng.uniform(0.06, 0.25)),
        "cogs": cogs,
        "shares_basic": max(1, _r(rev * rng.uniform(0.03, 0.15))),
    }
    _close_balance(y, plug_equity=True)
    years = [y]
    for _ in range(n):
        p = years[-1]
        t: dict[str, Any] = {}
        growth = rng.uniform(-0.08, 0.25)
        t["revenue"] = rev = _r(p["revenue"] * (1 + growth))
        t["cogs"] = cogs = _r(rev * (1 - gm - rng.uniform(-0.02, 0.02)))
        t["gross_profit"] = rev - cogs
        t["opex1"] = _r(rev * opex_pct[0] * rng.uniform(0.93, 1.07))
        t["opex2"] = _r(rev * opex_pct[1] * rng.uniform(0.93, 1.07))
        t["total_opex"] = t["opex1"] + t["opex2"]
        t["operating_income"] = t["gross_profit"] - t["total_opex"]
        t["interest_expense"] = _r(p["ltd"] * rate)
        t["other_income"] = _r(rev * rng.uniform(-0.004, 0.008))
        t["pretax"] = t["operating_income"] - t["interest_expense"] + t["other_income"]
        pt = t["pretax"]
        t["income_tax"] = (
            _r(pt * tax_rate * rng.uniform(0.9, 1.1)) if pt > 0 else _r(pt * rng.uniform(0.0, 0.08))
        )
        t["net_income"] = ni = t["pretax"] - t["income_tax"]
        t["shares_basic"] = sb = max(1, _r(p["shares_basic"] * (1 + rng.uniform(-0.02, 0.03))))
        # options are anti-dilutive in a loss year: diluted = basic
        t["shares_diluted"] = sd = sb if ni <= 0 else _r(sb * (1 + rng.uniform(0.005, 0.03)))
        t["eps_basic"] = (Decimal(ni) / Decimal(sb)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        t["eps_diluted"] = (Decimal(ni) / Decimal(sd)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        # balance sheet drivers
        t["ar"] = _r(rev * (p["ar"] / p["revenue"]) * rng.uniform(0.92, 1.08))
        t["inventory"] = _r(cogs * ind.inventory * rng.uniform(0.8, 1.2))
        t["prepaid"] = _r(p["prepaid"] * (1 + growth) * rng.uniform(0.9, 1.1))
        t["ap"] = _r(cogs * (p["ap"] / max(1, p["cogs"])) * rng.uniform(0.92, 1.08))
        t["accrued"] = _r(p["accrued"] * (1 + growth) * rng.uniform(0.9, 1.1))
        t["other_assets"] = _r(p["other_assets"] * rng.uniform(0.95, 1.1))
        t["other_liabilities"] = _r(p["other_liabilities"] * rng.uniform(0.95, 1.1))
        t["goodwill"] = p["goodwill"]
        t["da"] = max(1, _r(p["ppe"] * rng.uniform(0.1, 0.18)))
        t["capex"] = max(1, _r(rev * ind.capex * rng.uniform(0.7, 1.3)))
        t["ppe"] = p["ppe"] + t["capex"] - t["da"]
        t["sbc"] = max(1, _r(rev * rng.uniform(0.005, 0.03)))
        t["common_stock"] = p["common_stock"] + t["sbc"]  # stock awards add to paid-in capital
        t["dividends"] = _r(max(0, ni) * payout) if pays_dividends else 0
        t["retained"] = p["retained"] + ni - t["dividends"]
        t["repayments"] = _r(p["ltd"] * rng.uniform(0.03, 0.15)) if p["ltd"] else 0
        t["borrowings"] = _r(rev * rng.uniform(0.02, 0.1)) if rng.random() < 0.3 else 0
        # XBRL increase/decrease facts: positive = the balance went up
        t["d_ar"] = t["ar"] - p["ar"]
        t["d_inventory"] = t["inventory"] - p["inventory"]
        t["d_prepaid"] = t["prepaid"] - p["prepaid"]
        t["d_ap"] = t["ap"] - p["ap"]
        t["d_accrued"] = t["accrued"] - p["accrued"]
        t["d_other"] = (t["other_liabilities"] - p["other_liabilities"]) - (
            t["other_assets"] - p["other_assets"]
        )
        t["cf_net_income"] = ni
        t["ocf"] = (ni + t["da"] + t["sbc"] - t["d_ar"] - t["d_inventory"] - t["d_prepaid"] + t["d_ap"]
                    + t["d_accrued"] + t["d_other"])  # fmt: skip
        t["icf"] = -t["capex"]
        # keep a cash cushion: borrow what the year would otherwise overdraw
        floor = _r(rev * rng.uniform(0.03, 0.08))
        pre_fin = p["cash"] + t["ocf"] + t["icf"] - t["repayments"] - t["dividends"]
        if pre_fin + t["borrowings"] < floor:
            t["borrowings"] = floor - pre_fin + _r(rev * rng.uniform(0.0, 0.03))
        t["fin_cf"] = t["borrowings"] - t["repayments"] - t["dividends"]
        t["net_change"] = t["ocf"] + t["icf"] + t["fin_cf"]
        t["cash_begin"] = p["cash"]
        t["cash"] = t["cash_end"] = p["cash"] + t["net_change"]
        t["ltd"] = p["ltd"] + t["borrowings"] - t["repayments"]
        _close_balance(t, plug_equity=False)
        if t["total_assets"] != t["total_le"]:  # the roll-forward makes this an identity
            raise AssertionError("synthetic balance sheet does not balance")
        years.append(t)
    return years


def _close_balance(y: dict[str, Any], plug_equity: bool) -> None:
    y["current_assets"] = y["cash"] + y["ar"] + y["inventory"] + y["prepaid"]
    y["total_assets"] = y["current_assets"] + y["ppe"] + y["goodwill"] + y["other_assets"]
    y["current_liabilities"] = y["ap"] + y["accrued"]
    y["total_liabilities"] = y["current_liabilities"] + y["ltd"] + y["other_liabilities"]
    if plug_equity:  # opening balance sheet: equity is what assets leave after liabilities
        floor = y["total_liabilities"] // 4
        if y["total_assets"] - y["total_liabilities"] < floor:  # keep the opening equity positive
            extra = floor - (y["total_assets"] - y["total_liabilities"])
            y["cash"] += extra
            y["current_assets"] += extra
            y["total_assets"] += extra
        equity = y["total_assets"] - y["total_liabilities"]
        y["common_stock"] = equity * 55 // 100
        y["retained"] = equity - y["common_stock"]
    y["total_equity"] = y["common_stock"] + y["retained"]
    y["total_le"] = y["total_liabilities"] + y["total_equity"]


# --------------------------------------------------------------------------
# report assembly


class _Builder:
    def __init__(self, seed: int, periods: int, company: str | None) -> None:
        if periods not in (2, 3):
            raise ValueError(f"periods must be 2 or 3, got {periods}")
        self.seed = seed
        self.rng = rng = random.Random(seed)
        self.ind = ind = rng.choice(_INDUSTRIES)
        self.company = company or (
            f"{rng.choice(_NAME_A)} {rng.choice(_NAME_B[ind.name])} {rng.choice(_FORMS)}"
        )
        self.ticker = (
            "".join(w[0] for w in re.findall(r"[A-Za-z]+", self.company)[:3]).upper() + "X"
        )
        self.in_millions = rng.random() < 0.35
        self.scale = Decimal(10**6) if self.in_millions else Decimal(10**3)
        self.scale_word = "millions" if self.in_millions else "thousands"
        latest = rng.choice((2023, 2024, 2024))
        self.fye, fye_month, fye_day = rng.choice(_FYE)
        self.years = [latest - i for i in range(periods)]  # newest first
        self.periods = [str(x) for x in self.years]
        self.fye_month, self.fye_day = fye_month, fye_day
        filing_month = fye_month + 2 if fye_month <= 10 else fye_month - 10
        filing_year = latest if fye_month <= 10 else latest + 1
        self.filing_date = f"{filing_year}-{filing_month:02d}-{rng.randint(10, 28):02d}"
        self.cik = str(rng.randint(1_000_000, 1_999_999))
        if self.in_millions:
            base = _r(10 ** rng.uniform(2.9, 4.6))  # about $0.8-40 billion
        else:
            base = _r(10 ** rng.uniform(4.6, 6.3))  # about $40 million-$2 billion
        sim = _simulate(rng, ind, periods, base)
        self.prior = sim[0]
        # newest first, keyed by period label
        self.v: dict[str, dict[str, Any]] = {
            self.periods[i]: sim[periods - i] for i in range(periods)
        }
        self.hidden_period = str(self.years[-1] - 1)
        self.income_lines = _income_lines(ind)
        self._segments(base)
        self.tables: dict[str, Table] = {}
        self.rows: dict[str, dict[str, int]] = {}
        self.cols: dict[str, dict[str, int]] = {}

    # -- segments ----------------------------------------------------------

    def _segments(self, base: int) -> None:
        rng = self.rng
        names = list(self.ind.segments)
        k = len(names)
        weights = [rng.uniform(0.5, 1.5) for _ in range(k)]
        self.segment_names = names
        for period in reversed(self.periods):
            total = self.v[period]["revenue"]
            weights = [w * rng.uniform(0.9, 1.12) for w in weights]  # mix drifts year to year
            s = sum(weights)
            amounts = [_r(total * w / s) for w in weights[:-1]]
            amounts.append(total - sum(amounts))  # the last segment closes the total exactly
            self.v[period]["segments"] = amounts

    # -- tables --------------------------------------------------------------

    def _unit_phrase(self, per_share: bool = False) -> str:
        return (
            f"in {self.scale_word}, except per share data" if per_share else f"in {self.scale_word}"
        )

    def _statement_table(
        self, tid: str, name: str, lines: list[_Line], pre_text: str, section: str
    ) -> Table:
        cells = [["", *self.periods]]
        rows: dict[str, int] = {}
        for ln in lines:
            if ln.kind == "header":
                cells.append([ln.label] + [""] * len(self.periods))
                continue
            row = [self._label(ln)]
            for p in self.periods:
                val = self.v[p][ln.key]
                row.append(_fmt_eps(val) if ln.kind == "per_share" else _fmt_int(ln.sign * val))
            rows[ln.key] = len(cells)
            cells.append(row)
        table = Table(id=tid, cells=cells, pre_text=pre_text, section=section)
        self.tables[name] = table
        self.rows[name] = rows
        self.cols[name] = {p: i + 1 for i, p in enumerate(self.periods)}
        return table

    def _label(self, ln: _Line) -> str:
        if ln.key == "net_income" or ln.key == "cf_net_income":
            return (
                "Net income" if all(self.v[p]["net_income"] > 0 for p in self.periods) else ln.label
            )
        profitable = all(
            self.v[p]["net_income"] > 0 and self.v[p]["pretax"] > 0 for p in self.periods
        )
        if ln.key == "operating_income":
            return (
                "Operating income" if all(self.v[p][ln.key] > 0 for p in self.periods) else ln.label
            )
        if ln.key in ("pretax", "eps_basic", "eps_diluted") and profitable:
            return ln.label.replace(" (loss)", "")
        return ln.label

    def _segment_table(self, tid: str, pre_text: str) -> Table:
        head1, head2 = [""], ["Segment"]
        for p in self.periods:
            head1 += [p, p]
            head2 += ["Amount", "% of total"]
        cells = [head1, head2]
        rows: dict[str, int] = {}
        cols: dict[str, int] = {}
        for i, p in enumerate(self.periods):
            cols[p] = 1 + 2 * i
            cols[p + "%"] = 2 + 2 * i
        for j, name in enumerate(self.segment_names):
            row = [name]
            for p in self.periods:
                amt = self.v[p]["segments"][j]
                row += [_fmt_int(amt), self._seg_pct_cell(amt, self.v[p]["revenue"])]
            rows[f"seg{j}"] = len(cells)
            cells.append(row)
        total = ["Total revenue"]
        for p in self.periods:
            total += [_fmt_int(self.v[p]["revenue"]), "100.0%"]
        rows["revenue"] = len(cells)
        cells.append(total)
        table = Table(id=tid, cells=cells, pre_text=pre_text, section="Item 7")
        self.tables["segments"], self.rows["segments"], self.cols["segments"] = table, rows, cols
        return table

    @staticmethod
    def _seg_pct_cell(amount: int, total: int) -> str:
        return f"{_round(Decimal(amount) * 100 / Decimal(total), Decimal('0.1')):.1f}%"

    def _subset_table(
        self, name: str, tid: str, keys: list[str], source: list[_Line], pre_text: str
    ) -> Table:
        lines = [ln for k in keys for ln in source if ln.key == k]
        return self._statement_table(tid, name, lines, pre_text, "Item 7")

    # -- cell references -----------------------------------------------------

    def ref(self, key: str, period: str, table: str | None = None) -> CellRef:
        """CellRef for a metric: the named table, else the first table that shows it."""
        order = (
            [table]
            if table
            else ["results", "segments", "liquidity", "income", "balance", "cashflow"]
        )
        for name in order:
            if name in self.rows and key in self.rows[name] and period in self.cols[name]:
                t = self.tables[name]
                r, c = self.rows[name][key], self.cols[name][period]
                value = self.cell_value(t, r, c)
                return CellRef(t.id, r, c, t.cells[r][0], period, value)
        raise KeyError((key, period, table))

    def cell_value(self, t: Table, r: int, c: int) -> Decimal:
        """Displayed value with the table scale applied (percent and per-share unscaled)."""
        text = t.cells[r][c]
        if text == "—":
            return Decimal(0)
        neg = text.startswith("(")
        body = text.strip("()%").replace(",", "")
        v = Decimal(body)
        if "%" not in text and "per share" not in t.cells[r][0]:
            v *= self.scale
        return -v if neg else v


# --------------------------------------------------------------------------
# sentence rendering

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


# --------------------------------------------------------------------------
# export to the public dataset formats


_NEGATIVE_CELL = re.compile(r"^\(([\d,.]+%?)\)$")


def _pipe(table: Table) -> str:
    """Pipe rows as FinDVer writes them: a negative "(1,234)" splits into "(1,234 | )"."""
    rows = []
    for row in table.cells:
        cells = [_NEGATIVE_CELL.sub(r"(\1 | )", c) for c in row]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def to_findver_json(report: SynthReport) -> dict[str, Any]:
    """The report in FinDVer's format: one context entry per block, tables as pipe text."""
    context = []
    for i, blk in enumerate(report.document.blocks):
        if isinstance(blk, Table):
            context.append({"id": i, "context": _pipe(blk), "type": "table"})
        else:
            context.append({"id": i, "context": blk.text, "type": "paragraph"})
    return {
        "url": report.document.metadata.get("url", ""),
        "report_type": "10-K",
        "context": context,
        "html_tables": [],
    }


def to_faith_record(report: SynthReport) -> dict[str, Any]:
    """The report in FAITH's format: metadata, tables with pre-texts, no instances."""
    return {
        "metadata": {"cik": report.cik, "filing_date": report.filing_date},
        "tables": [
            {"table_index": str(i), "cells": [list(r) for r in t.cells], "pre_text": t.pre_text}
            for i, t in enumerate(report.document.tables)
        ],
        "instances": [],
    }
