"""All of Paperclip's SQL queries (DDL lives in ``migrations.py``).

``Store`` is one connection to the one SQLite file. It is assembled from one mixin per
area so each file stays small: sessions and messages here in ``sessions.py``; memory items,
pages, bookmarks and summaries in their own modules. Use one ``Store`` per thread.
"""

from __future__ import annotations

from pathlib import Path

from desktop_app.memory.store.branches import BranchQueries
from desktop_app.memory.store.browse import BrowseQueries
from desktop_app.memory.store.chain import ChainQueries
from desktop_app.memory.store.db import connect, vec_available
from desktop_app.memory.store.documents import DocumentQueries
from desktop_app.memory.store.encryption import match_form
from desktop_app.memory.store.forget import ForgetQueries
from desktop_app.memory.store.items import ItemQueries
from desktop_app.memory.store.lock import acquire_shared, release_shared
from desktop_app.memory.store.pages import PageQueries
from desktop_app.memory.store.recall import RecallQueries
from desktop_app.memory.store.sessions import SessionQueries


class Store(SessionQueries, ItemQueries, PageQueries, RecallQueries, BrowseQueries, ForgetQueries, BranchQueries,
            DocumentQueries, ChainQueries):
    """The database, with typed queries. Not shared between threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        # Held while this Store is open, so that `paperclip encrypt` never replaces the file under it.
        acquire_shared(self.path)
        self._locked = True
        try:
            match_form(self.path)  # encrypted or decrypted since this process looked up its passphrase
            self.conn = connect(self.path)
        except BaseException:
            self._release()
            raise

    @property
    def vec_enabled(self) -> bool:
        return vec_available(self.conn)

    def wait_for_writers(self, seconds: float) -> None:
        """Wait up to ``seconds`` for another process's write transaction (an import holds the
        lock for its whole length) before failing with "database is locked"."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")

    def close(self) -> None:
        self.conn.close()
        self._release()

    def _release(self) -> None:
        if self._locked:
            self._locked = False
            release_shared(self.path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Store"]
