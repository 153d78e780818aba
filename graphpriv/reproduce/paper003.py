"""Paper 003 (Ding & Farokhi, "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering"): Figs. 1-9.

Each builder returns a matplotlib Figure; :func:`graphpriv.reproduce.build_all` saves them and writes
the manifest. Data: the Fig. 1 joint range and eq. (4) values (:func:`graphpriv.datasets.paper_example`)
and the Hungarian heart-disease data (:func:`graphpriv.datasets.hungarian_range`). Where the print
cannot be reproduced from the paper's own definitions the ``erratum`` field says what differs and why
(the errata are listed in :mod:`graphpriv.mechanisms.quantization.agglomerative` and the mechanism docstrings).
"""

from __future__ import annotations

import math

import numpy as np

from . import figure

__all__: list[str] = []

_LAM_EX2_U1, _LAM_EX2_U2 = 0.3, 2.5      # Example 2 / Fig. 3
_LAM_EX3, _LAM_EX4 = 0.3, 0.3            # Examples 3, 4 / Figs. 4-6
_HUNGARIAN_LAMS = {"L0": {"U1": 2.3, "U2": 2.0}, "I*": {"U1": 1.3, "U2": 0.03}}   # Fig. 8 captions


def _example():
    from ..datasets import paper_example

    return paper_example()


# ----------------------------------------------------------------------------------------------------------------
# Figs. 1-2 and Section IV (core only)
# ----------------------------------------------------------------------------------------------------------------
@figure(name="paper003_fig1_joint_range", paper="003", number="Fig. 1",
        shows="The joint range [[S,X]] of the running example: a filled square at (s_i, x_j) for every pair, "
              "6 sensitive values, 7 public values, 8 pairs.",
        erratum="The s-labels of x2, x6 and x7 are not pinned by the text (graphpriv reconstructs, from Section III and Examples "
                "1-5: x1 pairs with s1 and s2, x2 with s2, x3 and x4 with s3, x5 with s4, x6 with s5, x7 with s6); "
                "no number in the paper depends on them.")
def fig1(quick: bool = False):
    from ..viz.graphs import plot_joint_range
    from ..viz.style import COLUMN_WIDTH, new_figure

    jr, _ = _example()
    fig, ax = new_figure(COLUMN_WIDTH * 0.8, COLUMN_WIDTH * 0.72, layout="constrained")
    plot_joint_range(jr, ax)
    return fig


@figure(name="paper003_fig2_confusability_graph", paper="003", number="Fig. 2",
        shows="The confusability graph G_X of Fig. 1 with its finest decomposition coloured: "
              "{x1,x2}, {x3,x4}, {x5}, {x6}, {x7}, so I*(S;X) = log2 5.")
def fig2(quick: bool = False):
    from ..viz.graphs import plot_confusability
    from ..viz.style import COLUMN_WIDTH, new_figure

    jr, _ = _example()
    fig, ax = new_figure(COLUMN_WIDTH * 0.8, COLUMN_WIDTH * 0.72, layout="constrained")
    plot_confusability(jr, ax)
    return fig


@figure(name="paper003_sec4_support_graph_and_min_cuts", paper="003", number="Sec. IV / Example 1 (no printed figure)",
        shows="(a) the bipartite support graph of Fig. 1 (its components give G_X's, Lemma 2); (b) the global min cut of "
              "G_X, kappa = 0 (decomposable); (c) the x1-x2 s-t cut, kappa = 1, cut edge dashed.")
def fig_sec4(quick: bool = False):
    from ..graphs.cuts import min_cut
    from ..viz.graphs import plot_confusability, plot_min_cut
    from ..viz.style import PAGE_WIDTH, new_figure

    jr, _ = _example()
    fig, axes = new_figure(PAGE_WIDTH, 2.2, 1, 3, layout="constrained", gridspec_kw={"width_ratios": [1.25, 1, 1]})
    plot_confusability(jr, axes[0], bipartite=True, title="(a) support graph of $[\\![S,X]\\!]$")
    plot_min_cut(jr, min_cut(jr), axes[1], title="(b) global min cut, $\\kappa=0$")
    plot_min_cut(jr, min_cut(jr, "x1", "x2"), axes[2], title="(c) $x_1$-$x_2$ cut, $\\kappa=1$")
    return fig


# ----------------------------------------------------------------------------------------------------------------
# Figs. 3-6: Algorithms 1 and 2 on the running example
# ----------------------------------------------------------------------------------------------------------------
def _run(objective, lam, utility="U1", example=None):
    from ..datasets import paper_example
    from ..mechanisms.quantization.agglomerative import agglomerate

    jr, values = paper_example(example)
    return jr, agglomerate(jr, objective, lam, utility=utility, values=values if utility == "U2" else None)


@figure(name="paper003_fig3_convergence_alg1", paper="003", number="Fig. 3",
        shows="L(t) of Algorithm 1 (problem (3)) on the running example: U1 with lambda = 0.3 (Example 2, returns Q(3), "
              "one cluster) and U2 with lambda = 2.5 (returns Q(1); the tentative t = 2 with Delta L = 0.0758 >= 0 is the "
              "hollow marker).",
        erratum="Example 2 (U2) prints the U1 run's Q(2) and returned set; by its own Delta L = 0.0758 it returns its Q(1) = "
                "{{x1,x2,x4},{x3,x5},{x6,x7}}, which is what is plotted. The print's y-values are not legible in the text; "
                "the curve is L(t) = L0 - lambda U from the definitions.")
def fig3(quick: bool = False):
    from ..viz.style import COLUMN_WIDTH, new_figure
    from ..viz.traces import plot_convergence

    _, r1 = _run("L0", _LAM_EX2_U1, "U1")
    _, r2 = _run("L0", _LAM_EX2_U2, "U2")
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.68, layout="constrained")
    plot_convergence([r1.trace, r2.trace], ax, labels=[r"$U_1$, $\lambda=0.3$", r"$U_2$, $\lambda=2.5$"])
    return fig


@figure(name="paper003_fig4_alg2_U1_merges", paper="003", number="Fig. 4",
        shows="Example 3 (Algorithm 2, U1, lambda = 0.3): G_X (t = 0, 5 components) and G_X-hat after each iteration t = 1..4; super-nodes x13, x25, "
              "x46, x137; the merged node is ringed and the components it joined shaded; the number of components falls 4, 3, 2, 1 and "
              "I* from log2 5 to 0.",
        erratum="Example 3 prints Delta L(1) as log2(4/5) - lambda log2 2 = -0.0219; the value -0.0219 needs "
                "log2(4/5) + lambda log2 2 (U1 falls by one bit), which is what the code gives.")
def fig4(quick: bool = False):
    from ..viz.traces import plot_trace

    jr, r = _run("I*", _LAM_EX3, "U1")
    return plot_trace(r.trace, jr, steps=[0, 1, 2, 3, 4], ncols=5)


@figure(name="paper003_fig5_alg2_U2_merges", paper="003", number="Fig. 5",
        shows="Example 4 (Algorithm 2, U2, x7 = 4, lambda = 0.3): G_X (t = 0) and G_X-hat after each iteration; x14, x35, x356 as printed "
              "for t = 1..3, then the fourth merge x2 + x7 that the definitions accept.",
        erratum="The print stops at t = 3 with Q(3) = {{x1,x4},{x3,x5,x6},{x2},{x7}}, but under the stated settings the "
                "4th merge {x2}+{x7} has Delta L = -0.615 < 0 and is taken (the paper's stop needs lambda >= 0.7792); "
                "panel (e) shows it.")
def fig5(quick: bool = False):
    from ..viz.traces import plot_trace

    jr, r = _run("I*", _LAM_EX4, "U2", example=4)
    return plot_trace(r.trace, jr, steps=range(len(r.trace)), ncols=5)


@figure(name="paper003_fig6_convergence_alg2", paper="003", number="Fig. 6",
        shows="L(t) of Algorithm 2 (problem (5)) with lambda = 0.3: U1 (Example 3, terminates at t = 4 with one component) "
              "and U2 (Example 4, x7 = 4); both strictly decreasing.",
        erratum="The U2 curve continues to t = 4 (Delta L = -0.615 < 0 at the 4th merge; Example 4's stop at t = 3 needs "
                "lambda >= 0.7792).")
def fig6(quick: bool = False):
    from ..viz.style import COLUMN_WIDTH, new_figure
    from ..viz.traces import plot_convergence

    _, r1 = _run("I*", _LAM_EX3, "U1")
    _, r2 = _run("I*", _LAM_EX4, "U2", example=4)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.68, layout="constrained")
    plot_convergence([r1.trace, r2.trace], ax, labels=[r"$U_1$ (Example 3)", r"$U_2$ (Example 4)"])
    return fig


# ----------------------------------------------------------------------------------------------------------------
# Fig. 7: Pareto frontiers of the running example
# ----------------------------------------------------------------------------------------------------------------
@figure(name="paper003_fig7_pareto_frontier", paper="003", number="Fig. 7",
        shows="Pareto frontier of problem (5) (Algorithm 2 over every lambda, from one trajectory) on the running example, "
              "normalised axes: (a) U1 with Example 3's solution (I* = 0 at I0 = log2(7/3), utility loss 0.565); "
              "(b) U2 (x7 = 4) with Example 4's solution; dashed black: exact frontier over all 877 partitions. Frontiers are "
              "staircases: a utility loss between two points achieves only the leakage of the point to its left, so the "
              "greedy staircase never dips below the exact one.",
        erratum="Example 4 as printed (Q(3), I* = 1 bit) is drawn as a second star; under the stated settings the algorithm "
                "takes a 4th merge and returns I* = 0 (its 4th merge {x2}+{x7} has Delta L = -0.615; the printed stop "
                "needs lambda >= 0.7792). The exact frontiers are an addition: the greedy "
                "frontier misses the exact point I* = 1 bit at loss 0.356 (U1).")
def fig7(quick: bool = False):
    from types import SimpleNamespace

    from ..datasets import paper_example
    from ..mechanisms.quantization.agglomerative import agglomerate, evaluate_quantization
    from ..mechanisms.quantization.exact import exact_frontier
    from ..mechanisms.quantization.frontier import pareto_frontier
    from ..viz.frontiers import plot_frontier
    from ..viz.style import PAGE_WIDTH, new_figure

    jr, _ = paper_example()
    jr4, v4 = paper_example(4)
    fig, axes = new_figure(PAGE_WIDTH * 0.82, 2.55, 1, 2, layout="constrained")
    f1, e1 = pareto_frontier(jr, "I*"), exact_frontier(jr, "I*")
    plot_frontier([f1, e1], axes[0], labels=["Algorithm 2, $U_1$", "exact optimum"],
                  marks={"Example 3": agglomerate(jr, "I*", _LAM_EX3)}, title="(a) $U_1$")
    f2, e2 = pareto_frontier(jr4, "I*", utility="U2", values=v4), exact_frontier(jr4, "I*", utility="U2", values=v4)
    r4 = agglomerate(jr4, "I*", _LAM_EX4, utility="U2", values=v4)
    p3, u3 = evaluate_quantization(jr4, r4.trace.quantization(3), "I*", utility="U2", values=v4)
    plot_frontier([f2, e2], axes[1], labels=["Algorithm 2, $U_2$", "exact optimum"],
                  marks={"Example 4 (definitions, $t=4$)": r4,
                         "Example 4 as printed ($t=3$)": SimpleNamespace(privacy=p3, utility=u3, utility_name="U2")},
                  title="(b) $U_2$, $x_7=4$")
    return fig


# ----------------------------------------------------------------------------------------------------------------
# Figs. 8-9: the Hungarian heart-disease data
# ----------------------------------------------------------------------------------------------------------------
def _hungarian(utility: str):
    """(jr, values): U1 runs keep missing cholesterol as its own value (the paper's 154 values); U2 needs a
    number per value, so its runs drop the rows with missing cholesterol (153 values)."""
    from ..datasets import hungarian_range

    if utility == "U2":
        jr = hungarian_range(missing="drop")
        return jr, {x: float(x) for x in jr.public_labels.tolist()}
    return hungarian_range(), None


@figure(name="paper003_fig8_hungarian_convergence", paper="003", number="Fig. 8",
        shows="Hungarian data (S = age, X = cholesterol): (a) Algorithm 1 (problem (3)) with the caption's lambda = 2.3 (U1) "
              "and 2 (U2): L(t) at that lambda along the whole merge order (the lambda = 0 run, every merge accepted), "
              "with the run at the caption's lambda, which stops where L first rises; (b) Algorithm 2 (problem (5)) "
              "with lambda = 1.3 (U1) and 0.03 (U2): L of every candidate first merge (a pair across the two components "
              "of G_X) beside L(0), the run at the caption's lambda on top; (c) the privacy along the full lambda-free "
              "merge order of each run, i.e. how far the algorithms could go.",
        erratum="Not reproducible as printed. G_X of the data has 2 components (age 28 with cholesterol 132 is isolated), "
                "so I* = 1 bit and Algorithm 2 can merge once, not about 80 times; with the caption's lambda values "
                "Algorithm 1 rejects its first iteration (U1 and U2) and Algorithm 2 stops at t = 0 (U1) or t = 1 (U2). "
                "Panels (a) and (b) therefore show what the definitions give around those runs (the whole merge order, "
                "every candidate first merge) rather than the printed curves. U2 uses raw mg/dl with the "
                "missing-cholesterol rows dropped (153 values); the print's scale is unknown.")
def fig8(quick: bool = False):
    from ..mechanisms.quantization.agglomerative import agglomerate
    from ..viz.style import PAGE_WIDTH, PALETTE, ROLE, new_figure
    from ..viz.traces import plot_convergence

    fig, ax0 = new_figure(PAGE_WIDTH, 3.4, layout="constrained")
    ax0.remove()
    gs = fig.add_gridspec(2, 3)
    colours = {"U1": ROLE["frontier"], "U2": ROLE["frontier2"]}
    for col, obj, letter, alg in ((0, "L0", "a", "Algorithm 1, problem (3)"), (1, "I*", "b", "Algorithm 2, problem (5)")):
        for row, u in enumerate(("U1", "U2")):
            ax = fig.add_subplot(gs[row, col])
            jr, vals = _hungarian(u)
            lam = _HUNGARIAN_LAMS[obj][u]
            run = agglomerate(jr, obj, lam, utility=u, values=vals).trace
            name = rf"$U_{u[1]}$, $\lambda={lam:g}$"
            if obj == "L0":   # L(t) at the caption's lambda along the whole merge order (lambda = 0: every merge taken)
                whole = agglomerate(jr, obj, 0.0, utility=u, values=vals).trace
                L = np.asarray(whole.step_privacy) - lam * np.asarray(whole.step_utility)
                ax.plot(np.arange(len(L)), L, color="#9a9a9a", linewidth=1.0, marker="o", markersize=2.5, zorder=1,
                        label="whole merge order")
            else:             # every candidate first merge: the isolated value with each cluster of the other component
                L = _first_merge_candidates(jr, lam, u, vals)
                jitter = np.random.default_rng(0).uniform(-0.12, 0.12, len(L))
                ax.scatter(1 + jitter, L, s=5, color="#9a9a9a", linewidths=0, zorder=1,
                           label=f"{len(L)} candidate merges")
                ax.set_xlim(-0.4, 1.5)
            plot_convergence([run], ax, labels=[f"run, {name}"], colors=[colours[u]],
                             title=f"({letter}) {alg}" if row == 0 else None)
            ax.set_ylabel(r"$\mathcal{L}(t)$" + f" ({name})", fontsize=7)
            ax.tick_params(labelsize=6.5)
            if row == 0:
                ax.set_xlabel("")
            _smaller_legend(ax, loc="best")
    ax = fig.add_subplot(gs[:, 2])
    full, labels = [], []
    for obj, alg in (("L0", "$L_0$, Alg. 1"), ("I*", "$I^*$, Alg. 2")):
        for u in ("U1", "U2"):
            jr, vals = _hungarian(u)
            tr = agglomerate(jr, obj, 0.0, utility=u, values=vals).trace
            full.append(tr)
            n = sum(s.accepted for s in tr.steps) - 1
            labels.append(f"{alg}, $U_{u[1]}$\n({n} merge{'s' if n != 1 else ''})")   # narrow: clear of t = 0-2
    # runs whose privacy curves coincide are drawn once, with one legend entry naming both
    same = [np.allclose(full[2].to_frame()["privacy"], full[3].to_frame()["privacy"])] if len(full[2]) == len(full[3]) else [False]
    if same[0]:
        full, labels = full[:3], labels[:2] + [labels[2].replace("$U_1$", "$U_1$ and $U_2$").replace("merge)", "merge each)")]
    plot_convergence(full, ax, labels=labels, quantity="privacy", show_rejected=False, mark_returned=False,
                     colors=[ROLE["frontier"], ROLE["frontier2"], PALETTE[2], PALETTE[3]],
                     title=r"(c) full merge order ($\lambda=0$)")
    for line in ax.get_lines():   # U2 hollow and dashed, so a curve under another one still shows
        if "U_2" in line.get_label() and "U_1" not in line.get_label():
            line.set_markerfacecolor("white")
            line.set_linestyle("--")
    ax.set_ylabel("privacy leakage (bits)")
    ax.legend(frameon=False, fontsize=6, loc="upper right")    # the curves start top left
    return fig


def _first_merge_candidates(jr, lam: float, utility: str, values) -> np.ndarray:
    """L of every first merge Algorithm 2 may make on ``jr`` (a pair of values in different components of G_X:
    eq. (8)'s candidates), at ``lam``."""
    from ..mechanisms.quantization.mechanism import lagrangian
    from ..graphs.support import components

    labels = jr.public_labels.tolist()
    comp = np.asarray(components(jr).public)
    out = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            if comp[i] != comp[j]:
                q = [{labels[k]} for k in range(len(labels)) if k not in (i, j)] + [{labels[i], labels[j]}]
                out.append(lagrangian(jr, q, "I*", lam, utility, values))
    return np.asarray(out, dtype=float)


def _smaller_legend(ax, loc: str) -> None:
    """Redraw ``ax``'s legend (all its keys, e.g. plot_convergence's "returned" and "rejected") at 6 pt at ``loc``."""
    leg = ax.get_legend()
    handles, texts = leg.legend_handles, [t.get_text() for t in leg.get_texts()]
    ax.legend(handles, texts, frameon=False, fontsize=6, loc=loc)


def _break_y_axis(top, low, traces) -> None:
    """Split one panel into two y ranges (``top`` above ``low``): values far above the others go on top."""
    vals = np.sort(np.concatenate([tr.to_frame()["L"].to_numpy(dtype=float) for tr in traces]))
    gaps = np.diff(vals)
    k = int(np.argmax(gaps))
    lo_span = vals[k] - vals[0] or 1.0
    pad_lo, pad_hi = 0.12 * lo_span, 0.12 * max(vals[-1] - vals[k + 1], lo_span * 0.3)
    low.set_ylim(vals[0] - pad_lo, vals[k] + pad_lo)
    top.set_ylim(vals[k + 1] - pad_hi, vals[-1] + pad_hi)
    top.spines["bottom"].set_visible(False)
    top.tick_params(axis="x", bottom=False, labelbottom=False)
    top.set_xlabel("")
    top.set_ylabel("")
    top.set_xlim(low.get_xlim())
    for ax, y in ((top, 0.0), (low, 1.0)):   # the break marks on the y axis
        ax.plot([-0.025, 0.025], [y - 0.035 * (1 if ax is low else 3), y + 0.035 * (1 if ax is low else 3)],
                transform=ax.transAxes, color="k", lw=0.8, clip_on=False)
    _join_across_break(top, low)


def _join_across_break(top, low) -> None:
    """A step from the lower y range to the upper one is drawn once, as one line across the break (each panel
    alone would clip it to a stub): the panels' own copies are removed and a figure-level line joins the points."""
    from matplotlib.patches import ConnectionPatch

    lo_top = low.get_ylim()[1]
    for line in list(low.get_lines()):
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        if len(x) != 2 or not ((y[0] <= lo_top) ^ (y[1] <= lo_top)):
            continue
        a, b = (0, 1) if y[0] <= lo_top else (1, 0)
        for twin in list(top.get_lines()):    # the same segment, clipped, in the upper panel
            tx, ty = (np.asarray(v, dtype=float) for v in twin.get_data())
            if len(tx) == 2 and np.allclose(tx, x) and np.allclose(ty, y):
                twin.remove()
        line.remove()
        con = ConnectionPatch(xyA=(x[a], y[a]), coordsA=low.transData, xyB=(x[b], y[b]), coordsB=top.transData,
                              color=line.get_color(), linestyle=line.get_linestyle(), linewidth=line.get_linewidth(),
                              zorder=2)
        con.set_gid("graphpriv-across-break")
        low.figure.add_artist(con)


@figure(name="paper003_fig9_hungarian_frontiers", paper="003", number="Fig. 9",
        shows="Hungarian data: Pareto frontiers over every lambda of (a) problem (3) with Algorithm 1 (U1, U2) and the "
              "5-anonymity generalisation-and-suppression baseline [49] (suppression for U1, interval generalisation of "
              "cholesterol for U2); (b) problem (5) with Algorithm 2 (U1, U2), the x axis zoomed onto its two single merges "
              "(each labelled with its cost). Frontiers are staircases: a utility loss between two points achieves the "
              "leakage of the point to its left.",
        erratum="With I*(S;X) = 1 bit (2 components) the problem-(5) frontiers have only two points (X itself and one merge), "
                "unlike the print. The submodularity-based baseline [50, Algorithm 1] is not implemented and is omitted. "
                "U2 uses raw mg/dl with the missing-cholesterol rows dropped (153 values).")
def fig9(quick: bool = False):
    from ..mechanisms.quantization.baselines import k_anonymity_generalization
    from ..mechanisms.quantization.frontier import pareto_frontier
    from ..viz.frontiers import plot_frontier
    from ..viz.style import PAGE_WIDTH, new_figure

    fig, axes = new_figure(PAGE_WIDTH * 0.82, 2.6, 1, 2, layout="constrained")
    (j1, _), (j2, v2) = _hungarian("U1"), _hungarian("U2")
    fl = [pareto_frontier(j1, "L0"), pareto_frontier(j2, "L0", utility="U2", values=v2)]
    base = {"5-anonymity [49], $U_1$": k_anonymity_generalization(j1, 5),
            "5-anonymity [49], $U_2$": k_anonymity_generalization(j2, 5, v2)}
    plot_frontier(fl, axes[0], labels=["Algorithm 1, $U_1$", "Algorithm 1, $U_2$"], baselines=base,
                  title="(a) problem (3): $L_0$", legend=False)
    axes[0].legend(frameon=False, loc="lower left", fontsize=6.5)
    fi = [pareto_frontier(j1, "I*"), pareto_frontier(j2, "I*", utility="U2", values=v2)]
    plot_frontier(fi, axes[1], labels=["Algorithm 2, $U_1$", "Algorithm 2, $U_2$"], title="(b) problem (5): $I^*$",
                  legend=False)
    _zoom_two_point_frontiers(axes[1], fi)
    return fig


def _zoom_two_point_frontiers(ax, frontiers) -> None:
    """Panel (b) of Fig. 9: each problem-(5) frontier is X itself and one merge (I* from 1 bit to 0), at a small
    utility loss; the x axis is zoomed onto those losses and each merge is labelled with what it costs."""
    from ..viz.frontiers import frontier_coordinates
    from ..viz.style import ROLE

    units = {"U1": "bits", "U2": "mg/dl"}
    ends = []
    for f in frontiers:
        x, y = frontier_coordinates(f)
        k = int(np.argmax(x))
        u_x, u_q = max(f.utility_values), float(np.asarray(f.utility_values)[np.argmin(f.privacy)])
        u = f"$U_{f.utility[1]}$"
        ends.append((float(x[k]), float(y[k]), f"{u}: one merge, $I^*$ from 1 bit to 0,\n"
                     f"{u} from {u_x:.3g} to {u_q:.3g} {units[f.utility]} (loss {x[k]:.2g})".replace("-", "\u2212")))
    right = max(e[0] for e in ends)
    ax.set_xlim(-0.04 * right, 1.12 * right)
    for (x, y, text), dy in zip(sorted(ends, reverse=True), (0.42, 0.16)):
        ax.annotate(text, xy=(x, y), xytext=(0.9 * right, dy), ha="right", va="center", fontsize=6.5,
                    arrowprops=dict(arrowstyle="-", color=ROLE["edge"], lw=0.6, shrinkB=4))
    ax.legend(frameon=False, loc="center", bbox_to_anchor=(0.45, 0.72))


@figure(name="paper003_hungarian_min_cuts", paper="003", number="Sec. IV / VI (no printed figure)",
        shows="Hungarian data (S = age, X = cholesterol, missing cholesterol kept as its own value: 154 public values): "
              "minimum cuts of G_X drawn as their two sides (discs, area proportional to the number of public values) "
              "joined by a band of the cut edges, which are listed with the ages they share. (a) The global min cut: "
              "kappa = 0 between G_X's two components (age 28 with cholesterol 132 is isolated), so G_X is decomposable "
              "and I* = 1 bit. (b) The global min cut of the largest component (153 values): kappa = 1, the edge "
              "193 - 271 through age 62. (c) The 253-272 s-t cut of that component: kappa = 26, 272 cut off alone.")
def hungarian_min_cuts(quick: bool = False):
    import numpy as np

    from ..datasets import hungarian_range
    from ..graphs.cuts import min_cut
    from ..graphs.support import components
    from ..viz.style import PAGE_WIDTH, new_figure

    jr = hungarian_range()
    comp = np.asarray(components(jr).public)
    big = np.bincount(comp).argmax()
    largest = jr.restrict(public=[x for x, k in zip(jr.public_labels.tolist(), comp) if k == big])
    from ..viz.cuts import plot_cut_sides

    fig, axes = new_figure(PAGE_WIDTH, 3.6, 1, 3, layout="constrained")
    # the cut sides of each (the view plot_min_cut draws at this size), at most 6 cut edges listed: the list stays
    # on the page (the rest are counted; all of them are in cut.cut_edges)
    plot_cut_sides(jr, min_cut(jr), axes[0], title=f"(a) $G_X$ ({jr.n_public} values):\nglobal min cut", max_listed=6)
    plot_cut_sides(largest, min_cut(largest), axes[1], title=f"(b) largest component\n({largest.n_public} values): min cut",
                   max_listed=6)
    plot_cut_sides(largest, min_cut(largest, 253, 272), axes[2], title="(c) largest component:\n253–272 cut", max_listed=6)
    for ax in axes:
        ax.title.set_fontsize(8)
    return fig


# ----------------------------------------------------------------------------------------------------------------
# Merge views on the Hungarian data (no printed figure): which values merge, and which components join
# ----------------------------------------------------------------------------------------------------------------
_MERGE_VIEW_DATA = ("Hungarian data, S = age, X = cholesterol with the rows of missing cholesterol dropped "
                    "(153 public values, 37 ages). ")
_MERGE_VIEW_KEY = ("Top: the size of each cluster's anonymity set [[S given x-hat]]; middle: the matrix view of [[S, X-hat(t)]] "
                   "(columns in the left-to-right order of the merge hierarchy's leaves, each cluster a contiguous band, "
                   "dark cells the pairs of [[S,X]], light cells the pairs the quantisation adds, the clusters merged at t "
                   "outlined and numbered in merge order); bottom: the merge hierarchy (scipy dendrogram of "
                   "MergeTrace.to_linkage, each subtree's smaller value on the left) cut at t, every leaf under its matrix "
                   "column; right: the components of G_X-hat(t) sized by their number of values, the joined one ringed.")


def _hungarian_trace(objective: str, lam: float, utility: str):
    from ..mechanisms.quantization.agglomerative import agglomerate

    jr, vals = _hungarian("U2")        # the 153 values with a cholesterol number (both utilities run on them)
    return jr, agglomerate(jr, objective, lam, utility=utility, values=vals if utility == "U2" else None).trace


@figure(name="paper003_hungarian_alg1_merge_view", paper="003", number="Sec. V-A / VI (no printed figure)",
        shows=_MERGE_VIEW_DATA + "Algorithm 1 (problem (3), U1) along its full merge order (lambda = 0) at t = 1: "
              "one sweep merges 77 pairs, numbered 1-77; pair 3 (132 + 147) joins the isolated component "
              "(age 28, cholesterol 132) to the rest. " + _MERGE_VIEW_KEY,
        erratum="With the caption's lambda = 2.3 Algorithm 1 rejects this first sweep (Delta L >= 0) and releases X "
                "itself; lambda = 0 shows where the sweeps would go.")
def hungarian_alg1_merge_view(quick: bool = False):
    from ..viz.overview import plot_merge_view

    jr, tr = _hungarian_trace("L0", 0.0, "U1")
    return plot_merge_view(tr, jr, 1)


@figure(name="paper003_hungarian_alg1_matrix_steps", paper="003", number="Sec. V-A / VI (no printed figure)",
        shows=_MERGE_VIEW_DATA + "Algorithm 1 (problem (3), U1, lambda = 0): the matrix view of [[S, X-hat(t)]] at "
              "t = 2 (10 pairs), t = 5 (4 pairs) and t = 12 (4 pairs); 66, 33 and 10 clusters. Each cluster is a "
              "contiguous band of columns, the clusters merged at t are outlined and numbered; the strip above each "
              "panel gives the size of every cluster's anonymity set [[S given x-hat]].")
def hungarian_alg1_matrix_steps(quick: bool = False):
    from ..viz.traces import plot_trace

    jr, tr = _hungarian_trace("L0", 0.0, "U1")
    return plot_trace(tr, jr, steps=[5] if quick else [2, 5, 12], view="matrix", ncols=1)


@figure(name="paper003_hungarian_alg2_merge_view", paper="003", number="Sec. V-B / VI (no printed figure)",
        shows=_MERGE_VIEW_DATA + "Algorithm 2 (problem (5), U2) with the caption's lambda = 0.03: its only merge, "
              "129 + 132 at t = 1, joins G_X's two components (I* from 1 bit to 0) and is released. " + _MERGE_VIEW_KEY,
        erratum="G_X has 2 components, so Algorithm 2 can merge once, not about 80 times as the print's Fig. 8(b) shows.")
def hungarian_alg2_merge_view(quick: bool = False):
    from ..viz.overview import plot_merge_view

    jr, tr = _hungarian_trace("I*", _HUNGARIAN_LAMS["I*"]["U2"], "U2")
    return plot_merge_view(tr, jr, 1)


@figure(name="paper003_hungarian_secVC_merge_view", paper="003", number="Sec. V-C / VI (no printed figure)",
        shows=_MERGE_VIEW_DATA + "The Section V-C mechanism (problem (10), L0 subject to I* = 0, U1, lambda = 2.3): "
              "argmin Delta L of eq. (12) merges 85 + 132 at t = 1, which leaves one component, and is released. "
              + _MERGE_VIEW_KEY)
def hungarian_secVC_merge_view(quick: bool = False):
    from ..viz.overview import plot_merge_view

    jr, tr = _hungarian_trace("L0|I*=0", _HUNGARIAN_LAMS["L0"]["U1"], "U1")
    return plot_merge_view(tr, jr, 1)


#: seconds of the certified solver per problem-(3) panel of the greedy-vs-optimum figure (quick runs: fewer)
_OPTIMUM_TIME_LIMIT = {False: 240.0, True: 8.0}


def hungarian_optimum_frontiers(time_limit: float = 60.0):
    """Greedy and certified-solver frontiers on the Hungarian data, for Algorithm 1's problem (3) and
    Algorithm 2's problem (5), each with U1 and U2: ``{(objective, utility): (greedy, solver, seconds)}``."""
    import time

    from ..mechanisms.quantization.exact import exact_frontier
    from ..mechanisms.quantization.frontier import pareto_frontier

    out = {}
    for objective in ("L0", "I*"):
        for utility in ("U1", "U2"):
            jr, values = _hungarian(utility)
            t0 = time.perf_counter()
            f = exact_frontier(jr, objective, utility, values, method="solver", time_limit=time_limit)
            out[objective, utility] = (pareto_frontier(jr, objective, utility, values), f, time.perf_counter() - t0)
    return out


@figure(name="paper003_hungarian_greedy_vs_optimum", paper="003", number="Sec. VII (no printed figure)",
        shows="Hungarian data (S = age, X = cholesterol): the frontier of paper 003's greedy Algorithm 1 (problem (3), "
              "L0; top) and Algorithm 2 (problem (5), I*; bottom), with U1 (154 values, missing cholesterol kept) and U2 "
              "(153 values, missing dropped), against the integer-programming solver's frontier (exact_frontier, "
              "method='solver'; filled diamonds are certified optimal, hollow ones the best found when the time limit "
              "hit) and the staircase of proven upper bounds (no quantisation lies in the shaded area). Each panel's "
              "title gives the solver's proven gap and how far greedy is from the best found (largest shortfall over the "
              "privacy levels, as a share of the utility range).",
        erratum="Not a paper figure. Problem (5): the certified optimum equals the greedy frontier (G_X has two components; "
                "one merge joins them). Problem (3): the solver certifies every privacy level (U1 in about 80 s, U2 in about "
                "40 s on 2 cores; each panel may take up to 240 s, and a panel not certified in that time says so in its "
                "title, the optimum then lying between the best found and the shaded bound).")
def hungarian_greedy_vs_optimum(quick: bool = False):
    import pandas as pd

    from ..viz.research import plot_search_frontiers
    from ..viz.style import PAGE_WIDTH, ROLE, new_figure

    runs = hungarian_optimum_frontiers(_OPTIMUM_TIME_LIMIT[bool(quick)])
    fig, axes = new_figure(PAGE_WIDTH, 5.4, 2, 2, layout="constrained")
    units = {"U1": "$U_1$ (bits)", "U2": "$U_2$ = −max distortion (mg/dl)"}
    for ax, ((objective, utility), (greedy, solved, secs)), tag in zip(axes.ravel(), runs.items(), "abcd"):
        levels = pd.DataFrame(solved.proof["levels"])
        bounds = pd.DataFrame({"privacy": levels["privacy"], "utility_bound": levels["bound"]})
        name = "certified optimum" if solved.certified else "solver, best found"
        plot_search_frontiers({"greedy": greedy, name: solved}, bounds, ax=ax, utility_label=units[utility],
                              privacy_label="L0(S→X̂) (bits)" if objective == "L0" else "I*(S;X̂) (bits)")
        for p in solved.points:      # certified points filled, the others hollow
            ax.plot([p.privacy], [p.utility], marker="D", ms=3.2, ls="none", color=ROLE["exact"],
                    mfc=ROLE["exact"] if p.status == "optimal" else "white", zorder=5)
        # at every privacy level: the best found against greedy's best point at that privacy or better
        short = max(r["utility"] - max((q.utility for q in greedy.points if q.privacy <= r["privacy"] + 1e-12),
                                       default=-math.inf) for r in solved.proof["levels"])
        span = solved.utility_of_x - solved.utility_hat
        proof = "certified" if solved.certified else f"gap ≤ {solved.gap:.0%}"
        problem = "problem (3), Alg. 1" if objective == "L0" else "problem (5), Alg. 2"
        verdict = "greedy is optimal" if solved.certified and short <= 1e-9 else \
            f"greedy up to {short / span:.1%} of the range below the " + ("optimum" if solved.certified else "best found")
        took = f"{secs:.0f} s" if secs >= 10 else f"{secs:.1f} s"
        ax.set_title(f"({tag}) {problem}, {utility}: {proof} in {took};\n{verdict}", fontsize=7.5)
        if objective == "I*":
            leg = ax.legend(frameon=True, loc="center", framealpha=0.92)
            leg.get_frame().set_edgecolor("none")
    fig.suptitle("Hungarian data: paper 003's greedy algorithms against the certified optimum", fontsize=9)
    return fig
