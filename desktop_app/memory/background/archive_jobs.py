"""Model work on archived pages: bookmarks and the rolling summary.

Page-out stays instant and rule-based; these jobs run afterwards, while the chat is idle, and
only *replace* the rule result when the model's version passes the program's checks:

* :class:`BookmarkJob` — 2–4 keywords and a one-line description in the page's language; at
  least one keyword must occur in the page (or in the subjects of its items), else the rule
  bookmark stands;
* :class:`StageJob` — topics and a synopsis added to a stage summary's rule text (the summary
  chain's index): the topics must occur in the stage's pages, and no number the pages lack;
* :class:`SummaryJob` — old summary + evicted page → new summary, in the fixed fields. It must
  keep every number, date and id of the page's active items, must not state speculation as a
  fact, and a vague attribution ("用户表示 …", "the user mentioned …") earns one retry. A
  summary that fails stays unused: the rule summary stands and the failure is logged.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from desktop_app.engine.errors import ContextFullError, GenerationStopped, JSONOutputError, ServerError
from desktop_app.lexicon import CJK, alternatives
from desktop_app.memory.background.queue import JobContext, JobOutcome, MemoryJob
from desktop_app.memory.core.models import MemoryItem, Message
from desktop_app.memory.core.records import MemoryWork
from desktop_app.memory.lang.text import clip, numbers, term_set
from desktop_app.memory.prompt.head_folding import refold
from desktop_app.prompts import templates

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatEngine, ChatMessage
    from desktop_app.memory.background.memory_pass import MemoryModel
    from desktop_app.memory.store import Store

log = logging.getLogger(__name__)

Reply = TypeVar("Reply", bound=BaseModel)  # the model a reply is validated as

PAGE_CHARS = 1800  # of the page's text the model reads (user turns first)
BOOKMARK_SCHEMA = {
    "type": "object",
    "properties": {"keywords": {"type": "array", "minItems": 2, "maxItems": 4, "items": {"type": "string", "maxLength": 24}},
                   "description": {"type": "string", "maxLength": 100}},
    "required": ["keywords", "description"],
}
SUMMARY_FIELDS = ("decisions", "constraints", "facts", "preferences", "open_questions")
SUMMARY_SCHEMA = {
    "type": "object",
    "properties": {field: {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 140}}
                   for field in SUMMARY_FIELDS},
    "required": list(SUMMARY_FIELDS),
}
# A vague attribution ("用户表示 …", "the user mentioned …"; the lexicon's ``summary.vague``), case-insensitive.
VAGUE = re.compile(alternatives("summary.vague", ("zh", "en")), re.IGNORECASE)
_CJK = re.compile(f"[{CJK}]")


def _page_text(messages: list[Message], limit: int = PAGE_CHARS) -> str:
    lines = [f"{m.role}: {clip(m.content, 400)}" for m in messages]
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_chinese(text: str) -> bool:
    letters = sum(ch.isascii() and ch.isalpha() for ch in text)
    return len(_CJK.findall(text)) >= letters / 2 if text else False


class ModelBookmark(BaseModel):
    keywords: list[str] = Field(min_length=2, max_length=4)
    description: str = Field(min_length=2, max_length=160)


def check_bookmark(mark: ModelBookmark, page_text: str, subjects: list[str]) -> str | None:
    """Why the model's bookmark cannot replace the rule one (None: it can)."""
    words = [" ".join(k.split()) for k in mark.keywords if k.strip()]
    if len({w.lower() for w in words}) < 2:
        return "fewer than two distinct keywords"
    haystack = (page_text + " " + " ".join(subjects)).lower()
    if not any(w.lower() in haystack for w in words):
        return "no keyword occurs in the page"
    if _is_chinese(page_text) != _is_chinese(mark.description):
        return "the description is not in the page's language"
    return None


class PageJob(MemoryJob):
    """Model work on one archived page; runs only when the ``memory_model`` gate lets it."""

    session_id: int

    def __init__(self, session_id: int, page_id: int, gate: MemoryModel) -> None:
        super().__init__(session_id)
        self.page_id, self.gate = page_id, gate

    @property
    def key(self) -> tuple[object, ...]:
        return (self.name, self.page_id)

    def run(self, ctx: JobContext) -> JobOutcome:
        try:
            usable = self.gate.usable(ctx.engine, ctx.should_stop)
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            return self.outcome("failed", str(exc).splitlines()[0])
        if not usable or ctx.engine is None:
            return self.outcome("done", "rules only")
        return self.work(ctx.store, ctx.engine, ctx)

    def work(self, store: Store, engine: ChatEngine, ctx: JobContext) -> JobOutcome:
        raise NotImplementedError

    def ask(self, store: Store, engine: ChatEngine, ctx: JobContext, messages: list[Message], prompt: list[ChatMessage],
            schema: dict[str, Any], model: type[Reply], *, max_tokens: int, what: str) -> Reply | JobOutcome:
        """One model call: the reply validated as ``model``, or the outcome to return instead
        (postponed when the chat needed the model, rejected when the reply is invalid). Its cost
        is recorded on the page's last user turn."""
        started = time.perf_counter()
        try:
            return model.model_validate(engine.complete_json(prompt, schema, max_tokens=max_tokens,
                                                             should_stop=ctx.should_stop))
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (JSONOutputError, ValidationError, ContextFullError, ServerError) as exc:
            log.warning("model %s: %s", what, str(exc).splitlines()[0])
            return self.outcome("rejected", f"invalid reply; the rule {self.name} stands")
        finally:
            _record_work(store, messages, engine, time.perf_counter() - started)


class BookmarkJob(PageJob):
    """The model rewrites a page's rule bookmark, when its words pass the checks."""

    name = "bookmark"

    def __init__(self, session_id: int, page_id: int, bookmark_id: int, gate: MemoryModel) -> None:
        super().__init__(session_id, page_id, gate)
        self.bookmark_id = bookmark_id

    def work(self, store: Store, engine: ChatEngine, ctx: JobContext) -> JobOutcome:
        mark, messages = store.get_bookmark(self.bookmark_id), store.page_messages(self.page_id)
        if mark is None or mark.author != "rule" or not messages:
            return self.outcome("done", "nothing to rewrite")
        spec = templates(self.gate.lang)["bookmark"]
        text = _page_text(messages)
        turns = [m.turn_number for m in messages]
        prompt: list[ChatMessage] = [{"role": "system", "content": spec["system"]},
                                     {"role": "user", "content": spec["page"].format(a=min(turns), b=max(turns), text=text)}]
        proposed = self.ask(store, engine, ctx, messages, prompt, BOOKMARK_SCHEMA, ModelBookmark, max_tokens=96,
                            what=f"bookmark for page {self.page_id}")
        if isinstance(proposed, JobOutcome):
            return proposed
        subjects = [i.subject for i in store.items_from_messages(self.session_id, [m.id for m in messages])]
        problem = check_bookmark(proposed, text, subjects)
        if problem:
            log.info("model bookmark for page %s refused: %s", self.page_id, problem)
            return self.outcome("rejected", f"{problem}; the rule bookmark stands")
        store.rewrite_bookmark(self.bookmark_id, keywords=[k.strip() for k in proposed.keywords][:4],
                               description=clip(proposed.description, 100), author="model")
        return self.outcome("done", f"bookmark: {', '.join(proposed.keywords)}")


STAGE_SCHEMA = {
    "type": "object",
    "properties": {"topics": {"type": "array", "minItems": 2, "maxItems": 6, "items": {"type": "string", "maxLength": 30}},
                   "synopsis": {"type": "string", "maxLength": 300}},
    "required": ["topics", "synopsis"],
}
STAGE_PAGE_CHARS = 500  # of each page's text the model reads for a stage


class ModelStage(BaseModel):
    topics: list[str] = Field(min_length=2, max_length=6)
    synopsis: str = Field(min_length=4, max_length=400)


def check_stage(stage: ModelStage, page_text: str) -> str | None:
    """Why the model's stage lines cannot join the index (None: they can)."""
    topics = [" ".join(t.split()) for t in stage.topics if t.strip()]
    haystack = page_text.lower()
    if len({t.lower() for t in topics}) < 2:
        return "fewer than two distinct topics"
    if not any(t.lower() in haystack for t in topics):
        return "no topic occurs in the pages"
    invented = [n for n in numbers(stage.synopsis) if n not in set(numbers(page_text))]
    if invented:
        return f"values not in the pages: {', '.join(invented[:3])}"
    if VAGUE.search(stage.synopsis):
        return "vague attribution"
    if _is_chinese(page_text) != _is_chinese(stage.synopsis):
        return "the synopsis is not in the pages' language"
    return None


class StageJob(PageJob):
    """The model adds topics and a synopsis to a stage summary's rule text (the summary chain's
    index), when they pass the checks: topics from the pages, no value the pages do not hold."""

    name = "stage"

    def __init__(self, session_id: int, stage_id: int, page_id: int, gate: MemoryModel) -> None:
        super().__init__(session_id, page_id, gate)
        self.stage_id = stage_id

    @property
    def key(self) -> tuple[object, ...]:
        return (self.name, self.stage_id)

    def work(self, store: Store, engine: ChatEngine, ctx: JobContext) -> JobOutcome:
        stage = store.get_stage(self.stage_id)
        if stage is None or stage.author != "rule":
            return self.outcome("done", "nothing to add")
        messages = store.pages_messages(store.pages_between(self.session_id, stage.first_page_id, stage.last_page_id))
        if not messages:
            return self.outcome("done", "the stage's pages are gone")
        by_page: dict[int | None, list[Message]] = {}
        for m in messages:
            by_page.setdefault(m.page_id, []).append(m)
        sample = "\n".join(_page_text(sorted(group, key=lambda m: m.role != "user"), STAGE_PAGE_CHARS)
                           for group in by_page.values())
        spec = templates(self.gate.lang)["stage"]
        prompt: list[ChatMessage] = [
            {"role": "system", "content": spec["system"]},
            {"role": "user", "content": spec["page"].format(a=stage.first_turn, b=stage.last_turn, text=sample)}]
        proposed = self.ask(store, engine, ctx, messages, prompt, STAGE_SCHEMA, ModelStage, max_tokens=160,
                            what=f"stage {self.stage_id}")
        if isinstance(proposed, JobOutcome):
            return proposed
        problem = check_stage(proposed, "\n".join(m.content for m in messages))
        if problem:
            log.info("model stage %s refused: %s", self.stage_id, problem)
            return self.outcome("rejected", f"{problem}; the rule stage stands")
        topics = ", ".join(dict.fromkeys(" ".join(t.split()) for t in proposed.topics if t.strip()))
        store.rewrite_stage(self.stage_id, f"{stage.text}\n{topics}: {clip(proposed.synopsis, 300)}", author="model")
        return self.outcome("done", f"stage: {topics}")


def _record_work(store: Store, messages: list[Message], engine: ChatEngine, seconds: float) -> None:
    last_user = next((m for m in reversed(messages) if m.role == "user"), None)
    if last_user is not None:
        store.add_memory_work(last_user.id, MemoryWork.of_call(engine, seconds).model_dump())


def summary_problems(fields: dict[str, list[str]], page_items: list[MemoryItem], open_items: list[MemoryItem]) -> list[str]:
    """What keeps the model's summary from replacing the rule one (empty: nothing)."""
    text = "\n".join(line for field in SUMMARY_FIELDS for line in fields.get(field, []))
    problems: list[str] = []
    held = set(numbers(text))
    for item in page_items:
        missing = [n for n in numbers(item.value) if n not in held]
        if missing:
            problems.append(f"#{item.id}'s {', '.join(missing)} is missing")
    stated = "\n".join(line for field in ("decisions", "constraints", "facts") for line in fields.get(field, []))
    for item in open_items:
        words = term_set(item.value) - set(numbers(item.value))
        if words and len(words & term_set(stated)) * 2 > len(words) + 1:
            problems.append(f"the open question #{item.id} is stated as settled")
    if VAGUE.search(text):
        problems.append("vague attribution")
    return problems


class SummaryJob(PageJob):
    """The model folds an archived page into the rolling summary (incremental, fixed fields).

    With ``refold`` the prompt head takes the accepted summary in at once (the warm job queued
    after this one then evaluates it while the user is idle)."""

    name = "summary"

    def __init__(self, session_id: int, page_id: int, gate: MemoryModel, *, refold: bool = False) -> None:
        super().__init__(session_id, page_id, gate)
        self.refold = refold

    def work(self, store: Store, engine: ChatEngine, ctx: JobContext) -> JobOutcome:
        from desktop_app.memory.core.models import SummaryEntry

        messages = store.page_messages(self.page_id)
        latest = store.latest_summary(self.session_id)
        if not messages or latest is None or latest.through_message_id != messages[-1].id:
            return self.outcome("done", "the summary moved on; the rule summary stands")
        items = store.items_from_messages(self.session_id, [m.id for m in messages])
        page_items = [i for i in items if i.status == "active" and i.kind in ("directive", "constraint", "fact",
                                                                                 "decision", "preference")]
        open_items = [i for i in items if i.status == "active" and i.kind == "open_question"]
        spec = templates(self.gate.lang)["summary_model"]
        current = {i.id for i in store.list_items(self.session_id, statuses=("active", "pending"))}
        previous = {f: [e.text for e in getattr(latest.content, f) if e.item_id is None or e.item_id in current]
                    for f in SUMMARY_FIELDS}
        base = spec["page"].format(old=json.dumps(previous, ensure_ascii=False), text=_page_text(messages))
        fields, problems = None, ["no reply"]
        started = time.perf_counter()
        try:
            for attempt in (1, 2):
                hint = "" if attempt == 1 else "\n" + spec["retry"].format(problems="; ".join(problems))
                prompt: list[ChatMessage] = [{"role": "system", "content": spec["system"]},
                                             {"role": "user", "content": base + hint}]
                try:
                    reply = engine.complete_json(prompt, SUMMARY_SCHEMA, max_tokens=400, should_stop=ctx.should_stop)
                except JSONOutputError as exc:
                    problems = [str(exc).splitlines()[0]]
                    continue
                fields = {f: [clip(str(x), 140) for x in reply.get(f, []) if str(x).strip()] for f in SUMMARY_FIELDS}
                problems = summary_problems(fields, page_items, open_items)
                if not problems:
                    break
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            problems = [str(exc).splitlines()[0]]
        finally:
            _record_work(store, messages, engine, time.perf_counter() - started)
        if problems or fields is None:
            log.warning("model summary for page %s refused: %s", self.page_id, "; ".join(problems))
            return self.outcome("rejected", f"{'; '.join(problems)}; the rule summary stands")
        content = latest.content.model_copy(deep=True)
        turn = messages[0].turn_number
        known = [i for i in store.list_items(self.session_id) if i.kind != "goal"]
        for field in SUMMARY_FIELDS:
            # Each line is tied to the item whose values it states, so a later supersede or
            # forget hides it like a rule line; untied lines are hidden by their stale values.
            setattr(content, field, [SummaryEntry(text=line, turn=turn, item_id=_item_of(line, known))
                                     for line in fields[field]])
        content.author = "model"
        with store.transaction():
            now_latest = store.latest_summary(self.session_id)
            if now_latest is None or now_latest.id != latest.id:
                return self.outcome("done", "the summary moved on meanwhile; the rule summary stands")
            store.save_summary(self.session_id, content, latest.through_message_id, time.time())
            if self.refold and store.latest_fold(self.session_id) is not None:
                refold(store, self.session_id, lang=self.gate.lang, reason="summary")
        return self.outcome("done", "model summary in use")


def _item_of(line: str, items: list[MemoryItem]) -> int | None:
    """The item a summary line restates: the newest whose numbers it holds, else the newest
    sharing two or more words with it."""
    held, words = set(numbers(line)), term_set(line)
    for item in sorted(items, key=lambda i: -i.id):
        values = set(numbers(item.value))
        if values and values <= held:
            return item.id
    for item in sorted(items, key=lambda i: -i.id):
        if not numbers(item.value) and len(words & term_set(item.value)) >= 2:
            return item.id
    return None

