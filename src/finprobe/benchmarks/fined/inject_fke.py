"""Rule injectors for the financial-domain-knowledge errors (FKE): terminology misuse,
incorrect legal reference, ambiguous expression, numerical unit error, omitted
financial element.

Review rule 3 (the error must be inferable from the context) shapes every table here:
a term or citation is only swapped when the sentence itself carries a cue that the
replacement contradicts, and a unit only becomes one that cannot fit what is measured.
"""

from __future__ import annotations

import random
import re

from finprobe.benchmarks.fined.edits import Change, cap, splice

# term -> (cue that shows the term is the right one, wrong replacements). The cue is
# what makes a swap checkable: with it in the sentence, the replacement contradicts it.
TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "equity financing": (
        r"issu\w*[^.;]{0,30}?(?:stock|shares)|sale of (?:common )?(?:stock|shares)|public offering|at-the-market",
        ("debt financing",),
    ),
    "debt financing": (
        r"\b(?:loan|notes? payable|credit facility|borrow\w*|bonds?|lender)",
        ("equity financing",),
    ),
    "accounts receivable": (
        r"customers?|collect\w*|billing",
        ("accounts payable", "accrued liabilities"),
    ),
    "accounts payable": (r"suppliers?|vendors?", ("accounts receivable", "deferred revenue")),
    "amortization": (r"intangible", ("depreciation",)),
    "depreciation": (
        r"property(?:,)? (?:plant )?and equipment|fixed assets",
        ("amortization", "accretion"),
    ),
    "gross margin": (r"cost of (?:sales|revenues?|goods sold)", ("net margin", "operating margin")),
    "gross profit": (r"cost of (?:sales|revenues?|goods sold)", ("net income", "operating income")),
    "operating activities": (
        r"collections|customers|working capital|net (?:loss|income)",
        ("financing activities", "investing activities"),
    ),
    "investing activities": (
        r"capital expenditures|purchases? of (?:property|equipment|investments|marketable)|acquisitions?",
        ("financing activities", "operating activities"),
    ),
    "financing activities": (
        r"repurchases?|dividends|borrowings|repayments?|proceeds from (?:the )?(?:issuance|offering)",
        ("investing activities", "operating activities"),
    ),
    "diluted": (r"dilutive", ("basic",)),
    "unrealized": (r"available-for-sale|other comprehensive", ("realized",)),
    "interest expense": (
        r"borrowings|credit facility|term loan|notes|debt|loan",
        ("interest income",),
    ),
    "interest income": (
        r"cash equivalents|marketable securities|money market|short-term investments",
        ("interest expense",),
    ),
    "goodwill impairment": (r"reporting units?|fair value", ("goodwill amortization",)),
    "contract liabilities": (
        r"in advance|advance payments|prior to (?:the )?(?:transfer|delivery|satisfaction|performance)",
        ("contract assets",),
    ),
    "deferred revenue": (
        r"in advance|advance payments|billed|prior to (?:the )?(?:delivery|performance|satisfaction)",
        ("accrued revenue", "unbilled receivables"),
    ),
    "effective tax rate": (
        r"income tax|tax (?:expense|benefit|provision)|statutory",
        ("effective interest rate",),
    ),
    "valuation allowance": (r"deferred tax assets?", ("allowance for doubtful accounts",)),
    "allowance for doubtful accounts": (
        r"receivables?|customers?|uncollectible",
        ("valuation allowance",),
    ),
    "working capital": (r"current assets|current liabilities", ("free cash flow",)),
    "net operating loss carryforwards": (
        r"taxable income|Section 382|income tax",
        ("net operating loss carrybacks of equity",),
    ),
    "股权融资": (r"发行股票|增发|配股", ("债权融资",)),
    "债权融资": (r"借款|贷款|债券", ("股权融资",)),
    "应收账款": (r"客户", ("应付账款",)),
    "毛利率": (r"营业成本|成本", ("净利率",)),
}


def inject_terminology_misuse(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    options = []
    for term, (cue, wrong) in TERMS.items():
        m = re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", s, re.I)
        if not m or not re.search(cue, s, re.I):
            continue
        for new in wrong:
            # the wrong term must not already stand in the sentence ("debt or equity financing")
            head = new.split()[0]
            if re.search(rf"\b{re.escape(head)}\b", s, re.I):
                continue
            options.append((m, new, cue))
    if not options:
        return None
    m, new, cue = rng.choice(options)
    cue_text = re.search(cue, s, re.I).group(0)
    start = m.start()
    # the article before the term follows the new term ("an allowance" -> "a valuation allowance")
    art = re.search(r"\b([Aa]n?) $", s[: m.start()])
    if art:
        article = "an" if new[:1].lower() in "aeio" else "a"
        start = art.start()
        new_text = cap(article, art.group(1)) + " " + cap(new, m.group(0))
    else:
        new_text = cap(new, m.group(0))
    return Change(
        splice(s, start, m.end(), new_text),
        {"old": m.group(0), "new": new, "cue": cue_text},
    )


# citation -> (its subject, which the sentence must mention, wrong citations)
CITATIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ASC 842": (r"leas", ("ASC 606", "ASC 350", "ASC 718")),
    "ASC 606": (r"revenue|contracts? with customers", ("ASC 842", "ASC 740", "ASC 815")),
    "ASC 740": (r"income tax", ("ASC 718", "ASC 842", "ASC 606")),
    "ASC 718": (
        r"stock-based|share-based|equity awards|stock options|compensation",
        ("ASC 740", "ASC 842", "ASC 805"),
    ),
    "ASC 805": (r"business combination|acquisition|acquired", ("ASC 842", "ASC 718", "ASC 330")),
    "ASC 350": (r"goodwill|intangible", ("ASC 330", "ASC 842", "ASC 606")),
    "ASC 815": (r"derivative|hedg|warrant", ("ASC 842", "ASC 330", "ASC 350")),
    "ASC 820": (r"fair value", ("ASC 842", "ASC 718", "ASC 330")),
    "ASC 326": (r"credit loss", ("ASC 718", "ASC 805", "ASC 842")),
    "ASC 480": (r"liabilit|redeemable|warrant", ("ASC 842", "ASC 606", "ASC 330")),
    "ASC 330": (r"inventor", ("ASC 842", "ASC 718", "ASC 606")),
    "ASC 450": (r"contingenc|litigation|legal proceedings", ("ASC 842", "ASC 606", "ASC 330")),
    "ASC 260": (r"per share", ("ASC 842", "ASC 330", "ASC 740")),
    "Section 404 of the Sarbanes-Oxley Act": (
        r"internal control",
        ("Section 404 of the Internal Revenue Code", "Section 16 of the Securities Exchange Act"),
    ),
    "Section 382 of the Internal Revenue Code": (
        r"net operating loss|ownership change|NOL",
        ("Section 404 of the Internal Revenue Code", "Section 401(k) of the Internal Revenue Code"),
    ),
    "Section 382": (r"net operating loss|ownership change|NOL", ("Section 401(k)", "Section 1031")),
    "Annual Report on Form 10-K": (
        r"annual|fiscal year|year ended",
        (
            "Quarterly Report on Form 10-Q",
            "Annual Report on Form 8-K",
            # not Form 20-F: a foreign issuer's annual report, so "annual" does not refute it
            "Annual Report on Form S-1",
        ),
    ),
    "Quarterly Report on Form 10-Q": (
        r"quarter|three months|six months|nine months",
        (
            "Annual Report on Form 10-K",
            "Quarterly Report on Form 8-K",
            "Quarterly Report on Form 20-F",
        ),
    ),
    "Securities Exchange Act of 1934": (
        r"Section 1[35]|Rule 1[03]|reporting",
        ("Investment Company Act of 1940", "Trust Indenture Act of 1939", "Securities Act of 1933"),
    ),
    "Securities Act of 1933": (
        r"registration|Rule 144|Regulation D|registered",
        ("Trust Indenture Act of 1939", "Investment Advisers Act of 1940"),
    ),
    "Tax Cuts and Jobs Act": (r"2017", ("Inflation Reduction Act", "CARES Act")),
    "Inflation Reduction Act": (r"2022", ("Tax Cuts and Jobs Act",)),
    "《中华人民共和国社会保险法》": (r"保险", ("《政府投资条例》",)),
    "《中华人民共和国招标投标法》": (r"招标|投标", ("《中华人民共和国商业银行法》",)),
    "《中华人民共和国政府采购法》": (r"采购", ("《中华人民共和国保险法》",)),
    "《中华人民共和国公司法》": (r"公司", ("《中华人民共和国物权法》",)),
    "《中华人民共和国证券法》": (r"证券|股票", ("《中华人民共和国合同法》",)),
}


def inject_incorrect_legal_reference(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    options = []
    taken: list[tuple[int, int]] = []
    for ref, (subject, wrong) in sorted(CITATIONS.items(), key=lambda kv: -len(kv[0])):
        m = re.search(rf"(?<![\w-]){re.escape(ref)}(?![\w-]|\(|\.\d)", s, re.I)
        if not m or any(m.start() < b and a < m.end() for a, b in taken):
            continue
        taken.append((m.start(), m.end()))
        # the sentence names the subject the citation governs, so a wrong one shows
        if not re.search(subject, s, re.I):
            continue
        for new in wrong:
            if new.lower() not in s.lower():
                options.append((m, new, re.search(subject, s, re.I).group(0)))
    if not options:
        return None
    m, new, cue = rng.choice(options)
    return Change(splice(s, m.start(), m.end(), new), {"old": m.group(0), "new": new, "cue": cue})


_OBLIGATION_EN = re.compile(
    r"\b(?:shall|must|(?:is|are|was|were) required to|(?:is|are) obligated to|agreed to|requires? (?:us|the Company|[A-Z]\w+) to)\b"
)
_STIPULATED = re.compile(
    r"\b(?:agreements?|covenants?|indentures?|credit|loans?|notes?|leases?|contracts?|laws?"
    r"|regulations?|rules?|SEC|PCAOB|pay|repay|maintain|comply|compliance|file|deliver|redeem"
    r"|fund|obligations?|terms?|condition|lenders?|holders?|trust)\b",
    re.I,
)
_OBLIGATION_ZH = re.compile(r"应当|必须|不得|须|应于")
_ACTOR = re.compile(
    r"\b(the (?:Company|Board|lenders?|Agent|administrative agent|purchaser|Trustee|holders?|parties|Sponsor|landlord|tenant|counterparty|Compensation Committee|Audit Committee)|we)\b"
)
# open-ended exceptions; {actor} is the sentence's own actor ("the Company", "the lenders", "we")
_EXCEPTIONS = (
    "except in special circumstances",
    "except in certain circumstances",
    "except as otherwise agreed",
    "except where {actor} {consider} it appropriate",
    "except to the extent {actor} {determine} otherwise",
    "unless otherwise agreed",
    "unless {actor} {decide} otherwise",
    "save in such other cases as {actor} may decide",
)
_VAGUE_DEADLINE = re.compile(
    r"\b(?:within (?:\d+|[a-z]+) (?:business |calendar )?days|no later than (?:[A-Z][a-z]+ \d{1,2}, \d{4}|\d+ days)|by [A-Z][a-z]+ \d{1,2}, \d{4})"
)
_VAGUE_AMOUNT = re.compile(
    r"\b(?:up to|of up to|not to exceed|a maximum of|at least|a minimum of) (?P<amount>\$\d[\d,.]*(?: (?:million|billion|thousand))?)"
)
_SOFTEN = (
    ("must", ("should generally", "may, where practicable,", "should")),
    ("shall", ("should, as far as possible,", "may, where appropriate,", "should")),
    ("is required to", ("is generally expected to", "may be asked to", "is expected to")),
    ("are required to", ("are generally expected to", "may be asked to", "are expected to")),
)
# a firm deadline or amount made vague: fixed phrases, or (below) the sentence's own figure
# turned into an indefinite quantity of the same unit ("within 30 days" -> "within several
# days", "up to $50 million" -> "up to tens of millions of dollars")
VAGUE_DEADLINES = (
    "within a reasonable period",
    "in due course",
    "at a later date",
    "as soon as practicable",
)
VAGUE_AMOUNTS = (
    "an appropriate amount",
    "an amount to be determined",
    "a substantial amount",
    "a reasonable amount",
)
_FEW = ("several", "a few", "a number of")
_DAY_COUNT = re.compile(
    r"\b(?P<lead>within|after|at least|no later than|no more than) (?P<n>\d+|[a-z]+) (?P<unit>(?:business |calendar )?days|months)\b"
)


def _indefinite_amount(amount: str) -> str | None:
    """'$50.0 million' -> 'tens of millions of dollars': the scale kept, the figure gone."""
    m = re.fullmatch(r"\$\s?(\d[\d,]*(?:\.\d+)?)(?: (million|billion))?", amount.strip())
    if not m or not m.group(2):
        return None
    v = float(m.group(1).replace(",", ""))
    scale = m.group(2)
    if v < 10:
        return f"several {scale} dollars"
    if v < 100:
        return f"tens of {scale}s of dollars"
    return f"hundreds of {scale}s of dollars"


def _actor(s: str) -> str:
    m = _ACTOR.search(s)
    if not m:
        return "management"
    return "we" if m.group(1) == "we" else m.group(1)


def inject_ambiguous_expression(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Make a definite stipulation indefinite: an open-ended exception that names the
    sentence's own actor, a firm deadline or amount made vague, or an obligation softened."""
    body = s.rstrip()
    end = len(body)
    while end and body[end - 1] in ".。;；":
        end -= 1
    if lang == "zh":
        if not _OBLIGATION_ZH.search(s):
            return None
        hedge = rng.choice(("，特殊情况除外", "，原则上如此", "，视情况而定", "，除非另有约定"))
        return Change(
            body[:end] + hedge + body[end:] + s[len(body) :], {"new": hedge, "family": "exception"}
        )
    if re.search(r"\b(?:except|unless|where appropriate|generally)\b", s):
        return None
    # a conditional or possible requirement ("if we are required to") is not a stipulation
    if re.match(r"(?:If|Although|While|Should)\b", s) or re.search(
        r"\b(?:may|could|might|would) (?:be )?(?:required|obligated)\b|\bif [^,]{0,40}\brequired\b",
        s,
    ):
        return None
    options: list[Change] = []
    obligation = _OBLIGATION_EN.search(s)
    # a stipulation, not a business necessity ("we must develop and retain quality
    # employees", "we must appeal to new fliers"): the sentence speaks of an agreement, a
    # rule or a payment the actor is bound to
    # ("To achieve profitability, we must enter into license agreements": a purpose, so a
    # necessity, whatever it names)
    if obligation and (not _STIPULATED.search(s) or re.match(r"(?:To|In order to) [a-z]", s)):
        obligation = None
    if obligation and end > 0:
        actor = _actor(s)
        plural = actor == "we" or actor.endswith(("s", "parties"))
        hedge = ", " + rng.choice(_EXCEPTIONS).format(
            actor=actor,
            consider="consider" if plural else "considers",
            determine="determine" if plural else "determines",
            decide="decide" if plural else "decides",
        )
        options.append(
            Change(
                body[:end] + hedge + body[end:] + s[len(body) :],
                {"new": hedge.strip(", "), "family": "exception"},
            )
        )
        for strict, softer in _SOFTEN:
            m = re.search(rf"\b{strict}\b", s)
            if m:
                new = rng.choice(softer)
                options.append(
                    Change(
                        splice(s, m.start(), m.end(), new),
                        {"old": strict, "new": new, "family": "softened obligation"},
                    )
                )
                break
    m = _VAGUE_DEADLINE.search(s)
    if m and (obligation or re.search(r"\b(?:pay|repay|deliver|file|due|expire|terminate)", s)):
        new = rng.choice(VAGUE_DEADLINES)
        options.append(
            Change(
                splice(s, m.start(), m.end(), new),
                {"old": m.group(0), "new": new, "family": "vague deadline"},
            )
        )
    m = _DAY_COUNT.search(s)
    if m and (obligation or re.search(r"\b(?:pay|repay|deliver|file|due|notice|expire)", s)):
        # the count goes, the unit stays: "within 30 days" -> "within several days"
        new = rng.choice(_FEW)
        options.append(
            Change(
                splice(s, m.start("n"), m.end("n"), new),
                {"old": m.group("n"), "new": new, "family": "indefinite count"},
            )
        )
    m = _VAGUE_AMOUNT.search(s)
    if (
        m
        and not s[m.end() :].startswith(" worth")
        and re.search(r"\b(?:authoriz|repurchase|borrow|facility|commit|agree|covenant)", s)
    ):
        # the quantifier stays ("up to", "at least"), only the figure goes vague
        figure = m.start("amount")
        new = rng.choice(VAGUE_AMOUNTS)
        indefinite = _indefinite_amount(m.group("amount"))
        if indefinite:
            options.append(
                Change(
                    splice(s, figure, m.end(), indefinite),
                    {"old": m.group("amount"), "new": indefinite, "family": "indefinite amount"},
                )
            )
        options.append(
            Change(
                splice(s, figure, m.end(), new),
                {"old": m.group("amount"), "new": new, "family": "vague amount"},
            )
        )
    return rng.choice(options) if options else None


# unit -> (pattern after a number, wrong units that cannot measure the thing, the check
# that makes it inferable: the wrong unit is off by orders of magnitude for the subject)
UNIT_SWAPS_EN: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (
        "years",
        r"years?(?! ended| old)",
        ("hours", "minutes", "seconds"),
        r"term|life|lives|period|maturit|over|through|next|past|ago|lease|contract|agreement|expire",
    ),
    (
        "months",
        r"months?(?! ended)",
        ("minutes", "seconds", "hours"),
        r"term|life|period|over|next|past|within|lease|contract|agreement|expire|following",
    ),
    # the liquidity and going-concern horizon is twelve months (one year after the statements
    # are issued): "sufficient for at least the next 12 years" is a unit an analyst rejects
    (
        "liquidity horizon",
        r"months(?! ended)",
        ("years",),
        r"sufficient to (?:fund|meet|satisfy|finance|support)|going concern",
    ),
    (
        "days",
        r"days?",
        ("seconds", "minutes", "years"),
        r"within|term|period|payment|due|after|prior|notice",
    ),
    (
        "square feet",
        r"square feet",
        ("square inches", "square millimeters", "acres"),
        r"lease|office|facilit|space|building|warehouse|manufactur|headquarters|plant",
    ),
    (
        "acres",
        r"acres",
        ("square inches", "square centimeters", "square feet"),
        r"land|property|site|farm|acreage|mine|lease|facilit",
    ),
    (
        "per share",
        r"per (?:diluted |basic )?share",
        ("million per share", "billion per share"),
        r"dividend|earnings|loss|price|exercise|offering",
    ),
    ("basis points", r"basis points?", ("percentage points",), r"margin|rate|yield|spread"),
    (
        "employees",
        r"(?:full-time )?employees",
        ("employee-hours",),
        r"employ|workforce|headcount|had|approximately",
    ),
    (
        "megawatts",
        r"megawatts|MW\b",
        ("milliwatts", "watts"),
        r"capacity|plant|project|solar|wind|power",
    ),
    ("barrels", r"barrels|Bbls?\b", ("teaspoons", "milliliters"), r"oil|production|per day|crude"),
)
UNIT_SWAPS_ZH: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("平方米", r"平方米", ("平方分米", "平方毫米"), r"面积|用地|建筑"),
    ("月", r"(?:个)?月", ("分钟", "秒"), r"期|期限|服务"),
    ("天", r"(?:日历)?天", ("小时", "分钟"), r"工期|期限|天内"),
    ("亿元", r"亿元", ("亿分",), r"金额|收入|投资|资金"),
)


def inject_numerical_unit_error(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    swaps = UNIT_SWAPS_ZH if lang == "zh" else UNIT_SWAPS_EN
    # never a hyphenated compound ("364-day term loan"): "364-seconds" is no English
    gap = "" if lang == "zh" else r"\s"
    # and a whole word: "30/360 monthly basis" holds no unit ("secondsly" is no English)
    word_end = "" if lang == "zh" else r"(?!\w)"
    options = []
    for name, pattern, wrong, subject in swaps:
        if not re.search(subject, s, re.I):
            continue
        for m in re.finditer(rf"(?<=\d){gap}({pattern}){word_end}", s):
            # "$2.00 per share" -> "$2.00 million per share": a scale no per-share amount has
            figure = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*$", s[: m.start(1)])
            value = float(figure.group(1).replace(",", "")) if figure else 0.0
            for new in wrong:
                # a unit of everyday size is only wrong when the figure is far off for it:
                # 30+ days as years, 5,000+ square feet as acres, up to 100 acres as square feet
                if (
                    (name == "days" and new == "years" and value < 30)
                    or (name == "liquidity horizon" and value != 12)
                    or (new == "acres" and value < 5000)
                    or (name == "acres" and new == "square feet" and value > 100)
                ):
                    continue
                options.append((m.start(1), m.end(1), new, name))
    if not options:
        return None
    start, end, new, name = rng.choice(options)
    old = s[start:end]
    return Change(splice(s, start, end, new), {"old": old, "new": new, "unit": name})


# clause text that may hold decimals and digit groups ("4.1%", "1,234") but stops at a clause break
_CLAUSE = r"(?:[^,;.]|(?<=\d)[.,](?=\d)|,(?= \d{4}\b))*?"
_COMPARISON_EN = re.compile(
    r"(?:,? (?:an? (?:increase|decrease|decline|improvement|reduction) of|representing an? (?:increase|decrease) of"
    r"|compared (?:to|with)|as compared (?:to|with))|, (?:up|down))\b"
    rf"{_CLAUSE}\d{_CLAUSE}(?=,(?! \d{{4}}\b)|;|\.(?!\d)|$)"
)
_FROM_BASE_EN = re.compile(
    r"(?<=\d)( million| billion| thousand|%)?( from \$?\d[\d,.]*(?: million| billion| thousand|%)?"
    # the baseline's own period goes with it ("from $1,182.0 million at January 28, 2023"):
    # left behind, it would date the current figure wrongly
    r"(?: (?:in|for|during|at|as of) (?:(?:[A-Z][a-z]+ \d{1,2}, )?(?:fiscal )?\d{4}))?)"
)
_COMPARISON_ZH = re.compile(
    r"[，,]?(?:同比|环比|较上年|较去年同期)(?:增长|下降|上升|减少|增加)?[\d.]+%"
)


def inject_omitted_financial_element(
    s: str, lang: str, rng: random.Random, context: str = ""
) -> Change | None:
    """Drop the comparison a reported figure needs (its growth rate, its prior-period value)."""
    rx = _COMPARISON_ZH if lang == "zh" else _COMPARISON_EN
    options = []
    for m in rx.finditer(s):
        if re.match(r",? or\b", s[m.end() :]):  # "an increase of $1.08, or 6.9%": the rate hangs
            continue
        options.append(
            Change(
                s[: m.start()] + s[m.end() :],
                {"removed": m.group(0).strip(", "), "family": "comparison"},
            )
        )
    if lang == "en":
        m = _FROM_BASE_EN.search(s)
        if m and re.search(r"\b(?:increased|decreased|rose|fell|grew|declined)\b", s):
            options.append(
                Change(
                    s[: m.start(2)] + s[m.end(2) :],
                    {"removed": m.group(2).strip(), "family": "prior value"},
                )
            )
    return rng.choice(options) if options else None
