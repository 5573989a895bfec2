"""Charts for print: `compare --plot`, `analyse --plot`, and the simulated distribution over the
exact one (for `simulate --plot`), drawn with matplotlib — an optional extra
(`pip install 'hazard-dsl[plot]'`).

Each chart is a PNG or an SVG, chosen by the file's extension, with its title, labelled axes
with units, the figures written on the bars, and a source line saying what was computed from
which rule files. The figures are the exact ones (`solve.analysis`), turned into floats only
here, to be drawn. The output does not depend on the clock (no date in the SVG), so that a
figure rebuilt from unchanged rules is the same file.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..version import __version__

EXTENSIONS = {".png": "png", ".svg": "svg"}
INSTALL = "pip install 'hazard-dsl[plot]'"

# colours that survive grey-scale printing and colour-blind readers (Okabe & Ito)
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
WIN, LOSE = "#009E73", "#D55E00"


class PlotError(ValueError):
    """A chart that cannot be drawn: no matplotlib, or a file type it cannot write."""


def check_target(path: str) -> str:
    """The format for a file name (png or svg), before any work is done; PlotError otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        from ..diagnostics import did_you_mean

        hint = did_you_mean(suffix, list(EXTENSIONS)) if suffix else ""
        given = f"not {suffix!r}" if suffix else "and this name has none"  # not the words in quotes as a suffix
        raise PlotError(f"--plot {path}: a chart is written as PNG or SVG, by the file's extension "
                        f"(.png or .svg), {given}{hint}")
    _pyplot()
    return EXTENSIONS[suffix]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotError(f"charts need matplotlib, which is not installed: {INSTALL} "
                        f"(or pip install matplotlib)") from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "svg.hashsalt": "hazard-dsl",  # the same ids every run
        "svg.fonttype": "none",  # text stays text: searchable, and editable for a paper
        "text.parse_math": False,  # a ruleset's name is text: "$" is a dollar, never mathtext (escape.py)
        "font.size": 9,
        "axes.titlesize": 10.5,
        "axes.titleweight": "bold",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": "#dddddd",
        "grid.linewidth": 0.6,
        "axes.axisbelow": True,
    })
    return plt


def _save(fig, path: str, footer: str) -> None:
    """Write the figure with its source line under everything (room is kept for it)."""
    plt = _pyplot()
    import textwrap

    lines = textwrap.wrap(footer, 150)
    height = fig.get_size_inches()[1]
    room = (0.16 * len(lines) + 0.12) / height  # of the figure's height, in inches of 7-point text
    fig.get_layout_engine().set(rect=(0, room, 1, 1 - room))
    fig.text(0.01, 0.012, "\n".join(lines), fontsize=7, color="#444444", ha="left", va="bottom")
    fmt = check_target(path)
    metadata = {"Date": None, "Creator": "hazard-dsl"} if fmt == "svg" else {"Software": "hazard-dsl"}
    fig.savefig(path, format=fmt, dpi=200, metadata=metadata)
    plt.close(fig)


def _files(names) -> str:
    return ", ".join(dict.fromkeys(str(n).replace("\\", "/").rsplit("/", 1)[-1] for n in names))


def _pct(x) -> float:
    return float(Fraction(x) * 100)


def short_name(text: str, width: int = 28) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


# --------------------------------------------------------------------------- compare


def sources_line(rulesets) -> str:
    """The historical sources behind rulesets, shortly: "Cotton 1674; Hoyle 1790; …"."""
    seen: dict = {}
    for ruleset in rulesets:
        for source in ruleset.sources:
            if source.author and source.year:
                seen.setdefault(f"{source.author.split(',')[0].split()[-1]} {source.year}", None)
                break
    return "; ".join(seen)


def compare_chart(entries, path: str, labels=None, rulesets=()) -> None:
    """Each variant's caster chance and edge side by side; below, each bet's edge where the
    variants share bets (by name). `entries` are (name given, Analysis); `rulesets`, when
    given, name the historical sources in the source line."""
    plt = _pyplot()
    names = labels or [_variant_label(text, a) for text, a in entries]
    analyses = [a for _, a in entries]
    shared = _shared_bets(analyses)
    n = len(entries)
    rows = 2 if shared else 1
    height = 1.2 + 0.42 * n + (1.3 + 0.22 * n * len(shared) if shared else 0)
    fig = plt.figure(figsize=(10, max(3.6, height)), layout="constrained")
    grid = fig.add_gridspec(rows, 2, height_ratios=[n, max(1, 0.55 * n * len(shared))] if shared else [1])
    fig.get_layout_engine().set(h_pad=0.12, hspace=0.06)
    fig.suptitle("Hazard variants compared: the caster's game at even money", fontweight="bold", fontsize=12,
                 x=0.01, ha="left")
    y = list(range(n))[::-1]
    win = [_pct(a.figures.win) for a in analyses]
    ax = fig.add_subplot(grid[0, 0])
    # Dots on a scale of %, not bars: the chances lie close together near 50%, and a bar from an
    # axis cut short of 0 would draw their differences many times their size (the web page's
    # compare chart draws them the same way).
    ax.hlines(y, 0, 100, color="#dddddd", linewidth=0.6, zorder=0)
    ax.scatter(win, y, color=[PALETTE[k % len(PALETTE)] for k in range(n)], s=46, zorder=3)
    ax.axvline(50, color="#333333", linewidth=0.8, linestyle="--")
    ax.set_yticks(y, names)
    ax.set_xlabel("caster wins, % of games (a dot on the scale; not a bar from 0)")
    ax.set_title("The caster's chance of winning a game", loc="left")
    low, high = min(win + [50]), max(win + [50])
    pad = max(0.5, (high - low) * 0.3)
    ax.set_xlim(max(0, low - pad), min(100, high + pad * 1.6))
    ax.set_ylim(-0.7, n - 0.4)
    for yy, value in zip(y, win):
        ax.text(value + pad * 0.12, yy + 0.18, f"{value:.2f}%", va="bottom",
                fontsize=8, bbox=dict(facecolor="white", edgecolor="none", pad=0.6))
    ax.text(50, -0.55, " 50%: an even game", fontsize=7, color="#333333", va="bottom")
    ax = fig.add_subplot(grid[0, 1], sharey=ax)
    from .phrases import stake_edge

    edge = [_pct(stake_edge(a)) for a in analyses]  # per stake laid, as analyse and compare print it
    ax.barh(y, edge, color=[LOSE if e > 0 else WIN for e in edge], height=0.6)
    ax.axvline(0, color="#333333", linewidth=0.8)
    ax.tick_params(labelleft=False)
    ax.set_xlabel("% per stake laid; below 0: in his favour")
    ax.set_title("The edge against the caster", loc="left")
    span = max(abs(e) for e in edge) or 1
    ax.set_xlim(min(0, min(edge)) - span * 0.35, max(0, max(edge)) + span * 0.35)
    for yy, value in zip(y, edge):
        ax.text(value + (span * 0.03 if value >= 0 else -span * 0.03), yy, f"{value:+.3f}%", va="center",
                ha="left" if value >= 0 else "right", fontsize=8)
    if shared:
        ax = fig.add_subplot(grid[1, :])
        width = 0.8 / max(1, n)
        positions = list(range(len(shared)))[::-1]
        for k, (name, a) in enumerate(zip(names, analyses)):
            values, where = [], []
            for pos, bet in zip(positions, shared):
                if bet in a.bets:
                    values.append(_pct(a.bets[bet].edge))
                    where.append(pos + 0.4 - width * (k + 0.5))
            if values:
                ax.barh(where, values, height=width * 0.9, color=PALETTE[k % len(PALETTE)],
                        label=name.replace("\n", " "))
                for yy, value in zip(where, values):
                    ax.text(value, yy, f" {value:.3f}%" if value >= 0 else f"{value:.3f}% ", va="center",
                            ha="left" if value >= 0 else "right", fontsize=7)
        ax.axvline(0, color="#333333", linewidth=0.8)
        ax.set_yticks(positions, shared)
        ax.set_xlabel("the bettor's edge, % of the money staked (exact, at each ruleset's own payouts)")
        ax.set_title("Bets the rulesets share by name", loc="left")
        low, high = ax.get_xlim()
        pad = (high - low) * 0.12  # room for the figures written beside the bars
        ax.set_xlim(low - (pad if low < 0 else 0), high + pad)
        ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.42), ncols=min(3, n), frameon=False)
    files = _files(a.file for a in analyses)
    cited = sources_line(rulesets)
    _save(fig, path, (f"Sources: {cited}. " if cited else "") +
          f"Exact figures (absorbing-chain solution) by hazard-dsl {__version__} from the rule files {files}; each "
          f"file cites its sources and pages (hazard-dsl show NAME). Choices made as optimal for the chooser.")


def _variant_label(text: str, analysis) -> str:
    """A variant's name on a chart: the ruleset's title, with the options given on the command
    line ("cotton:main=called")."""
    name = analysis.ruleset
    if ":" in text and "=" in text.rpartition(":")[2]:
        name += f" [{text.rpartition(':')[2]}]"
    return short_name(name)


def _shared_bets(analyses) -> list:
    """Bets (by name) that at least two of the rulesets offer."""
    count: dict = {}
    for a in analyses:
        for bet in a.bets:
            count[bet] = count.get(bet, 0) + 1
    return [bet for bet, k in count.items() if k >= 2]


# --------------------------------------------------------------------------- analyse


def analysis_chart(analysis, path: str) -> None:
    """How many throws a game takes (exact distribution, mean, median, 99th percentile); with
    `analyse --by VAR`, the caster's chance and edge for each value beside it."""
    plt = _pyplot()
    a = analysis
    by = bool(a.by)
    fig = plt.figure(figsize=(10, 4.4 if not by else 7.6), layout="constrained")
    grid = fig.add_gridspec(2 if by else 1, 1)
    fig.suptitle(f"{a.ruleset}: exact figures", fontweight="bold", fontsize=12, x=0.01, ha="left")
    ax = fig.add_subplot(grid[0, 0])
    shown = a.throws
    last = a.high_percentile_throws if a.high_percentile_throws is not None else len(shown) - 1
    last = min(len(shown) - 1, max(last + 3, 12))
    first = next((n for n, p in enumerate(shown) if p), 0)  # a game takes at least this many throws
    xs = list(range(first, last + 1))
    ys = [_pct(p) for p in shown[first:last + 1]]
    ax.bar(xs, ys, color=PALETTE[0], width=0.75)
    mean = float(a.figures.expected_throws)
    ax.axvline(mean, color=LOSE, linestyle="--", linewidth=1)
    ax.text(mean, max(ys) * 0.97, f" mean {mean:.2f}", color=LOSE, fontsize=8, va="top")
    if a.median_throws is not None:
        ax.axvline(a.median_throws, color="#333333", linestyle=":", linewidth=1)
        ax.text(a.median_throws, max(ys) * 0.85, f" median {a.median_throws}", fontsize=8, va="top")
    for x, y in zip(xs, ys):
        if y >= max(ys) * 0.04:
            ax.text(x, y, f"{y:.1f}", ha="center", va="bottom", fontsize=6.5)
    beyond = 1 - sum(Fraction(p) for p in shown[:last + 1])
    ax.set_xlabel("throws in a game")
    ax.set_ylabel("% of games")
    ax.set_xticks(xs)
    p99 = a.high_percentile_throws
    ax.set_title(f"How many throws a game takes (99th percentile: {p99 if p99 is not None else 'beyond the table'}; "
                 f"{_pct(beyond):.2f}% of games take more than {last})", loc="left")
    if by:
        ax = fig.add_subplot(grid[1, 0])
        values = list(a.by)
        probability = [_pct(a.by[v][0]) for v in values]
        win = [_pct(a.by[v][1].win) for v in values]
        edge = [_pct(a.by[v][1].edge) for v in values]
        xs = list(range(len(values)))
        width = 0.38
        b1 = ax.bar([x - width / 2 for x in xs], probability, width, color=PALETTE[5],
                    label=f"share of games ending with {a.by_variable} = value")
        b2 = ax.bar([x + width / 2 for x in xs], win, width, color=PALETTE[0],
                    label=f"caster wins, given {a.by_variable}")
        for bars, vals in ((b1, probability), (b2, win)):
            for bar, v in zip(bars, vals):
                ax.text(bar.get_x() + bar.get_width() / 2, v, f"{v:.2f}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(xs, [f"{v}\nedge {e:+.3f}%" for v, e in zip(values, edge)])
        ax.set_xlabel(f"{a.by_variable} (and the edge against the caster given it)")
        ax.set_ylabel("%")
        ax.set_ylim(0, max(probability + win) * 1.3)
        ax.set_title(f"By {a.by_variable}", loc="left")
        ax.legend(fontsize=8, frameon=False, loc="upper left", ncols=2)
    options = ", ".join(f"{k}={v}" for k, v in a.options.items()) or "none"
    _save(fig, path, f"Exact distribution (no simulation) by hazard-dsl {__version__} from {_files([a.file])}; "
                     f"options: {options}; choices: {a.policy}. Mean {mean:.4f} throws a game.")


def risk_chart(risk, path: str, title: str = "", source: str = "") -> None:
    """`analyse --games/--stop-loss/--stop-win/--tail --plot`: the exact distribution of a
    session's net (bars, coloured by ahead / even / behind), and P(length ≥ n) of a hand or game
    on a log scale (commands.analyse.risk)."""
    plt = _pyplot()
    panels = [p for p in (risk.session, risk.tail) if p is not None]
    fig = plt.figure(figsize=(10, 4.4 * len(panels)), layout="constrained")
    fig.suptitle(f"{title}: exact risk", fontweight="bold", fontsize=12, x=0.01, ha="left")
    grid = fig.add_gridspec(len(panels), 1)
    row = 0
    if risk.session is not None:
        d = risk.session
        ax = fig.add_subplot(grid[row, 0])
        row += 1
        xs = [float(v) for v in d.outcomes]
        ys = [_pct(p) for p in d.outcomes.values()]
        colours = [WIN if v > 0 else LOSE if v < 0 else "#777777" for v in d.outcomes]
        width = min((b - a for a, b in zip(xs, xs[1:])), default=1.0) * 0.8
        ax.bar(xs, ys, width=width, color=colours)
        mean = float(d.mean)
        ax.axvline(mean, color="#333333", linestyle="--", linewidth=1)
        ax.text(mean, max(ys) * 0.97, f" mean {mean:+.3f}", fontsize=8, va="top")
        plan = ", ".join(f"{n}={a}" for n, a in risk.orders) or "even money, 1 a game"
        games = f"{d.games} decisions" if d.games is not None else "until a stop"
        ax.set_title(f"Net of a session ({plan}; {games}): ahead {_pct(d.ahead):.3f}%, even {_pct(d.even):.3f}%, "
                     f"behind {_pct(d.behind):.3f}%", loc="left", fontsize=9)
        ax.set_xlabel("net at the end of the session")
        ax.set_ylabel("% of sessions")
    if risk.tail is not None:
        L = risk.tail
        ax = fig.add_subplot(grid[row, 0])
        n = risk.tail_throws
        # log10 of the exact chances (a float would underflow past 1e-308 for long tails)
        points = [(m, y) for m, y in enumerate(L.logs[:n + 1]) if m and y != float("-inf")]
        ax.plot([m for m, _ in points], [y for _, y in points], color=PALETTE[0])
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole powers of ten
        ax.yaxis.set_major_formatter(lambda v, _: f"1e{v:.0f}" if round(v) else "1")
        ax.set_xlabel("n throws")
        ax.set_ylabel(f"P({L.what} ≥ n), log scale")
        from ..solve.tails import one_in

        chance = one_in(L.at_least(n)) or f"{float(L.at_least(n)):.4f}"
        ax.set_title(f"How long a {L.what} lasts: P({L.what} ≥ {n} throws) is {chance}", loc="left", fontsize=9)
    _save(fig, path, f"Exact distributions (no simulation) by hazard-dsl {__version__} from {source}.")


# --------------------------------------------------------------------------- simulate


def simulation_chart(simulated, exact, path: str, title: str = "", source: str = "", games: int | None = None) -> None:
    """The simulated distribution of throws per game over the exact one: `simulated` is the
    number of simulated games that took n throws (a sequence indexed by n, or {n: count});
    `exact` is P(n throws) (a sequence of Fractions, `Analysis.throws`); `games`, all the games
    simulated, where some (the longest) are not among the counts. For `simulate --plot`."""
    plt = _pyplot()
    counts = dict(enumerate(simulated)) if not isinstance(simulated, dict) else dict(simulated)
    games = games or sum(counts.values())
    if games <= 0:
        raise PlotError("no simulated games to draw")
    exact = list(exact)
    last = max([n for n, c in counts.items() if c] + [0])
    cumulative = Fraction(0)
    cut = len(exact) - 1
    for n, p in enumerate(exact):
        cumulative += Fraction(p)
        if cumulative >= Fraction(999, 1000):
            cut = n
            break
    last = min(last, max(cut, 12))
    xs = list(range(last + 1))
    fig, ax = plt.subplots(figsize=(10, 4.4), layout="constrained")
    fig.suptitle(title or "Simulated against exact", fontweight="bold", fontsize=12, x=0.01, ha="left")
    share = [counts.get(n, 0) / games * 100 for n in xs]
    ax.bar(xs, share, width=0.75, color=PALETTE[5], label=f"simulated ({games:,} games)")
    ex = [_pct(exact[n]) if n < len(exact) else 0.0 for n in xs]
    ax.plot(xs, ex, color=LOSE, marker="o", markersize=3.5, linewidth=1.2, label="exact")
    # the band a fair simulation stays in 95% of the time (normal approximation, per bar)
    import math

    band = [1.96 * math.sqrt(max(p / 100 * (1 - p / 100), 0) / games) * 100 for p in ex]
    ax.fill_between(xs, [e - b for e, b in zip(ex, band)], [e + b for e, b in zip(ex, band)], color=LOSE,
                    alpha=0.15, linewidth=0, label="95% band for this many games")
    ax.set_xticks(xs)
    ax.set_xlabel("throws in a game")
    ax.set_ylabel("% of games")
    ax.set_title("How many throws a game takes", loc="left")
    ax.legend(fontsize=8, frameon=False)
    _save(fig, path, source or f"Simulated and exact distributions by hazard-dsl {__version__}.")


__all__ = ["PlotError", "check_target", "compare_chart", "analysis_chart", "risk_chart", "simulation_chart", "INSTALL"]


# --------------------------------------------------------------------------- the best stake, progressions


def policy_chart(staking, path: str, title: str = "", source: str = "") -> None:
    """`analyse --stake best --plot`: the best stake by purse (steps) over P(reach the goal) by purse;
    `--strategy … --plot`: the exact distribution of the progression's net (commands.staking); with
    `--players`, each seat's at the table."""
    plt = _pyplot()
    fig = plt.figure(figsize=(10, 4.6), layout="constrained")
    fig.suptitle(f"{title}: exact staking", fontweight="bold", fontsize=12, x=0.01, ha="left")
    ax = fig.add_subplot(1, 1, 1)
    if staking.best is not None:
        b = staking.best
        xs = sorted(b.stakes)
        ax.step(xs, [b.stakes[x] for x in xs], where="mid", color=PALETTE[0], label="best stake")
        ax.set_xlabel(f"purse ({staking.units})")
        ax.set_ylabel(f"stake ({staking.units})")
        other = ax.twinx()
        other.plot(xs, [_pct(b.values[x]) for x in xs], color=PALETTE[1], label="P(reach the goal) %")
        if b.flat is not None:
            other.plot(xs, [_pct(b.flat.get(x, 0)) for x in xs], color="#777777", linestyle="--",
                       label=f"P(goal) staking {b.flat_stake} %")
        other.set_ylabel("% reaching the goal")
        ax.set_title(f"The best stake by purse towards {b.goal} ({staking.side}; stakes 1 to {b.most})", loc="left",
                     fontsize=9)
        fig.legend(loc="lower right", fontsize=8)
    elif staking.table is not None:  # --players: each seat's net at the end, side by side
        seats = [(name, run) for name, (run, _) in staking.table.items() if run is not None]
        nets = sorted(set().union(*(run.nets for _, run in seats)))
        gap = min((b - a for a, b in zip(nets, nets[1:])), default=1)
        width = float(gap) * 0.8 / max(len(seats), 1)
        for i, (name, run) in enumerate(seats):
            offset = (i - (len(seats) - 1) / 2) * width
            ax.bar([float(v) + offset for v in nets], [_pct(run.nets.get(v, 0)) for v in nets], width=width * 0.95,
                   color=PALETTE[i % len(PALETTE)], label=f"{name}: reaches the goal {_pct(run.reach_goal):.3f}%")
        ax.set_xlabel(f"net at the end of the session ({staking.units})")
        ax.set_ylabel("% of sessions")
        from ..solve.progressions import WORDS

        said = f"the {WORDS[staking.strategy]}" if staking.strategy in WORDS else "the best stake"
        ax.set_title(f"Each seat by {said} from {staking.bankroll} to {staking.goal} at the table "
                     f"of {', '.join(staking.players)}, the others staking {staking.stake} flat", loc="left",
                     fontsize=9)
        ax.legend(fontsize=8)
    else:
        r = staking.run
        xs = [float(v) for v in sorted(r.nets)]
        ys = [_pct(r.nets[v]) for v in sorted(r.nets)]
        ax.bar(xs, ys, width=0.8, color=[WIN if v > 0 else LOSE if v < 0 else "#777777" for v in xs])
        ax.set_xlabel(f"net at the end of the session ({staking.units})")
        ax.set_ylabel("% of sessions")
        from ..solve.progressions import WORDS

        ax.set_title(f"{WORDS[r.name]} from {r.bankroll} to {r.goal}: reaches the goal {_pct(r.reach_goal):.3f}%, "
                     f"net per unit staked {float(r.per_staked):+.5f} (the game's edge)", loc="left", fontsize=9)
    _save(fig, path, f"Exact figures (no simulation) by hazard-dsl {__version__} from {source}.")
