"""XBRL layer: filing loader, linkbases, segmentation, taxonomy chunks, checks, injection."""

from finprobe.xbrl.checks import (
    RULES,
    Finding,
    SummationResult,
    check_summation,
    findings_to_json,
    run_checks,
)
from finprobe.xbrl.filing import (
    Concept,
    Context,
    Fact,
    Filing,
    FilingFiles,
    RoleType,
    TypedMember,
    Unit,
    find_filing_files,
    load_filing,
)
from finprobe.xbrl.inject import GroundTruth
from finprobe.xbrl.linkbase import Arc, RelationshipSet
from finprobe.xbrl.segment import SubFiling, classify_role, segment_filing
from finprobe.xbrl.taxonomy import TaxonomyIndex, build_taxonomy_chunks

__all__ = [
    "RULES",
    "Arc",
    "Concept",
    "Context",
    "Fact",
    "Filing",
    "FilingFiles",
    "Finding",
    "GroundTruth",
    "RelationshipSet",
    "RoleType",
    "SubFiling",
    "SummationResult",
    "TaxonomyIndex",
    "TypedMember",
    "Unit",
    "build_taxonomy_chunks",
    "check_summation",
    "classify_role",
    "find_filing_files",
    "findings_to_json",
    "load_filing",
    "run_checks",
    "segment_filing",
]
