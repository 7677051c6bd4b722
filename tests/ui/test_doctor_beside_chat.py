"""``paperclip doctor`` while the chat is open loads no second copy of the model: it reads the
GGUF header and checks the sha256; ``--load`` test-loads it when asked."""

from __future__ import annotations

import json

import pytest

from desktop_app.cli import build_parser, main
from desktop_app.config import default_model_path


@pytest.fixture
def loads(monkeypatch) -> list:
    """Every chat-model load doctor asks for."""
    from desktop_app.commands import common

    calls: list = []

    def counting_load(settings, *, quiet=False):
        calls.append(settings.model_path)
        raise common.CommandError("not loaded in this test")

    monkeypatch.setattr(common, "load_engine", counting_load)
    return calls


async def test_doctor_beside_an_open_chat_loads_no_model(settings, db_path, ui, loads):
    from desktop_app.commands.common import settings_from_args
    from desktop_app.commands.doctor import collect

    if not default_model_path().exists():
        pytest.skip("the default model is not installed (make models)")
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        args = build_parser().parse_args(["doctor", "--db", str(db_path)])
        checks = {c["check"]: c for c in collect(settings_from_args(args), load=args.load)}
    assert loads == [], "no second copy of the model beside the chat"
    assert "chat model load" not in checks
    header = checks["chat model header"]
    assert header["ok"]
    assert "qwen2" in header["detail"]
    assert "chat template in the file" in header["detail"]
    assert checks["chat model sha256"]["ok"]


def test_doctor_load_test_loads_the_model_when_asked(db_path, loads, capsys):
    if not default_model_path().exists():
        pytest.skip("the default model is not installed (make models)")
    main(["doctor", "--json", "--load", "--db", str(db_path)])
    checks = {c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert len(loads) == 1
    assert checks["chat model load"]["ok"] is False
    main(["doctor", "--json", "--no-load", "--db", str(db_path)])  # still accepted: the default now
    assert len(loads) == 1
