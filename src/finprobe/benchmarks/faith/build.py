"""Build FAITH instances from a 10-K: masked numeric spans in MD&A sentences.

The pipeline follows the FAITH paper (sections 3-4.1):

1. Locate Item 7 (MD&A) with ``finprobe.document.mdna_blocks``.
2. Take every MD&A table with numbers; the sentence just before it becomes its
   pre-text and leaves the sentence corpus (context and sentences never overlap).
   Tables without numbers (bullet lists converted to grids) are read as prose.
3. Split the remaining prose into sentences (``finprobe.text.split_sentences``
   merges conversion fragments) and find numeric spans that carry a unit or a
   verbal scale (rules by default; spaCy NER when asked and installed).
4. Each span becomes one instance with the neighbouring sentences as context.
5. Answerability: a deterministic derivation finder (lookup, change, percentage
   change, ratio, share, sum, change of a ratio) checked with the
   precision-relaxed rule, and/or a panel of LLMs with the unanimity rule.

The output is the released FAITH JSON format plus ``span_text``,
``derivation`` and ``answerable_by`` per instance.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from finprobe.benchmarks.faith.dataset import RELEASED_LABEL_FIELDS
from finprobe.benchmarks.faith.derivation import SCENARIO_ORDER, Derivation, find_derivation
from finprobe.benchmarks.faith.derivation_index import DerivationIndex, supports
from finprobe.document import (
    FinancialDocument,
    Paragraph,
    Table,
    load_document,
    load_faith_report,
    mdna_blocks,
)
from finprobe.document.identity import FilingsSeen
from finprobe.errors import InputError
from finprobe.files import read_json
from finprobe.inputs import collect_inputs
from finprobe.numbers import (
    NumberSpan,
    find_numbers,
    parse_number,
    released_value_and_resolution,
)
from finprobe.numbers import precision_relaxed_match as _prm
from finprobe.text import split_sentences

__all__ = [
    "Derivation",
    "DerivationIndex",
    "agreement_with_pilot",
    "build_from_paths",
    "build_instances",
    "find_derivation",
    "span_ground_truth",
    "supports",
    "mask_spans",
    "mdna_corpus",
    "panel_answerability",
    "synthetic_dataset",
]

BUILDER_VERSION = "2"  # 2: ground truth is the span; derivations need metric, period, role
_UID_NAMESPACE = uuid.UUID("6f1c1f0e-3d1a-5b7e-9a43-f1a17b0e4d2c")
_PHONE = re.compile(r"\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b")
_TIME_UNITS = frozenset({"years", "months", "days"})


# --------------------------------------------------------------------------
# MD&A corpus: tables with pre-texts, and the remaining sentences


@dataclass
class MdnaCorpus:
    tables: list[Table]  # rebuilt from the MD&A grids with the FAITH pre-text
    sentences: list[str]


_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]+")


def _clean_sentence(text: str) -> str:
    return _strip_heading(" ".join(text.split()))


# a running page header or footer glued to the next page's first sentence:
# "COLUMBIA SPORTSWEAR COMPANY | 2023 FORM 10-K | 26 U.S. operating income ..."
_PAGE_HEADER = re.compile(
    r"^[^|]{0,80}\|[^|]{0,40}\bFORM 10-K\b[^|]{0,20}\|\s*(?:Page\s+)?\d{1,3}\s+", re.I
)
# a heading glued to a sentence that opens with the same words: "Gross Profit Gross
# profit increased ..." (the heading repeats the subject; the sentence keeps it)
_REPEATED_OPENING = re.compile(r"^((?:\S+\s+){0,5}?\S+)\s+(?=\1(?!\w))", re.I)


# a page number glued to the next page's first words: "56 The Specialty ... operations";
# or the "Table of Contents" link a filing repeats at every page's top. A number is cut
# only before a word that opens sentences and never follows a count ("56 The", "12 We"):
# "15 New stores opened", "401 Plan contributions", "3 Months Ended" keep their figure.
_SENTENCE_OPENERS = (
    "The|This|These|That|Those|Our|We|In|As|During|For|On|At|Of|To|With|Under|Due|Since|"
    "Although|While|When|If|It|Its|There|Such|Each|Any|All|Other|Additionally|However|"
    "Also|Accordingly|Consequently|Furthermore|Moreover|Management|See|Refer"
)
_PAGE_NUMBER = re.compile(
    rf"^(?:\d{{1,3}}\s+(?=(?:{_SENTENCE_OPENERS})\b)|Table of Contents\s+(?=[A-Z][a-z]))"
)


def _strip_heading(sentence: str) -> str:
    """The sentence without a page header or a section heading glued to its start."""
    header = _PAGE_HEADER.match(sentence) or _PAGE_NUMBER.match(sentence)
    if header and header.end() < len(sentence):
        sentence = sentence[header.end() :]
    repeated = _REPEATED_OPENING.match(sentence)
    if repeated:
        sentence = sentence[repeated.end() :]
    return sentence


def _numeric_body(table: Table) -> bool:
    return any(
        table.number(r, c) is not None
        for r in range(table.header_rows, table.n_rows)
        for c in range(table.header_cols, table.n_cols)
    )


def _prose_of(table: Table) -> str:
    """A grid with no numbers (a converted bullet list) read as prose, one row a line."""
    lines = [" ".join(dict.fromkeys(c for c in row if c.strip("●•▪◦-– "))) for row in table.cells]
    return "\n\n".join(line for line in lines if line)


def _keep_sentence(text: str) -> bool:
    # page numbers, headings reduced to nothing, or whole pages glued together
    return 15 <= len(text) <= 2000 and sum(ch.islower() for ch in text) >= 8


def mdna_corpus(doc: FinancialDocument) -> MdnaCorpus | None:
    """MD&A tables (with the sentence before each as pre-text) and the other sentences.

    None when the document has no recognisable MD&A.
    """
    blocks = mdna_blocks(doc)
    if not blocks:
        return None
    tables: list[Table] = []
    sentences: list[str] = []
    previous_prose = False
    for block in blocks:
        if isinstance(block, Table) and _numeric_body(block):
            pre = sentences.pop() if previous_prose and sentences else ""
            tables.append(_faith_table(block, pre, len(tables)))
            previous_prose = False
            continue
        text = block.text if isinstance(block, Paragraph) else _prose_of(block)
        found = False
        # a zero-width space in a filing marks a boundary between elements ("partnerships.
        # \u200bDivestitures\u200bOn July 10"): it never sits before a lower-case letter
        for part in _ZERO_WIDTH.split(text):
            for piece in split_sentences(part):
                sentence = _clean_sentence(piece.text)
                if _keep_sentence(sentence):
                    sentences.append(sentence)
                    found = True
        previous_prose = previous_prose or found if isinstance(block, Paragraph) else found
    return MdnaCorpus(tables=tables, sentences=sentences)


def _faith_table(block: Table, pre_text: str, index: int) -> Table:
    """The table as FAITH stores it; keep the scale hint the shorter pre-text may lose."""
    table = Table(id=f"t{index}", cells=block.cells, pre_text=pre_text, normalize=False)
    if table.scale != block.scale and block.scale_hint:
        hint = _clean_sentence(block.scale_hint)
        table = Table(
            id=f"t{index}",
            cells=block.cells,
            pre_text=f"{pre_text} {hint}".strip(),
            normalize=False,
        )
    table.source_id = block.id
    return table


# --------------------------------------------------------------------------
# numeric spans


def _qualifies(span: NumberSpan, sentence: str) -> bool:
    """A span worth masking: an amount with a unit or a verbal scale."""
    if span.kind in ("year", "date", "ordinal", "other"):
        return False
    number = span.number
    if span.kind not in ("money", "percent") and not (number.units or number.scale_word):
        return False  # a bare count ("12") has no unit to make it unique
    if number.units and number.units <= _TIME_UNITS and "." not in span.text:
        return False  # "three years", "12 months": durations, not reported figures
    for m in _PHONE.finditer(sentence):
        if m.start() < span.end and span.start < m.end():
            return False
    return True


def _aside(span: NumberSpan, sentence: str) -> NumberSpan:
    """A figure in parentheses in prose is an aside, not a negative: "an increase of $6
    million (4%)" masks "4%" (a ground truth of 4%, as a span tagger would cut it); the
    parentheses stay in the sentence."""
    if not (span.text.startswith("(") and span.text.endswith(")")):
        return span
    inner = find_numbers(sentence[span.start + 1 : span.end - 1])
    if len(inner) != 1 or inner[0].text != span.text[1:-1]:
        return span
    found = inner[0]
    return NumberSpan(span.start + 1, span.end - 1, found.text, found.number, found.kind)


def mask_spans(sentence: str, method: str = "rules") -> list[NumberSpan]:
    """Numeric spans of a sentence to mask, left to right, non-overlapping."""
    candidates = [_aside(s, sentence) for s in find_numbers(sentence) if _qualifies(s, sentence)]
    if method == "rules":
        return candidates
    if method == "spacy":
        return _spacy_spans(sentence, candidates)
    raise InputError(None, f"unknown span method {method!r} (expected rules or spacy)")


_SPACY_LABELS = frozenset({"MONEY", "PERCENT", "CARDINAL", "QUANTITY"})
_nlp: Any = None


def _spacy_model() -> Any:
    global _nlp
    if _nlp is None:
        try:
            import spacy
        except ImportError:
            raise InputError(
                None, "--spans spacy needs spaCy: pip install 'finprobe[spacy]'"
            ) from None
        models = sorted(spacy.util.get_installed_models())
        if not models:
            raise InputError(
                None,
                "--spans spacy needs a spaCy model, e.g. python -m spacy download en_core_web_sm",
            )
        preferred = [m for m in models if m.startswith("en_core_web")] or models
        _nlp = spacy.load(preferred[0], disable=["parser", "lemmatizer"])
    return _nlp


def _spacy_spans(sentence: str, rule_spans: list[NumberSpan]) -> list[NumberSpan]:
    """NER detection (as the paper), expanded to the rule span that covers its number."""
    doc = _spacy_model()(sentence)
    out: list[NumberSpan] = []
    for ent in doc.ents:
        if ent.label_ not in _SPACY_LABELS:
            continue
        # the rule spans carry the currency sign, scale and unit words NER leaves out
        for span in rule_spans:
            if span.start < ent.end_char and ent.start_char < span.end and span not in out:
                out.append(span)
    return sorted(out, key=lambda s: s.start)


# --------------------------------------------------------------------------
# instances


def _uid(report_id: str, sentence: str, start: int, end: int) -> str:
    return str(uuid.uuid5(_UID_NAMESPACE, f"{report_id}\x1f{sentence}\x1f{start}:{end}"))


def _synthetic_ground_truth(span_text: str, reference: str) -> str:
    """A synthetic sentence's span scaled like a built one; its derivation's value
    only when the span is not a number (it always is in the generated reports)."""
    number = parse_number(span_text)
    if number is None:
        return reference
    return span_ground_truth(NumberSpan(0, len(span_text), span_text, number))


def span_ground_truth(span: NumberSpan) -> str:
    """The sentence's own span as the ground truth, scaled as in the released format.

    "$817.9 million" -> "$817,900,000", "34 percent" -> "34%", "-$(5.2) million" ->
    "-$5,200,000"; other units keep the span as written when the released scorer
    reads it ("55.5 MMBOE"), else the scaled number. Never a table value: the
    sentence is what the model must reproduce, and it may round the table.
    """
    number = span.number
    sign = "-" if number.sign < 0 else ""
    units = number.units
    if "percent" in units:
        return f"{sign}{_plain_digits(abs(number.value))}%"
    if "usd" in units:
        return f"{sign}${_plain_digits(abs(number.value), grouped=True)}"
    if released_value_and_resolution(span.text) is not None:
        return span.text.strip()
    return f"{sign}{_plain_digits(abs(number.value), grouped=True)}"


def _plain_digits(value: Decimal, grouped: bool = False) -> str:
    """A Decimal written out without exponent, keeping its written decimals ("13.0")."""
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))  # "$13.0 million" -> 13000000, as released
    text = f"{value:f}"
    if not grouped:
        return text
    whole, _, frac = text.partition(".")
    return f"{int(whole):,}" + (f".{frac}" if frac else "")


def build_instances(
    doc: FinancialDocument,
    *,
    report_id: str,
    filing_date: str | None = None,
    spans: str = "rules",
    answerability: str = "derivation",
    panel_models: Sequence[Any] = (),
    max_sentences: int | None = None,
    seed: int = 0,
    annual: bool | None = None,
) -> dict[str, Any]:
    """One FAITH report record (metadata, MD&A tables, masked instances).

    ``answerability``: "derivation" (deterministic finder), "panel" (the finder
    plus an LLM panel), or "none". ``max_sentences`` samples that many
    sentences with spans (seeded), as the paper does with ten per report.
    ``annual``: the report is a 10-K (default: unless its report type says 10-Q), so a
    sentence that names no period length speaks of a year.
    """
    if answerability not in ("derivation", "panel", "none"):
        raise InputError(
            None, f"unknown answerability {answerability!r} (derivation, panel or none)"
        )
    if answerability == "panel" and not panel_models:
        raise InputError(None, "answerability 'panel' needs at least one panel model")
    corpus = mdna_corpus(doc)
    if annual is None:
        annual = annual_report(doc.metadata.get("report_type"))
    metadata = {
        "report_id": report_id,
        "cik": doc.metadata.get("cik"),
        "company": doc.metadata.get("company"),
        "filing_date": filing_date or doc.metadata.get("filing_date"),
        "report_type": doc.metadata.get("report_type") or (None if annual else "10-Q"),
        "source": doc.metadata.get("source"),
        "builder": f"finprobe-faith-build/{BUILDER_VERSION}",
        "spans": spans,
        "answerability": answerability,
        "has_mdna": corpus is not None,
    }
    record: dict[str, Any] = {"metadata": metadata, "tables": [], "instances": []}
    if corpus is None:
        return record
    record["tables"] = [
        {
            "table_index": t.id[1:],
            "pre_text": t.pre_text,
            "cells": [list(r) for r in t.cells],
            "source_block": t.source_id,
        }
        for t in corpus.tables
    ]
    found = [(i, mask_spans(s, spans)) for i, s in enumerate(corpus.sentences)]
    found = [(i, f) for i, f in found if f]
    if max_sentences is not None and len(found) > max_sentences:
        rng = random.Random(f"{report_id}:{seed}")
        found = sorted(rng.sample(found, max_sentences))
    index = (
        DerivationIndex(corpus.tables, annual=annual)
        if answerability != "none" and corpus.tables
        else None
    )
    sentences = corpus.sentences
    seen: set[str] = set()
    for i, span_list in found:
        sentence = sentences[i]
        pre = sentences[i - 1] if i > 0 else ""
        post = sentences[i + 1] if i + 1 < len(sentences) else ""
        for span in span_list:
            uid = _uid(report_id, sentence, span.start, span.end)
            if uid in seen:  # a sentence repeated in the report would be the same test item twice
                continue
            seen.add(uid)
            derivation = (
                find_derivation(span, index, sentence, neighbours=f"{pre} {post}")
                if index is not None
                else None
            )
            instance: dict[str, Any] = {
                "uid": uid,
                "sentence": sentence,
                "pre_sentence": pre,
                "post_sentence": post,
                "mask_type": derivation.scenario if derivation else None,
                "mask_span": [span.start, span.end],
                "masked_sentence": sentence[: span.start] + "[MASK]" + sentence[span.end :],
                "span_text": span.text,
                "ground_truth": span_ground_truth(span),
                "span_kind": span.kind,
                "derivation": derivation.to_json() if derivation else None,
                "answerable_by": {},
            }
            if answerability != "none":
                instance["answerable_by"]["derivation"] = derivation is not None
            record["instances"].append(instance)
    if answerability == "panel" and record["instances"]:
        labels = panel_answerability(record, panel_models)
        for instance in record["instances"]:
            instance["answerable_by"]["panel"] = labels.get(instance["uid"], {})
    for instance in record["instances"]:
        # None: nothing judged it (answerability "none"); scored apart as unlabelled
        instance["answerable"] = is_answerable(instance) if answerability != "none" else None
    return record


def is_answerable(instance: dict[str, Any]) -> bool:
    """Derivation found, or (when a panel ran) a unanimous "answerable" panel."""
    by = instance.get("answerable_by") or {}
    panel = by.get("panel")
    if panel is not None:
        return unanimous(panel) == "answerable"
    return bool(by.get("derivation"))


def unanimous(labels: dict[str, str | None]) -> str | None:
    values = list(labels.values())
    if values and all(v == values[0] for v in values) and values[0] is not None:
        return values[0]
    return None


# --------------------------------------------------------------------------
# LLM panel


def _normalise_label(value: Any) -> str | None:
    text = str(value).strip().lower()
    if text.startswith("unanswer") or text in ("no", "false"):
        return "unanswerable"
    if text.startswith("answer") or text in ("yes", "true"):
        return "answerable"
    return None


def _highlight(sentence: str, spans: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in sorted(spans):
        out += [sentence[pos:start], "<SPAN>", sentence[start:end], "</SPAN>"]
        pos = end
    return "".join(out) + sentence[pos:]


def _labels_from_reply(reply: str, span_texts: list[str]) -> dict[str, str | None]:
    from finprobe.jsonout import extract_json

    data = extract_json(reply)
    spans = data.get("spans") if isinstance(data, dict) else None
    if not isinstance(spans, dict):
        return dict.fromkeys(span_texts)
    lookup = {
        str(k).replace("<SPAN>", "").replace("</SPAN>", "").strip(): v for k, v in spans.items()
    }
    out: dict[str, str | None] = {}
    for text in span_texts:
        value = lookup.get(text.strip())
        if value is None and len(lookup) == 1 and len(span_texts) == 1:
            value = next(iter(lookup.values()))  # a single span named a little differently
        out[text] = _normalise_label(value) if value is not None else None
    return out


def panel_answerability(
    record: dict[str, Any],
    models: Sequence[Any],
    *,
    max_connections: int = 8,
) -> dict[str, dict[str, str | None]]:
    """Ask each panel model which spans are answerable: {uid: {model: label}}.

    One prompt per sentence with all its spans highlighted (the paper's A.1
    protocol); ``models`` are inspect model names or ``Model`` objects. A reply
    without a usable label gives None, which breaks unanimity.
    """
    from inspect_ai.model import GenerateConfig, Model, get_model

    from finprobe.benchmarks.faith.prompts import answerability_prompt

    resolved = [m if isinstance(m, Model) else get_model(str(m)) for m in models]
    names = [str(m) if not isinstance(m, Model) else m.name for m in models]
    if len(set(names)) != len(names):
        names = [f"{n}#{i}" for i, n in enumerate(names)]
    tables = [
        {"index": t["table_index"], "pre_text": t["pre_text"], "cells": t["cells"]}
        for t in record["tables"]
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for instance in record["instances"]:
        groups.setdefault(instance["sentence"], []).append(instance)

    async def run() -> dict[str, dict[str, str | None]]:
        limit = asyncio.Semaphore(max_connections)
        result: dict[str, dict[str, str | None]] = {i["uid"]: {} for i in record["instances"]}

        async def ask(model: Any, name: str, members: list[dict[str, Any]]) -> None:
            first = members[0]
            metadata = {
                "tables": tables,
                "filing_date": record["metadata"].get("filing_date") or "",
                "pre_sentence": first["pre_sentence"],
                "post_sentence": first["post_sentence"],
            }
            spans = [tuple(m["mask_span"]) for m in members]
            prompt = answerability_prompt(metadata, _highlight(first["sentence"], spans))
            async with limit:
                output = await model.generate(prompt, config=GenerateConfig(temperature=0.0))
            labels = _labels_from_reply(output.completion, [m["span_text"] for m in members])
            for m in members:
                result[m["uid"]][name] = labels.get(m["span_text"])

        await asyncio.gather(
            *(ask(model, name, members) for model, name in zip(resolved, names, strict=True)
              for members in groups.values())
        )  # fmt: skip
        return result

    return asyncio.run(run())


# --------------------------------------------------------------------------
# files


_SUFFIXES = (".json", ".json.gz", ".htm", ".html", ".txt", ".md")


def annual_report(report_type: str | None) -> bool:
    """A 10-K (the default: FAITH's reports are annual), not a 10-Q."""
    return "10-Q" not in str(report_type or "").upper()


def _is_10q(path: Path, doc: FinancialDocument) -> bool:
    kind = str(doc.metadata.get("report_type") or "")
    if kind:
        return "10-Q" in kind.upper()
    if re.search(r"10-?Q", path.name, re.I):
        return True
    return bool(re.search(r"FORM\s+10-Q", doc.text()[:5000], re.I))


def build_from_paths(
    paths: Iterable[str | Path],
    out: str | Path,
    *,
    spans: str = "rules",
    answerability: str = "derivation",
    panel_models: Sequence[Any] = (),
    keep_unanswerable: bool = False,
    limit: int | None = None,
    max_sentences: int | None = None,
    include_10q: bool = False,
    seed: int = 0,
    progress: bool = True,
) -> dict[str, Any]:
    """Build a FAITH dataset JSON from report files and return a summary."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from finprobe.files import write_json_atomic

    if answerability == "none" and not keep_unanswerable:
        raise InputError(
            None,
            "--answerability none judges no span answerable: add --keep-unanswerable "
            "to write them all, marked unlabelled",
        )
    files = collect_inputs(paths, _SUFFIXES)
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    sources: list[Path] = []
    skipped_10q: list[str] = []
    no_mdna: list[str] = []
    # one filing under two names (FinDVer lists Bank of America's 10-Q as BAC-PO and
    # BML-PG): built twice, its spans would count twice and sit on both sides of a fold
    seen = FilingsSeen()
    duplicates: list[tuple[str, str]] = []
    with Progress(
        TextColumn("[bold]faith build[/]"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("{task.description}"), disable=not progress,
    ) as bar:  # fmt: skip
        task = bar.add_task("", total=len(files))
        for path in files:
            if limit is not None and len(records) >= limit:
                break  # --limit N: N distinct filings built, skipped inputs not counted
            bar.update(task, description=path.name)
            doc = load_document(path)
            if _is_10q(path, doc) and not include_10q:
                skipped_10q.append(path.name)
                bar.advance(task)
                continue
            same = seen.take(path.name, doc.metadata, doc.text())
            if same is not None:
                duplicates.append((path.name, same))
                bar.advance(task)
                continue
            record = build_instances(
                doc,
                report_id=doc.id,
                spans=spans,
                answerability=answerability,
                panel_models=panel_models,
                max_sentences=max_sentences,
                seed=seed,
                annual=not _is_10q(path, doc),
            )
            if not record["metadata"]["has_mdna"]:
                no_mdna.append(path.name)
            record["metadata"]["kept_unanswerable"] = keep_unanswerable
            if not keep_unanswerable:
                record["instances"] = [i for i in record["instances"] if i["answerable"]]
            records.append(record)
            sources.append(path)
            bar.advance(task)
    write_json_atomic(Path(out), records)
    card = build_card(records, sources)
    card_path = Path(f"{out}.card.json")
    write_json_atomic(card_path, card)
    summary = summarize_dataset(records)
    summary["card"] = str(card_path)
    summary["self_check"] = {k: v for k, v in card["self_check"].items() if k != "failed"}
    summary["self_check"]["failed"] = len(card["self_check"]["failed"])
    summary["swapped_tables"] = card.get("swapped_tables")
    summary["sentence_only_probe"] = card["sentence_only_probe"]
    summary.update(
        out=str(out),
        files=len(files),
        skipped_10q=skipped_10q,
        skipped_duplicates=duplicates,
        reports_without_mdna=no_mdna,
        seconds=round(time.perf_counter() - started, 1),
    )
    return summary


def build_card(records: list[dict[str, Any]], sources: list[Path]) -> dict[str, Any]:
    """The data card of a build: self-check against the source files, swapped-tables negative."""
    from finprobe.benchmarks.faith.card import data_card

    readers = [
        _source_cell_reader(path, record) for path, record in zip(sources, records, strict=True)
    ]
    swapped: list[bool] = []
    with_tables = [n for n, r in enumerate(records) if r["tables"]]
    if len(with_tables) > 1:
        indexes = {
            n: DerivationIndex(
                load_faith_report(records[n], f"card-{n}").tables,
                annual=annual_report(records[n]["metadata"].get("report_type")),
            )
            for n in with_tables
        }
        for pos, n in enumerate(with_tables):
            other = indexes[with_tables[(pos + 1) % len(with_tables)]]
            for inst in records[n]["instances"]:
                if not inst.get("answerable"):
                    continue
                start, end = inst["mask_span"]
                found = find_derivation(
                    inst["sentence"][start:end],
                    other,
                    inst["sentence"],
                    neighbours=f"{inst['pre_sentence']} {inst['post_sentence']}",
                    mask=(start, end),
                    annual=indexes[n].annual,  # the sentence's report's form
                )
                swapped.append(found is not None)
    return data_card(records, source_cells=readers, swapped=swapped)


def _source_cell_reader(
    path: Path, record: dict[str, Any]
) -> Callable[[str, int, int], str | None]:
    """Reads a cited cell from the source report, loaded again (not the builder's copy)."""
    doc = load_document(path)
    blocks = {b.id: b for b in doc.blocks if isinstance(b, Table)}
    source = {str(t["table_index"]): t.get("source_block") for t in record["tables"]}

    def read(table_index: str, row: int, col: int) -> str | None:
        block = blocks.get(source.get(table_index) or "")
        if block is None or row >= len(block.cells) or col >= len(block.cells[row]):
            return None
        return block.cells[row][col]

    return read


def summarize_dataset(records: list[dict[str, Any]]) -> dict[str, Any]:
    instances = [i for r in records for i in r["instances"]]
    scenario = Counter(i.get("mask_type") or "none" for i in instances)
    kinds = Counter(i.get("span_kind") or "?" for i in instances)
    panel = [i for i in instances if (i.get("answerable_by") or {}).get("panel") is not None]
    return {
        "reports": len(records),
        "reports_with_mdna": sum(bool(r["metadata"].get("has_mdna", True)) for r in records),
        "tables": sum(len(r["tables"]) for r in records),
        "instances": len(instances),
        "sentences": len(
            {
                (r["metadata"].get("report_id"), i["sentence"])
                for r in records
                for i in r["instances"]
            }
        ),
        "scenario_mix": {k: scenario.get(k, 0) for k in (*SCENARIO_ORDER, "none")},
        "span_kinds": dict(kinds.most_common()),
        "answerable": {
            "derivation": sum(
                bool((i.get("answerable_by") or {}).get("derivation")) for i in instances
            ),
            "panel_unanimous": sum(
                unanimous(i["answerable_by"]["panel"]) == "answerable" for i in panel
            ),
            "panel_labelled": len(panel),
        },
    }


# --------------------------------------------------------------------------
# synthetic default dataset


def _synthetic_records(n_reports: int, seed: int) -> list[dict[str, Any]]:
    from finprobe.synth import make_corpus, to_faith_record

    records = []
    for report in make_corpus(n_reports, seed=seed):
        record = to_faith_record(report)
        record["metadata"].update(
            report_id=f"synthetic-{report.seed}",
            company=report.company,
            builder=f"finprobe-faith-synthetic/{BUILDER_VERSION}",
        )
        report_id = record["metadata"]["report_id"]
        table_index = {t.id: str(i) for i, t in enumerate(report.document.tables)}
        paragraphs = {p.id: p.text for p in report.document.paragraphs}
        for s in report.sentences:
            if not s.answerable or s.derivation is None:
                continue
            pieces = [p for p in split_sentences(paragraphs.get(s.block_id, s.text))]
            at = next((k for k, p in enumerate(pieces) if p.start <= s.offset < p.end), None)
            pre = _clean_sentence(pieces[at - 1].text) if at else ""
            post = (
                _clean_sentence(pieces[at + 1].text)
                if at is not None and at + 1 < len(pieces)
                else ""
            )
            start, end = s.span
            d = s.derivation
            record["instances"].append(
                {
                    "uid": _uid(report_id, s.text, start, end),
                    "sentence": s.text,
                    "pre_sentence": pre,
                    "post_sentence": post,
                    "mask_type": d.scenario,
                    "mask_span": [start, end],
                    "masked_sentence": s.text[:start] + "[MASK]" + s.text[end:],
                    "span_text": s.span_text,
                    # the sentence's own span, as in `build faith`: never the table value
                    "ground_truth": _synthetic_ground_truth(s.span_text, d.reference),
                    "derivation": {
                        "kind": d.kind,
                        "scenario": d.scenario,
                        "formula": d.formula,
                        "value": d.reference,
                        "cells": [
                            {
                                "table_index": table_index.get(c.table_id, c.table_id),
                                "row": c.row,
                                "col": c.col,
                                "row_label": c.metric,
                                "column_label": c.period,
                                "text": str(c.value),
                            }
                            for c in d.inputs
                        ],
                    },
                    "answerable_by": {"synthetic": True},
                }
            )
        records.append(record)
    return records


def synthetic_dataset(path: Path | None = None, n_reports: int = 3, seed: int = 0) -> Path:
    """FAITH instances from synthetic reports (answerable sentences, their own derivations).

    Written to ``path``, else ``$FINPROBE_HOME/faith-synthetic-<seed>.json``, else
    a ``finprobe`` folder in the system temp dir. Rebuilt on every call (it takes
    well under a second), so a cached file never goes stale.
    """
    from finprobe.files import cache_dir, write_json_atomic

    if path is None:
        suffix = "" if n_reports == 3 else f"-n{n_reports}"
        path = cache_dir() / f"faith-synthetic-{seed}{suffix}.json"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, _synthetic_records(n_reports, seed))
    return path


# --------------------------------------------------------------------------
# agreement with the pilot's LLM labels


def agreement_with_pilot(pilot_path: str | Path, *, swapped_tables: bool = True) -> dict[str, Any]:
    """Run the derivation finder on every pilot span and compare with the pilot's labels.

    The LLM label is the unanimous value of the three released ``*_label``
    fields (None when they disagree). Also compares the finder's scenario with
    the annotated ``mask_type``, and its value with the ``ground_truth`` (Algorithm
    1, numeric). With ``swapped_tables`` the finder also runs with each report's
    tables swapped for the next report's (report i gets report i+1's tables): a
    derivation found there is a coincidence, so ``swapped_found_rate`` measures them.
    """
    path = Path(pilot_path)
    data = read_json(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(
        isinstance(r, dict) and "instances" in r for r in data
    ):
        raise InputError(path, "not a FAITH dataset (expected a list of reports with 'instances')")
    started = time.perf_counter()
    indexes = []
    for n, record in enumerate(data):
        doc = load_faith_report(record, f"{path.stem}-{n}")
        metadata = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
        indexes.append(
            DerivationIndex(doc.tables, annual=annual_report(metadata.get("report_type")))
        )
    confusion: Counter[tuple[str, str]] = Counter()
    scenarios: Counter[tuple[str, str]] = Counter()
    value_match = found_total = swapped_found = total = 0
    for n, record in enumerate(data):
        for inst in record["instances"]:
            try:
                start, end = (int(x) for x in inst["mask_span"])
                sentence = inst["sentence"]
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(
                    path, f"report {n}: instance without sentence/mask_span ({exc})"
                ) from None
            span = sentence[start:end]
            neighbours = f"{inst.get('pre_sentence') or ''} {inst.get('post_sentence') or ''}"
            derivation = find_derivation(
                span, indexes[n], sentence, neighbours=neighbours, mask=(start, end)
            )
            labels = {k: inst.get(k) for k in RELEASED_LABEL_FIELDS}
            llm = unanimous(labels) if all(labels.values()) else None
            finder = "answerable" if derivation else "unanswerable"
            confusion[(llm or "split", finder)] += 1
            scenarios[
                (str(inst.get("mask_type")), derivation.scenario if derivation else "none")
            ] += 1
            total += 1
            if derivation:
                found_total += 1
                value_match += _prm(str(inst.get("ground_truth", "")), derivation.text).numeric
            if swapped_tables and len(data) > 1:
                other = indexes[(n + 1) % len(data)]
                swapped_found += (
                    find_derivation(
                        span,
                        other,
                        sentence,
                        neighbours=neighbours,
                        mask=(start, end),
                        annual=indexes[n].annual,  # the sentence's report's form
                    )
                    is not None
                )
    unanimous_rows = [(k, v) for k, v in confusion.items() if k[0] != "split"]
    agree = sum(v for (llm, finder), v in unanimous_rows if llm == finder)
    n_unanimous = sum(v for _, v in unanimous_rows)
    with_type = sum(v for (t, _), v in scenarios.items() if t in SCENARIO_ORDER)
    same_type = sum(v for (t, f), v in scenarios.items() if t == f)
    return {
        "pilot": str(path),
        "instances": total,
        "unanimous": n_unanimous,
        "agreement": agree,
        "agreement_rate": round(agree / n_unanimous, 4) if n_unanimous else None,
        "finder_found": found_total,
        "confusion": {f"{llm}|{finder}": v for (llm, finder), v in sorted(confusion.items())},
        "scenario_confusion": {f"{t}|{f}": v for (t, f), v in sorted(scenarios.items())},
        "scenario_agreement_rate": round(same_type / with_type, 4) if with_type else None,
        "value_match_rate": round(value_match / found_total, 4) if found_total else None,
        "swapped_found_rate": round(swapped_found / total, 4)
        if swapped_tables and total and len(data) > 1
        else None,
        "seconds": round(time.perf_counter() - started, 2),
    }
