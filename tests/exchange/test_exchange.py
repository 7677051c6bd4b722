"""Export a session and bring it back; read a ChatGPT data export."""

import json

import pytest

from desktop_app.cli import main

CHATGPT_EXPORT = [
    {
        "title": "Trip planning",
        "create_time": 1700000000.0,
        "current_node": "n4",
        "mapping": {
            "root": {"id": "root", "message": None, "parent": None, "children": ["n1"]},
            "n1": {"id": "n1", "parent": "root", "children": ["n2"],
                   "message": {"id": "m1", "author": {"role": "system"}, "create_time": 1700000001.0,
                               "content": {"content_type": "text", "parts": [""]}}},
            "n2": {"id": "n2", "parent": "n1", "children": ["n3", "n3b"],
                   "message": {"id": "m2", "author": {"role": "user"}, "create_time": 1700000002.0,
                               "content": {"content_type": "text", "parts": ["My budget is 5000 euros."]}}},
            "n3b": {"id": "n3b", "parent": "n2", "children": [],
                    "message": {"id": "m3b", "author": {"role": "assistant"}, "create_time": 1700000003.0,
                                "content": {"content_type": "text", "parts": ["(abandoned branch)"]}}},
            "n3": {"id": "n3", "parent": "n2", "children": ["n4"],
                   "message": {"id": "m3", "author": {"role": "assistant"}, "create_time": 1700000004.0,
                               "content": {"content_type": "text", "parts": ["Noted: 5000 euros."]}}},
            "n4": {"id": "n4", "parent": "n3", "children": [],
                   "message": {"id": "m4", "author": {"role": "user"}, "create_time": 1700000005.0,
                               "content": {"content_type": "multimodal_text",
                                           "parts": [{"asset_pointer": "file://x"}, "What about Lisbon?"]}}},
        },
    },
    {"title": "Empty", "mapping": {"r": {"id": "r", "message": None, "parent": None, "children": []}}},
]


def _sessions(db, capsys):
    capsys.readouterr()
    main(["sessions", "--db", str(db), "--json"])
    return {s["name"]: s for s in json.loads(capsys.readouterr().out)}


def test_chatgpt_export_becomes_one_session_per_conversation_on_the_current_branch(tmp_path, capsys):
    db = tmp_path / "x.db"
    source = tmp_path / "conversations.json"
    source.write_text(json.dumps(CHATGPT_EXPORT), encoding="utf-8")
    assert main(["import", str(source), "--db", str(db)]) == 0
    sessions = _sessions(db, capsys)
    assert "Empty" not in sessions
    trip = sessions["Trip planning"]
    assert [(m["role"], m["content"]) for m in trip["messages"]] == [
        ("user", "My budget is 5000 euros."),
        ("assistant", "Noted: 5000 euros."),
        ("user", "What about Lisbon?"),
    ]
    assert trip["messages"][0]["ext_id"] == "m2"
    assert trip["messages"][0]["created_at"].startswith("2023-11-14")


def test_json_export_round_trips_a_session(tmp_path, capsys):
    db, other = tmp_path / "a.db", tmp_path / "b.db"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"role": "user", "content": "以后请用中文回答", "time": 1700000000}\n'
        '{"role": "assistant", "content": "好的", "time": 1700000010}\n', encoding="utf-8")
    assert main(["import", str(transcript), "--db", str(db), "--session", "中文"]) == 0
    out = tmp_path / "export.json"
    assert main(["export", "--db", str(db), "--session", "中文", "--format", "json", "--out", str(out)]) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["format"] == "paperclip-session"
    assert main(["import", str(out), "--db", str(other)]) == 0
    again = _sessions(other, capsys)["中文"]
    original = _sessions(db, capsys)["中文"]
    strip = lambda s: [(m["role"], m["content"], m["created_at"]) for m in s["messages"]]  # noqa: E731
    assert strip(again) == strip(original)


def test_markdown_export_lists_the_turns(tmp_path, capsys):
    db = tmp_path / "x.db"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "hello **world**"}\n', encoding="utf-8")
    main(["import", str(transcript), "--db", str(db), "--session", "s"])
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--session", "s"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# s")
    assert "## You" in text
    assert "hello **world**" in text


def test_export_of_an_unknown_session_is_a_one_line_error(tmp_path, capsys):
    assert main(["export", "--db", str(tmp_path / "x.db"), "--session", "nope"]) == 1
    assert capsys.readouterr().err.strip() == "paperclip: no session named 'nope'"


def test_a_bad_time_in_any_conversation_fails_the_whole_file_before_storing(tmp_path):
    import pytest

    from desktop_app.exchange.importers import ImportFormatError, read_conversations

    bad = json.loads(json.dumps(CHATGPT_EXPORT))
    bad.append(json.loads(json.dumps(CHATGPT_EXPORT[0])))
    bad[-1]["mapping"]["n4"]["message"]["create_time"] = "yesterday"
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ImportFormatError, match="'time' must be unix seconds or ISO-8601"):
        read_conversations(path.read_bytes(), path.name, path=path)
    good = read_conversations(json.dumps(CHATGPT_EXPORT).encode(), "c.json", path=tmp_path / "c.json")
    assert isinstance(good[0].turns[0]["time"], float)


def _normalised(export: dict) -> dict:
    """An export with the row ids replaced by positions, so two databases compare equal."""
    message_pos = {m["id"]: n for n, m in enumerate(export["messages"])}
    item_pos = {i["id"]: n for n, i in enumerate(export["memory"])}
    skip = {"id", "session_id", "source_message_id", "supersedes"}
    return {
        "messages": [{k: v for k, v in m.items() if k not in ("id", "ext_id")} for m in export["messages"]],
        "memory": [{**{k: v for k, v in i.items() if k not in skip},
                    "source": message_pos.get(i["source_message_id"]), "supersedes": item_pos.get(i["supersedes"])}
                   for i in export["memory"]],
        "session": export["session"] | {"name": None, "created_at": None},
    }


def test_export_import_export_keeps_every_memory_item_as_it_was(store, tmp_path):
    """Rules, /fact, /directive, pins, corrections (supersede chains), revocations and pending
    items survive a JSON export → import → export, with their origins and versions."""
    import json
    import time

    from desktop_app.chat import pipeline_for
    from desktop_app.config import load_settings
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.exchange.export import session_to_dict
    from desktop_app.exchange.importers import import_conversations, read_conversations
    from desktop_app.memory.controls import run_command

    settings = load_settings({"db": tmp_path / "a.db"})
    pipeline = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=4096)
    session = store.session_named("roundtrip")
    for text, reply in [("My budget is 5000 dollars.", "Noted."), ("Always answer in Chinese.", "好的。"),
                        ("Never modify the source CSV.", "OK."), ("Actually my budget is 8000 dollars.", "Noted."),
                        ("From now on answer in English.", "OK.")]:
        pipeline.import_message(session, "user", text)
        pipeline.import_message(session, "assistant", reply)
    now = time.time()
    run_command(store, store.get_session(session.id), "fact", "dog: Rex", now)
    run_command(store, store.get_session(session.id), "directive", "Sign every email as Priya.", now)
    pinned = next(i for i in store.list_items(session.id, statuses=("active",)) if "CSV" in i.value)
    run_command(store, store.get_session(session.id), "pin", str(pinned.id), now)
    first = session_to_dict(store, store.get_session(session.id))
    kinds = {(i["kind"], i["status"], i["origin"]) for i in first["memory"]}
    assert {"superseded", "active"} <= {s for _, s, _ in kinds}
    assert {"command", "rule"} <= {o for _, _, o in kinds}
    assert any(i["pinned"] for i in first["memory"])
    assert any(i["supersedes"] for i in first["memory"])

    raw = json.dumps(first, ensure_ascii=False).encode("utf-8")
    conversations = read_conversations(raw, "export.json", fmt="paperclip")
    [(name, _)] = import_conversations(store, conversations, counter=fallback_counter(), settings=settings)
    second = session_to_dict(store, store.find_session(name))
    assert _normalised(second) == _normalised(first)
    assert store.state_version(store.find_session(name).id) >= max(i["state_version"] for i in first["memory"])


def test_a_bad_memory_item_in_an_export_is_refused_whole(store):
    import json

    import pytest

    from desktop_app.exchange.importers import ImportFormatError, read_conversations

    export = {"format": "paperclip-session", "version": 1, "session": {"name": "x"},
              "messages": [{"id": 1, "role": "user", "content": "hi", "time": 1.7e9}],
              "memory": [{"id": 1, "kind": "wish", "subject": "s", "value": "v", "status": "active",
                          "origin": "rule", "state_version": 1, "created_at": 1.7e9, "updated_at": 1.7e9}]}
    with pytest.raises(ImportFormatError, match="memory item 1: kind"):
        read_conversations(json.dumps(export).encode(), "x.json", fmt="paperclip")


def test_markdown_export_lists_memory_values_with_their_pins_not_internal_keys(tmp_path, capsys):
    db = tmp_path / "x.db"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "Always answer in short sentences."}\n'
                          '{"role": "user", "content": "The budget must stay under 5000 dollars."}\n', encoding="utf-8")
    main(["import", str(transcript), "--db", str(db), "--session", "s"])
    capsys.readouterr()
    from desktop_app.memory.store import Store

    with Store(db) as store:
        session = store.session_named("s")
        items = store.list_items(session.id)
        rule = next(i for i in items if i.kind == "directive")
    assert main(["memory", "pin", str(rule.id), "--db", str(db), "--session", "s"]) == 0
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--session", "s"]) == 0
    memory = capsys.readouterr().out.split("## Memory", 1)[1]
    assert f"#{rule.id} {rule.value} (★ pinned)" in memory
    assert all(i.subject not in memory for i in items if ":" in i.subject), "no internal subject keys"


def test_a_json_lines_time_may_be_named_created_at_or_timestamp():
    from desktop_app.exchange.importers import ImportFormatError, parse_jsonl

    raw = "\n".join(json.dumps(turn, ensure_ascii=False) for turn in [
        {"role": "user", "content": "Budget is 8000.", "created_at": "2026-03-01T09:00:00Z"},
        {"role": "assistant", "content": "Noted.", "timestamp": 1772355660},
        {"role": "user", "content": "没有时间的一行"}]).encode()
    times = [turn["time"] for turn in parse_jsonl(raw, "t.jsonl")]
    assert times[0] == 1772355600.0
    assert times[1] == 1772355660.0
    assert times[2] is None
    bad = json.dumps({"role": "user", "content": "x", "created_at": "yesterday"}).encode()
    with pytest.raises(ImportFormatError, match=r"^t\.jsonl:1: 'created_at' must be"):
        parse_jsonl(bad, "t.jsonl")
