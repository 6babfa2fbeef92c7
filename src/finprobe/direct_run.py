"""The direct runner: an offline model's run without inspect's task runner.

For models that need no network (``mockllm/*`` and the ``finprobe/<baseline>`` models)
inspect's per-sample pipeline (deep copies of every state, a transcript with its event
subscribers, a control session, sample condensing and summaries) costs 30-40 ms a sample,
far more than the model. Here the same Task -- its dataset after ``--limit``, its solver
chain, its scorers and metrics -- runs in one loop, and the run is written as a genuine
inspect ``.eval`` log with inspect's log API, so everything downstream (results, report,
``inspect view``, resume lookup) reads it as it reads any inspect log.

What is the same as inspect's runner: each sample's TaskState (input messages with
source "input", metadata, target), the solvers and their ``generate`` (the model's own
``generate`` with the task's config merged with the run's), the scorers and the scores
logged under the same names, EvalResults and reductions computed by inspect's own
function, the EvalSpec and EvalPlan records, sample errors under the run's
``fail_on_error`` (an error that crosses it stops the run, whose log then has status
"error"), the log's name and folder.

What differs: samples run one after another in dataset order, and a sample keeps no
transcript events (its messages, output, scores, usage and timing are logged) -- an
offline model's transcript holds nothing its messages do not. The log is written once,
at the end, atomically. Private inspect functions come from finprobe.inspect_internals.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from finprobe.inspect_internals import DirectUnavailable, load, preload_model_info


def unsupported_reason(task: Any) -> str | None:
    """Why this task cannot run directly (None: it can). Each listed feature would
    change what inspect's runner does for a sample; none is used by FinProbe's tasks."""
    checks = {
        "a sandbox": getattr(task, "sandbox", None),
        "setup solvers": getattr(task, "setup", None),
        "a cleanup function": getattr(task, "cleanup", None),
        "several epochs": (getattr(task, "epochs", None) or 1) > 1,
        "a message limit": getattr(task, "message_limit", None),
        "a token limit": getattr(task, "token_limit", None),
        "a time limit": getattr(task, "time_limit", None),
        "a working-time limit": getattr(task, "working_limit", None),
        "a cost limit": getattr(task, "cost_limit", None),
        "a sample source": getattr(task, "sample_source", None),
        "approval policies": getattr(task, "approval", None),
        "scoring of failed samples (score_on_error)": getattr(task, "score_on_error", None),
        "continue_on_fail": getattr(task, "continue_on_fail", None),
    }
    found = [name for name, present in checks.items() if present]
    return f"the task has {', '.join(found)}" if found else None


def _iso_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_direct(
    task: Any,
    model_name: str,
    *,
    model_args: Mapping[str, Any],
    generate_args: Mapping[str, Any],
    eval_config: Mapping[str, Any],
    limit: int | None,
    fail_on_error: float | bool,
    log_dir: Path,
    metadata: Mapping[str, Any] | None = None,
    show_progress: bool = False,
) -> Any:
    """Run ``task`` on an offline model and write its log; returns the EvalLog (with
    ``location`` set to the log's path).

    ``generate_args``: the run's generation settings (what ``eval(**kwargs)`` gets);
    ``eval_config``: the run's EvalConfig settings beyond limit and fail_on_error (logging
    options, as inspect would record them). ``show_progress``: a bar on a terminal, plain
    lines elsewhere (finprobe.progress), on stderr.
    """
    from inspect_ai.log import EvalLog, EvalStats
    from inspect_ai.model import GenerateConfig, get_model

    internals = load()
    reason = unsupported_reason(task)
    if reason:
        raise DirectUnavailable(reason)

    config = GenerateConfig(**generate_args)
    # not memoized: the memo key would read model_args (mockllm's endless reply generator)
    model = get_model(model_name, config=config, memoize=False, **dict(model_args))
    # the generate config every sample's generate uses: the task's, then the run's
    task_config = task.config.merge(config)

    # the samples the run evaluates (inspect's slice for an int --limit)
    dataset = task.dataset
    samples = list(dataset[:limit] if limit is not None else dataset)
    sample_ids = [s.id for s in samples]
    if any(i is None for i in sample_ids):
        raise DirectUnavailable("a sample has no id")

    eval_cfg = _eval_config(internals, task, limit, fail_on_error, eval_config)
    scorers = list(task.scorer or [])
    scorer_names: list[str] = []
    for scorer in scorers:
        scorer_names.append(internals.unique_scorer_name(scorer, scorer_names))
    plan = internals.resolve_plan(task, None)
    spec = _eval_spec(internals, task, model, sample_ids, eval_cfg, scorers, metadata)
    created = spec.created
    stats = EvalStats(started_at=created)

    preload_model_info()  # inspect's model database, parsed with libyaml (a third of a second)
    run = _Run(internals, task, plan, model, task_config, scorers, scorer_names, fail_on_error)
    run.label = f"{task.display_name} on {spec.model}" if show_progress else None
    interrupted: BaseException | None = None
    try:
        asyncio.run(run.all(samples))
    except KeyboardInterrupt as stop:  # log what finished, as a cancelled run
        interrupted = stop
    except DirectUnavailable as why:
        why.samples_ran = True
        raise
    stats.completed_at = _iso_now()
    stats.model_usage = run.model_usage

    results, reductions = run.results(len(samples)) if run.scores else (None, None)
    if interrupted is not None:
        status, error = "cancelled", None
    elif run.stop_error is not None:  # (checked after each error: nothing to check here)
        status, error = "error", run.stop_error
    else:
        status, error = "success", None
    log = EvalLog(
        status=status,
        eval=spec,
        plan=internals.plan_to_eval_plan(plan, task_config),
        results=results,
        stats=stats,
        error=error,
        samples=run.logged,
    )
    log.reductions = reductions  # (as a constructor argument it trips a pydantic validator)
    name = internals.eval_log_name(
        task=spec.task, task_id=spec.task_id, created=spec.created, model=spec.model
    )
    log.location = str(write_log_atomically(log, Path(log_dir) / f"{name}.eval"))
    if interrupted is not None:
        raise interrupted
    return log


def _eval_config(
    internals: Any,
    task: Any,
    limit: int | None,
    fail_on_error: float | bool,
    eval_config: Mapping[str, Any],
) -> Any:
    """The run's EvalConfig as inspect's runner records it (its defaults filled in)."""
    from inspect_ai.log import EvalConfig

    config = EvalConfig(
        limit=limit,
        epochs=1,
        fail_on_error=fail_on_error,
        continue_on_fail=task.continue_on_fail,
        score_on_error=task.score_on_error,
        **dict(eval_config),
    )
    for name, value in internals.eval_config_defaults().items():
        if getattr(config, name, None) is None:
            setattr(config, name, value)
    return config


def _eval_spec(
    internals: Any,
    task: Any,
    model: Any,
    sample_ids: list[Any],
    eval_cfg: Any,
    scorers: list[Any],
    metadata: Mapping[str, Any] | None,
) -> Any:
    """The log's EvalSpec, field by field as inspect's runner makes it."""
    from inspect_ai.log import EvalDataset, EvalSpec
    from inspect_ai.model import ModelName
    from shortuuid import uuid as short_uuid  # inspect's id format (an inspect dependency)

    dataset = task.dataset
    packages = {"inspect_ai": _inspect_version()}
    distribution = internals.resolve_task_distribution(task.registry_name)
    if distribution is not None:
        packages[distribution.name] = distribution.version
    return EvalSpec(
        run_id=short_uuid(),
        created=_iso_now(),
        task=task.name,
        task_id=short_uuid(),
        task_version=task.version,
        task_file=internals.task_file(task),
        task_registry_name=task.registry_name,
        task_display_name=task.display_name,
        task_description=task.description,
        task_attribs=task.attribs,
        task_args=getattr(task, internals.task_all_params_attr, {}),
        task_args_passed=internals.resolve_task_args(task),
        tags=list(task.tags) if task.tags else None,
        model=str(ModelName(model)),
        model_generate_config=model.config,
        model_base_url=model.explicit_base_url,
        model_args=internals.model_args_for_log(model.model_args),
        dataset=EvalDataset(
            name=dataset.name,
            location=internals.cwd_relative_path(dataset.location),
            samples=len(dataset),
            sample_ids=sample_ids,
            shuffled=dataset.shuffled,
        ),
        scorers=internals.resolve_eval_scorers([internals.as_scorer_spec(s) for s in scorers])
        if task.scorer is not None
        else None,
        metrics=internals.resolve_eval_metrics(internals.to_metric_specs(task.metrics))
        if task.metrics is not None
        else None,
        headline_metric=task.headline_metric,
        config=eval_cfg,
        packages=packages,
        revision=internals.resolve_package_revision(distribution) or internals.resolve_revision(),
        metadata=(dict(metadata or {}) | (task.metadata or {})) or None,
        viewer=task.viewer,
    )


def headline_value(results: Any, declared: Any) -> tuple[str, float] | None:
    """The headline metric's name and value in EvalResults, resolved as inspect resolves
    it for its progress display and log listing (None when inspect has no resolver)."""
    try:
        from inspect_ai.log._headline import resolve_headline_metric
    except ImportError:
        return None
    resolved = resolve_headline_metric(results, declared)
    if resolved is None or not isinstance(resolved.metric.value, int | float):
        return None
    score, metric = resolved.score.name, resolved.name
    label = metric if metric == score else f"{score} {metric}"  # 'correct mean'
    return label, float(resolved.metric.value)


def _inspect_version() -> str:
    from importlib.metadata import version

    return version("inspect_ai")


def write_log_atomically(log: Any, path: Path) -> Path:
    """Write the ``.eval`` beside its final name, then rename: a reader (or a resume
    lookup, which lists ``*.eval``) never sees half a log.

    Why not finprobe.files' atomic writers: those take the content (text or bytes),
    while inspect's ``write_eval_log`` writes the zip itself and wants a path, so the
    temporary file has to be named here."""
    from inspect_ai.log import write_eval_log

    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        write_eval_log(log, str(temporary), format="eval")
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()
    return path


class _Run:
    """One run's samples, in dataset order, and what inspect's runner would log of them."""

    def __init__(
        self,
        internals: Any,
        task: Any,
        plan: Any,
        model: Any,
        config: Any,
        scorers: list[Any],
        scorer_names: list[str],
        fail_on_error: float | bool,
    ) -> None:
        self.i, self.task, self.plan, self.model = internals, task, plan, model
        self.config, self.scorers, self.scorer_names = config, scorers, scorer_names
        self.fail_on_error = fail_on_error
        self.scores: list[dict[str, Any]] = []  # per sample that completed: name -> SampleScore
        self.logged: list[Any] = []  # EvalSamples
        self.completed = 0
        self.errors = 0
        self.stop_error: Any = None  # the error that crossed fail_on_error
        self.model_usage: dict[str, Any] = {}
        self.label: str | None = None  # progress shown under this label; None: none

    async def all(self, samples: list[Any]) -> None:
        # what get_model() returns inside a solver, and where usage is counted
        self.i.init_active_model(self.model, self.config)
        self.i.init_model_usage({})
        from finprobe.progress import preparing

        try:
            total = len(samples) if self.label else 0
            with preparing(self.label or "", total, "samples", status=self.headline) as step:
                for sample in samples:
                    # a turn of the event loop per sample: a Ctrl-C (asyncio.run cancels the
                    # run's task) lands here even when no solver awaits (a baseline)
                    await asyncio.sleep(0)
                    if not await self.one(sample, len(samples)):
                        break
                    step(1)
        finally:  # (context variables set in asyncio.run do not outlive it)
            self.model_usage = dict(self.i.model_usage())

    def results(self, samples: int) -> tuple[Any, Any]:
        """EvalResults and reductions of the samples scored so far, by inspect's function."""
        return self.i.eval_results(
            samples=samples,
            scores=self.scores,
            reducers=self.task.epochs_reducer,
            scorers=self.scorers,
            metrics=self.task.metrics,
            scorer_names=self.scorer_names,
            completed_samples=self.completed,
            headline_metric=self.task.headline_metric,
        )

    def headline(self) -> str:
        """The task's headline metric over the samples scored so far (what inspect's
        progress shows), and the failed samples' count: 'correct 0.468, 2 failed'."""
        parts = []
        name = self.task.headline_metric
        if name and self.scores:
            try:
                results, _ = self.results(len(self.scores))
            except Exception:  # noqa: BLE001 - a figure for the eye; the run's own comes later
                results = None
            found = headline_value(results, name) if results is not None else None
            if found is not None:
                parts.append(f"{found[0]} {found[1]:.3f}")
        if self.errors:
            parts.append(f"{self.errors} failed")
        return ", ".join(parts)

    async def generate(self, state: Any, tool_calls: str = "loop", **kwargs: Any) -> Any:
        """inspect's generate for a tool-free task: the model's reply appended."""
        config = self.config.merge(kwargs) if kwargs else self.config
        state.output = await self.model.generate(
            input=state.messages, tools=state.tools, tool_choice=state.tool_choice, config=config
        )
        message = state.output.message
        state.messages.append(message)
        if message.tool_calls and not state.completed:
            raise DirectUnavailable("the model called a tool; run this task with --runner inspect")
        return state

    async def one(self, sample: Any, total: int) -> bool:
        """Run one sample; False when its error stops the run."""
        from inspect_ai.log import EvalSample
        from inspect_ai.model import ModelName
        from inspect_ai.scorer import SampleScore, Target
        from inspect_ai.solver import TaskState

        i = self.i
        i.init_sample_model_data()
        i.init_transcript(i.transcript_class())  # model events go here and are dropped
        started_at = datetime.now(UTC)
        start = time.perf_counter()
        state = TaskState(
            sample_id=sample.id,
            epoch=1,
            model=ModelName(self.model),
            input=sample.input,
            target=Target(sample.target),
            choices=sample.choices,
            messages=i.sample_messages(sample),
            completed=False,
            # a copy, as inspect's runner copies the sample: solver writes reach the log,
            # never the Task's own dataset nor the metrics' sample_metadata
            metadata=dict(sample.metadata or {}),
        )
        results: dict[str, Any] = {}
        error = None
        try:
            for step in self.plan.steps:
                state = await step(state, self.generate)
                if state.completed:
                    break
            if self.plan.finish:
                state = await self.plan.finish(state, self.generate)
            if state.scores is None:
                state.scores = {}
            for scorer, name in zip(self.scorers, self.scorer_names, strict=True):
                score = await scorer(state, Target(sample.target))
                if score is not None:
                    state.scores[name] = score
                    results[name] = SampleScore(
                        score=score,
                        sample_id=sample.id,
                        sample_metadata=sample.metadata,
                        scorer=i.registry_unqualified_name(scorer),
                    )
        except DirectUnavailable:
            raise
        except Exception as ex:  # the sample's error, with its cause, as inspect logs it
            error = i.eval_error(ex, type(ex), ex, ex.__traceback__)
            results = {}
        total_time = round(time.perf_counter() - start, 3)
        self.logged.append(
            EvalSample(
                id=sample.id,
                epoch=1,
                input=sample.input,
                choices=sample.choices,
                target=sample.target,
                description=sample.description,
                metadata=state.metadata or {},
                sandbox=sample.sandbox,
                files=list(sample.files.keys()) if sample.files else None,
                setup=sample.setup,
                messages=state.messages,
                output=state.output,
                scores={k: v.score for k, v in results.items()},
                store=dict(state.store.items()),
                uuid=state.uuid,
                events=[],
                attachments={},
                model_usage=dict(i.sample_model_usage()),
                started_at=started_at.isoformat(),
                completed_at=datetime.now(UTC).isoformat(),
                total_time=total_time,
                working_time=total_time,
                error=error,
                error_retries=[],
            )
        )
        if error is None:
            self.completed += 1
            self.scores.append(results)
            return True
        self.errors += 1
        if i.should_eval_fail(self.errors, total, self.fail_on_error):
            self.stop_error = error
            return False
        return True
