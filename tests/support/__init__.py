"""Shared test doubles and fixtures, imported as ``tests.support.<module>``.

- ``embedders``: deterministic stand-ins for the llama.cpp embedder (no model needed).
- ``engines``: scripted engines built on ``desktop_app.engine.scripted.ScriptedEngine``.
- ``fixtures``: the ``db_path``, ``store``, ``settings`` and ``hashing_embedder`` fixtures,
  exposed to every test through ``tests/conftest.py``.
- ``documents``: real PDF and DOCX files written by the test.

Run the tests from the checkout's top as ``python -m pytest`` (which puts the checkout on
``sys.path``, so ``tests.support`` imports). The fast loop for development skips the tests that
load a real model: ``.venv/bin/python -m pytest -m "not model"``.
"""
