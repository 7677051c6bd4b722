"""Schema, as an append-only list of numbered migrations.

Each migration is a named function; migration N runs once, inside one transaction together
with ``PRAGMA user_version = N``. Never edit a migration that has shipped: add a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.memory.store.sqlite_backend import Connection


Migration = Callable[["Connection"], None]


def run_script(conn: Connection, script: str) -> None:
    """Execute several statements inside the caller's transaction.

    ``executescript`` would COMMIT first and break the one-transaction-per-migration rule,
    so statements are split with ``complete_statement`` (which keeps trigger bodies whole).
    """
    from desktop_app.memory.store.sqlite_backend import sqlite

    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite.complete_statement(buffer):
            if buffer.strip(" \n\t;"):
                conn.execute(buffer)
            buffer = ""
    if buffer.strip(" \n\t;"):
        raise ValueError(f"incomplete SQL statement in migration: {buffer[:60]!r}")


def m001_sessions_and_messages(conn: Connection) -> None:
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


def m002_memory_pages_bookmarks(conn: Connection) -> None:
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


def m003_recall_index(conn: Connection) -> None:
    """Full-text indexes for recall, kept in sync with ``messages`` and ``bookmarks`` by triggers.

    Two FTS5 indexes over turn text: ``messages_fts`` (trigram: Chinese, Japanese and Korean
    substrings of 3+ characters match without a segmenter) and ``messages_words`` (words with
    Porter stemming: better BM25 for English). Both are external-content tables, so the text
    is stored once, in ``messages``. Vector tables depend on the embedding model's dimension
    and are made by :func:`ensure_vector_tables`.
    """
    run_script(
        conn,
        """
        CREATE VIRTUAL TABLE messages_fts USING fts5(
            content, content='messages', content_rowid='id', tokenize='trigram');
        CREATE VIRTUAL TABLE messages_words USING fts5(
            content, content='messages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
        CREATE TRIGGER messages_recall_ai AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
            INSERT INTO messages_words (rowid, content) VALUES (new.id, new.content);
        END;
        CREATE TRIGGER messages_recall_ad AFTER DELETE ON messages BEGIN
            INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
            INSERT INTO messages_words (messages_words, rowid, content) VALUES ('delete', old.id, old.content);
        END;
        CREATE TRIGGER messages_recall_au AFTER UPDATE OF content ON messages BEGIN
            INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
            INSERT INTO messages_words (messages_words, rowid, content) VALUES ('delete', old.id, old.content);
            INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
            INSERT INTO messages_words (rowid, content) VALUES (new.id, new.content);
        END;
        INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
        INSERT INTO messages_words (messages_words) VALUES ('rebuild');

        CREATE VIRTUAL TABLE bookmarks_fts USING fts5(
            keywords, description, content='bookmarks', content_rowid='id', tokenize='trigram');
        CREATE TRIGGER bookmarks_recall_ai AFTER INSERT ON bookmarks BEGIN
            INSERT INTO bookmarks_fts (rowid, keywords, description) VALUES (new.id, new.keywords, new.description);
        END;
        CREATE TRIGGER bookmarks_recall_ad AFTER DELETE ON bookmarks BEGIN
            INSERT INTO bookmarks_fts (bookmarks_fts, rowid, keywords, description)
                VALUES ('delete', old.id, old.keywords, old.description);
        END;
        CREATE TRIGGER bookmarks_recall_au AFTER UPDATE ON bookmarks BEGIN
            INSERT INTO bookmarks_fts (bookmarks_fts, rowid, keywords, description)
                VALUES ('delete', old.id, old.keywords, old.description);
            INSERT INTO bookmarks_fts (rowid, keywords, description) VALUES (new.id, new.keywords, new.description);
        END;
        INSERT INTO bookmarks_fts (bookmarks_fts) VALUES ('rebuild');

        CREATE TABLE recall_meta (          -- which embedding model made the stored vectors
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE recall_embedded (      -- messages that have vectors (the rest are pending)
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            session_id INTEGER NOT NULL
        );
        CREATE TABLE recall_refs (          -- how often a turn was recalled into a prompt
            message_id       INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            count            INTEGER NOT NULL DEFAULT 0,
            last_recalled_at REAL
        );
        """,
    )


def m004_message_versions(conn: Connection) -> None:
    """Versions of a conversation's tail (edit a message / regenerate a reply), and the memory
    state each message was stored at, so memory written by a discarded branch can be undone.

    ``message_versions`` keeps a discarded tail verbatim (JSON), keyed by ``anchor_id``: the
    last message kept before the fork (0 = the session's start). ``message_marks`` records
    the session's ``state_version`` at each message insert (a trigger, so every writer is
    covered): the changes made while a user message was processed are those with a version
    in (its mark, the next message's mark].
    """
    run_script(
        conn,
        """
        CREATE TABLE message_versions (
            id               INTEGER PRIMARY KEY,
            session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            anchor_id        INTEGER NOT NULL,  -- last kept message before the fork; 0 = start
            first_created_at REAL NOT NULL,     -- when this version's first message was written
            content          TEXT NOT NULL,     -- JSON: {"messages": [...], "turn_log": [...]}
            archived_at      REAL NOT NULL
        );
        CREATE INDEX message_versions_by_anchor ON message_versions(session_id, anchor_id);

        CREATE TABLE message_marks (
            message_id    INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            state_version INTEGER NOT NULL
        );
        CREATE TRIGGER messages_mark_state AFTER INSERT ON messages BEGIN
            INSERT INTO message_marks (message_id, state_version)
                VALUES (new.id, (SELECT state_version FROM sessions WHERE id = new.session_id));
        END;
        """,
    )


def ensure_vector_tables(conn: Connection, dim: int, *, drop: bool = False) -> None:
    """Create the sqlite-vec tables for ``dim``-dimensional embeddings (needs sqlite-vec loaded).

    ``recall_vec`` holds the float vectors (cosine distance); ``recall_vec_bits`` their
    binary quantisation (one bit per dimension, Hamming distance) for the fast coarse pass.
    The session is a metadata column, not a partition key: vec0 gives every partition its
    own chunks, which multiplies the file size when there are many small sessions.
    ``drop`` rebuilds them empty (another model: other vectors, maybe another dimension).
    Not a numbered migration because the dimension depends on the embedding model.
    """
    dim = int(dim)
    if not 8 <= dim <= 8192 or dim % 8:
        raise ValueError(f"unsupported embedding dimension {dim} (a multiple of 8 up to 8192)")
    if drop:
        run_script(conn, """
            DROP TRIGGER IF EXISTS messages_recall_vec_ad;
            DROP TABLE IF EXISTS recall_vec;
            DROP TABLE IF EXISTS recall_vec_bits;
            DELETE FROM recall_embedded;
        """)
    conn.execute(f"""CREATE VIRTUAL TABLE IF NOT EXISTS recall_vec USING vec0(
        message_id INTEGER PRIMARY KEY, session_id INTEGER, embedding float[{dim}] distance_metric=cosine)""")
    conn.execute(f"""CREATE VIRTUAL TABLE IF NOT EXISTS recall_vec_bits USING vec0(
        message_id INTEGER PRIMARY KEY, session_id INTEGER, embedding bit[{dim}])""")
    # vec0 tables cannot carry foreign keys: deleting a turn deletes its vectors here.
    run_script(conn, """
        CREATE TRIGGER IF NOT EXISTS messages_recall_vec_ad AFTER DELETE ON messages BEGIN
            DELETE FROM recall_vec WHERE message_id = old.id;
            DELETE FROM recall_vec_bits WHERE message_id = old.id;
        END;
    """)


def m005_recall_rescoring(conn: Connection) -> None:
    """A float16 copy of each turn's vector in a plain table, for re-scoring the binary coarse
    pass (vec0 point look-ups cost ~0.1 ms each), and an index that gives turn numbers and
    session sizes without reading rows. Vectors stored before have no copy: they are queued
    again (``recall_meta`` cleared, so the next indexing run rebuilds the vector tables)."""
    run_script(
        conn,
        """
        ALTER TABLE recall_embedded ADD COLUMN embedding BLOB;  -- float16 bytes
        DELETE FROM recall_embedded;
        DELETE FROM recall_meta;
        CREATE INDEX messages_by_session_role ON messages(session_id, role, id);
        """,
    )


def m006_turn_numbers(conn: Connection) -> None:
    """Per-turn work that does not grow with the session: each message keeps its turn number
    (user messages up to and including it), set when it is stored, so planning a prompt never
    re-counts the history; each session keeps its message count, kept by triggers; and an
    index over the not-yet-paged messages (the recent layer), which stays small however long
    the session grows."""
    run_script(
        conn,
        """
        ALTER TABLE messages ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET turn = numbered.n
          FROM (SELECT id, sum(role = 'user') OVER (PARTITION BY session_id ORDER BY id) AS n FROM messages) AS numbered
         WHERE numbered.id = messages.id;
        CREATE INDEX messages_unpaged ON messages(session_id, id) WHERE page_id IS NULL;
        ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET message_count = (SELECT count(*) FROM messages m WHERE m.session_id = sessions.id);
        CREATE TRIGGER messages_count_insert AFTER INSERT ON messages BEGIN
            UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id;
        END;
        CREATE TRIGGER messages_count_delete AFTER DELETE ON messages BEGIN
            UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id;
        END;
        """,
    )


def m007_profile_scope(conn: Connection) -> None:
    """Memory across sessions: one hidden session of kind ``profile`` owns the items every
    session sees (the user's name, allergies, family, lasting preferences). Chat sessions are
    kind ``chat``; session lists show only those. Deleting a chat session leaves the profile.
    Its name is empty, which no chat session can have, so it never collides with one.
    And the backlog of user messages the model's memory pass has yet to read."""
    run_script(
        conn,
        """
        ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'chat' CHECK (kind IN ('chat', 'profile'));
        INSERT INTO sessions (id, name, kind, created_at, updated_at)
            VALUES (0, '', 'profile', (julianday('now') - 2440587.5) * 86400,
                    (julianday('now') - 2440587.5) * 86400);
        CREATE UNIQUE INDEX sessions_one_profile ON sessions(kind) WHERE kind = 'profile';
        -- Who wrote a page bookmark's words: the rules at page-out, or the model's pass after it.
        ALTER TABLE bookmarks ADD COLUMN author TEXT NOT NULL DEFAULT 'rule' CHECK (author IN ('rule', 'model', 'user'));
        UPDATE bookmarks SET author = 'user' WHERE origin = 'user';
        -- User messages the model's memory pass has not read yet (it runs in the background;
        -- a process that exits first, or `ask --no-wait`, leaves them here for the next run).
        CREATE TABLE memory_backlog (
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE
        );
        """,
    )


def m008_context_heads(conn: Connection) -> None:
    """The memory the prompt head shows, frozen at the last fold (desktop_app.memory.core.head_fold): one
    row per session, replaced at each fold; changes since then go before the input instead."""
    run_script(
        conn,
        """
        CREATE TABLE context_heads (
            session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            state_version INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            reason TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        """,
    )


def m009_documents(conn: Connection) -> None:
    """Private documents: each file once per scope (the library, ``session_id`` NULL, or one
    session), its text sections (what ``docs show`` prints and citations are checked against)
    and its chunks, with two FTS5 indexes over heading + text (trigram for CJK, Porter words
    for English) kept in sync by triggers like the turns' indexes. Deleting a document takes
    its sections, chunks, index rows and vectors (see :func:`ensure_document_vector_tables`)."""
    run_script(
        conn,
        """
        CREATE TABLE documents (
            id           INTEGER PRIMARY KEY,
            name         TEXT NOT NULL,      -- how it is cited: [doc: name, p. N]
            path         TEXT NOT NULL,      -- absolute path it was read from (for docs sync)
            content_hash TEXT NOT NULL,      -- sha256 of the file's bytes
            size         INTEGER NOT NULL,
            mtime        REAL,
            format       TEXT NOT NULL,      -- pdf | docx | html | markdown | text | code
            pages        INTEGER NOT NULL DEFAULT 0,   -- 0: the format has no pages
            chunk_count  INTEGER NOT NULL DEFAULT 0,
            language     TEXT,
            session_id   INTEGER REFERENCES sessions(id) ON DELETE CASCADE,  -- NULL: the library
            added_at     REAL NOT NULL,
            indexed_at   REAL NOT NULL
        );
        CREATE UNIQUE INDEX documents_by_name ON documents(coalesce(session_id, -1), name);
        CREATE UNIQUE INDEX documents_by_hash ON documents(coalesce(session_id, -1), content_hash);

        CREATE TABLE document_sections (
            id          INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            page        INTEGER,
            heading     TEXT,
            text        TEXT NOT NULL
        );
        CREATE INDEX document_sections_by_doc ON document_sections(document_id, seq);

        CREATE TABLE document_chunks (
            id          INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            section     INTEGER NOT NULL,  -- seq of its section
            page        INTEGER,
            heading     TEXT,
            char_start  INTEGER NOT NULL,  -- offsets in the section's text
            char_end    INTEGER NOT NULL,
            token_count INTEGER NOT NULL,
            text        TEXT NOT NULL
        );
        CREATE INDEX document_chunks_by_doc ON document_chunks(document_id, seq);

        CREATE VIRTUAL TABLE document_chunks_fts USING fts5(
            heading, text, content='document_chunks', content_rowid='id', tokenize='trigram');
        CREATE VIRTUAL TABLE document_chunks_words USING fts5(
            heading, text, content='document_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
        CREATE TRIGGER document_chunks_ai AFTER INSERT ON document_chunks BEGIN
            INSERT INTO document_chunks_fts (rowid, heading, text) VALUES (new.id, new.heading, new.text);
            INSERT INTO document_chunks_words (rowid, heading, text) VALUES (new.id, new.heading, new.text);
        END;
        CREATE TRIGGER document_chunks_ad AFTER DELETE ON document_chunks BEGIN
            INSERT INTO document_chunks_fts (document_chunks_fts, rowid, heading, text)
                VALUES ('delete', old.id, old.heading, old.text);
            INSERT INTO document_chunks_words (document_chunks_words, rowid, heading, text)
                VALUES ('delete', old.id, old.heading, old.text);
        END;
        CREATE TRIGGER document_chunks_au AFTER UPDATE OF heading, text ON document_chunks BEGIN
            INSERT INTO document_chunks_fts (document_chunks_fts, rowid, heading, text)
                VALUES ('delete', old.id, old.heading, old.text);
            INSERT INTO document_chunks_words (document_chunks_words, rowid, heading, text)
                VALUES ('delete', old.id, old.heading, old.text);
            INSERT INTO document_chunks_fts (rowid, heading, text) VALUES (new.id, new.heading, new.text);
            INSERT INTO document_chunks_words (rowid, heading, text) VALUES (new.id, new.heading, new.text);
        END;

        CREATE TABLE document_embedded (    -- chunks that have vectors (the rest are pending)
            chunk_id    INTEGER PRIMARY KEY REFERENCES document_chunks(id) ON DELETE CASCADE,
            document_id INTEGER NOT NULL,
            embedding   BLOB NOT NULL       -- float16 bytes, for exact scoring within one document
        );
        """,
    )


def m010_imported_turns(conn: Connection) -> None:
    """Which transcript turn each imported message came from, so an import run again (after a
    kill, a full disk, or by mistake) adds only the turns still missing. The key is the turn's own
    id (``id:…``) or, without one, a hash of its role, content and time (``sha256:…``); the n-th
    repeat of a key in one file gets ``#n``. Messages imported before this version are keyed by
    their ``ext_id`` (the first of each; later duplicates stay as they are)."""
    run_script(
        conn,
        """
        CREATE TABLE imported_turns (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            import_key TEXT NOT NULL,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            PRIMARY KEY (session_id, import_key)
        ) WITHOUT ROWID;
        CREATE INDEX imported_turns_by_message ON imported_turns(message_id);
        CREATE INDEX imported_turns_by_key ON imported_turns(import_key);
        INSERT OR IGNORE INTO imported_turns (session_id, import_key, message_id)
            SELECT session_id, 'id:' || ext_id, min(id) FROM messages
             WHERE ext_id IS NOT NULL GROUP BY session_id, ext_id;
        """,
    )


def m011_paging_advice_and_stages(conn: Connection) -> None:
    """Paging decisions prepared ahead of a page-out (desktop_app.memory.background.paging_advice): one
    row per exchange, keyed by its user message, saying whether it may leave the context
    (``evict``) or should stay a while (``keep``), and who said so (the rule cache or the model).
    And the summary chain (desktop_app.memory.archive.summary_chain): every few pages a stage summary over
    them, indexed for recall (FTS5 trigram over its text, kept in sync by triggers). A page is read
    by ``page_id`` from now on, so kept exchanges may stay behind inside a page's id range."""
    run_script(
        conn,
        """
        CREATE TABLE paging_advice (
            message_id       INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            session_id       INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            decision         TEXT NOT NULL CHECK (decision IN ('keep', 'evict')),
            origin           TEXT NOT NULL CHECK (origin IN ('rule', 'model')),
            reason           TEXT NOT NULL DEFAULT '',
            input_message_id INTEGER,           -- the latest message when the decision was made
            created_at       REAL NOT NULL
        );
        CREATE INDEX paging_advice_by_session ON paging_advice(session_id);
        -- A page is no longer always one id range (kept exchanges stay behind): read it by page_id.
        CREATE INDEX messages_by_page ON messages(page_id) WHERE page_id IS NOT NULL;

        CREATE TABLE stages (
            id            INTEGER PRIMARY KEY,
            session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            first_page_id INTEGER NOT NULL,
            last_page_id  INTEGER NOT NULL,
            first_turn    INTEGER NOT NULL,
            last_turn     INTEGER NOT NULL,
            text          TEXT NOT NULL,
            author        TEXT NOT NULL CHECK (author IN ('rule', 'model')),
            created_at    REAL NOT NULL
        );
        CREATE INDEX stages_by_session ON stages(session_id, last_page_id);
        CREATE VIRTUAL TABLE stages_fts USING fts5(text, content='stages', content_rowid='id', tokenize='trigram');
        CREATE TRIGGER stages_recall_ai AFTER INSERT ON stages BEGIN
            INSERT INTO stages_fts (rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER stages_recall_ad AFTER DELETE ON stages BEGIN
            INSERT INTO stages_fts (stages_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER stages_recall_au AFTER UPDATE ON stages BEGIN
            INSERT INTO stages_fts (stages_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO stages_fts (rowid, text) VALUES (new.id, new.text);
        END;
        """,
    )


def m012_reply_health(conn: Connection) -> None:
    """Why a stored reply is not fed back to the model (it copied an earlier reply, echoed the
    user or pasted the prompt's scaffolding; desktop_app.memory.reply_health). NULL: healthy. The
    user still sees and keeps the reply; only the history the model reads leaves it out."""
    run_script(conn, "ALTER TABLE messages ADD COLUMN unhealthy TEXT;")


def ensure_document_vector_tables(conn: Connection, dim: int, *, drop: bool = False) -> None:
    """The sqlite-vec table of document chunk vectors (cosine), like :func:`ensure_vector_tables`:
    not a numbered migration because the dimension depends on the embedding model."""
    dim = int(dim)
    if not 8 <= dim <= 8192 or dim % 8:
        raise ValueError(f"unsupported embedding dimension {dim} (a multiple of 8 up to 8192)")
    if drop:
        run_script(conn, """
            DROP TRIGGER IF EXISTS document_chunks_vec_ad;
            DROP TABLE IF EXISTS document_vec;
            DELETE FROM document_embedded;
        """)
    conn.execute(f"""CREATE VIRTUAL TABLE IF NOT EXISTS document_vec USING vec0(
        chunk_id INTEGER PRIMARY KEY, document_id INTEGER, embedding float[{dim}] distance_metric=cosine)""")
    run_script(conn, """
        CREATE TRIGGER IF NOT EXISTS document_chunks_vec_ad AFTER DELETE ON document_chunks BEGIN
            DELETE FROM document_vec WHERE chunk_id = old.id;
        END;
    """)


MIGRATIONS: list[Migration] = [
    m001_sessions_and_messages,
    m002_memory_pages_bookmarks,
    m003_recall_index,
    m004_message_versions,
    m005_recall_rescoring,
    m006_turn_numbers,
    m007_profile_scope,
    m008_context_heads,
    m009_documents,
    m010_imported_turns,
    m011_paging_advice_and_stages,
    m012_reply_health,
]


def migrate(conn: Connection) -> int:
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
            if conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                conn.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)
