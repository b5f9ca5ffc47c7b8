"""PNG plots of the study's table: one bar chart of localization, one of Rounds and LFR."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _bars(table, views, names, path, title):
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(names) * len(views), 3.6))
    width = 0.8 / max(1, len(views))
    for i, view in enumerate(views):
        means = [table[view][n]["mean"] or 0 for n in names]
        errors = [[0] * len(names), [0] * len(names)]
        for j, n in enumerate(names):
            ci = table[view][n]["ci95"]
            if ci:
                errors[0][j] = max(0, means[j] - ci[0])
                errors[1][j] = max(0, ci[1] - means[j])
        xs = [j + (i - (len(views) - 1) / 2) * width for j in range(len(names))]
        ax.bar(xs, means, width, yerr=errors, capsize=3, label=view)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_plots(table, views, ks, out):
    names = [f"File@{k}" for k in ks] + [f"Func@{k}" for k in ks] + [f"Pass@{k}" for k in ks]
    _bars(table, views, names, out / "localization.png", "Localization (95% bootstrap CI)")
    _bars(table, views, ["Rounds"], out / "rounds.png", "Rounds per run")
    _bars(table, views, ["LFR"], out / "lfr.png", "Link-following rate")
