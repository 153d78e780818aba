"""graphpriv: graph-centric analysis of information-theoretic privacy.

A dataset with a sensitive column S and a public column X is a joint range [[S, X]] (a sparse
boolean matrix); its confusability graph G_X and bipartite support graph carry the privacy
quantities: I*(S;X) = log2 #components, decomposability = min cut 0, and mechanisms are merges.

>>> import graphpriv as gp
>>> jr, values = gp.datasets.paper_example()
>>> round(gp.maximin_information(jr), 4)
2.3219

The papers (graphpriv's numbers; ``gp.cite("003")`` prints one entry, ``graphpriv cite --list`` all):
000/001 Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential Privacy and Log-lift* (2021);
002 Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
Watchdog* (2021); 003 Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering* (2020); 004 Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample
Privacy* (2020).

Index of ``gp`` (the API reference groups its pages the same way)
-----------------------------------------------------------------
Data: joint ranges, distributions, data sets
    JointRange, RangeSource, read_joint_range, JointDistribution, validate_pmf, MISSING;
    ``gp.datasets`` (load_hungarian, hungarian_range, paper_example)
Graphs: components, the confusability graph, cuts and strength (003, Section IV)
    Components, components, support_components, bipartite_adjacency, confusability_adjacency,
    confusability_edge_count_bound, confusability_edges, to_networkx, to_igraph, MinCut, MinCutSets,
    min_cut, min_cut_sets, is_decomposable, laplacian_decomposition, EdgeCut, NetworkStrength,
    edge_connectivity, network_strength, gomory_hu_tree, GomoryHuTree, attack_partition,
    pairs_to_decompose, principal_partitions, PrincipalSequence, PartitionLevel
Graphs: hypergraphs and the privacy polytope (004)
    SampleHypergraph, HypergraphComponents, kronecker_incidence, privacy_polytope_vertices
Measures: non-stochastic (003, Sections II-III)
    H0, I0, L0, B0, k_anonymity, overlap_partition, finest_decomposition, maximin_information,
    I_star, n_components, gacs_korner
Measures: stochastic (000-002)
    shannon_entropy, log_lift, max_abs_log_lift, abs_log_lift_by_public, subset_log_lift,
    subset_abs_log_lift, breach_mass, ldp, graph_ldp, mutual_information, maximal_leakage,
    sibson_mutual_information, arimoto_mutual_information, guessing_leakage, apply_channel,
    channel_leakage, ChannelLeakage, stochastic_measures, StochasticMeasures
Mechanisms, Ding & Farokhi (003): quantisation by merges
    agglomerate, AgglomerationResult, MergeTrace, MergeStep, quantize_range, lagrangian,
    evaluate_quantization, Utility, U1, U2, as_utility, Contraction; frontiers: pareto_frontier,
    Frontier, FrontierPoint, pareto_filter, trace_frontier, section_vc_tree, VCTree; exact optimum:
    exact_frontier, exact_minimum, ExactMinimum, set_partitions, bell_number, frontier_bounds; optimal
    interval releases: interval_frontier, interval_release, interval_labels; baselines and search:
    k_anonymity_generalization, beam_search, local_search, compare_searches; side information:
    SideInformationRange, side_information_L0, side_information_maximin
Mechanisms, Sadeghi, Ding & Rakotoarivelo (002): the privacy watchdog
    watchdog, WatchdogResult, critical_sweep, CriticalLevel, CriticalSweep,
    min_channel_abs_log_lift, watchdog_eps_delta, PeelStep, EpsDeltaResult, optimal_eps_delta,
    EpsDeltaOptimum, partition_metrics, PartitionMetrics, partition_channel, nmil,
    watchdog_monte_carlo, WatchdogMonteCarlo, EpsDeltaSetting; their runs as merge traces:
    distribution_trace, DistributionStep, distribution_components, watchdog_trace, eps_delta_trace
Mechanisms, Ding, Liu & Farokhi (000/001): linear reduction
    linear_reduction, LinearReduction, linear_reduction_sweep, target_conditional, markov_kernel,
    markov_solution_is_unique, optimal_markov_kernel, optimal_kernel, induced_channel, is_metric,
    satisfies_triangle_inequality, paper000_example1, reduction_ldp, reduction_log_lift,
    total_variation_loss, expected_distortion
Mechanisms, Rassouli, Rosas & Gündüz (004): perfect sample privacy
    synergistic_disclosure, SynergisticDisclosure, self_disclosure, verify_sample_privacy,
    SamplePrivacyCheck, is_disclosure_feasible, disclosure_bounds, DisclosureBounds,
    self_disclosure_bounds, two_binary_closed_form, TwoBinaryDisclosure, HeuristicDisclosure,
    partial_processing, preprocessing_mechanism, uniformizing_channel, preprocessing_information,
    pair_self_disclosure_binary, binary_iid_asymptotic_efficiency, modular_sum_mechanism,
    window_sum_mechanism, quantile_sum_mechanism, iid_samples_model, latent_reduction,
    LatentReduction, output_perturbation_capacity, genie_disclosure, asymptotic_bounds,
    AsymptoticBounds
Mechanisms, follow-up works (ITW 2019, ICASSP 2022, arXiv:2101.10551): funnel, watchdog variants
    Ding & Sadeghi, "A Submodularity-based Clustering Algorithm for the Information Bottleneck and
    Privacy Funnel" (ITW 2019): privacy_funnel, information_bottleneck, funnel_frontier, FunnelResult,
    FunnelFrontier, FUNNEL_METHODS; Zarrabian, Ding, Sadeghi & Rakotoarivelo, "Enhancing Utility in
    the Watchdog Privacy Mechanism" (ICASSP 2022): watchdog_subsets, SubsetWatchdogResult; Ding,
    Zarrabian & Sadeghi, the alpha-lift watchdog (arXiv:2101.10551): alpha_lift, alpha_watchdog,
    AlphaWatchdogResult
Mechanism registry: the mechanisms of ``graphpriv sanitize --mechanism NAME``
    get_mechanism, mechanism_names, run_mechanism, register_mechanism, MechanismSpec, MechanismOption,
    AuditContext
Analysis: ensembles and sweeps
    random_joint_range, random_degree_range, random_block_range, ensemble_study, EnsembleStudy,
    frontier_sweep; every mechanism on one table: compare_mechanisms, MechanismComparison,
    COMPARED_MECHANISMS
Visualisation
    ``gp.viz`` (``import graphpriv.viz as viz``; ``help(viz)``): plot_joint_range, plot_confusability,
    plot_trace, plot_frontier, explore, ...; ``gp.reproduce``: the papers' figures
Release
    Release (from_result, from_partition, transform, to_json), mapping_schema, validate_mapping,
    generalisation_label; audit_release (every figure recomputed from the written table), AuditReport,
    AuditError; RandomisedRelease (a kernel K(y|x) and a seed: the same seed, the same release)
Input and output
    read_joint_range (files, folders, globs, streamed); ``graphpriv.io``, ``graphpriv.ingest``
Citations
    cite, bibtex, citation_keys, used_citations, reset_citations
Errors and warnings
    GraphprivError, InputError, InputTypeError, MissingValueError, UnknownLabelError,
    UnknownColumnError, DistributionError, TooLargeError, SchedulerUnreachableError,
    GraphprivWarning, DenseGraphWarning
Limits and constants
    DEFAULT_MAX_EDGES, WARN_EDGES, BACKENDS, STRENGTH_GRAPHS, STRENGTH_BACKENDS, BRUTE_FORCE_NODES, PRINCIPAL_BACKENDS,
    MAX_POLYTOPE_SUPPORT, MAX_VERTICES, OBJECTIVES, EXACT_MAX_PUBLIC, SEARCHES,
    SIDE_INFORMATION_MAX_PUBLIC, PAPER002_FIG2_SETTINGS, RELEASE_MODES, MAPPING_SCHEMA_VERSION,
    EMPTY_POLICIES, ENSEMBLE_MEASURES
"""

from __future__ import annotations

from ._startup import interrupt_guard as _interrupt_guard

with _interrupt_guard(record_after=True):  # Ctrl-C while the ``graphpriv`` command imports: one line, exit 130
    from importlib.metadata import PackageNotFoundError, version as _version

    from .errors import *  # noqa: F401,F403
    from ._validation import MISSING
    from .ranges import JointRange, RangeSource, read_joint_range
    from .distributions import JointDistribution, validate_pmf
    from . import datasets
    from .citations import cite, bibtex, citation_keys, used_citations, reset_citations
    from .graphs import *  # noqa: F401,F403
    from .measures import *  # noqa: F401,F403
    from .mechanisms import *  # noqa: F401,F403
    from .release import *  # noqa: F401,F403
    from .analysis import *  # noqa: F401,F403
    from . import errors as _errors, graphs as _graphs, measures as _measures, mechanisms as _mechanisms, release as _release, analysis as _analysis

__all__ = [
    "JointRange", "RangeSource", "read_joint_range", "JointDistribution", "validate_pmf", "MISSING", "datasets", "viz", "reproduce",
    "cite", "bibtex", "citation_keys", "used_citations", "reset_citations",
    *_errors.__all__, *_graphs.__all__, *_measures.__all__, *_mechanisms.__all__, *_release.__all__, *_analysis.__all__,
]

try:
    __version__ = _version("graphpriv")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"


def __getattr__(name):  # lazy: importing graphpriv does not import matplotlib.pyplot
    if name in ("viz", "reproduce"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'graphpriv' has no attribute {name!r}")
