"""Former path of :mod:`graphpriv.release.writer`; importing it gives that module."""

import sys

from .release import writer as _module

sys.modules[__name__] = _module
