"""The private inspect_ai pieces the direct runner (finprobe.direct_run) needs, in one place.

Why private: inspect_ai has no public API to run a Task's solvers and scorers outside its
task runner, nor to compute a task's EvalResults or EvalSpec from scores the way its runner
does. Reusing these functions (rather than re-writing them) is what keeps a direct log
identical to an inspect log: the same metric computation and reductions, the same plan and
scorer records, the same log file name, the same model-usage accounting.

Pin tolerance: everything is imported by ``load()``, which also checks that each function
still accepts the arguments the direct runner passes (``CALLS``). If a later inspect_ai
release moves, renames or re-signs any of it, ``load()`` raises ``DirectUnavailable`` and
``finprobe eval`` runs the task on inspect's own runner instead (slower, same results) --
nothing half-works. (A change of meaning under the same signature is caught by the parity
tests in tests/test_direct_run.py, which compare against inspect's own runner.)
Checked against inspect_ai 0.3.285.
"""

from __future__ import annotations

import inspect as pyinspect
from dataclasses import dataclass, fields
from typing import Any


class DirectUnavailable(RuntimeError):
    """This inspect_ai lacks what the direct runner needs (or the task uses a feature
    the direct runner does not implement): run on inspect's runner. ``samples_ran``:
    found while samples ran (their solvers may have changed state: build the task
    again), not before."""

    samples_ran = False


@dataclass(frozen=True)
class Internals:
    eval_results: Any  # (samples, scores, reducers, scorers, metrics, ...) -> (results, reductions)
    plan_to_eval_plan: Any  # (Plan, GenerateConfig) -> EvalPlan
    resolve_plan: Any  # (Task, solver) -> Plan
    as_scorer_spec: Any  # Scorer -> ScorerSpec
    resolve_eval_scorers: Any  # [ScorerSpec] -> [EvalScorer]
    resolve_eval_metrics: Any  # metric specs -> log metric definitions
    to_metric_specs: Any  # task.metrics -> metric specs
    unique_scorer_name: Any
    registry_unqualified_name: Any
    sample_messages: Any  # Sample -> the sample's input messages (source="input")
    eval_error: Any  # (exception, type, value, traceback) -> EvalError
    should_eval_fail: Any  # (errors, total, fail_on_error) -> bool
    eval_config_defaults: Any
    eval_log_name: Any  # (task=, task_id=, created=, model=) -> the log's file name
    init_active_model: Any  # (Model, GenerateConfig): what get_model() returns in a solver
    init_model_usage: Any
    model_usage: Any
    init_sample_model_data: Any
    sample_model_usage: Any
    init_transcript: Any  # a fresh transcript per sample (events are not kept)
    transcript_class: Any
    task_all_params_attr: str  # where @task records a task's arguments with defaults
    task_file: Any  # Task -> its source file (None for a task made in a package)
    cwd_relative_path: Any  # how inspect records a dataset's location
    model_args_for_log: Any  # model_args without keys and generators
    resolve_task_args: Any  # Task -> the arguments it was made with (task_args_passed)
    resolve_revision: Any  # the git revision of the working folder, as inspect logs it
    resolve_task_distribution: Any  # the installed package that provides a task
    resolve_package_revision: Any  # that package's git revision, when installed from git


# How finprobe.direct_run calls each function: (number of positional arguments, keyword
# names). ``load()`` binds these against each signature.
CALLS: dict[str, tuple[int, tuple[str, ...]]] = {
    "eval_results": (0, ("samples", "scores", "reducers", "scorers", "metrics", "scorer_names",
                         "completed_samples", "headline_metric")),
    "plan_to_eval_plan": (2, ()),
    "resolve_plan": (2, ()),
    "as_scorer_spec": (1, ()),
    "resolve_eval_scorers": (1, ()),
    "resolve_eval_metrics": (1, ()),
    "to_metric_specs": (1, ()),
    "unique_scorer_name": (2, ()),
    "registry_unqualified_name": (1, ()),
    "sample_messages": (1, ()),
    "eval_error": (4, ()),
    "should_eval_fail": (3, ()),
    "eval_config_defaults": (0, ()),
    "eval_log_name": (0, ("task", "task_id", "created", "model")),
    "init_active_model": (2, ()),
    "init_model_usage": (1, ()),
    "model_usage": (0, ()),
    "init_sample_model_data": (0, ()),
    "sample_model_usage": (0, ()),
    "init_transcript": (1, ()),
    "transcript_class": (0, ()),
    "task_file": (1, ()),
    "cwd_relative_path": (1, ()),
    "model_args_for_log": (1, ()),
    "resolve_task_args": (1, ()),
    "resolve_revision": (0, ()),
    "resolve_task_distribution": (1, ()),
    "resolve_package_revision": (1, ()),
}  # fmt: skip


def check_signatures(internals: Internals) -> None:
    """``DirectUnavailable`` naming the first function that no longer accepts the
    arguments in ``CALLS``."""
    for field in fields(internals):
        if field.name not in CALLS:
            continue
        function = getattr(internals, field.name)
        positional, keywords = CALLS[field.name]
        try:
            signature = pyinspect.signature(function)
        except (TypeError, ValueError):  # no signature to check (a builtin): trust it
            continue
        try:
            signature.bind(*[None] * positional, **dict.fromkeys(keywords))
        except TypeError as error:
            raise DirectUnavailable(
                f"inspect_ai internals changed ({field.name}{signature}: {error})"
            ) from None


_LOADED: Internals | None = None


def load() -> Internals:
    """The private functions, or ``DirectUnavailable`` naming what is missing."""
    global _LOADED
    if _LOADED is not None:
        return _LOADED
    try:
        from inspect_ai._eval.loader import resolve_task_args
        from inspect_ai._eval.task.constants import TASK_ALL_PARAMS_ATTR
        from inspect_ai._eval.task.error import _should_eval_fail
        from inspect_ai._eval.task.log import (
            plan_to_eval_plan,
            resolve_eval_metrics,
            resolve_eval_scorers,
            resolve_package_revision,
            resolve_revision,
            resolve_task_distribution,
        )
        from inspect_ai._eval.task.results import eval_results
        from inspect_ai._eval.task.run import resolve_plan as run_resolve_plan
        from inspect_ai._eval.task.util import sample_messages, task_file
        from inspect_ai._util.log_layout import eval_log_name
        from inspect_ai._util.path import cwd_relative_path
        from inspect_ai._util.registry import registry_unqualified_name
        from inspect_ai.log._log import eval_config_defaults, eval_error
        from inspect_ai.log._transcript import Transcript, init_transcript
        from inspect_ai.model._model import (
            init_active_model,
            init_model_usage,
            init_sample_model_data,
            model_usage,
            sample_model_usage,
        )
        from inspect_ai.model._model_config import model_args_for_log
        from inspect_ai.scorer._metric import to_metric_specs
        from inspect_ai.scorer._scorer import as_scorer_spec, unique_scorer_name
    except ImportError as error:  # a newer inspect_ai moved something
        raise DirectUnavailable(f"inspect_ai internals changed ({error})") from None
    internals = Internals(
        eval_results=eval_results,
        plan_to_eval_plan=plan_to_eval_plan,
        resolve_plan=run_resolve_plan,
        as_scorer_spec=as_scorer_spec,
        resolve_eval_scorers=resolve_eval_scorers,
        resolve_eval_metrics=resolve_eval_metrics,
        to_metric_specs=to_metric_specs,
        unique_scorer_name=unique_scorer_name,
        registry_unqualified_name=registry_unqualified_name,
        sample_messages=sample_messages,
        eval_error=eval_error,
        should_eval_fail=_should_eval_fail,
        eval_config_defaults=eval_config_defaults,
        eval_log_name=eval_log_name,
        init_active_model=init_active_model,
        init_model_usage=init_model_usage,
        model_usage=model_usage,
        init_sample_model_data=init_sample_model_data,
        sample_model_usage=sample_model_usage,
        init_transcript=init_transcript,
        transcript_class=Transcript,
        task_all_params_attr=TASK_ALL_PARAMS_ATTR,
        task_file=task_file,
        cwd_relative_path=cwd_relative_path,
        model_args_for_log=model_args_for_log,
        resolve_task_args=resolve_task_args,
        resolve_revision=resolve_revision,
        resolve_task_distribution=resolve_task_distribution,
        resolve_package_revision=resolve_package_revision,
    )
    check_signatures(internals)
    _LOADED = internals
    return _LOADED


def preload_model_info() -> bool:
    """Load inspect's model database (prices, context lengths) with libyaml's parser.

    inspect reads its bundled model YAML files on the first model call of a process,
    with PyYAML's pure-Python parser (about a third of a second); libyaml's parser
    reads the same files to the same data in a tenth of that. Here inspect's own
    ``read_model_info`` runs with ``yaml.safe_load`` bound to the C loader, and the
    result fills inspect's cache, so every lookup after it is inspect's own. Best
    effort: without libyaml, or when inspect's layout differs, nothing is done and
    inspect loads the files itself. True when the database was loaded here."""
    try:
        import yaml
        from inspect_ai.model import _model_info
        from inspect_ai.model._model_data import model_data
    except ImportError:
        return False
    loader = getattr(yaml, "CSafeLoader", None)
    if (
        loader is None
        or getattr(_model_info, "_model_info_cache", "missing") is not None
        or getattr(model_data, "yaml", None) is not yaml
        or not callable(getattr(model_data, "read_model_info", None))
    ):
        return False

    class _LibYaml:  # what model_data uses of the yaml module, with the C parser
        YAMLError = yaml.YAMLError

        @staticmethod
        def safe_load(stream: Any) -> Any:
            return yaml.load(stream, Loader=loader)  # noqa: S506 - the safe C loader

    model_data.yaml = _LibYaml  # type: ignore[assignment]
    try:
        database = model_data.read_model_info()
    except Exception:  # noqa: BLE001 - inspect reads the files itself on first use
        return False
    finally:
        model_data.yaml = yaml
    _model_info._model_info_cache = database
    return True
