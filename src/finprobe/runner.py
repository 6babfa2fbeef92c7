"""inspect_ai glue shared by every benchmark.

- ``finprobe/<baseline>`` models: a registered model API named ``finprobe`` plus the
  ``answer_or_generate`` solver, so a non-LLM baseline answers inside the same task
  and scorer as any LLM (``inspect eval finprobe/faith --model finprobe/faith-solver``).
- ``json_generate``: generate, and re-ask up to three times when the answer has no
  valid JSON (the FAITH protocol).
- ``run_benchmark``: what ``finprobe eval`` does: FinProbe defaults (response cache,
  explicit fail-on-error fraction, logs under ./finprobe-runs, offline hub), resume of
  an interrupted run from its log, and a results JSON beside the log.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

BENCHMARK_NAMES = ("faith", "findver", "finauditing", "fined")
DEFAULT_RUNS_DIR = Path("finprobe-runs")
# A run may lose this fraction of samples to errors (after retries) and still finish.
DEFAULT_FAIL_ON_ERROR = 0.2


@dataclass(frozen=True)
class SampleRecord:
    """One scored sample, as read back from an inspect log."""

    id: str
    metadata: dict
    completion: str
    score: dict
    score_metadata: dict
    error: str | None = None


@dataclass(frozen=True)
class BenchmarkInfo:
    """What the runner, results and report need to know about a benchmark."""

    name: str
    task: Callable[..., Task]
    scorer_version: str
    summarize: Callable[[list[SampleRecord]], dict]
    rescore: Callable[[str, dict], dict] | None = None
    baselines: Mapping[str, Callable[[dict], str]] = field(default_factory=dict)
    default_data: Callable[[], Path] | None = None
    # inspect task names for sub-tasks (finauditing has finsm/finre/finmr)
    subtasks: tuple[str, ...] = ()


def benchmark_info(name: str) -> BenchmarkInfo:
    """Import a benchmark's task module and return its BenchmarkInfo."""
    from finprobe.errors import InputError

    if name not in BENCHMARK_NAMES:
        raise InputError(
            None, f"unknown benchmark {name!r}; choose one of {', '.join(BENCHMARK_NAMES)}"
        )
    module = importlib.import_module(f"finprobe.benchmarks.{name}.task")
    return module.BENCHMARK


def all_baselines() -> dict[str, str]:
    """Baseline name -> benchmark name, over every benchmark that imports."""
    found: dict[str, str] = {}
    for name in BENCHMARK_NAMES:
        try:
            info = benchmark_info(name)
        except ImportError:
            continue
        for baseline in info.baselines:
            found[baseline] = name
    return found


@modelapi(name="finprobe")
class BaselineModelAPI(ModelAPI):
    """Stands for a FinProbe baseline; answers only inside FinProbe tasks.

    The baseline's answer is produced by ``answer_or_generate`` from the sample's
    structured inputs, so this API is never asked to generate in a FinProbe task.
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list,
        tool_choice: Any,
        config: GenerateConfig,
    ) -> ModelOutput:
        raise RuntimeError(
            f"finprobe/{self.model_name} is a non-LLM baseline: it answers only in "
            "FinProbe benchmark tasks that define it"
        )


def baseline_name(model: object) -> str | None:
    """'faith-solver' for the model 'finprobe/faith-solver', else None."""
    text = str(model)
    return text.split("/", 1)[1] if text.startswith("finprobe/") else None


@solver
def answer_or_generate(
    baselines: Mapping[str, Callable[[dict], str]],
    llm: Solver,
    hidden: tuple[str, ...] = (),
) -> Solver:
    """Answer with a baseline function for ``finprobe/<name>`` models, else run ``llm``.

    ``hidden`` metadata keys (ground truth, labels) are removed before a baseline
    sees the sample: it sees only what a model sees.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        name = baseline_name(state.model)
        if name is None:
            return await llm(state, generate)
        function = baselines.get(name)
        if function is None:
            raise ValueError(
                f"finprobe/{name} is not a baseline of this benchmark; "
                f"choose one of: {', '.join('finprobe/' + b for b in baselines) or 'none'}"
            )
        text = function({k: v for k, v in state.metadata.items() if k not in hidden})
        state.output = ModelOutput.from_content(model=str(state.model), content=text)
        state.messages.append(state.output.message)
        return state

    return solve


REASK_JSON = (
    "Your previous reply did not contain a valid JSON block in the required format. "
    "Reply again, ending with the JSON block exactly as specified."
)


@solver
def json_generate(parse: Callable[[str], Any | None], max_attempts: int = 3) -> Solver:
    """Generate; when ``parse(completion)`` is None, re-ask (up to ``max_attempts`` in all)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        attempts = 0
        for attempts in range(1, max_attempts + 1):  # noqa: B007 - attempts is reported
            state = await generate(state)
            if parse(state.output.completion) is not None:
                break
            if attempts < max_attempts:
                state.messages.append(ChatMessageUser(content=REASK_JSON))
        state.metadata["generate_attempts"] = attempts
        return state

    return solve


# ----------------------------------------------------------------------------- running


def configure_environment(runs_dir: Path) -> None:
    """Offline hub and caches inside the runs folder, unless the user chose otherwise."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("INSPECT_CACHE_DIR", str((runs_dir / "cache").resolve()))
    os.environ.setdefault("INSPECT_LOG_DIR", str(runs_dir.resolve()))


def file_fingerprint(path: Path | None) -> str | None:
    """sha256 of a data file (first 16 hex digits), the dataset's identity in results."""
    if path is None or not Path(path).is_file():
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:16]


def samples_fingerprint(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:16]


@dataclass
class RunOutcome:
    log_path: Path
    results_path: Path
    results: dict
    resumed: bool


def find_resumable_log(
    runs_dir: Path,
    task_name: str,
    model: str,
    task_args: dict,
    limit: int | None,
    task_fn: Callable[..., Task] | None = None,
) -> Path | None:
    """The newest unfinished log of the same task, model and arguments, if any."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    if not runs_dir.is_dir():
        return None
    for info in list_eval_logs(str(runs_dir), recursive=False):
        try:
            header = read_eval_log(info.name, header_only=True)
        except Exception:  # a corrupt or foreign file is not ours to resume
            continue
        if header.status == "success":
            continue
        if header.eval.task not in (task_name, f"finprobe/{task_name}"):
            continue
        if header.eval.model != model:
            continue
        if _comparable_args(header.eval.task_args) != _comparable_args(
            _with_defaults(task_fn, task_args)
        ):
            continue
        if header.eval.config.limit != limit:
            continue
        return Path(info.name.removeprefix("file://"))
    return None


def _with_defaults(task_fn: Callable[..., Task] | None, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments inspect records for a task: its defaults, overridden by ``args``."""
    import inspect as pyinspect

    full: dict[str, Any] = {}
    if task_fn is not None:
        for name, parameter in pyinspect.signature(task_fn).parameters.items():
            if parameter.default is not pyinspect.Parameter.empty:
                full[name] = parameter.default
    full.update(args)
    return full


def _comparable_args(args: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in args.items() if v is not None}, sort_keys=True, default=str)


def run_benchmark(
    benchmark: str,
    model: str,
    *,
    task_args: dict[str, Any] | None = None,
    limit: int | None = None,
    runs_dir: Path = DEFAULT_RUNS_DIR,
    fail_on_error: float = DEFAULT_FAIL_ON_ERROR,
    cache: bool = True,
    resume: bool = True,
    max_connections: int | None = None,
    display: str = "rich",
    task_name: str | None = None,
    model_base_url: str | None = None,
    model_args: dict[str, Any] | None = None,
) -> RunOutcome:
    """Run (or resume) one benchmark task on one model and write its results JSON."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai import eval_retry

    from finprobe.results import results_from_log, write_results

    runs_dir = Path(runs_dir)
    runs_dir.mkdir(parents=True, exist_ok=True)
    configure_environment(runs_dir)
    info = benchmark_info(benchmark)
    name = task_name or info.name
    args = {k: v for k, v in (task_args or {}).items() if v is not None}
    task_fn = info.task if task_name is None else _subtask(benchmark, task_name)
    model_args = dict(model_args or {})
    if model.startswith("mockllm/") and "custom_outputs" not in model_args:
        model_args["custom_outputs"] = offline_mock_outputs(model)
    previous = find_resumable_log(runs_dir, name, model, args, limit, task_fn) if resume else None
    common: dict[str, Any] = dict(
        log_dir=str(runs_dir),
        fail_on_error=fail_on_error,
        display=display,
        log_buffer=1,  # flush every finished sample: a killed run loses none of them
    )
    if max_connections is not None:
        common["max_connections"] = max_connections
    if previous is not None:
        # the response-cache setting travels in the original log's config
        logs = eval_retry(str(previous), **common)
    else:
        logs = inspect_eval(
            task_fn(**args),
            model=model,
            model_base_url=model_base_url,
            model_args=model_args,
            cache=cache,
            limit=limit,
            **common,
        )
    log = logs[0]
    log_path = Path(str(log.location).removeprefix("file://"))
    results = results_from_log(log_path, info)
    results_path = write_results(results, log_path)
    return RunOutcome(
        log_path=log_path, results_path=results_path, results=results, resumed=previous is not None
    )


def mock_output(text: str, model: str = "mockllm/model") -> ModelOutput:
    """A mockllm reply with token usage set.

    Without usage, mockllm counts tokens with tiktoken, which downloads its
    vocabulary: set usage and mockllm works offline (tests, ``--model mockllm/model``).
    """
    from inspect_ai.model import ModelUsage

    output = ModelOutput.from_content(model=model, content=text)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def offline_mock_outputs(model: str, text: str = "Default output from mockllm") -> Any:
    """mockllm's default reply, forever, without the tiktoken download."""

    def outputs() -> Any:
        while True:
            yield mock_output(text, model)

    return outputs()


def _subtask(benchmark: str, task_name: str) -> Callable[..., Task]:
    module = importlib.import_module(f"finprobe.benchmarks.{benchmark}.task")
    return getattr(module, task_name)
