"""Perfect sample privacy and synergistic disclosure (Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*).

A curator holds n samples X^n = (X_1, ..., X_n) and wants to disclose a latent feature W through a
mapping p(y | x^n) (so W - X^n - Y is a Markov chain) that keeps **every single sample** private:
Y ⟂ X_i for all i (Def. 1; weaker than Y ⟂ X^n). The synergistic disclosure capacity is

    I_s(W, X^n) = sup_{p(y|x^n) in A} I(W; Y)                                      (2)

By Theorem 1 / Lemma 2, I_s = H(W) - min sum_k u_k H(P_{W|X^n} p_k) over weights u >= 0 of the
vertices p_k of the polytope S = {t >= 0 : P t = P p} (eq. (12), P the incidence matrix of the sample
hypergraph H_n, :class:`~graphpriv.SampleHypergraph`) with sum_k u_k p_k = p: an LP (Algorithm 2).

Everything here is in **bits** by default (``base=2``); the paper's Example 2 and Table I reproduce
only in bits.

Paper errors handled (never bent to a typo):

* Def. 2 condition 3 must read Y not-independent of W; eq. (15)'s constraint is sum_y p(y) p_{X|y} = p_X.
* Example 2: the displayed p_1..p_3 are garbled (8 entries) and p_4 is missing; A's -2385 is -2358;
  the erasure columns of the displayed P_{W|X^2} contradict the BSC(2/3)/BEC(1/2) model -- both give
  I_s = 0.013421 bits and the same mapping (22).
* Two binary samples, eqs. (24)-(26) assume beta >= alpha; :func:`two_binary_closed_form` uses
  r in [max(0, alpha - beta), min(alpha, 1 - beta)] and is valid for any alpha, beta.
* Prop. 4 needs nul(P) = 1 (its hypothesis |supp| = sum |X_i| - n + 2 does not imply it).
* Corollary 1.1's |Y| >= ceil(|supp| / rank P) holds for Algorithm 2's vertex decompositions only.
* Example 5, eq. (67) is exact only for n = 2 (or q = 1/2) and a strict lower bound for n >= 3;
  :func:`preprocessing_information` gives the exact value (n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta).
* Lemma 7 (Y_par) needs mutually independent samples and conditionally independent Y_par,j;
  :func:`partial_processing` enforces the first and builds the second.
* Table I: I_s is not monotone in n (n = 5 gives 0.0539 > I_s(4) = 0.0447): convergence in Theorem 3 is slow.

Modules: :mod:`.constraints` (the privacy constraints P t = P p), :mod:`.capacity` (I_s and Algorithm
2), :mod:`.bounds` (verification, feasibility, bounds), :mod:`.two_binary` (closed forms (24)-(26)),
:mod:`.heuristics` (Section V-C mechanisms), :mod:`.asymptotics` (the i.i.d. model of Section IV).
"""

from .capacity import *  # noqa: F401,F403
from .bounds import *  # noqa: F401,F403
from .two_binary import *  # noqa: F401,F403
from .heuristics import *  # noqa: F401,F403
from .asymptotics import *  # noqa: F401,F403
from . import asymptotics, bounds, capacity, heuristics, two_binary

__all__ = [*capacity.__all__, *bounds.__all__, *two_binary.__all__, *heuristics.__all__, *asymptotics.__all__]
