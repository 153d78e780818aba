"""``graphpriv demo``: the core measures on the bundled Hungarian data (S = age, X = cholesterol)."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="analyse the bundled Hungarian heart-disease data (S = age, X = cholesterol)",
        description="Print range sizes, H0, I0, L0, B0, k-anonymity, the finest decomposition of G_X, I* and "
        "decomposability for the bundled UCI Hungarian data (Ding & Farokhi 2020, Section VII-B): the exact "
        "duplicate record dropped, missing cholesterol kept as a value of its own (NA), so it counts 38 ages and 154 "
        "public values where `graphpriv analyze hungarian -s age -x chol --missing drop` (rows without cholesterol "
        "dropped) counts 37 and 153; the output says which rows it uses and what each measure means.",
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


def row_lines(raw, df, jr, drop) -> list[str]:
    """Which rows the demo uses, and why ``analyze hungarian --missing drop`` finds other numbers."""
    import pandas as pd

    n_dup = len(raw) - len(df)
    missing = df["chol"].isna()
    only_missing = sorted(set(df.loc[missing, "age"]) - set(df.loc[~missing, "age"]))
    ages = ", ".join(str(a) for a in only_missing) or "none"
    n_na = int(pd.isna(raw["chol"]).sum())
    return [
        f"rows: {len(raw)} in the bundled table, {len(df)} used ({n_dup} exact duplicate dropped: it repeats a pair, "
        "[[S,X]] is unchanged)",
        f"missing cholesterol: {int(missing.sum())} rows kept as a public value of its own, NA (missing='keep'):",
        f"  |[[X]]| = {jr.n_public} = {drop.n_public} measured values + NA; |[[S]]| = {jr.n_sensitive} counts "
        f"age{'s' * (len(only_missing) != 1)} {ages}, seen only without cholesterol",
        f"  `graphpriv analyze hungarian -s age -x chol --missing drop` drops the {n_na} rows without cholesterol "
        f"instead: {drop.n_sensitive} ages, {drop.n_public} values, {drop.n_pairs} pairs -- hence its other numbers",
    ]


def run(args) -> int:
    import graphpriv as gp
    from ..report.glossary import glossary_lines

    raw = gp.datasets.load_hungarian()
    df = gp.datasets.load_hungarian(drop_duplicates=True)
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    drop = gp.JointRange.from_dataframe(raw, sensitive="age", public="chol", missing="drop")
    out = [
        "graphpriv demo: UCI Hungarian heart disease (Janosi et al. 1989, CC BY 4.0), S = age, X = cholesterol",
        *row_lines(raw, df, jr, drop),
        f"pairs seen once: {jr.n_singleton_pairs}",
    ] + summary_lines(jr, "age", "cholesterol") + glossary_lines(["H0", "H0|X", "I0", "L0", "B0", "k", "I*"])
    if not args.quiet:
        print("\n".join(out))
    return 0
