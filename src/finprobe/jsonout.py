"""Robust extraction of a JSON value from a model's free-text reply.

Models wrap JSON in ```json fences, add prose around it, leave trailing commas,
or use single quotes. This module finds the last well-formed JSON object (or
array) in the text without ever evaluating it as code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
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


def _outermost_blocks(text: str) -> list[str]:
    """Outermost balanced {...} / [...] substrings, string-literal aware.

    A mismatched closing bracket restarts the scan, so prose like "(see [1])"
    cannot swallow the JSON that follows.
    """
    closing = {"{": "}", "[": "]"}
    blocks: list[str] = []
    stack: list[str] = []
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
        if char == '"' and stack:
            in_string = True
        elif char in closing:
            if not stack:
                start = i
            stack.append(closing[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                blocks.append(text[start : i + 1])
        elif char in "]}" and stack:
            stack.clear()
    return blocks


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def strip_reasoning(text: str) -> str:
    """Drop <think>...</think> reasoning blocks.

    Some chat templates open the block in the prompt, so the reply holds only the
    closing tag: the answer is what follows it. An unterminated block holds no answer.
    """
    text = _THINK.sub("", text or "")
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    if "<think>" in text:
        text = text.split("<think>", 1)[0]
    return text


def iter_json_values(text: str) -> Iterator[Any]:
    """Every JSON value in a reply, most likely answer first.

    Fenced blocks come first (the last one first), then top-level balanced
    {...} and [...] blocks (the last one first).
    """
    text = strip_reasoning(text)
    for fenced in reversed(_FENCE.findall(text)):
        value = _loads_lenient(fenced)
        if value is not None:
            yield value
    for block in reversed(_outermost_blocks(text)):
        value = _loads_lenient(block)
        if value is not None:
            yield value


def extract_json(text: str, want: type | None = dict) -> Any | None:
    """The most likely JSON value of type ``want`` (dict, list, or None for either) in ``text``."""
    for value in iter_json_values(text or ""):
        if want is None or isinstance(value, want):
            return value
    return None
