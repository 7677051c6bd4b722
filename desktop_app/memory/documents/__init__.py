"""Private documents: parse files (PDF, DOCX, HTML, Markdown, text, code) into structure-aware
chunks, store them in the one SQLite file with full-text and vector indexes, and retrieve the
chunks that answer a question into the prompt's ``recalled`` layer as quoted, cited source
material. Document text is never read by memory extraction: only the user's words write memory.

Modules: ``parsers`` (files → sections, one ``*_reader`` per format under the ``ReadLimits``
of ``reading``; PDF and Word files in a child process, ``isolation`` and ``reader_child``),
``chunking`` (sections → chunks), ``ingest`` (add, sync, dedupe), ``vectors`` (chunk
embeddings), ``retrieval`` (search, scope, the prompt's pick), ``models`` (pydantic rows). The
SQL is in ``desktop_app.memory.store.documents``.
"""
