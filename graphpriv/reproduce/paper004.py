"""Paper 004 (Rassouli, Rosas, Gündüz, "Data Disclosure under Perfect Sample Privacy"): Figs. 1-5, Table I, Example 2.

The paper's Figs. 4 and 5 are curves without numbers; they are rebuilt from the definitions with
graphpriv's exact routines (their n = 4 values are the regression oracles of the tests). Fig. 3 is
an illustration of the latent reduction W̃ (Theorem 2); it is drawn for a small merge example
(p_W = (1/4, 1/4, 1/2), P(X = 1 | w) = (0.2, 0.2, 0.7)). Table I and Example 2 are drawn as extra
figures, plus hypergraph / polytope views.
"""

from __future__ import annotations

import math

import numpy as np

from . import figure

__all__: list[str] = []

_TABLE1 = dict(p_w=np.array([2 / 3, 1 / 3]), p_x_given_w=np.array([[0.9, 0.1], [0.1, 0.9]]))
_EX2_P = np.array([[1, 3, 2], [2, 3, 1]]) / 12
# BSC(2/3) / BEC(1/2) model (the paper's displayed P_{W|X^2} swaps the erasure columns; same I_s)
_EX2_PW = np.array([[1, 1 / 3, 0, 1, 2 / 3, 0], [0, 2 / 3, 1, 0, 1 / 3, 1]])


def _iid(q: float, n: int) -> np.ndarray:
    px = np.array([1 - q, q])
    p = px
    for _ in range(n - 1):
        p = np.multiply.outer(p, px)
    return p


@figure(name="paper004_fig1_example2_model", paper="004", number="Fig. 1",
        shows="Example 2's model: W ~ Bern(1/2) observed through a BSC(2/3) (sample X1) and a BEC(1/2) (sample X2); "
              "p_{X^2} = [1, 3, 2, 2, 3, 1]/12.")
def fig1(quick: bool = False):
    from ..viz.hypergraphs import plot_channel
    from ..viz.style import PAGE_WIDTH, new_figure

    bsc = np.array([[1 / 3, 2 / 3], [2 / 3, 1 / 3]])
    bec = np.array([[0.5, 0.0], [0.5, 0.5], [0.0, 0.5]])
    fig, axes = new_figure(PAGE_WIDTH * 0.6, 1.8, ncols=2, layout="constrained")
    # every label in one (math) style: W = 0 as X_1 = 0
    w = ["$W = 0$", "$W = 1$"]
    plot_channel(bsc, ax=axes[0], w_labels=w, x_labels=["$X_1 = 0$", "$X_1 = 1$"], title="$X_1$ = BSC(2/3)($W$)")
    plot_channel(bec, ax=axes[1], w_labels=w, x_labels=["$X_2 = 0$", "$X_2 = \\mathrm{e}$", "$X_2 = 1$"],
                 title="$X_2$ = BEC(1/2)($W$)")
    return fig


@figure(name="paper004_fig2_two_binary", paper="004", number="Fig. 2",
        shows="Two binary samples (alpha = P(X1=0) = 0.4, beta = P(X2=0) = 0.7, r = p(0,1) = 0.2): S is the segment "
              "[a_1, a_2] along n = [1,-1,-1,1] (nullity 1), drawn as the horizontal axis with the entropy of W over it; "
              "two different tuples (W_1 = X1 xor X2, W_2 with a random p(w|x)) have different capacities I_s^1, I_s^2 "
              "(H(W) minus the chord at p) but the same optimal mapping, the vertices a_1, a_2 with weights r/R and "
              "(R-r)/R (eq. (24), Prop. 4).",
        erratum="The caption's 'p_{W_1|X} != p_{W_1|X}' should read p_{W_1|X} != p_{W_2|X}; eqs. (24)-(26) need beta >= alpha "
                "(for beta < alpha the vertex a_2 = p + r n has a negative entry; graphpriv uses "
                "r >= max(0, alpha - beta)).")
def fig2(quick: bool = False):
    from ..mechanisms.sample_privacy import synergistic_disclosure
    from ..viz.hypergraphs import plot_hyperedges
    from ..viz.style import PAGE_WIDTH, ROLE, new_figure

    alpha, beta, r = 0.4, 0.7, 0.2
    p = np.array([alpha - r, r, beta - alpha + r, 1 - beta - r]).reshape(2, 2)
    w1 = np.array([[1, 0, 0, 1], [0, 1, 1, 0]], dtype=float)
    w2 = np.random.default_rng(4).dirichlet(np.ones(3), size=4).T
    r1, r2 = synergistic_disclosure(w1, p), synergistic_disclosure(w2, p)
    fig, axes = new_figure(PAGE_WIDTH, 2.5, ncols=3, layout="constrained")
    for ax, w, res, letter, name in ((axes[0], w1, r1, "a", r"$W_1 = X_1 \oplus X_2$"),
                                     (axes[1], w2, r2, "b", r"$W_2$, a random $p_{W|X}$")):
        _segment_panel(ax, w, res, p.ravel(), alpha, beta, r)
        ax.set_title(f"({letter}) {name}: $I_s$ = {res.value:.3f} bits", fontsize=8)
    plot_hyperedges(r1.hypergraph, result=r1, ax=axes[2], title="(c) the common optimal mapping")
    axes[2].title.set_fontsize(8)
    return fig


def _segment_panel(ax, w: np.ndarray, res, p: np.ndarray, alpha: float, beta: float, r: float) -> None:
    """The segment S = {p + s n : s in [-(R - r), r]} (nul(P) = 1, n = [1, -1, -1, 1]) as the horizontal axis: the
    entropy H(P_{W|X} q) of W at every point q of S (concave), its two vertices a_1, a_2 with their weights
    ((R - r)/R and r/R, eq. (24)), the chord between them and p at s = 0: H(W) minus the chord's height at p is I_s
    (eq. (15))."""
    from ..viz.style import ROLE

    def H(v):
        v = np.asarray(v, dtype=float)
        v = v[v > 1e-15]
        return float(-(v * np.log2(v)).sum())

    n = np.array([1.0, -1.0, -1.0, 1.0])
    R = min(alpha, 1 - beta)
    s = np.linspace(-(R - r), r, 121)
    curve = [H(w @ (p + si * n)) for si in s]
    ends = np.array([-(R - r), r])
    h_ends = [H(w @ (p + e * n)) for e in ends]
    weights = np.array([r / R, (R - r) / R])      # p = (r/R) a_1 + ((R-r)/R) a_2, eq. (24)
    chord = float(weights @ h_ends)
    h_w = H(w @ p)
    ax.plot(s, curve, color=ROLE["edge"], linewidth=1.3, label=r"$H(P_{W|X}\,q)$, $q \in S$")
    ax.plot(ends, h_ends, color=ROLE["merge"], linewidth=1.2, linestyle="--", label="chord $a_1 a_2$")
    ax.scatter(ends, h_ends, s=28, color=ROLE["merge"], edgecolor=ROLE["exact"], zorder=3)
    for e, h, name, u in zip(ends, h_ends, ("$a_1$", "$a_2$"), weights):
        ax.annotate(f"{name}\n$u$={u:.2f}", (e, h), xytext=(0, -4), textcoords="offset points", ha="center",
                    va="top", fontsize=6.5)
    ax.scatter([0], [h_w], marker="*", s=70, color=ROLE["frontier2"], edgecolor=ROLE["exact"], linewidth=0.5, zorder=4,
               label="$p_{X^2}$")
    ax.annotate("", xy=(0, chord), xytext=(0, h_w), arrowprops=dict(arrowstyle="<->", color="#404040", linewidth=0.8))
    ax.text(0.006, (chord + h_w) / 2, f" $I_s$ = {h_w - chord:.3f}", fontsize=6.5, va="center", ha="left")
    lo = min(min(curve), min(h_ends))
    hi = max(max(curve), h_w)
    pad = 0.12 * (hi - lo or 1.0)
    ax.set_ylim(lo - 2.5 * pad, hi + 1.6 * pad)
    ax.set_xlim(ends[0] - 0.15 * (ends[1] - ends[0]), ends[1] + 0.15 * (ends[1] - ends[0]))
    ax.set_xlabel("$s$ along $n$: $q = p_{X^2} + s\\,n$", fontsize=7)
    ax.set_ylabel("entropy of $W$ (bits)", fontsize=7)
    ax.tick_params(labelsize=6.5)
    ax.legend(fontsize=5.5, frameon=False, loc="upper left")


@figure(name="paper004_fig3_latent_reduction", paper="004", number="Fig. 3",
        shows="Latent reduction W̃ = T^X(W): values of W with identical p(x|w) are merged (left: p_W = (1/4, 1/4, 1/2), "
              "P(X=1|w) = (0.2, 0.2, 0.7); right: W̃ with 2 values), so C_X(W) = H(W̃) = 1 bit < H(W) = 1.5 bits.",
        erratum="The paper's Fig. 3 has no numbers; it is drawn for a small Theorem 2 merge example (values in 'what it shows').")
def fig3(quick: bool = False):
    from ..mechanisms.sample_privacy import latent_reduction
    from ..viz.hypergraphs import plot_channel
    from ..viz.style import PAGE_WIDTH, component_color, new_figure

    p_w = np.array([0.25, 0.25, 0.5])
    C = np.array([[0.8, 0.8, 0.3], [0.2, 0.2, 0.7]])
    red = latent_reduction(p_w, C)
    fig, axes = new_figure(PAGE_WIDTH * 0.62, 1.9, ncols=2, layout="constrained")
    plot_channel(C, ax=axes[0], w_labels=[f"$W = {w}$ ({p_w[w]:g})" for w in range(3)], x_labels=["$X = 0$", "$X = 1$"],
                 node_colors=[component_color(int(k)) for k in red.merge],
                 title=f"$p_{{X|W}}$, $H(W)$ = {float(-(p_w * np.log2(p_w)).sum()):.2g} bits")
    groups = [[w for w in range(3) if red.merge[w] == k] for k in range(red.p_w_tilde.size)]
    plot_channel(red.p_x_given_w_tilde, ax=axes[1],
                 w_labels=[f"$\\tilde W={k}$ = {{{','.join(f'$w_{w}$' for w in g)}}} ({red.p_w_tilde[k]:g})" for k, g in enumerate(groups)],
                 x_labels=["$X = 0$", "$X = 1$"], node_colors=[component_color(k) for k in range(len(groups))],
                 title=f"$p_{{X|\\tilde W}}$, $C_X(W) = H(\\tilde W)$ = {red.value:.2g} bit")
    return fig


def _fig4_data(qs, n=4):
    from ..mechanisms.sample_privacy import partial_processing, preprocessing_information, preprocessing_mechanism, self_disclosure

    rows = []
    for q in qs:
        p = _iid(q, n)
        h = n * float(-(q * math.log2(q) + (1 - q) * math.log2(1 - q)))
        rows.append((q, self_disclosure(p).value / h, partial_processing(p).information / h,
                     preprocessing_mechanism(p).information / h, preprocessing_information(q, n, formula="eq67") / h))
    return np.array(rows)


@figure(name="paper004_fig4_heuristics_n4", paper="004", number="Fig. 4",
        shows="Self-disclosure efficiency of n = 4 i.i.d. Bern(q) samples: optimal (Algorithms 1-2), partial processing "
              "Y_par, pre-processing Y_pre (exact) and the paper's eq. (67) for Y_pre, with the Lemma 6 bound 1 - 1/n.",
        erratum="Eq. (67) is exact only for n = 2; for n = 4 it underestimates Y_pre (dashed); the solid Y_pre curve is "
                "the exact value (n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta): eq. (67) assumes the D_k = S_k xor S_{k+1} "
                "are conditionally independent given X^n, which they are not.")
def fig4(quick: bool = False):
    from ..viz.style import COLUMN_WIDTH, ROLE, new_figure

    qs = np.array([0.1, 0.3, 0.5]) if quick else np.round(np.arange(0.02, 0.5001, 0.02), 4)
    d = _fig4_data(qs)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    ax.plot(d[:, 0], d[:, 1], color=ROLE["exact"], marker="o", markersize=2.5, label="optimal (Alg. 1-2)")
    ax.plot(d[:, 0], d[:, 2], color=ROLE["frontier"], marker="s", markersize=2.5, label="$Y_{par}$ (Lemma 7)")
    ax.plot(d[:, 0], d[:, 3], color=ROLE["frontier2"], marker="^", markersize=2.5, label="$Y_{pre}$ exact")
    ax.plot(d[:, 0], d[:, 4], color=ROLE["frontier2"], linestyle="--", label="$Y_{pre}$ per eq. (67)")
    ax.axhline(0.75, color=ROLE["baseline"], linestyle=":", label="Lemma 6: $1 - 1/n$")
    ax.set_xlabel("$q = P(X_k = 1)$")
    ax.set_ylabel("efficiency $\\hat I / H(X^4)$")
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, 0.8)
    ax.set_title("n = 4 i.i.d. Bernoulli samples")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False, fontsize=6.5)
    return fig


@figure(name="paper004_fig5_asymptotic_efficiency", paper="004", number="Fig. 5",
        shows="Asymptotic (n → ∞) efficiency on i.i.d. Bern(q) bits: optimal (= 1, Theorem 4), Y_par (Example 4), "
              "Y_pre exact ((1 - (1 - q) h(beta)) / h(q)) and per the paper's eq. (67).",
        erratum="The paper's eq. (67) curve (dashed) understates Y_pre; with the exact formula Y_pre beats Y_par for "
                "q < 1 - 1/√2 ≈ 0.293 (marked), contrary to the paper's remark.")
def fig5(quick: bool = False):
    from ..mechanisms.sample_privacy import binary_iid_asymptotic_efficiency as eff
    from ..viz.style import COLUMN_WIDTH, ROLE, new_figure

    qs = np.linspace(0.01, 0.5, 12 if quick else 99)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    ax.plot(qs, np.ones_like(qs), color=ROLE["exact"], label="optimal (Theorem 4)")
    ax.plot(qs, [eff(q, "par") for q in qs], color=ROLE["frontier"], label="$Y_{par}$")
    ax.plot(qs, [eff(q, "pre") for q in qs], color=ROLE["frontier2"], label="$Y_{pre}$ exact")
    ax.plot(qs, [eff(q, "pre_eq67") for q in qs], color=ROLE["frontier2"], linestyle="--", label="$Y_{pre}$ per eq. (67)")
    qc = 1 - 1 / math.sqrt(2)
    ax.axvline(qc, color=ROLE["edge"], linewidth=0.7, linestyle=":")
    ax.annotate("$1 - 1/\\sqrt{2}$", xy=(qc, 0.05), xytext=(4, 0), textcoords="offset points", fontsize=6.5)
    ax.set_xlabel("$q = P(X_k = 1)$")
    ax.set_ylabel("asymptotic efficiency")
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, 1.05)
    ax.set_title("n → ∞, i.i.d. Bernoulli samples")
    ax.legend(loc="center left", frameon=False, fontsize=6.5)
    return fig


@figure(name="paper004_table1_is_vs_n", paper="004", number="Table I",
        shows="I_s(W, X^n) for W ~ Bern(1/3), X_i|W i.i.d. BSC(0.1), n = 1..5 (paper: n = 2, 3, 4), with the Prop. 2 bound, "
              "the genie J(W, X^n) and C_1(0) = 0 (left) and I(W; X^n) tending to C_X(W) = H(W) (right).",
        erratum="n = 5 is not in the paper (0.0539 > I_s(4): I_s is not monotone, convergence to C_1(0) = 0 is slow).")
def table1(quick: bool = False):
    from ..mechanisms.sample_privacy import disclosure_bounds, genie_disclosure, iid_samples_model, synergistic_disclosure
    from ..viz.style import PAGE_WIDTH, ROLE, new_figure

    ns = [1, 2, 3] if quick else [1, 2, 3, 4, 5]
    Is, ub, iw = [], [], []
    for n in ns:
        pw, px = iid_samples_model(_TABLE1["p_w"], _TABLE1["p_x_given_w"], n)
        Is.append(synergistic_disclosure(pw, px).value)
        b = disclosure_bounds(pw, px)
        ub.append(b.upper)
        iw.append(b.i_w_xn)
    nj = [1, 2] if quick else [1, 2, 3]
    J = [genie_disclosure(_TABLE1["p_w"], _TABLE1["p_x_given_w"], n) for n in nj]
    hw = float(-(_TABLE1["p_w"] * np.log2(_TABLE1["p_w"])).sum())
    fig, axes = new_figure(PAGE_WIDTH * 0.7, 2.1, ncols=2, layout="constrained")
    ax = axes[0]
    ax.plot(ns, ub, color=ROLE["edge"], marker="v", linestyle="--", label="Prop. 2 bound")
    ax.plot(nj, J, color=ROLE["frontier2"], marker="s", label="genie $J(W,X^n)$")
    ax.plot(ns, Is, color=ROLE["exact"], marker="o", label="$I_s(W,X^n)$")
    ax.axhline(0, color=ROLE["baseline"], linestyle=":", label="$C_1(0) = 0$")
    for n, v in zip(ns, Is):
        if n >= 2:
            ax.annotate(f"{v:.3g}", xy=(n, v), xytext=(0, 5), textcoords="offset points", ha="center", fontsize=6)
    ax.set_xlabel("number of samples n")
    ax.set_ylabel("bits")
    ax.set_xticks(ns)
    ax.set_title("synergistic disclosure")
    ax.legend(frameon=False, fontsize=6.5, loc="upper left")
    ax = axes[1]
    ax.plot(ns, iw, color=ROLE["frontier"], marker="o", label="$I(W;X^n)$")
    ax.axhline(hw, color=ROLE["exact"], linestyle=":", label="$C_X(W) = H(W)$")
    ax.set_xlabel("number of samples n")
    ax.set_xticks(ns)
    ax.set_ylim(0, 1)
    ax.set_title("Theorem 2")
    ax.legend(frameon=False, fontsize=6.5, loc="lower right")
    return fig


@figure(name="paper004_ex2_hypergraph", paper="004", number="Example 2",
        shows="Example 2 (W ~ Bern(1/2), X1 = BSC(2/3), X2 = BEC(1/2)): incidence matrix P of H_2, its Levi graph, the "
              "hyperedges coloured by the optimal output y (each colour a vertex of S: a forest and an edge cover), and "
              "the polytope S (4 vertices, costs c_k, optimal weights u = 1/3) with I_s = 0.0134 bits.",
        erratum="The paper's displayed p_1..p_3 are garbled and p_4 is missing; the vertices drawn are the correct 6-vectors "
                "(p_4 recovered from eq. (22)). P_{W|X^2} from the stated model (the print swaps its erasure columns; "
                "I_s is the same).")
def ex2(quick: bool = False):
    from ..graphs.hypergraph import SampleHypergraph
    from ..mechanisms.sample_privacy import synergistic_disclosure
    from ..viz.hypergraphs import plot_hyperedges, plot_hypergraph_incidence, plot_levi_graph, plot_privacy_polytope
    from ..viz.style import PAGE_WIDTH, new_figure

    hg = SampleHypergraph.from_pmf(_EX2_P, labels=[[0, 1], ["0", "e", "1"]])
    res = synergistic_disclosure(_EX2_PW, hg)
    fig, axes = new_figure(PAGE_WIDTH, 4.6, nrows=2, ncols=2, layout="constrained")
    plot_hypergraph_incidence(hg, ax=axes[0, 0], title="(a) incidence matrix P (weights p below)")
    plot_levi_graph(hg, ax=axes[0, 1], title="(b) Levi graph of $H_2$")
    plot_hyperedges(hg, result=res, ax=axes[1, 0], title="(c) optimal mapping: hyperedges by y")
    plot_privacy_polytope(res, ax=axes[1, 1], title=f"(d) polytope S, $I_s$ = {res.value:.4f} bits")
    return fig


@figure(name="paper004_table1_hypergraph_n3", paper="004", number="Table I (n = 3)",
        shows="The Table I model at n = 3: the 3-uniform hypergraph H_3 (full binary support) in parallel coordinates, "
              "split by the optimal output y (3 outputs, width ∝ p(x^n, y)), and the 9-vertex polytope S projected on two "
              "null directions (nullity 4).")
def table1_hypergraph(quick: bool = False):
    from ..mechanisms.sample_privacy import iid_samples_model, synergistic_disclosure
    from ..viz.hypergraphs import plot_hyperedges, plot_privacy_polytope
    from ..viz.style import PAGE_WIDTH, new_figure

    pw, px = iid_samples_model(_TABLE1["p_w"], _TABLE1["p_x_given_w"], 3)
    res = synergistic_disclosure(pw, px)
    fig, axes = new_figure(PAGE_WIDTH * 0.75, 2.6, ncols=2, layout="constrained")
    plot_hyperedges(res.hypergraph, result=res, ax=axes[0], title="$H_3$ hyperedges by optimal y")
    plot_privacy_polytope(res, ax=axes[1], label_vertices=False, title=f"S (9 vertices), $I_s$ = {res.value:.4f} bits")
    return fig
