"""Start-up time of the ``finprobe`` command line beside ``python -c "import typer, rich"``.

Usage: python perf/cli_startup.py [FILING] [--repeat N]

Runs each command N times (default 7) in a fresh interpreter and prints the median
wall and CPU seconds (CPU = user + system of the child, stable when other processes
share the cores) and each command's ratio to the typer+rich floor. FILING (default:
../shared/data/xbrl/aeon-10q-2023 when present) is the filing ``finprobe check``
reads; ``check --help`` measures that command's imports without the work.
The target: ``--help``, ``list`` and ``check`` start in under 3x the floor.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_FILING = Path(__file__).resolve().parents[1] / ".." / "shared/data/xbrl/aeon-10q-2023"
# Bytecode as an installed package has it (pip compiles it): with PYTHONDONTWRITEBYTECODE
# every run would compile finprobe's sources again. Cached outside the tree.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV.update(COLUMNS="100", PYTHONPYCACHEPREFIX=str(Path(tempfile.gettempdir()) / "finprobe-pyc"))
CLI = [sys.executable, "-c", "from finprobe.cli import main; main()"]


def _run(argv: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # exit status 1 is fine: `check` exits 1 when the filing has error findings
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=ENV)  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(argv: list[str], repeat: int) -> tuple[float, float, float]:
    """Median wall, median CPU and least CPU (the least is steadiest on a busy machine)."""
    _run(argv)  # warm the file cache; not counted
    runs = [_run(argv) for _ in range(repeat)]
    cpus = [c for _, c in runs]
    return statistics.median(w for w, _ in runs), statistics.median(cpus), min(cpus)


# the least any typer command costs beyond `import typer, rich` (typer 0.29 coerces every
# parameter of a command it runs through pydantic, its own --help option included: about
# 0.15-0.3 s more; pyproject pins typer < 0.29)
ONE_COMMAND_APP = """
import typer
app = typer.Typer()
@app.callback()
def main(debug: bool = False) -> None: pass
@app.command()
def hello() -> None: print("hello")
app()
"""


def check_work(filing: Path, repeat: int) -> float:
    """CPU seconds of the check itself (load, rules, report) in a warm interpreter."""
    from finprobe.xbrl.check_report import coverage, filter_findings, render_report
    from finprobe.xbrl.checks import run_rules
    from finprobe.xbrl.filing import load_filing

    def once() -> float:
        start = time.process_time()
        loaded = load_filing(filing)
        run = run_rules(loaded, None, None, calc_mode=None, any_date=False)
        render_report(filter_findings(run.findings, "incomplete"),
                      coverage(loaded, run.ran, run.skipped), 100, 0)  # fmt: skip
        return time.process_time() - start

    once()
    return statistics.median(once() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filing", nargs="?", type=Path, default=DEFAULT_FILING)
    parser.add_argument("--repeat", type=int, default=7)
    opts = parser.parse_args()
    commands: list[tuple[str, list[str]]] = [
        ('python -c "import typer, rich"', [sys.executable, "-c", "import typer, rich"]),
        ("(a one-command typer app: hello)", [sys.executable, "-c", ONE_COMMAND_APP, "hello"]),
        ("finprobe --version", [*CLI, "--version"]),
        ("finprobe --help", [*CLI, "--help"]),
        ("finprobe list", [*CLI, "list"]),
        ("finprobe check --help", [*CLI, "check", "--help"]),
    ]
    if opts.filing.is_dir() or opts.filing.is_file():
        commands.append((f"finprobe check {opts.filing.name}", [*CLI, "check", str(opts.filing)]))
    else:
        print(f"(no filing at {opts.filing}: `check FILING` not measured)")
    floor_wall = floor_cpu = 0.0
    import typer  # the version the commands below run with (the same interpreter and path)

    print(f"typer {typer.__version__}, {sys.executable}")
    print(f"{opts.repeat} runs each, seconds (median; least CPU); ratios to the typer+rich floor")
    print(f"{'command':<36} {'wall':>6} {'cpu':>6} {'least':>6} {'x wall':>7} {'x cpu':>6} "
          f"{'x least':>7}")  # fmt: skip
    cpu = 0.0
    for label, argv in commands:
        wall, cpu, least = measure(argv, opts.repeat)
        if not floor_wall:
            floor_wall, floor_cpu, floor_least = wall, cpu, least
        print(f"{label:<36} {wall:6.3f} {cpu:6.3f} {least:6.3f} {wall / floor_wall:7.2f} "
              f"{cpu / floor_cpu:6.2f} {least / floor_least:7.2f}")  # fmt: skip
    if commands[-1][0].startswith("finprobe check "):
        # start-up of `check FILING`: its CPU less the work a warm interpreter does
        work = check_work(opts.filing, opts.repeat)
        start = cpu - work
        print(f"check: work {work:.3f} s CPU in a warm interpreter; start-up {start:.3f} s CPU "
              f"= {start / floor_cpu:.2f} x the floor")  # fmt: skip


if __name__ == "__main__":
    main()
