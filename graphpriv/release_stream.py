"""Former path of :mod:`graphpriv.release.stream`; importing it gives that module."""

import sys

from .release import stream as _module

sys.modules[__name__] = _module
