"""The ``finprobe`` command line."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from finprobe import __version__

# Only light modules here: `--help`, `list` and `check` must start without inspect_ai
# (2-3 s of imports). The runner, results, report and model calls are imported by the
# commands that use them; tests/test_cli_startup.py guards this.
from finprobe.defaults import (
    CATALOG,
    DEFAULT_FAIL_ON_ERROR,
    DEFAULT_MAX_RETRIES,
    DEFAULT_RUNS_DIR,
    DEFAULT_TIMEOUT,
    task_names,
)
from finprobe.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

BENCHMARK_NAMES = tuple(CATALOG)  # finprobe.benchmark's, without its imports


def _console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr), made where something is printed: `check` and
    `--help` print without rich, whose console and tables (finprobe.terminal) are a third
    of a quick command's imports."""
    from rich.console import Console

    return Console(stderr=stderr)


class _LazyCommandsTyper(typer.Typer):
    """The top-level app. Each benchmark's commands (`build X`, `check`, `taxonomy`, `faith
    ...`) are imported when the command tree is first built; `main` imports only those the
    command line names, so `finprobe list` reads no benchmark module."""

    _pending: tuple[str, ...] = ()  # set once the core commands are defined (module end)
    _only_loaded = False  # while main() runs: build the tree from what it loaded, no more

    def load_commands(self, names: tuple[str, ...] | None = None) -> None:
        """Register the commands of `names` (default: every benchmark not loaded yet)."""
        names = tuple(n for n in (self._pending if names is None else names) if n in self._pending)
        self._pending = tuple(n for n in self._pending if n not in names)
        for name in names:
            try:
                module = importlib.import_module(f"finprobe.benchmarks.{name}.commands")
            except ImportError:  # a benchmark whose optional dependencies are missing
                continue
            module.register(build_app, self)

    @contextlib.contextmanager
    def only(self, names: tuple[str, ...]) -> Iterator[None]:
        """Run with the commands of `names` only (the others stay pending, not loaded)."""
        # set first: registering a command reads `registered_commands`, which would
        # otherwise load every pending benchmark's commands
        self._only_loaded = True
        try:
            self.load_commands(names)
            yield
        finally:
            self._only_loaded = False

    # typer reads these two lists when it builds the command tree: load what is pending first
    @property
    def registered_commands(self) -> list:  # type: ignore[override]
        if self._pending and not self._only_loaded:
            self.load_commands()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list) -> None:
        self._commands = value

    @property
    def registered_groups(self) -> list:  # type: ignore[override]
        if self._pending and not self._only_loaded:
            self.load_commands()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list) -> None:
        self._groups = value


app = _LazyCommandsTyper(
    name="finprobe",
    help="Is an LLM reliable on financial documents? FAITH, FinDVer, FinAuditing and FinED-Bench.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # plain help: reads the same at 80 columns, copies cleanly, and does not import typer's
    # rich help renderer (markdown parser and all), which more than doubled `--help`'s time
    rich_markup_mode=None,
)
build_app = typer.Typer(help="Build a benchmark's dataset from documents.", no_args_is_help=True)
app.add_typer(build_app, name="build")

_state = {"debug": False}


def _print_version(value: bool) -> None:
    if value:
        _console().print(f"finprobe {__version__}", highlight=False)
        raise typer.Exit(0)


@app.callback()
def _main_options(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_print_version,
            is_eager=True,  # before click asks for a command
        ),
    ] = False,
) -> None:
    _state["debug"] = debug


def _parse_task_args(values: list[str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for item in values:
        if "=" not in item:
            raise InputError(None, f"--task-arg expects KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        try:
            args[key] = json.loads(value)
        except json.JSONDecodeError:
            args[key] = value
    return args


@app.command("eval")
def eval_command(
    benchmark: Annotated[str, typer.Argument(help=f"One of: {', '.join(BENCHMARK_NAMES)}.")],
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            help="An inspect model (openai/gpt-4.1-mini, openai-api/<svc>/<name>, hf/<path>, mockllm/model) "
            "or finprobe/<baseline>.",
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            "-d",
            help="The dataset `finprobe build BENCHMARK --out` wrote (a JSON file; finauditing: "
            "its folder); default: the embedded sample.",
        ),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", help="Evaluate the first N samples.")
    ] = None,
    task: Annotated[
        str | None, typer.Option("--task", help="Sub-task (finauditing: finsm, finre, finmr).")
    ] = None,
    task_arg: Annotated[
        list[str] | None, typer.Option("--task-arg", "-T", help="Extra task argument KEY=VALUE.")
    ] = None,
    runs_dir: Annotated[
        Path, typer.Option("--runs-dir", help="Where logs and results go.")
    ] = DEFAULT_RUNS_DIR,
    fail_on_error: Annotated[
        float,
        typer.Option(
            help="Fraction of samples that may fail (after retries) before the run stops."
        ),
    ] = DEFAULT_FAIL_ON_ERROR,
    cache: Annotated[
        bool, typer.Option(help="Cache model responses (re-runs cost nothing).")
    ] = True,
    resume: Annotated[
        bool, typer.Option(help="Resume an interrupted run of the same task, model and data.")
    ] = True,
    max_connections: Annotated[int | None, typer.Option(help="Concurrent model requests.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Model API base URL.")] = None,
    display: Annotated[str, typer.Option(help="inspect display: rich, plain, none.")] = "rich",
    max_retries: Annotated[
        int, typer.Option(help="Retries of a failed model request (with backoff).", min=0)
    ] = DEFAULT_MAX_RETRIES,
    timeout: Annotated[
        int, typer.Option(help="Seconds one model request attempt may take.", min=1)
    ] = DEFAULT_TIMEOUT,
    max_context_tokens: Annotated[
        int | None,
        typer.Option(
            help="The model's context window (tokens); default: asked of a local server or "
            "known for hosted models. Longer prompts are cut or refused by the benchmark's policy.",
            min=1,
        ),
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option(help="Reply length limit; default: the benchmark's.", min=1)
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help="Sampling temperature; default: the benchmark's (0).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Sampling seed, where the model takes one.")
    ] = None,
    runner: Annotated[
        str | None,
        typer.Option(
            help="direct (offline models: mockllm/*, finprobe/<baseline>; the default for "
            "them) or inspect (inspect's own runner; the default otherwise). Same log either way."
        ),
    ] = None,
) -> None:
    """Evaluate a model on a benchmark; print and save the results.

    Exit status: 0 finished (errored samples, if any, are counted beside the
    headline), 1 the run stopped (too many errors, server unreachable), 2 bad input.
    """
    from finprobe.model_calls import RequestLimits
    from finprobe.runner import run_benchmark
    from finprobe.terminal import print_path

    args = _parse_task_args(task_arg or [])
    if data is not None:
        if not data.exists():
            raise InputError(data, "no such file or folder")
        if data.is_dir() and benchmark != "finauditing":
            raise InputError(data, "is a folder; give the dataset file")
        args["data"] = str(data.resolve())
    _check_task_name(benchmark, task)
    outcome = run_benchmark(
        benchmark,
        model,
        task_args=args,
        limit=limit,
        runs_dir=runs_dir,
        fail_on_error=fail_on_error,
        cache=cache,
        resume=resume,
        max_connections=max_connections,
        display=display,
        task_name=task,
        model_base_url=base_url,
        limits=RequestLimits(max_retries=max_retries, timeout=timeout),
        max_context_tokens=max_context_tokens,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
        runner=runner,
    )
    if outcome.resumed:
        _console().print(
            "[dim]resumed an interrupted run: finished samples were not repeated[/dim]"
        )
    results = outcome.results
    if not results.get("finished", True):
        # a stopped run shows no headline: one line with the cause, and where the log is
        _console(stderr=True).print(
            f"[red]error:[/red] {run_failure_line(results)}", highlight=False, soft_wrap=True
        )
        print_path(_console(stderr=True), "log", outcome.log_path)
        print_path(_console(stderr=True), "results (incomplete)", outcome.results_path)
        raise typer.Exit(1)
    print_results(results)
    print_path(_console(), "log", outcome.log_path)
    print_path(_console(), "results", outcome.results_path)


def run_failure_line(results: dict) -> str:
    """One line: what stopped the run, how many samples failed and why, and where."""
    causes = results.get("error_causes") or {}
    examples = results.get("error_examples") or {}
    n, errors = results.get("samples", 0), results.get("errors", 0)
    if causes:
        # the cause that stopped the run, not the samples it left unsent or cut short
        main = max(causes, key=lambda c: causes[c] if c not in ("stopped", "cancelled") else -1)
        detail = examples.get(main, "")
        counted = ", ".join(f"{c} {k}" for c, k in causes.items())
        line = f"run stopped: {errors} of {n} samples failed ({counted}); {detail}"
    else:
        line = f"run stopped ({results.get('inspect_status')}): {results.get('stopped_by') or 'no sample finished'}"
    url = results.get("model_url")
    if url and url not in line:
        line += f" [{url}]"
    return line


def _check_task_name(benchmark: str, task: str | None) -> None:
    """--task must name one of the benchmark's inspect tasks (not any module attribute)."""
    if task is None:
        return

    allowed = task_names(benchmark) or (benchmark,)
    if task not in allowed:
        raise InputError(None, f"--task {task!r}: {benchmark} has the tasks {', '.join(allowed)}")


def print_results(results: dict) -> None:
    from finprobe.report import results_tables
    from finprobe.terminal import print_tables

    print_tables(_console(), results_tables(results))


@app.command("score")
def score_command(
    benchmark: Annotated[str, typer.Argument(help=f"One of: {', '.join(BENCHMARK_NAMES)}.")],
    predictions: Annotated[
        Path,
        typer.Option(
            "--predictions",
            "-p",
            help="Replies: JSON lines or a JSON list of {example_id|uid|id, output}; "
            "also the FinDVer authors' processed output files as they are.",
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", "-d", help="Labelled data (FinDVer: optional with a processed output file)."
        ),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the results JSON here.")
    ] = None,
    protocol: Annotated[
        str | None,
        typer.Option(
            help="Figures for the headline: reference (default), strict (FinDVer), "
            "lenient (FinSM). The others stay in metrics.protocols."
        ),
    ] = None,
    task: Annotated[
        str | None, typer.Option("--task", help="Sub-task (finauditing: finsm, finre, finmr).")
    ] = None,
    prompt: Annotated[
        str | None,
        typer.Option(
            help="FinDVer: the replies' prompt type, cot or direct; default: read from the "
            "path (processed_do_outputs, processed_cot_outputs) or the replies, and said."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="FinDVer: seed of the random label for unparseable replies.")
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Model name for the results (default: the file's name).")
    ] = None,
) -> None:
    """Score replies produced anywhere with the scorer of `finprobe eval` (no model calls).

    Ids of the data with no reply are counted as missing, beside the headline.
    """
    from finprobe.files import write_json_atomic
    from finprobe.score import score_predictions

    _check_task_name(benchmark, task)
    results = score_predictions(benchmark, predictions, data, task, prompt, protocol, seed, model)
    print_results(results)
    if json_out is not None:
        _console().print(f"results: {write_json_atomic(json_out, results)}", highlight=False)


@app.command("results")
def results_command(
    runs: Annotated[list[Path], typer.Argument(help="Results JSON files or inspect logs.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    rescore: Annotated[
        bool, typer.Option(help="Re-score the saved answers with the current scorer.")
    ] = False,
) -> None:
    """Print the results of one or more runs."""
    from finprobe.results import load_results, rescore_run

    for run in runs:
        results = rescore_run(run) if rescore else load_results(run)
        if as_json:
            _console().print_json(json.dumps(results, default=str))
        else:
            print_results(results)


@app.command("compare")
def compare_command(
    runs: Annotated[list[Path], typer.Argument(help="Results JSON files or inspect logs.")],
    published: Annotated[
        bool, typer.Option("--published", help="Add the papers' published models.")
    ] = False,
    split: Annotated[
        str | None, typer.Option(help="Published split (faith: pilot, main; fined: zh, en; ...).")
    ] = None,
    top: Annotated[int, typer.Option(help="How many published models to show.")] = 20,
) -> None:
    """Set runs side by side (and beside the published numbers)."""
    from finprobe.report import comparison_table
    from finprobe.results import load_results
    from finprobe.terminal import print_tables

    loaded = _with_consensus([load_results(r) for r in runs])
    print_tables(_console(), comparison_table(loaded, published=published, split=split, top=top))


def _with_consensus(runs: list[dict]) -> list[dict]:
    """FAITH runs of the same data: unannotated scenarios from the models' consensus."""
    from finprobe.benchmarks.faith.scorer import apply_scenario_consensus

    groups: dict[str, list[dict]] = {}
    for run in runs:
        if run.get("benchmark") == "faith":
            groups.setdefault(str((run.get("dataset") or {}).get("fingerprint")), []).append(run)
    by_id: dict[int, dict] = {}
    for group in groups.values():
        if len(group) > 1:
            by_id.update(
                {id(r): u for r, u in zip(group, apply_scenario_consensus(group), strict=True)}
            )
    return [by_id.get(id(r), r) for r in runs]


@app.command("report")
def report_command(
    runs: Annotated[list[Path], typer.Argument(help="Results JSON files or inspect logs.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path(
        "finprobe-report.html"
    ),
    split: Annotated[str | None, typer.Option(help="Published split to compare with.")] = None,
) -> None:
    """Write one self-contained HTML page with tables and plots."""
    from finprobe.report import write_html_report
    from finprobe.results import load_results
    from finprobe.terminal import print_path

    loaded = _with_consensus([load_results(r) for r in runs])
    path = write_html_report(loaded, out, split=split)
    print_path(_console(), "report", path)


@app.command("demo")
def demo_command(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for the sample, logs and report.")
    ] = Path("finprobe-demo"),
    reports: Annotated[int, typer.Option(help="Synthetic company reports to generate.")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed of the synthetic sample.")] = 0,
    model: Annotated[
        str, typer.Option("--model", "-m", help="Model to evaluate.")
    ] = "finprobe/faith-solver",
) -> None:
    """Offline demo, no key: FAITH on synthetic 10-Ks, then a report.

    Synthetic 10-Ks -> FAITH instances -> baseline solver -> HTML report.
    """
    from finprobe.benchmarks.faith.build import synthetic_dataset
    from finprobe.report import write_html_report
    from finprobe.runner import run_benchmark
    from finprobe.terminal import print_path

    out.mkdir(parents=True, exist_ok=True)
    with _console().status("building FAITH instances from synthetic reports"):
        data = synthetic_dataset(out / f"faith-synthetic-{seed}.json", n_reports=reports, seed=seed)
    print_path(_console(), "dataset", data)
    outcome = run_benchmark(
        "faith",
        model,
        task_args={"data": str(data.resolve())},
        runs_dir=out / "runs",
        display="plain",
    )
    print_results(outcome.results)
    report = write_html_report([outcome.results], out / "report.html", split="pilot")
    print_path(_console(), "results", outcome.results_path)
    print_path(_console(), "report", report)


@app.command("list")
def list_command() -> None:
    """List benchmarks, their tasks and their non-LLM baselines."""
    from rich.table import Table as RichTable

    table = RichTable("benchmark", "task (inspect)", "baselines (--model)")
    for column in table.columns:
        # names are typed by the user: never cut; a narrow terminal folds them instead
        column.no_wrap, column.overflow = True, "fold"
    for name in BENCHMARK_NAMES:
        for i, (task, baselines) in enumerate(CATALOG[name]):
            table.add_row(
                name if i == 0 else "",
                f"finprobe/{task}",
                "\n".join(f"finprobe/{b}" for b in baselines),
            )
    _console().print(table)
    _console().print(
        "run one with: finprobe eval BENCHMARK --model finprobe/<baseline>", highlight=False
    )


# the first word of a command line -> the benchmarks whose commands it needs
_COMMAND_OWNERS = {"build": BENCHMARK_NAMES, "check": ("finauditing",),
                   "taxonomy": ("finauditing",), **{n: (n,) for n in BENCHMARK_NAMES}}  # fmt: skip
_CORE_COMMANDS = ("eval", "results", "compare", "report", "demo", "list")


def _commands_needed(argv: list[str]) -> tuple[str, ...]:
    """Benchmarks whose commands `argv` may use: none for the core commands and --version."""
    words = [a for a in argv if not a.startswith("-")]
    if not words:
        return () if "--version" in argv else BENCHMARK_NAMES  # the help lists every command
    if words[0] in _CORE_COMMANDS:
        return ()
    return _COMMAND_OWNERS.get(words[0], BENCHMARK_NAMES)


app._pending = BENCHMARK_NAMES  # after the core commands, so that they come first in --help


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    debug = "--debug" in sys.argv
    try:
        # without standalone mode click returns a command's exit code instead of exiting
        with app.only(_commands_needed(sys.argv[1:])):
            code = app(standalone_mode=False)
    except InputError as exc:
        if debug:
            raise
        _console(stderr=True).print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        _console(stderr=True).print("aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        _console(stderr=True).print(
            "interrupted: run `finprobe eval` again with the same options to resume"
        )
        sys.exit(130)
    except Exception as exc:  # the user gets one line; --debug shows the traceback
        from finprobe.model_calls import ModelCallError  # imported once something failed

        if isinstance(exc, ModelCallError):  # the model server, before or outside the run
            if debug:
                raise
            _console(stderr=True).print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
            sys.exit(1)
        # usage errors: click's, or the copy of click that typer >= 0.2x vendors
        if callable(getattr(exc, "show", None)) and isinstance(
            getattr(exc, "exit_code", None), int
        ):
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        if debug:
            raise
        _console(stderr=True).print(
            f"[red]error:[/red] {type(exc).__name__}: {exc}", highlight=False, soft_wrap=True
        )
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
