"""The Textual UI: the only package that imports ``textual``.

Entry point: :func:`desktop_app.ui.app.run_app`. Widgets render and send commands; all
model and database work runs in thread workers (see :mod:`desktop_app.ui.inference`).
"""
