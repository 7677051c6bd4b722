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


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes (None elsewhere)."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def choose(threads: int | None, gpu_layers: int | None) -> HardwareChoice:
    """Resolve the user's ``threads``/``gpu_layers`` (None: automatic) for this machine."""
    from desktop_app.engine.llama import gpu_offload_supported

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
        layers, gpu_why = 0, "this llama.cpp build is CPU-only (see the README for CMAKE_ARGS)"
    return HardwareChoice(threads=chosen, threads_why=why, gpu_layers=layers, gpu_why=gpu_why,
                          available_memory_bytes=available_memory())
