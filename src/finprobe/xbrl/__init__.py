"""XBRL layer: filing loader, linkbases, segmentation, taxonomy chunks, checks, injection.

The names below are loaded on first use (PEP 562), so ``finprobe check`` does not pay for
the injection and taxonomy modules it never calls.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "RULES": "checks",
    "Finding": "checks",
    "SummationResult": "checks",
    "check_summation": "checks",
    "findings_to_json": "checks",
    "run_checks": "checks",
    "Concept": "filing",
    "Context": "filing",
    "Fact": "filing",
    "Filing": "filing",
    "FilingFiles": "filing",
    "RoleType": "filing",
    "TypedMember": "filing",
    "Unit": "filing",
    "find_filing_files": "filing",
    "load_filing": "filing",
    "GroundTruth": "inject",
    "Arc": "linkbase",
    "RelationshipSet": "linkbase",
    "SubFiling": "segment",
    "classify_role": "segment",
    "segment_filing": "segment",
    "TaxonomyIndex": "taxonomy",
    "build_taxonomy_chunks": "taxonomy",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'finprobe.xbrl' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"finprobe.xbrl.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
