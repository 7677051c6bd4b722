"""The default chat model by machine: the manifest's hardware rules, read by config and `make models`."""

from __future__ import annotations

import pytest

from desktop_app import config
from desktop_app.manifest import Machine, catalog, hardware_pick


@pytest.mark.parametrize("machine, expected", [
    (Machine(physical_cores=2, memory_gb=24), None),  # this project's CI kind: the 0.5B
    (Machine(physical_cores=4, memory_gb=16), "qwen2.5-coder-1.5b"),
    (Machine(physical_cores=8, memory_gb=6), None),  # not enough memory beside the OS and the chat
    (Machine(physical_cores=2, memory_gb=8, gpu=True), "qwen2.5-coder-1.5b"),
])
def test_the_hardware_rules_pick_the_model_for_the_machine(machine, expected):
    picked = hardware_pick(machine)
    assert (picked[0] if picked else None) == expected
    if picked:
        assert picked[0] in catalog(), "a picked model is in the catalog, with its reason"
        assert picked[1], "a picked model is in the catalog, with its reason"


def test_the_picked_model_is_the_default_once_installed_and_the_reason_is_said(monkeypatch, tmp_path):
    monkeypatch.setenv("PAPERCLIP_MODELS_DIR", str(tmp_path))
    monkeypatch.setattr(config, "machine_facts", lambda: (8, 32.0, False))
    entries = catalog()
    (tmp_path / entries["qwen2.5-coder-0.5b"].file).write_bytes(b"GGUF")
    path, why = config.default_model_choice()
    assert path.name == entries["qwen2.5-coder-0.5b"].file
    assert "qwen2.5-coder-1.5b would suit this machine" in why
    assert "make models" in why
    (tmp_path / entries["qwen2.5-coder-1.5b"].file).write_bytes(b"GGUF")
    path, why = config.default_model_choice()
    assert path.name == entries["qwen2.5-coder-1.5b"].file
    assert "picked for this machine" in why
    monkeypatch.setattr(config, "machine_facts", lambda: (2, 24.0, False))
    assert config.default_model_choice()[0].name == entries["qwen2.5-coder-0.5b"].file
