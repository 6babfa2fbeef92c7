"""The HTML report compares like with like and stays readable at 1,280 px."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from finprobe.likeness import bootstrap, data_identity, placement, wilson
from finprobe.report import write_html_report
from finprobe.report_html import (
    OUR_COLOR,
    headline_figure,
    metrics_figure,
    section_figures,
    sections,
)
from finprobe.runner import SampleRecord

FINED_KEYS = [f"{c}.{m}" for c in ("GKE", "FKE", "FRE", "overall") for m in ("precision", "recall", "f1")]  # fmt: skip


def _run(benchmark, model, name, headline, n, built=0, language=None, split=None, **extra):  # type: ignore[no-untyped-def]
    data = {"split": split, "language": language, "built_samples": built, "samples": n}
    return {
        "benchmark": benchmark, "model": model, "dataset": {"name": name, "fingerprint": "f"},
        "samples": n, "scored_samples": n, "errors": 0, "finished": True, "headline": headline,
        "metrics": {"n": n}, "breakdowns": {}, "data": data, **extra,
    }  # fmt: skip


FAITH_DEMO = _run("faith", "finprobe/faith-solver", "faith:faith-synthetic-0.json",
                  {"overall": 95.83, "value": 97.9, "unit": 100.0, "D": 0.0}, 48, built=48)  # fmt: skip
FAITH_PILOT = _run("faith", "local/qwen", "faith:pilot-dev.json",
                   {"overall": 30.0, "value": 35.0, "unit": 80.0, "D": 0.0}, 10)  # fmt: skip


def _fined(language: str, built: int, gke_precision: float, f: float, model: str) -> dict:
    headline = dict.fromkeys(FINED_KEYS, 10.0)
    headline["GKE.precision"], headline["overall.f1"] = gke_precision, f
    return _run("fined", model, f"fined:{language}.json", headline, 30, built=built,
                language=language,
                interval={"metric": "overall.f1", "low": f - 5, "high": f + 5, "method": "bootstrap"})  # fmt: skip


def test_a_built_run_never_stands_beside_the_published_models() -> None:
    found = {s.title: s for s in sections([FAITH_DEMO, FAITH_PILOT], split="pilot")}
    beside = found["faith · beside the paper's pilot split"]
    apart = found["faith · our runs on other data"]
    assert [r.label for r in beside.rows if r.ours] == ["local/qwen"]
    assert [r.label for r in apart.rows] == ["finprobe/faith-solver [faith:faith-synthetic-0.json]"]
    assert not any(not r.ours for r in apart.rows)  # no published row there
    assert "built by FinProbe" in apart.note
    # ranked by the headline: the 10-sample run sits below GPT-4.1-nano (31.3), with its n
    labels = [r.label for r in beside.rows]
    assert labels.index("GPT-4.1-nano (published)") < labels.index("local/qwen")
    ours = next(r for r in beside.rows if r.ours)
    assert ours.n == 10 and ours.interval is not None
    low, high, method = ours.interval
    assert method == "Wilson" and low < 30.0 < high and round(low, 1) == 10.8


def test_fined_english_is_not_compared_with_the_chinese_split_and_f1_ranks() -> None:
    english_built = _fined("en", 30, 90.0, 5.0, "detector")
    chinese = _fined("zh", 0, 1.0, 40.0, "model-a")
    chinese_2 = _fined("zh", 0, 99.0, 20.0, "model-b")
    found = {s.title: s for s in sections([english_built, chinese, chinese_2])}
    zh = found["fined · beside the paper's zh split"]
    assert zh.key == "overall.f1"
    ours = [r.label for r in zh.rows if r.ours]
    assert ours == ["model-a", "model-b"]  # by overall F1, not GKE.precision
    assert "detector" not in [r.label.split(" [")[0] for r in zh.rows]
    assert [r.label.split(" [")[0] for r in found["fined · our runs on other data"].rows] == [
        "detector"
    ]
    assert placement(_fined("en", 0, 1.0, 1.0, "m"), ["zh", "en"])[0] == "en"
    assert placement(_fined("zh", 0, 1.0, 1.0, "m"), ["zh", "en"])[0] == "zh"


def test_data_identity_reads_the_samples() -> None:
    def record(**meta):  # type: ignore[no-untyped-def]
        return SampleRecord("x", meta, "", {}, {})

    released = data_identity([record(split="testmini"), record(split="testmini")])
    assert released == {"split": "testmini", "language": None, "built_samples": 0, "samples": 2}
    assert data_identity([record(split="built")])["built_samples"] == 1
    assert data_identity([record(builder="finprobe-faith-synthetic/2")])["built_samples"] == 1
    assert data_identity([record(method="reversal")])["built_samples"] == 1  # FinAuditing
    injected = record(language="en", errors=[{"source": "numeric_swap"}])
    assert data_identity([injected, record(language="en", errors=[{"source": "released"}])]) == {
        "split": None, "language": "en", "built_samples": 1, "samples": 2,
    }  # fmt: skip
    assert data_identity([record(language="en"), record(language="zh")])["language"] is None


def test_intervals() -> None:
    low, high = wilson(0.5, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    low, high = wilson(0.0, 10)
    assert low == 0.0 and round(high, 3) == 0.278
    values = list(range(100))
    bounds = bootstrap(values, lambda xs: sum(xs) / len(xs))
    assert bounds is not None and bounds[0] < 49.5 < bounds[1] and bounds[1] - bounds[0] < 20
    assert bootstrap(values, lambda xs: sum(xs) / len(xs)) == bounds  # seeded


def _boxes(fig, texts):  # type: ignore[no-untyped-def]
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text()]


def _overlaps(boxes) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)]


def test_headline_chart_labels_never_overlap_and_zero_is_visible() -> None:
    rows = sections([FAITH_PILOT], split="pilot")[0].rows  # 16 published models + ours
    fig = headline_figure(rows, "overall", "faith: overall")
    fig.canvas.draw()
    [ax] = fig.axes
    labels = _boxes(fig, ax.get_yticklabels())
    values = _boxes(fig, ax.texts)
    assert len(labels) == 17 and len(values) == 17
    assert _overlaps(labels) == [] and _overlaps(values) == []
    assert _overlaps(labels + _boxes(fig, ax.get_xticklabels())) == []
    # our bar in our colour, the others grey
    ours = [p for p in ax.patches if p.get_facecolor()[:3] == _rgb(OUR_COLOR)]
    assert len(ours) == 1
    # a zero-valued run still draws something at 0
    zero = dict(rows[0].values)
    zero["overall"] = 0.0
    from finprobe.report_html import Row

    fig = headline_figure([Row("zero run", True, zero, 5)], "overall", "t")
    markers = [line for line in fig.axes[0].lines if list(line.get_xdata()) == [0]]
    assert markers and fig.axes[0].texts[0].get_text() == "0.0"


def _rgb(color: str) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    return to_rgb(color)


def test_metric_charts_keep_error_rates_apart_and_labels_clear() -> None:
    finmr = _run("finauditing", "solver", "finmr:data", {"accuracy": 60.0,
                 "structural_error_rate": 0.0, "extraction_error_rate": 10.0,
                 "calculation_error_rate": 30.0}, 20, split="finmr")  # fmt: skip
    [section] = sections([finmr])
    titles = [alt for alt, _ in section_figures(section)]
    assert titles == ["accuracy by model", "error rates: lower is better"]
    zh = sections([_fined("zh", 0, 1.0, 40.0, "model-a")])[0]
    fig = metrics_figure(zh.rows, [k for k in FINED_KEYS if k != "overall.f1"], "fined")
    fig.canvas.draw()
    ax = fig.axes[0]
    assert _overlaps(_boxes(fig, ax.get_yticklabels())) == []
    legend = _boxes(fig, ax.get_legend().get_texts())
    assert _overlaps(legend) == []
    # the legend sits right of the plot, clear of it
    plot = ax.get_window_extent(fig.canvas.get_renderer())
    assert all(box.x0 >= plot.x1 for _, box in legend)
    # our run's markers are all in our colour
    ours = ax.collections[0]
    assert all(tuple(c[:3]) == _rgb(OUR_COLOR) for c in ours.get_facecolors())


def test_page_fits_1280_px_by_its_css(tmp_path: Path) -> None:
    page = write_html_report([FAITH_DEMO, FAITH_PILOT], tmp_path / "r.html", split="pilot")
    text = page.read_text()
    width = int(re.search(r"body\{[^}]*max-width:(\d+)px", text).group(1))
    assert width <= 1240
    assert text.count("<div class='scroll'><table>") == text.count("<table>")
    first = text.index("pilot split</h2>")
    assert first < text.index("our runs on other data")  # the paper's comparison comes first


CHROMIUM = (
    shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
)


@pytest.mark.skipif(CHROMIUM is None, reason="no headless browser installed")
def test_page_fits_1280_px_in_a_real_browser(tmp_path: Path) -> None:
    runs = [
        FAITH_DEMO,
        FAITH_PILOT,
        _fined("zh", 0, 1.0, 40.0, "a"),
        _fined("en", 3, 1.0, 9.0, "b"),
    ]
    page = write_html_report(runs, tmp_path / "r.html", split="pilot")
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", "<script>document.body.setAttribute("
                     "'data-width', document.documentElement.scrollWidth)</script></body>"))  # fmt: skip
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
         "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    width = re.search(r'data-width="(\d+)"', done.stdout)
    assert width is not None, done.stderr[-500:]
    assert int(width.group(1)) <= 1280


def test_fined_f1_gets_a_bootstrap_interval_over_documents() -> None:
    from finprobe.likeness import headline_interval_of_records

    def summarize(records):  # type: ignore[no-untyped-def]
        tp = sum(r.score["tp"] for r in records)
        pred = sum(r.score["pred"] for r in records)
        gold = sum(r.score["gold"] for r in records)
        p, r = (tp / pred if pred else 0.0), (tp / gold if gold else 0.0)
        return {"headline": {"overall.f1": 100 * 2 * p * r / (p + r) if p + r else 0.0}}

    docs = [
        SampleRecord(str(i), {}, "", {"tp": i % 3, "pred": 3, "gold": 2}, {}) for i in range(40)
    ]
    interval = headline_interval_of_records("fined", docs, summarize)
    point = summarize(docs)["headline"]["overall.f1"]
    assert interval is not None and interval["metric"] == "overall.f1" and interval["n"] == 40
    assert interval["low"] < point < interval["high"]
    assert interval["method"].startswith("bootstrap")
    assert headline_interval_of_records("faith", docs, summarize) is None  # Wilson instead
