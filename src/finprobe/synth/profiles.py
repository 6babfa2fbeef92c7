"""Company profiles (industries, names, fiscal years) and statement layouts."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from finprobe.synth.records import CalcRelation


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
