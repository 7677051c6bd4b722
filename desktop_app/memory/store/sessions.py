"""Queries for sessions and messages."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable

from desktop_app.memory.core.models import Message, Session
from desktop_app.memory.store.base import StoreBase, inserted_id
from desktop_app.memory.store.sqlite_backend import Row


class SessionNotFound(LookupError):
    """No session with that name or id."""


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _session(row: Row) -> Session:
    return Session(**dict(row))


def _message(row: Row) -> Message:
    data = dict(row)
    data["stopped"] = bool(data["stopped"])
    return Message(**data)


_SESSION_COLUMNS = """
    s.id, s.name, s.mode, s.system_prompt, s.state_version, s.created_at, s.updated_at, s.message_count
"""


class SessionQueries(StoreBase):

    # -- sessions -----------------------------------------------------------------------
    def create_session(self, name: str, *, mode: str | None = None, now: float | None = None) -> Session:
        """Create a session; names are unique (raises ``ValueError`` when taken)."""
        name = name.strip()
        if not name:
            raise ValueError("a session name cannot be empty")
        if self.find_session(name) is not None:
            raise ValueError(f"a session named {name!r} already exists")
        now = now or time.time()
        cur = self.conn.execute(
            "INSERT INTO sessions (name, mode, created_at, updated_at) VALUES (:name, :mode, :now, :now)",
            {"name": name, "mode": mode, "now": now},
        )
        return self.get_session(inserted_id(cur))

    def get_session(self, session_id: int) -> Session:
        row = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.id = :id", {"id": session_id}
        ).fetchone()
        if row is None:
            raise SessionNotFound(f"no session with id {session_id}")
        return _session(row)

    def find_session(self, name: str) -> Session | None:
        row = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.name = :name AND s.kind = 'chat'", {"name": name}
        ).fetchone()
        return _session(row) if row else None

    def session_named(self, name: str, *, create: bool = True) -> Session:
        """The session called ``name``, created when missing (unless ``create`` is False)."""
        found = self.find_session(name)
        if found is not None:
            return found
        if not create:
            raise SessionNotFound(f"no session named {name!r}")
        return self.create_session(name)

    def list_sessions(self) -> list[Session]:
        """All chat sessions, most recently active first (the hidden profile is not one)."""
        rows = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.kind = 'chat' ORDER BY s.updated_at DESC, s.id DESC"
        ).fetchall()
        return [_session(r) for r in rows]

    def latest_session(self) -> Session | None:
        sessions = self.list_sessions()
        return sessions[0] if sessions else None

    def profile_id(self) -> int:
        """The hidden session that owns the profile: memory items every session sees."""
        row = self.conn.execute("SELECT id FROM sessions WHERE kind = 'profile'").fetchone()
        if row is None:
            raise LookupError("the profile is missing from this database (schema older than 7?)")
        return int(row[0])

    def rename_session(self, session_id: int, new_name: str) -> Session:
        new_name = new_name.strip()
        if not new_name:
            raise ValueError("a session name cannot be empty")
        other = self.find_session(new_name)
        if other is not None and other.id != session_id:
            raise ValueError(f"a session named {new_name!r} already exists")
        self.conn.execute("UPDATE sessions SET name = :name WHERE id = :id", {"name": new_name, "id": session_id})
        return self.get_session(session_id)

    def update_session_settings(self, session_id: int, *, mode: str | None = None,
                                system_prompt: str | None = None) -> Session:
        """Set the per-session context mode and/or system prompt (None leaves it as is)."""
        with self.transaction():
            if mode is not None:
                self.conn.execute("UPDATE sessions SET mode = :mode WHERE id = :id", {"mode": mode, "id": session_id})
            if system_prompt is not None:
                self.conn.execute(
                    "UPDATE sessions SET system_prompt = :sp WHERE id = :id",
                    {"sp": system_prompt or None, "id": session_id},
                )
        return self.get_session(session_id)

    def delete_session(self, session_id: int) -> None:
        """Delete a session and everything that belongs to it (cascades); the profile stays."""
        self.conn.execute("DELETE FROM sessions WHERE id = :id AND kind = 'chat'", {"id": session_id})

    # -- messages -----------------------------------------------------------------------
    def add_message(self, session_id: int, role: str, content: str, *, token_count: int = 0,
                    stopped: bool = False, created_at: float | None = None,
                    ext_id: str | None = None) -> Message:
        """Append one message; it is durable when this returns (autocommit + WAL)."""
        now = created_at if created_at is not None else time.time()
        with self.transaction():
            cur = self.conn.execute(
                """INSERT INTO messages (session_id, ext_id, role, content, content_hash, token_count,
                                         stopped, created_at, turn)
                   VALUES (:sid, :ext, :role, :content, :hash, :tokens, :stopped, :now,
                           coalesce((SELECT turn FROM messages WHERE session_id = :sid ORDER BY id DESC LIMIT 1), 0)
                           + (:role = 'user'))""",
                {"sid": session_id, "ext": ext_id, "role": role, "content": content,
                 "hash": content_hash(content), "tokens": token_count, "stopped": int(stopped), "now": now},
            )
            self.conn.execute(
                "UPDATE sessions SET updated_at = max(updated_at, :now) WHERE id = :id",
                {"now": time.time(), "id": session_id},
            )
        return self.get_message(inserted_id(cur))

    def update_message(self, message_id: int, content: str, *, token_count: int | None = None,
                       stopped: bool | None = None, unhealthy: str | None = None) -> Message:
        """Replace a message's text (a streaming reply's draft), and its token count and stopped flag
        when given; ``unhealthy`` (a reason, or "" for healthy) when given."""
        self.conn.execute(
            """UPDATE messages SET content = :content, content_hash = :hash,
                      token_count = coalesce(:tokens, token_count), stopped = coalesce(:stopped, stopped),
                      unhealthy = CASE WHEN :unhealthy IS NULL THEN unhealthy ELSE nullif(:unhealthy, '') END
                WHERE id = :id""",
            {"id": message_id, "content": content, "hash": content_hash(content), "tokens": token_count,
             "stopped": None if stopped is None else int(stopped), "unhealthy": unhealthy})
        return self.get_message(message_id)

    def last_message_id(self) -> int:
        """The highest message id in the file (0 when empty): what an import adds lies above it."""
        return int(self.conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0])

    def user_messages_after(self, message_id: int) -> dict[int, list[int]]:
        """User messages above ``message_id``, by session: the turns an import just added."""
        rows = self.conn.execute("SELECT session_id, id FROM messages WHERE id > :id AND role = 'user' ORDER BY id",
                                 {"id": message_id}).fetchall()
        out: dict[int, list[int]] = {}
        for row in rows:
            out.setdefault(int(row[0]), []).append(int(row[1]))
        return out

    def get_message(self, message_id: int) -> Message:
        row = self.conn.execute("SELECT * FROM messages WHERE id = :id", {"id": message_id}).fetchone()
        if row is None:
            raise LookupError(f"no message with id {message_id}")
        return _message(row)

    def list_messages(self, session_id: int, *, after_id: int = 0, limit: int | None = None) -> list[Message]:
        """Messages of a session in order (optionally only those after ``after_id``)."""
        rows = self.conn.execute(
            """SELECT * FROM messages WHERE session_id = :sid AND id > :after
               ORDER BY id LIMIT :limit""",
            {"sid": session_id, "after": after_id, "limit": -1 if limit is None else limit},
        ).fetchall()
        return [_message(r) for r in rows]

    def last_messages(self, session_id: int, n: int) -> list[Message]:
        """The last ``n`` messages of a session, oldest first."""
        rows = self.conn.execute(
            "SELECT * FROM messages WHERE session_id = :sid ORDER BY id DESC LIMIT :n",
            {"sid": session_id, "n": n},
        ).fetchall()
        return [_message(r) for r in reversed(rows)]

    def get_messages(self, message_ids: Iterable[int]) -> list[Message]:
        """Several messages in one query, in id order (missing ids are skipped)."""
        ids = json.dumps(sorted({int(i) for i in message_ids}))
        rows = self.conn.execute(
            "SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(:ids)) ORDER BY id", {"ids": ids}
        ).fetchall()
        return [_message(r) for r in rows]

    def message_turns(self, message_ids: Iterable[int]) -> dict[int, int]:
        """Message id → its turn number (see ``memory.turns``), in one query."""
        ids = json.dumps(sorted({int(i) for i in message_ids}))
        rows = self.conn.execute(
            "SELECT id, turn FROM messages WHERE id IN (SELECT value FROM json_each(:ids))", {"ids": ids}
        ).fetchall()
        return {int(r[0]): max(1, int(r[1])) for r in rows}

    def session_turn_count(self, session_id: int) -> int:
        """The session's last turn number (the number of user messages it has had)."""
        row = self.conn.execute(
            "SELECT turn FROM messages WHERE session_id = :sid ORDER BY id DESC LIMIT 1", {"sid": session_id}
        ).fetchone()
        return int(row[0]) if row else 0

    def find_message_by_ext_id(self, session_id: int, ext_id: str) -> Message | None:
        row = self.conn.execute(
            "SELECT * FROM messages WHERE session_id = :sid AND ext_id = :ext", {"sid": session_id, "ext": ext_id}
        ).fetchone()
        return _message(row) if row else None

    # -- imported turns (m010) ------------------------------------------------------------
    def imported_keys(self, session_id: int) -> set[str]:
        """The import keys of the turns already imported into a session."""
        rows = self.conn.execute("SELECT import_key FROM imported_turns WHERE session_id = :sid",
                                 {"sid": session_id}).fetchall()
        return {r[0] for r in rows}

    def mark_imported(self, session_id: int, import_key: str, message_id: int) -> None:
        """Record that ``message_id`` is the transcript turn ``import_key`` (unique per session)."""
        self.conn.execute(
            "INSERT INTO imported_turns (session_id, import_key, message_id) VALUES (:sid, :key, :mid)",
            {"sid": session_id, "key": import_key, "mid": message_id})

    def sessions_with_import_key(self, import_key: str) -> list[Session]:
        """Chat sessions that already hold the imported turn ``import_key``, oldest first."""
        rows = self.conn.execute(
            f"""SELECT {_SESSION_COLUMNS} FROM imported_turns t JOIN sessions s ON s.id = t.session_id
                WHERE t.import_key = :key AND s.kind = 'chat' ORDER BY s.id""", {"key": import_key}).fetchall()
        return [_session(r) for r in rows]

    def duplicate_ext_ids(self) -> int:
        """Messages beyond the first with the same ``ext_id`` in a session (what a re-run import
        duplicated before imports were keyed)."""
        row = self.conn.execute(
            """SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM messages WHERE ext_id IS NOT NULL
                GROUP BY session_id, ext_id HAVING count(*) > 1)""").fetchone()
        return int(row[0])

    def count_messages(self, session_id: int | None = None) -> int:
        """Messages in the file, or in one session."""
        row = self.conn.execute(
            "SELECT count(*) FROM messages WHERE :sid IS NULL OR session_id = :sid", {"sid": session_id}).fetchone()
        return int(row[0])

    def delete_message(self, message_id: int) -> None:
        self.conn.execute("DELETE FROM messages WHERE id = :id", {"id": message_id})
