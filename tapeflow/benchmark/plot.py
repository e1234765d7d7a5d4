"""Bar charts of benchmark figures (matplotlib, the optional `plot` extra)."""
import math


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


MISSING = "writing a chart needs matplotlib, which is not installed: pip install 'tapeflow[plot]'"


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(MISSING) from None
    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt
    return plt


def bar_chart(path, title, groups, series, ylabel, log=False, note=None, reference=None):
    """Grouped bars: one group per entry of `groups`, one bar per series
    ({label: [value or None per group]}); None leaves a gap.  `reference`
    draws a dashed line at that value (1.0 for ratios).  Writes a PNG."""
    plt = _pyplot()
    n_series = max(1, len(series))
    width = 0.8 / n_series
    fig_w = max(6.0, 1.2 + len(groups) * (0.35 + 0.18 * n_series))
    fig, ax = plt.subplots(figsize=(min(fig_w, 18.0), 4.8))
    try:
        for i, (label, values) in enumerate(series.items()):
            xs = [g + (i - (n_series - 1) / 2) * width for g in range(len(groups))]
            pts = [(x, v) for x, v in zip(xs, values) if v is not None and math.isfinite(v) and v > 0]
            if pts:
                ax.bar([p[0] for p in pts], [p[1] for p in pts], width=width, label=label)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups, rotation=20 if len(groups) > 4 else 0, ha="right" if len(groups) > 4 else "center")
        ax.set_ylabel(ylabel)
        if reference is not None:
            ax.axhline(reference, color="0.4", linewidth=0.8, linestyle="--")
        if log:
            ax.set_yscale("log")
        ax.set_title(title)
        if len(series) > 1:
            ax.legend(fontsize="small")
        if note:
            fig.text(0.01, 0.01, note, fontsize=7, color="0.35")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
    return path


def compare_chart(report, path):
    """The eager and graph median of one CompareReport, and each peer's, with quartile bars."""
    plt = _pyplot()
    names = ["eager", "graph"] + list(report.peers)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.2 * len(names) + 1.5), 4.0))
    try:
        timings = [report.eager, report.graph] + list(report.peers.values())
        med = [t.median * 1e3 for t in timings]
        err = [[(t.median - t.q1) * 1e3 for t in timings], [(t.q3 - t.median) * 1e3 for t in timings]]
        ax.bar(names, med, yerr=err, capsize=6, color=["tab:gray", "tab:blue"] + ["tab:orange"] * len(report.peers))
        if len(names) > 3:
            ax.tick_params(axis="x", labelrotation=20)
        ax.set_ylabel("ms per call (median, quartiles)")
        ax.set_title(f"{report.name}: graph {report.speedup:.2f}x faster" if report.speedup >= 1
                     else f"{report.name}: graph {1 / report.speedup:.2f}x slower")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
    return path


__all__ = ["bar_chart", "compare_chart", "PlotUnavailable", "have_matplotlib"]
