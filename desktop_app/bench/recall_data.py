"""Evaluation data for the recall benchmarks: LoCoMo (English, gold evidence turns) and
MemoryBank (Chinese, no gold labels), read from ``../shared/data`` at run time.

Importing follows the headless contract: each LoCoMo conversation becomes one session, each
turn a message (``dia_id`` as ``ext_id``, the session date as its time), and each LoCoMo
session a page with an automatic bookmark made by the memory core's keyword function.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from desktop_app import paths
from desktop_app.memory.lang.text import clip, keywords

LOCOMO_FILE = Path("locomo") / "locomo10.json"
MEMORYBANK_CN = Path("memorybank") / "cn"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


class DataMissing(RuntimeError):
    """The shared evaluation data is not there; the message says where it was looked for."""


def data_dir() -> Path:
    return paths.REPO_ROOT.parent / "shared" / "data"


def require(relative: Path) -> Path:
    path = data_dir() / relative
    if not path.exists():
        raise DataMissing(f"evaluation data not found: {path} (the benchmark needs ../shared/data next to the repo)")
    return path


@dataclass(frozen=True)
class Question:
    conversation: str
    question: str
    category: int
    evidence: frozenset[str]


def normalise_evidence(raw: list[str]) -> frozenset[str]:
    """'D8:6; D9:17', 'D:11:26', 'D9:1 D4:4' → {'D8:6', 'D9:17', 'D11:26', …}."""
    out = set()
    for item in raw:
        for session, turn in _EVIDENCE.findall(item):
            out.add(f"D{int(session)}:{int(turn)}")
    return frozenset(out)


def session_time(text: str) -> float:
    """'1:56 pm on 8 May, 2023' → unix seconds (UTC)."""
    parsed = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return parsed.replace(tzinfo=UTC).timestamp()


def turn_text(turn: dict) -> str:
    """A LoCoMo turn as stored: speaker, text, and the caption of a shared photo if any."""
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def load_locomo() -> list[dict]:
    with require(LOCOMO_FILE).open(encoding="utf-8") as handle:
        return json.load(handle)


def conversation_sessions(sample: dict) -> list[tuple[float, list[dict]]]:
    """``(start time, turns)`` of each session of a conversation, in order."""
    conv = sample["conversation"]
    numbers = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
    return [(session_time(conv[f"session_{n}_date_time"]), conv[f"session_{n}"]) for n in numbers]


def questions(samples: list[dict], categories=(1, 2, 3, 4)) -> list[Question]:
    out = []
    for sample in samples:
        for qa in sample["qa"]:
            evidence = normalise_evidence(qa.get("evidence", []))
            if qa["category"] in categories and evidence:
                out.append(Question(sample["sample_id"], qa["question"], qa["category"], evidence))
    return out


def import_locomo(store, samples: list[dict], *, bookmarks: bool = True) -> dict[str, int]:
    """Import every conversation as a session ``locomo-<sample_id>``; returns name → session id."""
    sessions = {}
    for sample in samples:
        session = store.session_named(f"locomo-{sample['sample_id']}")
        sessions[sample["sample_id"]] = session.id
        if store.list_messages(session.id, limit=1):
            continue  # already imported (a reused benchmark database)
        speaker_a = sample["conversation"]["speaker_a"]
        for start, turns in conversation_sessions(sample):
            stored = []
            with store.transaction():
                for index, turn in enumerate(turns):
                    role = "user" if turn["speaker"] == speaker_a else "assistant"
                    stored.append(store.add_message(session.id, role, turn_text(turn), created_at=start + index,
                                                    ext_id=turn["dia_id"]))
                if bookmarks and stored:
                    add_page_bookmark(store, session.id, stored)
    return sessions


def add_page_bookmark(store, session_id: int, messages) -> None:
    """Archive ``messages`` as a page with an automatic bookmark, as the memory core's
    page-out does (``memory.text.keywords``: 2-4 keywords; description: the first user line)."""
    page = store.create_page(session_id, messages, messages[-1].created_at)
    words = keywords([m.content.split(": ", 1)[-1] for m in messages], k=4)
    first_user = next((m.content for m in messages if m.role == "user"), messages[0].content)
    store.add_bookmark(session_id, page_id=page.id, keywords=words or ["conversation"],
                       description=clip(first_user, 80), origin="auto", now=messages[-1].created_at)


def load_memorybank_cn() -> tuple[dict[str, list[dict]], dict[str, list[str]]]:
    """``(dialogues, probes)``: user name → ``{"date", "query", "response"}`` pairs in date
    order, and user name → the dataset's probing questions (Chinese; no gold answers)."""
    folder = require(MEMORYBANK_CN)
    data = json.loads((folder / "memory_bank_cn.json").read_text(encoding="utf-8"))
    dialogues: dict[str, list[dict]] = {}
    for name, entry in data.items():
        for date, pairs in sorted((entry.get("history") or {}).items()):
            dialogues.setdefault(name, []).extend({"date": date, **pair} for pair in pairs)
    probes: dict[str, list[str]] = {}
    probe_file = folder / "probing_questions_cn.jsonl"
    if probe_file.exists():
        for line in probe_file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                for name, asked in json.loads(line).items():
                    probes.setdefault(name, []).extend(asked)
    return dialogues, probes
