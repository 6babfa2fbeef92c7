"""FinDVer claims and reports, and the evidence a model sees in each setting.

Claims file: a JSON list (or JSONL) of {example_id, subset, statement, report,
and, on labelled splits, entailment_label, explanation, relevant_context}. The
public test split has no labels: those claims load with ``label=None``.
Reports: ``<reports dir>/<report>.gz`` or ``<reports dir>/<report>`` (the
released {url, report_type, context: [{id, context, type}], html_tables}).

Settings (what goes into the prompt):
- ``long-context``: the whole report in order, tables as pipe text; when it is
  longer than ``max_context_tokens`` it is cut by the stated truncation policy and
  the sample records the cut.
- ``rag``: the top-k passages of a retriever, put back in document order.
- ``oracle``: the annotated ``relevant_context`` passages, in document order.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from finprobe.errors import InputError
from finprobe.files import read_bytes
from finprobe.retrieval import Passage, in_document_order, passages_from_parts
from finprobe.retrievers import make_retriever
from finprobe.schemas import FinDVerClaimRecord, validate_records

SETTINGS = ("rag", "long-context", "oracle")
SUBSETS = ("ie", "math", "know")
# released subset names -> the paper's (FDV-IE, FDV-Math, FDV-Know)
_SUBSET_ALIASES = {
    "ie": "ie",
    "information_extraction": "ie",
    "numeric": "math",
    "math": "math",
    "numerical": "math",
    "knowledge": "know",
    "know": "know",
}
TRUNCATION_POLICIES = ("head", "relevance")
# Keys a baseline must not see: the answer and the annotation behind it.
HIDDEN_FROM_BASELINES = ("label", "explanation", "relevant_context")


@dataclass(frozen=True)
class FinDVerClaim:
    example_id: str
    subset: str  # "ie" | "math" | "know"
    statement: str
    report: str  # file name as in the data, e.g. "KAII-2024-04-17_10-K.json"
    label: bool | None = None  # True entailed, False refuted, None unlabelled (test)
    explanation: str = ""
    relevant_context: tuple[str, ...] = ()
    split: str = ""


def normalise_subset(raw: str, path: Path | None = None) -> str:
    key = str(raw).strip().lower().replace("-", "_").removeprefix("fdv_")
    if key not in _SUBSET_ALIASES:
        raise InputError(path, f"unknown FinDVer subset {raw!r}")
    return _SUBSET_ALIASES[key]


def _parse_label(value: Any, path: Path, example_id: str) -> bool | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "entailed", "1", "supported"):
        return True
    if text in ("false", "refuted", "0", "not entailed"):
        return False
    raise InputError(path, f"{example_id}: entailment_label {value!r} is not entailed/refuted")


def _read_rows(path: Path) -> list[Any]:
    text = read_bytes(path).decode("utf-8-sig", errors="replace").strip()
    try:
        data = json.loads(text)
    except RecursionError:
        raise InputError(path, "JSON nested too deeply to be a dataset") from None
    except json.JSONDecodeError:
        try:  # JSON lines
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise InputError(
                path, f"not JSON or JSON lines ({exc.msg} at line {exc.lineno})"
            ) from None
    if isinstance(data, dict):  # {"claims": [...]} or {id: claim}
        data = data.get("claims", data.get("data", list(data.values())))
    if not isinstance(data, list):
        raise InputError(path, "expected a list of claims")
    return data


def load_claims(path: str | Path) -> list[FinDVerClaim]:
    """Claims from a FinDVer JSON/JSONL file; raises InputError on a bad row."""
    path = Path(path)
    claims = []
    for i, row in enumerate(validate_records(path, _read_rows(path), FinDVerClaimRecord, "claim")):
        if not isinstance(row, dict):
            raise InputError(path, f"row {i} is not an object")
        missing = [k for k in ("example_id", "statement", "report") if not row.get(k)]
        if missing:
            raise InputError(path, f"row {i} lacks {', '.join(missing)}")
        example_id = str(row["example_id"])
        subset_raw = row.get("subset") or example_id.split("-")[0]
        claims.append(
            FinDVerClaim(
                example_id=example_id,
                subset=normalise_subset(subset_raw, path),
                statement=str(row["statement"]).strip(),
                report=str(row["report"]),
                label=_parse_label(row.get("entailment_label"), path, example_id),
                explanation=str(row.get("explanation") or ""),
                relevant_context=tuple(str(c) for c in row.get("relevant_context") or ()),
                split=str(row.get("split") or ""),
            )
        )
    if not claims:
        raise InputError(path, "no claims")
    ids = [c.example_id for c in claims]
    if len(set(ids)) != len(ids):
        raise InputError(path, "duplicate example_id")
    return claims


def default_reports_dir(claims_path: str | Path) -> Path:
    """``reports/`` beside the claims file."""
    return Path(claims_path).resolve().parent / "reports"


def report_path(reports_dir: str | Path, report: str) -> Path:
    """The file of a claim's report: ``X.json.gz`` preferred, then ``X.json``."""
    reports_dir = Path(reports_dir)
    name = Path(report).name
    for candidate in (
        reports_dir / f"{name}.gz",
        reports_dir / name,
        reports_dir / f"{name}.json.gz",
    ):
        if candidate.is_file():
            return candidate
    raise InputError(reports_dir / name, "report file not found (looked for .json.gz and .json)")


@lru_cache(maxsize=16)
def _load_document(path: str) -> Any:
    from finprobe.document import load_findver_report

    return load_findver_report(path)


def load_report(path: str | Path) -> Any:
    """The report as a FinancialDocument (cached: many claims share a report)."""
    return _load_document(str(Path(path).resolve()))


@lru_cache(maxsize=16)
def _report_passages(path: str) -> tuple[Passage, ...]:
    # parsing a report costs a quarter second or more: its passages are kept on disk
    # by the file's content hash and the parser's code (finprobe.diskcache)
    from finprobe.diskcache import cached_json, code_version, file_digest
    from finprobe.document import MODULES

    rows = cached_json(
        "findver-passages",
        code_version(*MODULES, "finprobe.retrieval"),
        file_digest(path),
        lambda: [[p.id, p.text, p.kind, p.order] for p in _parse_passages(path)],
    )
    return tuple(Passage(str(i), str(t), str(k), int(o)) for i, t, k, o in rows)


def _parse_passages(path: str) -> list[Passage]:
    # the passages only: not the whole document (header rows, scale, sections, ...)
    from finprobe.document import findver_report_parts

    return passages_from_parts(findver_report_parts(path))


def report_passages(path: str | Path) -> list[Passage]:
    """One passage per FinDVer context id, tables as pipe text, in document order."""
    return list(_report_passages(str(Path(path).resolve())))


# ----------------------------------------------------------------------------- settings


def estimate_tokens(text: str) -> int:
    """Approximate tokens: one per 3.5 characters (numbers and tables tokenize densely)."""
    return math.ceil(len(text) / 3.5)


def passage_block(passage: Passage) -> str:
    """How a passage reads in a prompt: its id (so evidence can be cited), then its text."""
    label = "Table" if passage.kind == "table" else "Paragraph"
    return f"[{label} {passage.id}]\n{passage.text}"


@dataclass
class Truncation:
    truncated: bool
    policy: str
    kept: int
    total: int
    tokens_before: int
    tokens_after: int
    dropped_ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "truncated": self.truncated,
            "policy": self.policy,
            "kept_passages": self.kept,
            "total_passages": self.total,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "dropped_ids": self.dropped_ids,
        }


def fit_to_context(
    passages: Sequence[Passage],
    max_tokens: int | None,
    policy: str = "head",
    query: str | None = None,
) -> tuple[list[Passage], Truncation]:
    """Keep whole passages within ``max_tokens`` (estimated), in document order.

    Policies: ``head`` keeps the report from its start until the budget is spent
    (what a context window cut does); ``relevance`` keeps the passages BM25 ranks
    highest for the claim, then restores document order.
    """
    if policy not in TRUNCATION_POLICIES:
        raise ValueError(
            f"unknown truncation policy {policy!r}: use {' or '.join(TRUNCATION_POLICIES)}"
        )
    costs = [estimate_tokens(passage_block(p)) + 1 for p in passages]
    total = sum(costs)
    if max_tokens is None or total <= max_tokens:
        return list(passages), Truncation(False, policy, len(passages), len(passages), total, total)
    if policy == "head":
        candidates = list(range(len(passages)))
    else:
        retriever = make_retriever("bm25")
        retriever.index(passages)
        position = {p.id: i for i, p in enumerate(passages)}
        candidates = [
            position[h.passage.id] for h in retriever.retrieve(query or "", len(passages))
        ]
    kept: set[int] = set()
    used = 0
    for i in candidates:
        if used + costs[i] > max_tokens:
            if policy == "head":
                break
            continue
        kept.add(i)
        used += costs[i]
    chosen = [p for i, p in enumerate(passages) if i in kept]
    dropped = [p.id for i, p in enumerate(passages) if i not in kept]
    return chosen, Truncation(True, policy, len(chosen), len(passages), total, used, dropped)


@dataclass
class Evidence:
    """What a model sees for one claim, and how it was chosen."""

    passages: list[Passage]
    setting: str
    info: dict[str, Any]


class EvidenceBuilder:
    """Builds the evidence of each setting; indexes each report once for RAG."""

    def __init__(
        self,
        setting: str = "rag",
        retriever: str = "bm25",
        top_k: int = 10,
        max_context_tokens: int | None = 120_000,
        truncation: str = "head",
        embedding_cache: str | Path | None = None,
        fusion: str | Path | None = None,
    ) -> None:
        if setting not in SETTINGS:
            raise InputError(
                None, f"unknown setting {setting!r}: choose one of {', '.join(SETTINGS)}"
            )
        if truncation not in TRUNCATION_POLICIES:
            raise InputError(None, f"unknown truncation policy {truncation!r}")
        self.setting = setting
        self.retriever_name = retriever
        self.top_k = top_k
        self.max_context_tokens = max_context_tokens
        self.truncation = truncation
        self.embedding_cache = embedding_cache
        self.fusion = fusion
        self._indexed: tuple[str, Any] | None = None

    def _retriever(self, key: str, passages: Sequence[Passage]) -> Any:
        if self._indexed is None or self._indexed[0] != key:
            retriever = make_retriever(
                self.retriever_name, cache=self.embedding_cache, fusion=self.fusion
            )
            retriever.index(passages)
            self._indexed = (key, retriever)
        return self._indexed[1]

    def build(self, claim: FinDVerClaim, passages: Sequence[Passage], report_key: str) -> Evidence:
        if self.setting == "oracle":
            if not claim.relevant_context:
                raise InputError(
                    claim.report, f"{claim.example_id}: oracle setting needs relevant_context"
                )
            wanted = set(claim.relevant_context)
            chosen = [p for p in passages if p.id in wanted]
            missing = sorted(wanted - {p.id for p in chosen})
            return Evidence(chosen, self.setting, {"missing_ids": missing})
        if self.setting == "rag":
            retriever = self._retriever(report_key, passages)
            hits = retriever.retrieve(claim.statement, self.top_k)
            info: dict[str, Any] = {
                "retriever": self.retriever_name,
                "top_k": self.top_k,
                "retrieved_ids": [h.passage.id for h in hits],
            }
            return Evidence(in_document_order(hits), self.setting, info)
        chosen, cut = fit_to_context(
            passages, self.max_context_tokens, self.truncation, claim.statement
        )
        info = cut.as_dict()
        if claim.relevant_context:
            dropped = set(cut.dropped_ids)
            info["evidence_dropped"] = sum(1 for c in claim.relevant_context if c in dropped)
        return Evidence(chosen, self.setting, info)


def evidence_text(passages: Iterable[Passage]) -> str:
    return "\n\n".join(passage_block(p) for p in passages)


def claim_metadata(
    claim: FinDVerClaim, evidence: Evidence, report_file: Path, include_passages: bool = True
) -> dict[str, Any]:
    """Sample metadata: the claim, its evidence, and (hidden from baselines) the answer."""
    metadata: dict[str, Any] = {
        "example_id": claim.example_id,
        "subset": claim.subset,
        "statement": claim.statement,
        "report": claim.report,
        # absolute: a log read (or a cached sample served) from another folder still
        # finds the report (os.path.abspath keeps a linked folder's name as given)
        "report_path": os.path.abspath(report_file),
        "split": claim.split,  # testmini / test (released) or built: what a report compares
        "setting": evidence.setting,
        "context_ids": [p.id for p in evidence.passages],
        "evidence_info": evidence.info,
        "label": claim.label,
        "explanation": claim.explanation,
        "relevant_context": list(claim.relevant_context),
    }
    if include_passages:
        metadata["passages"] = [
            {"id": p.id, "kind": p.kind, "text": p.text, "order": p.order}
            for p in evidence.passages
        ]
    return metadata


def passages_from_metadata(metadata: dict[str, Any]) -> list[Passage]:
    """The evidence passages of a sample (long-context: re-read from the report)."""
    if metadata.get("passages") is not None:
        return [
            Passage(str(p["id"]), p["text"], p.get("kind", "paragraph"), int(p.get("order", i)))
            for i, p in enumerate(metadata["passages"])
        ]
    keep = set(metadata.get("context_ids") or [])
    return [p for p in report_passages(metadata["report_path"]) if p.id in keep]
