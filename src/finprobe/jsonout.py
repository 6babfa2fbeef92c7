"""Robust extraction of a JSON value from a model's free-text reply.

Models wrap JSON in ```json fences, add prose around it, leave trailing commas,
or use single quotes. This module finds the last well-formed JSON object (or
array) in the text without ever evaluating it as code.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_SMART_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def _loads_lenient(candidate: str) -> Any | None:
    candidate = candidate.strip()
    if not candidate:
        return None
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            return json.loads(attempt)
        except json.JSONDecodeError:
            continue
    # last resort: curly quotes and single-quoted keys/strings from some models
    repaired = _TRAILING_COMMA.sub(r"\1", candidate.translate(_SMART_QUOTES))
    if "'" in repaired and '"' not in repaired:
        repaired = repaired.replace("'", '"')
    try:
        return json.loads(repaired)
    except json.JSONDecodeError:
        return None


def _balanced_blocks(text: str, opener: str, closer: str) -> list[str]:
    """Top-level balanced {...} or [...] substrings, string-literal aware."""
    blocks: list[str] = []
    depth = 0
    start = -1
    in_string = False
    escaped = False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"' and depth > 0:
            in_string = True
        elif char == opener:
            if depth == 0:
                start = i
            depth += 1
        elif char == closer and depth > 0:
            depth -= 1
            if depth == 0:
                blocks.append(text[start : i + 1])
    return blocks


def extract_json(text: str, want: type | None = dict) -> Any | None:
    """The last JSON value of type ``want`` (dict, list, or None for either) in ``text``."""
    if not text:
        return None

    def accept(value: Any) -> bool:
        return value is not None and (want is None or isinstance(value, want))

    for fenced in reversed(_FENCE.findall(text)):
        value = _loads_lenient(fenced)
        if accept(value):
            return value
    pairs = [("{", "}"), ("[", "]")] if want in (None, list) else [("{", "}")]
    if want is list:
        pairs = [("[", "]")]
    for opener, closer in pairs:
        for block in reversed(_balanced_blocks(text, opener, closer)):
            value = _loads_lenient(block)
            if accept(value):
                return value
    return None
