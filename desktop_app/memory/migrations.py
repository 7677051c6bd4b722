"""Schema, as an append-only list of numbered migrations.

Each migration is a named function; migration N runs once, inside one transaction together
with ``PRAGMA user_version = N``. Never edit a migration that has shipped: add a new one.
"""

from __future__ import annotations

from collections.abc import Callable

Migration = Callable[[object], None]


def run_script(conn, script: str) -> None:
    """Execute several statements inside the caller's transaction.

    ``executescript`` would COMMIT first and break the one-transaction-per-migration rule,
    so statements are split with ``complete_statement`` (which keeps trigger bodies whole).
    """
    from desktop_app.memory.sqlite_backend import sqlite

    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite.complete_statement(buffer):
            if buffer.strip(" \n\t;"):
                conn.execute(buffer)
            buffer = ""
    if buffer.strip(" \n\t;"):
        raise ValueError(f"incomplete SQL statement in migration: {buffer[:60]!r}")


def m001_sessions_and_messages(conn) -> None:
    run_script(
        conn,
        """
        CREATE TABLE sessions (
            id            INTEGER PRIMARY KEY,
            name          TEXT NOT NULL UNIQUE,
            mode          TEXT,              -- context mode; NULL = the configured default
            system_prompt TEXT,              -- NULL = the configured default
            state_version INTEGER NOT NULL DEFAULT 0,
            created_at    REAL NOT NULL,     -- unix seconds
            updated_at    REAL NOT NULL
        );
        CREATE TABLE messages (
            id           INTEGER PRIMARY KEY,
            session_id   INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            ext_id       TEXT,               -- id from an imported transcript (e.g. LoCoMo dia_id)
            role         TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
            content      TEXT NOT NULL,
            content_hash TEXT NOT NULL,      -- sha256 of content, for the raw-text index
            token_count  INTEGER NOT NULL DEFAULT 0,
            stopped      INTEGER NOT NULL DEFAULT 0,  -- reply cut short by the user
            created_at   REAL NOT NULL
        );
        CREATE INDEX messages_by_session ON messages(session_id, id);
        CREATE INDEX messages_by_ext_id ON messages(session_id, ext_id);
        """
    )


def m002_memory_pages_bookmarks(conn) -> None:
    run_script(
        conn,
        """
        CREATE TABLE pages (
            id               INTEGER PRIMARY KEY,
            session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            first_message_id INTEGER NOT NULL,
            last_message_id  INTEGER NOT NULL,
            message_count    INTEGER NOT NULL,
            token_count      INTEGER NOT NULL,
            start_time       REAL NOT NULL,  -- time of the first turn in the page
            end_time         REAL NOT NULL,
            archived_at      REAL NOT NULL
        );
        CREATE INDEX pages_by_session ON pages(session_id, first_message_id);
        ALTER TABLE messages ADD COLUMN page_id INTEGER REFERENCES pages(id) ON DELETE SET NULL;

        CREATE TABLE bookmarks (
            id          INTEGER PRIMARY KEY,
            session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            page_id     INTEGER REFERENCES pages(id) ON DELETE CASCADE,
            message_id  INTEGER REFERENCES messages(id) ON DELETE CASCADE,
            keywords    TEXT NOT NULL,       -- JSON list of 2-4 keywords
            description TEXT NOT NULL,       -- one line
            origin      TEXT NOT NULL CHECK (origin IN ('auto', 'user')),
            created_at  REAL NOT NULL
        );
        CREATE INDEX bookmarks_by_session ON bookmarks(session_id);

        CREATE TABLE memory_items (
            id                 INTEGER PRIMARY KEY,
            session_id         INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            kind               TEXT NOT NULL CHECK (kind IN ('directive', 'fact', 'constraint',
                                   'preference', 'decision', 'goal', 'open_question')),
            subject            TEXT NOT NULL,     -- normalised key: a newer fact with it supersedes
            value              TEXT NOT NULL,     -- the rule or the data, as presented in prompts
            status             TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'revoked', 'pending')),
            pinned             INTEGER NOT NULL DEFAULT 0,
            origin             TEXT NOT NULL,     -- rule | user | command | model | import
            source_message_id  INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            source_quote       TEXT,              -- the exact span the item came from
            supersedes         INTEGER REFERENCES memory_items(id) ON DELETE SET NULL,
            details            TEXT,              -- JSON: goal steps, numbers, dates
            state_version      INTEGER NOT NULL,  -- session state_version of the last change
            reference_count    INTEGER NOT NULL DEFAULT 0,
            last_referenced_at REAL,
            created_at         REAL NOT NULL,
            updated_at         REAL NOT NULL
        );
        CREATE INDEX memory_items_by_session ON memory_items(session_id, status, kind);
        CREATE INDEX memory_items_by_subject ON memory_items(session_id, subject);

        CREATE TABLE memory_changes (
            id            INTEGER PRIMARY KEY,
            session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            state_version INTEGER NOT NULL,
            item_id       INTEGER REFERENCES memory_items(id) ON DELETE CASCADE,
            action        TEXT NOT NULL,     -- add | supersede | revoke | confirm | reject | pin | correct
            patch         TEXT NOT NULL,     -- the validated patch, JSON
            created_at    REAL NOT NULL
        );

        CREATE TABLE summaries (
            id                 INTEGER PRIMARY KEY,
            session_id         INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            version            INTEGER NOT NULL,
            content            TEXT NOT NULL,  -- JSON with the fixed summary fields
            through_message_id INTEGER,        -- last message folded in
            created_at         REAL NOT NULL,
            UNIQUE (session_id, version)
        );

        CREATE TABLE turn_log (
            id               INTEGER PRIMARY KEY,
            session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            user_message_id  INTEGER REFERENCES messages(id) ON DELETE CASCADE,
            reply_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            mode             TEXT NOT NULL,
            record           TEXT NOT NULL,  -- JSON: layers, tokens, included/excluded, recall, paging
            created_at       REAL NOT NULL
        );
        CREATE INDEX turn_log_by_session ON turn_log(session_id, id);
        """,
    )


MIGRATIONS: list[Migration] = [
    m001_sessions_and_messages,
    m002_memory_pages_bookmarks,
]


def migrate(conn) -> int:
    """Apply pending migrations; return the schema version now in force."""
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > len(MIGRATIONS):
        raise RuntimeError(
            f"database schema version {current} is newer than this Paperclip ({len(MIGRATIONS)})"
        )
    for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            migration(conn)
            conn.execute(f"PRAGMA user_version = {int(number)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)
