"""What a quantisation mechanism releases: released values, the mapping document, the writers and the audit.

A quantisation X̂ of the public column X (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*, Section V) is published by replacing every public value by a
released value of its cluster. One home for every step of that:

* :mod:`.labels` -- the released values: generalisation labels, codewords and their precision;
* :mod:`.mapping` -- :class:`Release` (apply the mapping to a column) and the ``mapping.json`` document;
* :mod:`.writer` -- the CSV (byte for byte) and Parquet (schema kept) writers of a released table;
* :mod:`.stream` -- the streamed release of files, folders and globs, one part per input file;
* :mod:`.audit` -- the audit of a written release (:func:`audit_release`): every figure recomputed
  from the released table itself;
* :mod:`.randomised`, :mod:`.randomised_stream` -- a randomised release (:class:`RandomisedRelease`:
  a kernel K(y|x) and a seed), written streamed and audited from the files;
* :mod:`.merge_audit` -- the stochastic guarantee (log-lift, Delta_total) of a merge release,
  recomputed from the written table.

The former module paths ``graphpriv.mechanisms.release``, ``graphpriv.release_writer`` and
``graphpriv.release_stream`` still import.
"""

from .labels import *  # noqa: F401,F403
from .labels import __all__ as _labels_all
from .mapping import *  # noqa: F401,F403
from .mapping import __all__ as _mapping_all
from .audit import AuditError, AuditReport, audit_release
from .randomised import RandomisedRelease

__all__ = [*_mapping_all, *_labels_all, "AuditError", "AuditReport", "audit_release", "RandomisedRelease"]
