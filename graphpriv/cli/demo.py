"""``graphpriv demo``: the core measures on the bundled Hungarian data (S = age, X = cholesterol)."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="analyse the bundled Hungarian heart-disease data (S = age, X = cholesterol)",
        description="Print range sizes, H0, I0, L0, B0, k-anonymity, the finest decomposition of G_X, I* and "
        "decomposability for the bundled UCI Hungarian data (paper 003, Section VII-B): the exact duplicate "
        "record dropped, missing cholesterol kept as a value of its own.",
        epilog="Example:\n  graphpriv demo",
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=run)


def summary_lines(jr, name_s: str = "S", name_x: str = "X") -> list[str]:
    """Human-readable summary of the core measures of a joint range (used by demo and analyze)."""
    import graphpriv as gp

    comps = gp.finest_decomposition(jr)
    sizes = sorted((len(c) for c in comps), reverse=True)
    small = [sorted(c, key=str) for c in comps if len(c) <= 3][:5]
    lines = [
        f"|[[S]]| ({name_s}) = {jr.n_sensitive}, |[[X]]| ({name_x}) = {jr.n_public}, |[[S,X]]| = {jr.n_pairs} pairs",
        f"H0(S)     = {gp.H0(jr):.4f} bits     H0(S|X) = {gp.H0(jr, given='X'):.4f} bits",
        f"I0(S->X)  = {gp.I0(jr):.4f} bits",
        f"L0(S->X)  = {gp.L0(jr):.4f} bits",
        f"B0(S|X)   = {gp.B0(jr):.4f} bits",
        f"k-anonymity: k = {gp.k_anonymity(jr)}",
        f"finest decomposition of G_X: {len(comps)} component(s), sizes {sizes[:10]}{' ...' if len(sizes) > 10 else ''}",
    ]
    if small and len(comps) > 1:
        lines.append("  small components: " + "; ".join("{" + ", ".join(map(str, c)) + "}" for c in small))
    lines += [
        f"I*(S;X)   = {gp.maximin_information(jr):.4f} bits (log2 {len(comps)})",
        f"G_X decomposable (min cut 0): {'yes' if gp.is_decomposable(jr) else 'no'}",
    ]
    return lines


def run(args) -> int:
    import graphpriv as gp

    df = gp.datasets.load_hungarian(drop_duplicates=True)
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    out = [
        "graphpriv demo: UCI Hungarian heart disease (Janosi et al. 1989, CC BY 4.0), S = age, X = cholesterol",
        f"records: {len(df)} (exact duplicate dropped); missing cholesterol kept as its own value: {jr.source.n_missing_public} rows",
        f"pairs seen once: {jr.n_singleton_pairs}",
    ] + summary_lines(jr, "age", "cholesterol")
    if not args.quiet:
        print("\n".join(out))
    return 0
