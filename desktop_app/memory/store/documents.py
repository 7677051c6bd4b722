"""Queries for private documents: the files, their sections and chunks, full-text and vector
search over the chunks, and removal (which leaves no row behind, and no byte of the text in the
file: the forget machinery of ``forget.py``). DDL lives in ``migrations.py``."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from desktop_app.memory.core.documents import Document, DocumentSection
from desktop_app.memory.store.base import StoreBase, inserted_id
from desktop_app.memory.store.sqlite_backend import Row

_CHUNK_INDEXES = {"words": "document_chunks_words", "trigram": "document_chunks_fts"}
_DOC_COLUMNS = ("id, name, path, content_hash, size, mtime, format, pages, chunk_count, language, session_id, "
                "added_at, indexed_at")
DOC_EMBED_KEY = "doc_embed_model"


def _document(row: Row) -> Document:
    return Document(**dict(row))


def _ids(values: Iterable[int]) -> str:
    return json.dumps(sorted({int(v) for v in values}))


class DocumentQueries(StoreBase):

    if TYPE_CHECKING:  # forget.py's, through Store (see base.py)
        def optimize_fulltext(self) -> None: ...
        def purge(self) -> bool: ...

    # -- documents ---------------------------------------------------------------------------
    def list_documents(self, session_id: int | None = None, *, library: bool = True) -> list[Document]:
        """The library's documents (``library``) and those attached to ``session_id``, by name."""
        rows = self.conn.execute(
            f"""SELECT {_DOC_COLUMNS} FROM documents
                WHERE (:lib AND session_id IS NULL) OR (session_id = :sid)
                ORDER BY name COLLATE NOCASE, id""", {"lib": int(library), "sid": session_id}).fetchall()
        return [_document(r) for r in rows]

    def all_documents(self) -> list[Document]:
        rows = self.conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents ORDER BY name COLLATE NOCASE, id").fetchall()
        return [_document(r) for r in rows]

    def get_document(self, document_id: int) -> Document | None:
        row = self.conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE id = :id", {"id": document_id}).fetchone()
        return _document(row) if row else None

    def document_with_hash(self, content_hash: str, session_id: int | None) -> Document | None:
        row = self.conn.execute(
            f"""SELECT {_DOC_COLUMNS} FROM documents
                WHERE content_hash = :h AND coalesce(session_id, -1) = coalesce(:sid, -1)""",
            {"h": content_hash, "sid": session_id}).fetchone()
        return _document(row) if row else None

    def document_at_path(self, path: str, session_id: int | None) -> Document | None:
        row = self.conn.execute(
            f"""SELECT {_DOC_COLUMNS} FROM documents WHERE path = :p AND coalesce(session_id, -1) = coalesce(:sid, -1)
                ORDER BY id LIMIT 1""", {"p": path, "sid": session_id}).fetchone()
        return _document(row) if row else None

    def document_name_taken(self, name: str, session_id: int | None) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM documents WHERE name = :n AND coalesce(session_id, -1) = coalesce(:sid, -1)",
            {"n": name, "sid": session_id}).fetchone()
        return row is not None

    def save_document(self, fields: dict[str, Any], sections: Sequence[dict[str, Any]], chunks: Sequence[dict[str, Any]], *,
                      replace_id: int | None = None, now: float | None = None) -> int:
        """Store a parsed document (or replace the text of ``replace_id``) in one transaction."""
        now = time.time() if now is None else now
        with self.transaction():
            values = {**fields, "chunk_count": len(chunks), "now": now}
            if replace_id is None:
                cur = self.conn.execute(
                    """INSERT INTO documents (name, path, content_hash, size, mtime, format, pages, chunk_count,
                                              language, session_id, added_at, indexed_at)
                       VALUES (:name, :path, :content_hash, :size, :mtime, :format, :pages, :chunk_count,
                               :language, :session_id, :now, :now)""", values)
                document_id = inserted_id(cur)
            else:
                document_id = replace_id
                self.conn.execute("DELETE FROM document_chunks WHERE document_id = :id", {"id": document_id})
                self.conn.execute("DELETE FROM document_sections WHERE document_id = :id", {"id": document_id})
                self.conn.execute(
                    """UPDATE documents SET path = :path, content_hash = :content_hash, size = :size, mtime = :mtime,
                              format = :format, pages = :pages, chunk_count = :chunk_count, language = :language,
                              indexed_at = :now WHERE id = :id""", {**values, "id": document_id})
            self.conn.executemany(
                """INSERT INTO document_sections (document_id, seq, page, heading, text)
                   VALUES (:doc, :seq, :page, :heading, :text)""",
                [{**s, "doc": document_id} for s in sections])
            self.conn.executemany(
                """INSERT INTO document_chunks (document_id, seq, section, page, heading, char_start, char_end,
                                                token_count, text)
                   VALUES (:doc, :seq, :section, :page, :heading, :char_start, :char_end, :tokens, :text)""",
                [{**c, "doc": document_id} for c in chunks])
        return document_id

    def touch_document(self, document_id: int, *, path: str, mtime: float | None) -> None:
        """Record that the file is unchanged at ``path`` (sync found the same bytes)."""
        with self.transaction():
            self.conn.execute("UPDATE documents SET path = :p, mtime = :m WHERE id = :id",
                              {"p": path, "m": mtime, "id": document_id})

    def delete_document(self, document_id: int) -> int:
        """Remove a document: its sections, chunks, both FTS indexes' rows, its vectors, and its
        text in logged prompts — and its words from the file, as a forget does: deleted cells are
        zeroed (``secure_delete``), every FTS5 index is merged so no segment keeps a token, then
        the file is rewritten and the WAL truncated (:meth:`purge`; skipped inside a caller's
        transaction, which must purge itself). Returns the number of chunks removed."""
        self.conn.execute("PRAGMA secure_delete = ON")
        with self.transaction():
            chunks = self.conn.execute("SELECT count(*) FROM document_chunks WHERE document_id = :id",
                                       {"id": document_id}).fetchone()[0]
            self._scrub_turn_logs(document_id)
            self.conn.execute("DELETE FROM document_chunks WHERE document_id = :id", {"id": document_id})
            self.conn.execute("DELETE FROM documents WHERE id = :id", {"id": document_id})
            self.optimize_fulltext()
        if not self.conn.in_transaction:
            self.purge()
        return int(chunks)

    def _scrub_turn_logs(self, document_id: int) -> None:
        """Logged prompts that quoted the document keep the citation, not the text."""
        texts = [r[0] for r in self.conn.execute("SELECT text FROM document_chunks WHERE document_id = :id",
                                                  {"id": document_id})]
        needle = f'"document_id":{int(document_id)}'
        rows = self.conn.execute(
            "SELECT id, record FROM turn_log WHERE instr(record, :a) > 0 OR instr(record, :b) > 0",
            {"a": needle + ",", "b": needle + "}"}).fetchall()
        for row in rows:
            record = json.loads(row["record"])
            recalled = record.get("layers", {}).get("recalled")
            if recalled:
                text = recalled.get("text", "")
                for chunk in texts:
                    text = text.replace(chunk, "[removed document]")
                recalled["text"] = text
                for item in recalled.get("items", []):
                    if item.get("document_id") == document_id:
                        item["value"] = None
            self.conn.execute("UPDATE turn_log SET record = :r WHERE id = :id",
                              {"r": json.dumps(record, ensure_ascii=False, separators=(",", ":")), "id": row["id"]})

    def document_sections(self, document_id: int, *, page: int | None = None) -> list[DocumentSection]:
        rows = self.conn.execute(
            """SELECT seq, page, heading, text FROM document_sections
               WHERE document_id = :id AND (:page IS NULL OR page = :page) ORDER BY seq""",
            {"id": document_id, "page": page}).fetchall()
        return [DocumentSection(seq=r[0], page=r[1], heading=r[2], text=r[3]) for r in rows]

    def document_row_counts(self, document_id: int) -> dict[str, int]:
        """Rows a document owns in each table (what removal must bring to zero)."""
        ids = [r[0] for r in self.conn.execute("SELECT id FROM document_chunks WHERE document_id = :id",
                                                {"id": document_id})]
        counts = {
            "sections": self.conn.execute("SELECT count(*) FROM document_sections WHERE document_id = :id",
                                          {"id": document_id}).fetchone()[0],
            "chunks": len(ids),
            "embedded": self.conn.execute("SELECT count(*) FROM document_embedded WHERE document_id = :id",
                                          {"id": document_id}).fetchone()[0],
        }
        return counts

    # -- full text over chunks ---------------------------------------------------------------
    def fts_chunks(self, match: str, document_ids: Sequence[int], *, limit: int,
                   index: str = "words") -> list[tuple[int, float]]:
        """``(chunk_id, bm25 score)`` of chunks of ``document_ids`` matching ``match``, best first."""
        table = _CHUNK_INDEXES[index]
        rows = self.conn.execute(
            f"""SELECT f.rowid, -bm25({table}, 2.0, 1.0) AS score FROM {table} f
                CROSS JOIN document_chunks c ON c.id = f.rowid  -- FTS5 outer (see fts_messages)
                WHERE {table} MATCH :match AND c.document_id IN (SELECT value FROM json_each(:ids))
                ORDER BY score DESC LIMIT :limit""",
            {"match": match, "ids": _ids(document_ids), "limit": limit}).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def substring_chunks(self, needles: Sequence[str], document_ids: Sequence[int], *,
                         limit: int) -> dict[str, list[tuple[int, float]]]:
        """Chunks containing each needle (1-2 character CJK words), scored by occurrences."""
        out: dict[str, list[tuple[int, float]]] = {}
        for needle in dict.fromkeys(needles):
            rows = self.conn.execute(
                """SELECT id, (length(text) - length(replace(text, :n, ''))) / length(:n) AS hits
                   FROM document_chunks WHERE document_id IN (SELECT value FROM json_each(:ids))
                     AND instr(text, :n) > 0 ORDER BY hits DESC, id LIMIT :limit""",
                {"n": needle, "ids": _ids(document_ids), "limit": limit}).fetchall()
            out[needle] = [(int(r[0]), float(r[1])) for r in rows]
        return out

    def chunk_rows(self, chunk_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Chunks by id with their document's name."""
        rows = self.conn.execute(
            """SELECT c.id, c.document_id, d.name, c.page, c.heading, c.text, c.char_start, c.char_end, c.seq
               FROM document_chunks c JOIN documents d ON d.id = c.document_id
               WHERE c.id IN (SELECT value FROM json_each(:ids))""", {"ids": _ids(chunk_ids)}).fetchall()
        return {int(r["id"]): dict(r) for r in rows}

    def leading_chunks(self, document_ids: Sequence[int], *, limit: int) -> list[int]:
        """The first chunks of each document (what a question that matches nothing gets)."""
        rows = self.conn.execute(
            """SELECT id FROM document_chunks WHERE document_id IN (SELECT value FROM json_each(:ids))
               ORDER BY seq, document_id LIMIT :limit""", {"ids": _ids(document_ids), "limit": limit}).fetchall()
        return [int(r[0]) for r in rows]

    # -- vectors -----------------------------------------------------------------------------
    def document_vector_table_exists(self) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'document_vec'").fetchone() is not None

    def reset_document_vectors(self, dim: int) -> None:
        """(Re)create the chunk vector table for ``dim`` dimensions, empty."""
        from desktop_app.memory.store.migrations import ensure_document_vector_tables

        with self.transaction():
            ensure_document_vector_tables(self.conn, dim, drop=True)

    def pending_chunk_embeddings(self, *, limit: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            """SELECT c.id, c.document_id, c.heading, c.text FROM document_chunks c
               LEFT JOIN document_embedded e ON e.chunk_id = c.id WHERE e.chunk_id IS NULL
               ORDER BY c.id LIMIT :limit""", {"limit": limit}).fetchall()
        return [dict(r) for r in rows]

    def has_document_chunks(self) -> bool:
        return bool(self.conn.execute("SELECT EXISTS (SELECT 1 FROM document_chunks)").fetchone()[0] == 1)

    def count_pending_chunk_embeddings(self) -> int:
        return int(self.conn.execute(
            """SELECT count(*) FROM document_chunks c LEFT JOIN document_embedded e ON e.chunk_id = c.id
               WHERE e.chunk_id IS NULL""").fetchone()[0])

    def save_chunk_embeddings(self, rows: Sequence[tuple[int, int, bytes, bytes]]) -> int:
        """``(chunk_id, document_id, float32 bytes, float16 bytes)`` per chunk, in one transaction;
        chunks deleted meanwhile are skipped."""
        with self.transaction():
            stored = 0
            for chunk_id, document_id, vector, half in rows:
                if self.conn.execute("SELECT 1 FROM document_chunks WHERE id = :id", {"id": chunk_id}).fetchone() is None:
                    continue
                self.conn.execute("DELETE FROM document_vec WHERE chunk_id = :id", {"id": chunk_id})
                self.conn.execute("INSERT INTO document_vec (chunk_id, document_id, embedding) VALUES (:id, :d, :v)",
                                  {"id": chunk_id, "d": document_id, "v": vector})
                self.conn.execute(
                    """INSERT INTO document_embedded (chunk_id, document_id, embedding) VALUES (:id, :d, :e)
                       ON CONFLICT(chunk_id) DO UPDATE SET embedding = :e""", {"id": chunk_id, "d": document_id, "e": half})
                stored += 1
        return stored

    def knn_chunks(self, vector: bytes, *, k: int) -> list[tuple[int, int, float]]:
        """Exact float KNN over every chunk: ``(chunk_id, document_id, cosine distance)``."""
        rows = self.conn.execute(
            "SELECT chunk_id, document_id, distance FROM document_vec WHERE embedding MATCH :v AND k = :k ORDER BY distance",
            {"v": vector, "k": min(k, 4096)}).fetchall()
        return [(int(r[0]), int(r[1]), float(r[2])) for r in rows]

    def chunk_vectors(self, document_ids: Sequence[int]) -> list[tuple[int, bytes]]:
        """The float16 vectors of the chunks of ``document_ids`` (exact scoring within a few documents)."""
        rows = self.conn.execute(
            "SELECT chunk_id, embedding FROM document_embedded WHERE document_id IN (SELECT value FROM json_each(:ids))",
            {"ids": _ids(document_ids)}).fetchall()
        return [(int(r[0]), bytes(r[1])) for r in rows]

    def document_vector_count(self) -> int:
        if not self.document_vector_table_exists():
            return 0
        return int(self.conn.execute("SELECT count(*) FROM document_vec").fetchone()[0])
