"""Former home of the release (labels, codewords, :class:`Release`); now :mod:`graphpriv.release`.

Kept so that ``from graphpriv.mechanisms.release import ...`` still works: every name of
:mod:`graphpriv.release.labels` and :mod:`graphpriv.release.mapping`.
"""

from ..release import labels as _labels
from ..release import mapping as _mapping

globals().update({k: v for m in (_labels, _mapping) for k, v in vars(m).items() if not k.startswith("__")})
__all__ = [*_mapping.__all__, *_labels.__all__]
del _labels, _mapping
