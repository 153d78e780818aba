"""The examples gallery's image scraper: matplotlib figures saved with a tight bounding box.

graphpriv's multi-panel figures (``plot_trace``, ``plot_merge_view``) put titles and captions close to the
figure's edge, sized for ``graphpriv.viz.save_figure``, which saves with ``bbox_inches="tight"``; the
gallery saves them the same way so nothing is cut off. Referenced by name from ``conf.py``
(``sphinx_gallery_conf["image_scrapers"]``), so the configuration stays picklable.
"""

from __future__ import annotations


def matplotlib_tight(block, block_vars, gallery_conf, **kwargs):
    """sphinx-gallery's matplotlib scraper with ``bbox_inches="tight"`` and a little padding."""
    from sphinx_gallery.scrapers import matplotlib_scraper

    kwargs.setdefault("bbox_inches", "tight")
    kwargs.setdefault("pad_inches", 0.05)
    return matplotlib_scraper(block, block_vars, gallery_conf, **kwargs)
