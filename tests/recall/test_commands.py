"""``paperclip recall``, ``reindex`` and ``bookmarks`` through the real CLI entry point."""

from __future__ import annotations

import json

import pytest

from desktop_app.cli import main
from desktop_app.memory.store import Store
from tests.recall.conftest import add_turns


@pytest.fixture
def filled_db(db_path):
    with Store(db_path) as store:
        session = store.session_named("notes")
        add_turns(store, session.id, ["The wifi password is marmalade42.", "Got it.",
                                      "我们把预算定在五千元以内", "好的", "Book the dentist for Tuesday.", "Done."])
    return db_path


def _run(capsys, *argv):
    code = main([*argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_recall_json_lists_ranked_hits_with_ids_and_signals(filled_db, capsys):
    code, out, _ = _run(capsys, "recall", "wifi password", "--db", str(filled_db), "--session", "notes", "--k", "2",
                        "--signals", "bm25,bookmark", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["query"] == "wifi password"
    assert data["session"] == "notes"
    top = data["hits"][0]
    assert "marmalade42" in top["snippet"]
    assert top["signals"]["bm25"]["rank"] == 1
    assert {"message_id", "page_id", "ext_id", "turn", "time", "label", "fused", "score"} <= set(top)


def test_recall_queries_file_prints_one_json_line_per_query(filled_db, tmp_path, capsys):
    queries = tmp_path / "queries.txt"
    queries.write_text("wifi password\n\n预算\ndentist\n", encoding="utf-8")
    code, out, _ = _run(capsys, "recall", "--queries", str(queries), "--db", str(filled_db), "--session", "notes",
                        "--signals", "bm25", "--k", "1")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["query"] for line in lines] == ["wifi password", "预算", "dentist"]
    assert "五千元" in lines[1]["hits"][0]["snippet"]


def test_recall_user_mistakes_are_one_line_errors(filled_db, capsys):
    code, _, err = _run(capsys, "recall", "--db", str(filled_db))
    assert code == 2
    assert "QUERY or --queries" in err
    code, _, err = _run(capsys, "recall", "x", "--signals", "bm25,magic", "--db", str(filled_db))
    assert code == 2
    assert "--signals" in err
    code, _, err = _run(capsys, "recall", "x", "--session", "nope", "--db", str(filled_db))
    assert code == 1
    assert "nope" in err
    assert "Traceback" not in err


def test_bookmarks_add_edit_list_remove(filled_db, capsys):
    base = ["--db", str(filled_db), "--session", "notes"]
    code, out, _ = _run(capsys, "bookmarks", "add", "router, network", *base, "--json")
    assert code == 0
    mark = json.loads(out)["bookmark"]
    assert mark["origin"] == "user"
    assert mark["keywords"] == ["router", "network"]
    code, out, _ = _run(capsys, "bookmarks", "edit", str(mark["id"]), "--keywords", "wifi,router", *base, "--json")
    assert json.loads(out)["bookmark"]["keywords"] == ["wifi", "router"]
    code, out, _ = _run(capsys, "bookmarks", "list", *base, "--json")
    assert [m["id"] for m in json.loads(out)] == [mark["id"]]
    code, out, _ = _run(capsys, "recall", "router", *base, "--signals", "bookmark", "--json")
    assert json.loads(out)["hits"][0]["signals"]["user_bookmark"]["rank"] == 1
    code, _, _ = _run(capsys, "bookmarks", "remove", str(mark["id"]), *base)
    assert code == 0
    code, out, _ = _run(capsys, "bookmarks", "list", *base, "--json")
    assert json.loads(out) == []
    code, _, err = _run(capsys, "bookmarks", "remove", str(mark["id"]), *base)
    assert code == 1
    assert f"#{mark['id']}" in err


@pytest.mark.model
def test_recall_and_reindex_with_the_real_embedding_model(filled_db, minilm, capsys):
    code, out, err = _run(capsys, "recall", "what is the internet passphrase?", "--db", str(filled_db),
                          "--session", "notes", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["vectors"] is True
    assert "marmalade42" in data["hits"][0]["snippet"]
    code, out, _ = _run(capsys, "reindex", "--db", str(filled_db), "--json")
    assert code == 0
    assert json.loads(out)["embedded"] == 6


def test_explicit_missing_embed_model_is_an_error(filled_db, tmp_path, capsys):
    code, _, err = _run(capsys, "recall", "wifi", "--db", str(filled_db), "--embed-model", str(tmp_path / "none.gguf"))
    assert code == 1
    assert "none.gguf" in err
