"""When two input files are the same filing.

FinDVer lists some filings under two tickers (Bank of America's Q1 2024 10-Q as BAC-PO
and BML-PG; NLIT and NLITW). A builder that takes both counts one filing's instances
twice and, in folds by report, puts the same text on both sides of a fold.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any


def filing_keys(metadata: Mapping[str, Any], text: str) -> list[str]:
    """What makes two inputs the same document: its URL and (for every input, so plain-text
    copies are caught too) a hash of its text with whitespace runs made one space. Not the
    EDGAR accession number: one accession holds several documents (the 10-K, an EX-13
    annual report, an EX-99.1)."""
    keys = []
    url = str(metadata.get("url") or "").strip().lower()
    if url:
        keys.append("url:" + url.split("#")[0])
    flat = re.sub(r"\s+", " ", text).strip()
    keys.append("sha256:" + hashlib.sha256(flat.encode("utf-8")).hexdigest())
    return keys


class FilingsSeen:
    """The filings a builder has taken so far, by their ``filing_keys``."""

    def __init__(self) -> None:
        self._first: dict[str, str] = {}  # filing key -> the name that took it

    def take(self, name: str, metadata: Mapping[str, Any], text: str) -> str | None:
        """Take ``name``'s filing; if an earlier input was the same filing, take nothing
        and return that input's name."""
        keys = filing_keys(metadata, text)
        same = next((self._first[k] for k in keys if k in self._first), None)
        if same is None:
            self._first.update(dict.fromkeys(keys, name))
        return same
