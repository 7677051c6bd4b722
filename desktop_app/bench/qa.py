"""``paperclip bench qa``: LoCoMo question answering through the real pipeline, modes side by side.

LoCoMo (``../shared/data/locomo``, CC BY-NC 4.0) is ten long two-person conversations with
questions and gold answers nobody here wrote. Each conversation needed by the sampled questions is
imported as typed turns (``exchange.importers``: the pipeline pages it out, bookmarks and indexes
it as the chat would; the model's memory pass is off), its turns embedded when the embedding model
is installed. Each question is then planned by the pipeline without being stored (``preview``, as
``paperclip context`` does) in every mode, answered by the chat model at temperature 0, and scored
with LoCoMo's token F1 (lowercase, punctuation and articles removed; multi-hop answers split at
commas, each part matched to its best gold part). Categories 1 (multi-hop), 2 (temporal) and 4
(single-hop). ``--limit N`` takes N evenly spaced questions.
"""

from __future__ import annotations

import re
import string
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel

CATEGORIES = {1: "multi-hop", 2: "temporal", 4: "single-hop"}
MODES = ("layered", "sliding", "retrieval", "full")
# Asked after each question, the same in every mode: LoCoMo's answers are short phrases, and token
# F1 punishes a paragraph around the right words.
ANSWER_HINT = " Answer in a few words."
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


class Answered(BaseModel):
    question: str
    category: int
    gold: str
    mode: str
    reply: str
    f1: float
    seconds: float
    prompt_tokens: int


def normalise(text: str) -> str:
    """LoCoMo's answer normalisation: lowercase, no punctuation, no articles, single spaces."""
    text = text.replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, gold: str) -> float:
    predicted, wanted = normalise(prediction).split(), normalise(gold).split()
    common = Counter(predicted) & Counter(wanted)
    same = sum(common.values())
    if not same:
        return 0.0
    precision, recall = same / len(predicted), same / len(wanted)
    return 2 * precision * recall / (precision + recall)


def score(prediction: str, gold: str, category: int) -> float:
    """LoCoMo's per-category F1: multi-hop answers are lists, each predicted part scored against
    its best gold part, averaged over the gold parts."""
    if category == 1:
        predicted = [p for p in prediction.split(",") if p.strip()] or [prediction]
        parts = [g for g in gold.split(",") if g.strip()] or [gold]
        return sum(max(token_f1(p, g) for p in predicted) for g in parts) / len(parts)
    return token_f1(prediction, gold)


def sample_questions(samples: list[dict], limit: int | None) -> list[tuple[str, str, str, int]]:
    """(conversation id, question, gold answer, category), evenly spaced when ``limit`` is set."""
    asked = [(s["sample_id"], qa["question"], str(qa["answer"]), qa["category"]) for s in samples for qa in s["qa"]
             if qa["category"] in CATEGORIES and "answer" in qa]
    if limit and limit < len(asked):
        step = len(asked) / limit
        asked = [asked[int(i * step)] for i in range(limit)]
    return asked


def _turns(sample: dict) -> list[dict]:
    from desktop_app.bench.recall_data import conversation_sessions, turn_text

    speaker_a = sample["conversation"]["speaker_a"]
    return [{"role": "user" if turn["speaker"] == speaker_a else "assistant", "content": turn_text(turn),
             "id": turn["dia_id"], "time": start + index}
            for start, turns in conversation_sessions(sample) for index, turn in enumerate(turns)]


def build(store, settings, samples: list[dict], needed: set[str], *, log) -> dict[str, object]:
    """Import the needed conversations as typed turns; name → session."""
    from desktop_app.commands.recall import index_new_turns
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.exchange.importers import ImportedConversation, import_conversations

    sessions = {}
    for sample in samples:
        if sample["sample_id"] not in needed:
            continue
        name = f"locomo-{sample['sample_id']}"
        started = time.perf_counter()
        import_conversations(store, [ImportedConversation(title=name, turns=_turns(sample))],
                             counter=fallback_counter(), settings=settings, session_name=name)
        sessions[sample["sample_id"]] = store.find_session(name)
        log(f"imported {name} in {time.perf_counter() - started:.1f} s")
    index_new_turns(store, settings, log=log)
    return sessions


def answer_all(store, settings, engine, sessions, asked, modes, *, max_tokens: int, log) -> list[Answered]:
    from desktop_app.chat import pipeline_for

    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    out = []
    for number, (conv, question, gold, category) in enumerate(asked, start=1):
        session = store.get_session(sessions[conv].id)
        for mode in modes:
            plan, _ = pipeline.preview(session, question + ANSWER_HINT, mode=mode)
            if plan.total_tokens > plan.budget:
                continue  # does not fit the window (``full`` on a long conversation)
            started = time.perf_counter()
            reply = "".join(engine.stream_chat(plan.messages, max_tokens=max_tokens, temperature=0.0)).strip()
            out.append(Answered(question=question, category=category, gold=gold, mode=mode, reply=reply,
                                f1=score(reply, gold, category), seconds=time.perf_counter() - started,
                                prompt_tokens=plan.total_tokens))
        log(f"question {number}/{len(asked)} done")
    return out


def table(answered: list[Answered], modes, asked: int) -> str:
    by: dict[tuple[str, int], list[float]] = defaultdict(list)
    secs: dict[str, list[float]] = defaultdict(list)
    tokens: dict[str, list[int]] = defaultdict(list)
    for a in answered:
        by[(a.mode, a.category)].append(a.f1)
        secs[a.mode].append(a.seconds)
        tokens[a.mode].append(a.prompt_tokens)
    head = "| mode | " + " | ".join(f"{name} F1" for name in CATEGORIES.values()) + \
        " | all F1 | answered | s / question | prompt tokens (mean) |"
    lines = [head, "|" + "---|" * (len(CATEGORIES) + 5)]
    for mode in modes:
        scores = [a.f1 for a in answered if a.mode == mode]
        if not scores:
            lines.append(f"| {mode} | " + " | ".join("—" for _ in CATEGORIES) + f" | — | 0/{asked} | — | — |")
            continue
        cells = []
        for category in CATEGORIES:
            values = by[(mode, category)]
            cells.append(f"{100 * sum(values) / len(values):.1f} ({len(values)})" if values else "—")
        lines.append(f"| {mode} | " + " | ".join(cells) + f" | {100 * sum(scores) / len(scores):.1f} | "
                     f"{len(scores)}/{asked} | {sum(secs[mode]) / len(secs[mode]):.1f} | "
                     f"{sum(tokens[mode]) / len(tokens[mode]):.0f} |")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.bench.recall_data import DataMissing, load_locomo
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.memory.store import Store

    try:
        samples = load_locomo()
    except DataMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise CommandError(f"unknown mode {unknown[0]!r} (choose from {', '.join(MODES)})", 2)
    asked = sample_questions(samples, args.limit)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    settings = settings.model_copy(update={"memory_model": "off", "temperature": 0.0, "seed": 7})
    with tempfile.TemporaryDirectory(prefix="paperclip-qa-") as tmp:
        db = Path(args.work_db) if args.work_db else Path(tmp) / "locomo-qa.db"
        settings = settings.model_copy(update={"db": db})
        engine = load_engine(settings, quiet=True)
        with Store(db) as store:
            sessions = build(store, settings, samples, {conv for conv, *_ in asked}, log=log)
            answered = answer_all(store, settings, engine, sessions, asked, modes, max_tokens=args.max_tokens, log=log)
    if args.json:
        print_json({"questions": len(asked), "answers": [a.model_dump() for a in answered]})
        return 0
    print(f"LoCoMo QA · {len(asked)} questions (categories 1, 2, 4) · {Path(str(settings.model_path)).name} · "
          f"temperature 0 · max {args.max_tokens} tokens")
    print(table(answered, modes, len(asked)))
    return 0


def register(subparsers):
    parser = subparsers.add_parser("qa", help="LoCoMo question answering through the pipeline: token F1 per mode")
    parser.add_argument("--limit", type=int, default=None, help="N evenly spaced questions (all: ~1,500)")
    parser.add_argument("--modes", default="layered,sliding,retrieval,full", help="comma-separated context modes")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=32)
    parser.add_argument("--work-db", dest="work_db", default=None, help="keep the imported database here (reused)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
