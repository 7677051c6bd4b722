"""What every query mixin of ``Store`` stands on: the connection, transactions, and (for the
type checker only) the queries one area borrows from another.

``Store`` (``store/__init__.py``) is assembled from one mixin per area; each mixin subclasses
``StoreBase``, so ``self.conn`` and ``self.transaction()`` are typed in all of them. A mixin that
calls a query another mixin defines (forgetting reads items, pages and sessions) finds it
declared here under ``TYPE_CHECKING``: at run time those names resolve to the real methods
through ``Store``'s MRO, and mypy checks each declaration against the method it stands for
(``Store`` inherits both, and an incompatible pair is an error).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.memory.store.sqlite_backend import Connection, Cursor

if TYPE_CHECKING:
    from desktop_app.memory.core.models import MemoryChange, MemoryItem, Message, Page, SearchHit, Session


def inserted_id(cursor: Cursor) -> int:
    """The rowid the INSERT just run on ``cursor`` gave its row."""
    rowid = cursor.lastrowid
    if rowid is None:  # (typed Optional: None only on a cursor that has inserted nothing)
        raise RuntimeError("the statement inserted no row")
    return rowid


class StoreBase:
    """The connection and its transactions, shared by every query mixin."""

    path: Path
    conn: Connection

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """All-or-nothing block; nested use joins the outer transaction."""
        if self.conn.in_transaction:
            yield self.conn
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            # SQLite has already rolled back after some errors (a full disk): a second ROLLBACK
            # would replace the real error with "no transaction is active".
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    if TYPE_CHECKING:
        # -- sessions.py
        def get_session(self, session_id: int) -> Session: ...
        def list_messages(self, session_id: int, *, after_id: int = 0, limit: int | None = None) -> list[Message]: ...
        def get_messages(self, message_ids: Iterable[int]) -> list[Message]: ...
        def add_message(self, session_id: int, role: str, content: str, *, token_count: int = 0,
                        stopped: bool = False, created_at: float | None = None,
                        ext_id: str | None = None) -> Message: ...

        # -- items.py
        def get_item(self, item_id: int) -> MemoryItem | None: ...
        def list_items(self, session_id: int, *, statuses: tuple[str, ...] | None = None,
                       kinds: tuple[str, ...] | None = None, include_profile: bool = True) -> list[MemoryItem]: ...
        def items_superseding(self, item_id: int) -> list[MemoryItem]: ...
        def item_changes(self, item_id: int) -> list[MemoryChange]: ...
        def session_changes(self, session_id: int) -> list[MemoryChange]: ...
        def _bump_state_version(self, session_id: int) -> int: ...
        def _set_item_status(self, item_id: int, status: str, version: int, now: float) -> None: ...
        def _set_item_pinned(self, item_id: int, pinned: bool, version: int, now: float) -> None: ...
        def _set_item_details(self, item_id: int, details: dict[str, Any], version: int, now: float) -> None: ...
        def _log_change(self, session_id: int, version: int, item_id: int | None, action: str,
                        patch: dict[str, Any], now: float) -> None: ...

        # -- pages.py
        def get_page(self, page_id: int) -> Page | None: ...
        def page_messages(self, page_id: int) -> list[Message]: ...
        def page_of_message(self, message_id: int) -> int | None: ...

        # -- browse.py
        def search_messages(self, query: str, *, limit: int = 50, session_id: int | None = None) -> list[SearchHit]: ...

        # -- chain.py
        def delete_stages(self, session_id: int, *, from_page_id: int = 0) -> int: ...
