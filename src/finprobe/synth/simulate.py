"""The accounting simulation: whole numbers in the table unit, facts in XBRL sign convention."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from finprobe.synth.profiles import _Industry


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
