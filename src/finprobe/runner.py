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
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
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

# the benchmark contract lives in finprobe.benchmark; re-exported for the benchmarks
from finprobe.benchmark import (  # noqa: F401
    BENCHMARK_NAMES,
    BenchmarkInfo,
    SampleRecord,
    benchmark_info,
    samples_fingerprint,
)
from finprobe.defaults import DEFAULT_FAIL_ON_ERROR, DEFAULT_RUNS_DIR
from finprobe.model_calls import (
    BREAKER,
    ModelCallError,
    RequestLimits,
    check_output,
    classify_exception,
    known_context_window,
    preflight,
)
from finprobe.model_calls import model_base_url as resolve_model_url  # a parameter shadows the name
from finprobe.prompt_fit import fit_messages, prompt_budget

# room left for a prompt's instructions when a benchmark fits its own evidence
INSTRUCTIONS_TOKENS = 1_500


@dataclass
class RunSettings:
    """Run-wide settings the solvers read (set by ``run_benchmark``; ``inspect eval``
    users set ``FINPROBE_MAX_CONTEXT_TOKENS``)."""

    max_context_tokens: int | None = None
    # the run's --limit: a benchmark whose samples cost work to prepare (FinDVer's
    # evidence) prepares only the samples the run will evaluate
    sample_limit: int | None = None


RUN_SETTINGS = RunSettings()


def sample_limit() -> int | None:
    """How many samples (the first ones) the current run evaluates; None: all."""
    return RUN_SETTINGS.sample_limit


@contextmanager
def _preparing_only(limit: int | None) -> Iterator[None]:
    """While the task is built and run, it prepares only the run's first ``limit`` samples."""
    RUN_SETTINGS.sample_limit = limit
    try:
        yield
    finally:
        RUN_SETTINGS.sample_limit = None


def _max_context_tokens() -> int | None:
    if RUN_SETTINGS.max_context_tokens:
        return RUN_SETTINGS.max_context_tokens
    value = os.environ.get("FINPROBE_MAX_CONTEXT_TOKENS", "")
    return int(value) if value.isdigit() else None


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


def offline_model(model: str) -> bool:
    """mockllm or a FinProbe baseline: its replies cost nothing to make again."""
    return model.startswith("mockllm/") or baseline_name(model) is not None


def _eval_accepts(name: str) -> bool:
    """Whether this inspect_ai's ``eval()`` has the keyword ``name`` (an unknown one would
    fall into its generate-config ``**kwargs``)."""
    import inspect as pyinspect

    from inspect_ai import eval as inspect_eval

    return name in pyinspect.signature(inspect_eval).parameters


def log_options(model: str, display: str) -> dict[str, Any]:
    """inspect's logging settings for a run of ``model``.

    A real model's reply is worth keeping at once: flush every finished sample, so a
    killed run loses none. An offline model's replies are free to remake, so there a
    flush per sample (each rereads the growing log), the realtime sample buffer (for
    live viewing) and inspect's control-channel server (`inspect ctl`, which watches a
    long run) only cost time. Progress-line metrics are not computed when nothing is
    displayed.
    """
    options: dict[str, Any] = {"log_buffer": 1}
    if offline_model(model):
        options["log_buffer"] = 100
        for name in ("log_realtime", "ctl_server"):  # newer inspect releases only
            if _eval_accepts(name):
                options[name] = False
    if display == "none":
        options["score_display"] = False
    return options


@solver
def answer_or_generate(
    baselines: Mapping[str, Callable[[dict], str]],
    llm: Solver,
    hidden: tuple[str, ...] = (),
    truncation: str = "refuse",
) -> Solver:
    """Answer with a baseline function for ``finprobe/<name>`` models, else run ``llm``.

    ``hidden`` metadata keys (ground truth, labels) are removed before a baseline
    sees the sample: it sees only what a model sees. ``llm`` generates through
    ``guarded_generate``: prompts fitted to the context by ``truncation``
    (finprobe.prompt_fit), failures raised as sample errors with their cause.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        name = baseline_name(state.model)
        if name is None:
            return await llm(state, guarded_generate(generate, truncation))
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


def _active_base_url() -> str | None:
    from inspect_ai.model import get_model

    try:
        return get_model().api.base_url
    except Exception:  # no active model (unit tests of a solver)
        return None


def _fit_prompt(messages: list[Any], metadata: dict, truncation: str) -> list[Any]:
    """Cut or refuse a prompt over the context budget; record what was done in ``metadata``."""
    from inspect_ai.model._generate_config import active_generate_config

    window = _max_context_tokens()
    if not window:
        return messages
    budget = prompt_budget(window, active_generate_config().max_tokens)
    fitted, record = fit_messages(messages, budget, truncation)
    previous = metadata.get("prompt_fit")
    if previous:  # several calls per sample (re-asks, chunks): keep the worst
        record["truncated"] = record["truncated"] or previous["truncated"]
        record["cut_chars"] += previous.get("cut_chars", 0)
        record["estimated_tokens"] = max(record["estimated_tokens"], previous["estimated_tokens"])
        record["fits"] = record["fits"] and previous.get("fits", True)
    metadata["prompt_fit"] = record
    if not record["fits"]:
        raise ModelCallError(
            "context_overflow",
            f"prompt of about {record['estimated_tokens']:,} tokens does not fit the "
            f"{window:,}-token context (policy {truncation}; budget {budget:,} for the prompt)",
        )
    return fitted


async def _checked_call(call: Callable[[], Any], url: str | None) -> Any:
    """Await ``call()``, turning a failure into ``ModelCallError`` with its cause."""
    from inspect_ai.util import LimitExceededError

    from finprobe.inspect_internals import DirectUnavailable

    try:
        result = await call()
    except (LimitExceededError, ModelCallError, DirectUnavailable):
        raise  # (DirectUnavailable: the direct runner hands the task to inspect's)
    except Exception as exc:
        cause, detail = classify_exception(exc)
        error = ModelCallError(cause, detail, url)
        BREAKER.record_failure(error)
        raise error from exc
    output = getattr(result, "output", result)  # a TaskState or a ModelOutput
    try:
        check_output(output)
    except ModelCallError as error:
        raise ModelCallError(error.cause, error.detail, url) from None
    BREAKER.record_success()
    return result


def guarded_generate(generate: Generate, truncation: str = "refuse") -> Generate:
    """``generate`` that fits the prompt first and raises ``ModelCallError`` for a failed
    call or an error dressed as a reply (see finprobe.model_calls)."""

    async def guarded(state: TaskState, *args: Any, **kwargs: Any) -> TaskState:
        BREAKER.check()
        state.messages = _fit_prompt(state.messages, state.metadata, truncation)
        return await _checked_call(lambda: generate(state, *args, **kwargs), _active_base_url())

    return guarded  # type: ignore[return-value]


async def generate_checked(
    model: Any, messages: list[Any], metadata: dict, truncation: str = "refuse"
) -> ModelOutput:
    """``model.generate(messages)`` for solvers that call the model themselves (FinED's
    chunked queries), with the same prompt fitting and error causes as ``guarded_generate``."""
    BREAKER.check()
    fitted = _fit_prompt(messages, metadata, truncation)
    return await _checked_call(lambda: model.generate(fitted), getattr(model.api, "base_url", None))


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
    wanted_args = _comparable_args(_with_defaults(task_fn, task_args))
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
        if _comparable_args(header.eval.task_args) != wanted_args:
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


def run_key(task_name: str, model: str, task_args: Mapping[str, Any], limit: int | None) -> str:
    """One identity for 'the same run': task, model, arguments with defaults, limit."""
    text = json.dumps([task_name, model, _comparable_args(task_args), limit])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class RunLock:
    """One writer per run: an exclusive lock on ``<runs>/.locks/<run key>.lock``.

    A second identical run (same task, model, arguments, limit, runs folder) is
    refused while the first holds the lock; the lock goes with the process, so a
    killed run never leaves a stale one.
    """

    def __init__(self, runs_dir: Path, key: str) -> None:
        self.path = runs_dir / ".locks" / f"{key}.lock"
        self.handle: Any = None

    def __enter__(self) -> RunLock:
        import fcntl
        import time

        from finprobe.errors import InputError

        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(self.path, "a+")  # noqa: SIM115 - held for the run
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.handle.seek(0)
            holder = self.handle.read().strip() or "another process"
            self.handle.close()
            raise InputError(
                self.path.parent.parent,
                f"the same run is already in progress here ({holder}); wait for it to "
                "finish, or use another --runs-dir",
            ) from None
        self.handle.seek(0)
        self.handle.truncate()
        self.handle.write(f"pid {os.getpid()}, since {time.strftime('%H:%M:%S')}")
        self.handle.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()  # closing releases the lock


def run_benchmark(
    benchmark: str,
    model: str,
    *,
    task_args: dict[str, Any] | None = None,
    limit: int | None = None,
    runs_dir: Path = DEFAULT_RUNS_DIR,
    fail_on_error: float | bool = DEFAULT_FAIL_ON_ERROR,
    cache: bool = True,
    resume: bool = True,
    max_connections: int | None = None,
    display: str = "rich",
    task_name: str | None = None,
    model_base_url: str | None = None,
    model_args: dict[str, Any] | None = None,
    limits: RequestLimits = RequestLimits(),
    max_context_tokens: int | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    seed: int | None = None,
    runner: str | None = None,
) -> RunOutcome:
    """Run (or resume) one benchmark task on one model and write its results JSON.

    ``max_context_tokens`` None: the model's window when known (a local server is
    asked; well-known hosted models are looked up), else no limit of ours.
    ``runner``: direct | inspect | None (direct for an offline model, see
    ``choose_runner``).
    """
    from finprobe.results import results_from_log, write_results

    chosen = choose_runner(runner, model, task_args or {})
    info = benchmark_info(benchmark)  # an unknown benchmark leaves no runs folder behind
    runs_dir = Path(runs_dir)
    runs_dir.mkdir(parents=True, exist_ok=True)
    configure_environment(runs_dir)
    name = task_name or info.name
    args = {k: v for k, v in (task_args or {}).items() if v is not None}
    task_fn = info.task if task_name is None else _subtask(benchmark, task_name)
    model_args = dict(model_args or {})
    if model.startswith("mockllm/") and "custom_outputs" not in model_args:
        model_args["custom_outputs"] = offline_mock_outputs(model)
    if model.startswith("openai-api/"):
        # the openai client retries twice by itself under inspect's retries: 3x the
        # requests and the wait; inspect's bounded retries are the only ones
        model_args.setdefault("max_retries", 0)
    url = None
    if baseline_name(model) is None and not model.startswith("mockllm/"):
        url = resolve_model_url(model, model_base_url)
        preflight(url)
        if max_context_tokens is None:
            max_context_tokens = known_context_window(model, url)
    RUN_SETTINGS.max_context_tokens = max_context_tokens
    BREAKER.reset()
    full_args = _with_defaults(task_fn, args)
    if (
        max_context_tokens
        and "max_context_tokens" in full_args
        and "max_context_tokens" not in args
    ):
        # a benchmark that fits its own evidence (FinDVer) is given the prompt's budget,
        # less room for its instructions; the guard in answer_or_generate still checks
        budget = max(1, prompt_budget(max_context_tokens, max_tokens) - INSTRUCTIONS_TOKENS)
        args["max_context_tokens"] = budget
        full_args["max_context_tokens"] = budget
    with RunLock(runs_dir, run_key(name, model, full_args, limit)):
        run_metadata = {"finprobe": {"max_context_tokens": max_context_tokens,
                                     "model_url": url, **limits.generate_config()}}  # fmt: skip
        generation = {
            k: v
            for k, v in dict(max_tokens=max_tokens, temperature=temperature, seed=seed).items()
            if v is not None
        }
        built = None  # a task the direct runner built and never ran: inspect runs it
        if chosen == "direct":
            log, built = _direct_or_none(
                task_fn=task_fn, args=args, model=model, model_args=model_args, limit=limit,
                runs_dir=runs_dir, fail_on_error=fail_on_error, display=display,
                max_connections=max_connections, limits=limits, generation=generation,
                run_metadata=run_metadata, explicit=runner == "direct",
            )  # fmt: skip
            if log is not None:
                log_path = Path(str(log.location))
                results = results_from_log(log_path, info, log=log)
                return RunOutcome(
                    log_path=log_path,
                    results_path=write_results(results, log_path),
                    results=results,
                    resumed=False,
                )
        outcome = _run_on_inspect(
            task_fn=task_fn, args=args, name=name, model=model, model_args=model_args,
            model_base_url=model_base_url, limit=limit, runs_dir=runs_dir,
            fail_on_error=fail_on_error, cache=cache, resume=resume,
            max_connections=max_connections, display=display, limits=limits,
            generation=generation, run_metadata=run_metadata, built=built,
        )  # fmt: skip
        log_path, previous = outcome
        results = results_from_log(log_path, info)
        results_path = write_results(results, log_path)
    return RunOutcome(
        log_path=log_path, results_path=results_path, results=results, resumed=previous is not None
    )


RUNNERS = ("direct", "inspect")


def choose_runner(runner: str | None, model: str, task_args: Mapping[str, Any]) -> str:
    """direct for an offline model with no judge model (nothing to wait for: inspect's
    per-sample pipeline would be most of the run), inspect otherwise; an explicit
    ``direct`` for a model that needs the network is refused."""
    from finprobe.errors import InputError

    if runner is not None and runner not in RUNNERS:
        raise InputError(None, f"--runner {runner!r}: use direct or inspect")
    offline = offline_model(model) and not task_args.get("judge")
    if runner == "direct" and not offline:
        what = "a judge model" if offline_model(model) else f"the model {model}"
        raise InputError(
            None,
            f"--runner direct runs only offline models (mockllm/*, finprobe/<baseline>) "
            f"without a judge; {what} needs inspect's runner (--runner inspect)",
        )
    return runner or ("direct" if offline else "inspect")


def _direct_or_none(
    *,
    task_fn: Callable[..., Task],
    args: dict[str, Any],
    model: str,
    model_args: dict[str, Any],
    limit: int | None,
    runs_dir: Path,
    fail_on_error: float | bool,
    display: str,
    max_connections: int | None,
    limits: RequestLimits,
    generation: dict[str, Any],
    run_metadata: dict[str, Any],
    explicit: bool,
) -> tuple[Any, Task | None]:
    """The direct run's EvalLog, or None when this task (or this inspect_ai) cannot run
    directly: the caller then runs it on inspect, on the task built here when no sample
    ran (its samples are not prepared twice). An offline run never resumes: its
    replies cost nothing to remake, and an earlier unfinished log is left as it was."""
    from inspect_ai.log import EvalConfig

    from finprobe.direct_run import DirectUnavailable, run_direct

    generate_args: dict[str, Any] = {**limits.generate_config(), **generation, "cache": False}
    if max_connections is not None:
        generate_args["max_connections"] = max_connections
    eval_config = {
        k: v for k, v in log_options(model, display).items() if k in EvalConfig.model_fields
    }
    task = None
    try:
        with _preparing_only(limit):
            task = task_fn(**args)
            return run_direct(
                task,
                model,
                model_args=model_args,
                generate_args=generate_args,
                eval_config=eval_config,
                limit=limit,
                fail_on_error=fail_on_error,
                log_dir=runs_dir,
                metadata=run_metadata,
                show_progress=display != "none",
            ), None
    except DirectUnavailable as why:
        if explicit:
            from finprobe.errors import InputError

            raise InputError(None, f"--runner direct: {why}") from None
        return None, (None if why.samples_ran else task)


def _run_on_inspect(
    *,
    task_fn: Callable[..., Task],
    args: dict[str, Any],
    name: str,
    model: str,
    model_args: dict[str, Any],
    model_base_url: str | None,
    limit: int | None,
    runs_dir: Path,
    fail_on_error: float | bool,
    cache: bool,
    resume: bool,
    max_connections: int | None,
    display: str,
    limits: RequestLimits,
    generation: dict[str, Any],
    run_metadata: dict[str, Any],
    built: Task | None = None,
) -> tuple[Path, Path | None]:
    """Run (or resume) on inspect's runner; the log's path and the resumed log's.
    ``built``: the task, already built with these arguments (else built here)."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai import eval_retry

    from finprobe.inspect_internals import preload_model_info

    preload_model_info()  # inspect's model database, parsed with libyaml
    previous = find_resumable_log(runs_dir, name, model, args, limit, task_fn) if resume else None
    common: dict[str, Any] = dict(
        log_dir=str(runs_dir),
        fail_on_error=fail_on_error,
        display=display,
        **log_options(model, display),
        **limits.generate_config(),
    )
    if max_connections is not None:
        common["max_connections"] = max_connections
    with _preparing_only(limit):
        if previous is not None:
            # the response-cache and generation settings travel in the original log
            logs = eval_retry(str(previous), **common)
        else:
            logs = inspect_eval(
                built if built is not None else task_fn(**args),
                model=model,
                model_base_url=model_base_url,
                model_args=model_args,
                cache=cache and not offline_model(model),  # a mock's replies: no cache
                limit=limit,
                metadata=run_metadata,
                **generation,
                **common,
            )
    return Path(str(logs[0].location).removeprefix("file://")), previous


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
