"""Defaults from the machine: threads from the physical cores, GPU offload when the build has
it. ``paperclip doctor`` prints what was chosen and why."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel


class HardwareChoice(BaseModel):
    threads: int
    threads_why: str
    gpu_layers: int
    gpu_why: str
    available_memory_bytes: int | None = None


def physical_cores() -> int | None:
    """Distinct (physical id, core id) pairs in /proc/cpuinfo; None where it cannot tell."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    cores, physical = set(), "0"
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "physical id":
            physical = value
        elif key == "core id":
            cores.add((physical, value))
    return len(cores) or None


def _meminfo(key: str) -> int | None:
    """A /proc/meminfo field in bytes (None elsewhere)."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes (None elsewhere)."""
    return _meminfo("MemAvailable")


def total_memory() -> int | None:
    """MemTotal from /proc/meminfo, in bytes (None elsewhere)."""
    return _meminfo("MemTotal")


def gpu_offload_supported() -> bool:
    """Whether this llama.cpp build can offload layers to a GPU (CUDA, Metal, Vulkan …)."""
    try:
        import llama_cpp

        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:
        return False


def machine_facts() -> tuple[int, float | None, bool]:
    """(physical cores, total memory in GB, GPU offload possible): what the model choice reads."""
    memory = total_memory()
    return (physical_cores() or os.cpu_count() or 1, memory / 2**30 if memory else None, gpu_offload_supported())


# On the CPU a bigger window mostly means longer waits: pre-fill runs at ~50-150 tokens/s on a
# laptop core, and after a page-out the prompt is evaluated again. With a GPU it is cheap.
CPU_CTX_CAP = 4096
GPU_CTX_CAP = 32768
KV_MEMORY_SHARE = 0.25  # the KV cache may take at most this share of the available memory


def choose_ctx(requested: int, model_path: Path | None, gpu_layers: int) -> tuple[int, str]:
    """``requested`` when set (> 0); else the model's trained size, capped by memory and by what
    pre-fill on this hardware makes reasonable. Returns (n_ctx, why)."""
    if requested > 0:
        return requested, "set in the config or by --ctx"
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.gguf_info import read_gguf_info

    try:
        info = read_gguf_info(model_path) if model_path is not None else None
    except ModelLoadError:
        info = None
    trained = (info.context_length if info else None) or CPU_CTX_CAP
    cap, cap_why = (GPU_CTX_CAP, "GPU") if gpu_layers != 0 else (CPU_CTX_CAP, "CPU pre-fill speed")
    memory = available_memory()
    fits = int(memory * KV_MEMORY_SHARE // info.kv_bytes_per_token) if memory and info and info.kv_bytes_per_token \
        else trained
    n_ctx = max(512, min(trained, cap, fits))
    return n_ctx, f"trained {trained}, memory allows {fits}, {cap_why} cap {cap}"


def choose(threads: int | None, gpu_layers: int | None) -> HardwareChoice:
    """Resolve the user's ``threads``/``gpu_layers`` (None: automatic) for this machine."""
    logical = os.cpu_count() or 2
    physical = physical_cores() or logical
    if threads is not None:
        chosen, why = threads, "set in the config or by --threads"
    else:
        # Hyper-threads share a core's arithmetic units; one core stays free for the UI,
        # SQLite and the embedder (and llama.cpp stalls when a busy core holds a thread).
        chosen = max(1, min(physical, logical - 1))
        why = f"{physical} physical core{'s' if physical != 1 else ''} of {logical} logical, one left free"
    if gpu_layers is not None:
        layers, gpu_why = gpu_layers, "set in the config or by --gpu-layers"
    elif gpu_offload_supported():
        layers, gpu_why = -1, "this llama.cpp build can offload: all layers on the GPU"
    else:
        layers, gpu_why = 0, "this llama.cpp build is CPU-only (see docs/install.md for CMAKE_ARGS)"
    return HardwareChoice(threads=chosen, threads_why=why, gpu_layers=layers, gpu_why=gpu_why,
                          available_memory_bytes=available_memory())
