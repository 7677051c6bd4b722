"""A chat turn: the memory core's stages, with the reply streamed in between.

record the input → plan → **stream** → record the reply (also when stopped early) → log →
queue background jobs. The stages live in :mod:`desktop_app.memory.turn`; this module only
streams between them. The UI calls it from a worker thread, the CLI directly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from desktop_app.config import Settings
from desktop_app.engine.errors import ModelLoadError
from desktop_app.engine.protocol import ChatEngine, Progress, ScratchEngine, ScriptHold, StopCheck, Variation, unwrap
from desktop_app.memory.acknowledgment import bare_acknowledgments
from desktop_app.memory.background.queue import JobQueue
from desktop_app.memory.core.models import Message, Session
from desktop_app.memory.core.plan import ContextPlan
from desktop_app.memory.core.records import GuardFinding, GuardVerdict, PrefillLog, ReplyHealth, TurnRecord
from desktop_app.memory.core.turn_numbers import ACKNOWLEDGED
from desktop_app.memory.documents.translation import translate_question
from desktop_app.memory.prompt.render import guard_note
from desktop_app.memory.reply_form import MENDABLE, mended
from desktop_app.memory.reply_health import (
    A_WORD_OR_TWO,
    DEGENERATE,
    WORTH_RETRY,
    HealthFinding,
    degenerate,
    degenerate_opening,
    only_asks_what_was_said,
    only_tells,
    retry_note,
    worth_retry,
)
from desktop_app.memory.scaffolding import without_pasted_notes, without_scaffolding
from desktop_app.memory.scheduling import queue_jobs
from desktop_app.memory.turn import (
    MAX_INPUT_CHARS,
    InputRejected,
    RecordedInput,
    TurnOptions,
    TurnPipeline,
    clean_user_text,
)

__all__ = ["MAX_INPUT_CHARS", "InputRejected", "TurnResult", "answer", "clean_user_text", "pipeline_for",
           "regenerate_turn", "run_turn"]

OnPlan = Callable[[ContextPlan, RecordedInput], None]
DRAFT_SAVE_SECONDS = 1.0  # a streaming reply's text reaches the database at least this often


def prefill_log(engine) -> PrefillLog | None:
    """What the engine's last pre-fill reused, when it keeps an evaluated prefix (llama.cpp)."""
    reused, total = getattr(engine, "last_reused_tokens", None), getattr(engine, "last_prompt_tokens", None)
    if not isinstance(reused, int) or not isinstance(total, int) or not total:
        return None
    return PrefillLog(prompt_tokens=total, reused=reused)


def pipeline_for(store, settings: Settings, *, counter, n_ctx: int, embedder=None,
                 jobs: JobQueue | None = None, warm_progress: Progress | None = None, context=None) -> TurnPipeline:
    """The turn stages over ``store`` with the user's settings and the loaded models
    (``context``: the chat context's :class:`~desktop_app.memory.warming.ContextOwner`)."""
    return TurnPipeline(store=store, counter=counter, n_ctx=n_ctx, options=TurnOptions.from_settings(settings),
                        embedder=embedder, jobs=jobs, warm_progress=warm_progress, context=context)


@dataclass
class TurnResult:
    recorded: RecordedInput
    reply: Message | None
    stopped: bool
    plan: ContextPlan
    record: TurnRecord
    first_token_seconds: float | None
    generation_seconds: float
    completion_pieces: int  # pieces the engine streamed, over every attempt

    @property
    def user_message(self) -> Message:
        return self.recorded.message

    @property
    def tokens_per_second(self) -> float:
        if not self.completion_pieces or self.generation_seconds <= 0:
            return 0.0
        return self.completion_pieces / self.generation_seconds


def run_turn(pipeline: TurnPipeline, session: Session, engine: ChatEngine, user_text: str, *, settings: Settings,
             should_stop: StopCheck | None = None, on_token: Callable[[str], None] | None = None,
             on_plan: OnPlan | None = None, on_prefill: Progress | None = None,
             on_retry: Callable[[str], None] | None = None) -> TurnResult:
    """Run one full turn. The user message is stored before generation starts; the reply from its
    first piece on (flagged ``stopped``, its text saved at least every second) and completed when
    generation ends — also when stopped early (flagged ``stopped``) or on error (whatever had
    streamed is kept, flagged stopped, then the error propagates)."""
    recorded = pipeline.record_input(session, clean_user_text(user_text))
    return answer(pipeline, recorded, engine, settings=settings, should_stop=should_stop, on_token=on_token,
                  on_plan=on_plan, on_prefill=on_prefill, on_retry=on_retry)


def regenerate_turn(pipeline: TurnPipeline, session: Session, engine: ChatEngine, *, settings: Settings,
                    should_stop: StopCheck | None = None, on_token: Callable[[str], None] | None = None,
                    on_plan: OnPlan | None = None, on_prefill: Progress | None = None,
                    on_retry: Callable[[str], None] | None = None) -> TurnResult:
    """Answer the session's last message again (the UI has archived the old reply as a version).

    The user message and the memory it wrote stay as they are; only a new reply is written."""
    return answer(pipeline, pipeline.resume_input(session), engine, settings=settings, should_stop=should_stop,
                  on_token=on_token, on_plan=on_plan, on_prefill=on_prefill, on_retry=on_retry)


def answer(pipeline: TurnPipeline, recorded: RecordedInput, engine: ChatEngine, *, settings: Settings,
           should_stop: StopCheck | None = None, on_token: Callable[[str], None] | None = None,
           on_plan: OnPlan | None = None, on_prefill: Progress | None = None,
           on_retry: Callable[[str], None] | None = None) -> TurnResult:
    """Plan, stream, check, record and log the reply to the recorded input (see ``run_turn``).

    A finished reply that copies an earlier one, echoes the message or pastes the prompt's notes
    (``memory.reply_health``) is asked for once more with another seed, a stronger repeat penalty
    and its opening ruled out; ``on_retry(reason)`` tells the caller to clear what it showed. A
    reply still degenerate after that is kept for the user and left out of the model's history."""
    session = recorded.session
    asked = time.perf_counter()  # the first token is timed from here: recall and translation count
    translation = translate_input(pipeline, recorded, engine, settings, should_stop)
    plan = pipeline.plan(recorded, translation=translation)
    if plan.reply_tokens is not None:
        settings = settings.model_copy(update={"max_tokens": min(settings.max_tokens, plan.reply_tokens)})
    if on_plan:
        on_plan(plan, recorded)
    started = time.perf_counter()
    # A reply that is checked is held to its language as it is sampled (``engine.script_hold``).
    streamed = _Streamed(started=asked, lead=plan.lead,
                         script=pipeline.reply_script(recorded) if settings.reply_retry else None)
    if plan.lead:  # shown before the model starts, and again after each attempt the caller clears
        if on_token:
            on_token(streamed.shown_lead)
            streamed.first_token = time.perf_counter() - streamed.started
        on_retry = _keeping_lead(on_retry, on_token, streamed.shown_lead)
    earlier = pipeline.earlier_replies(recorded) if settings.reply_retry else []
    said = pipeline.earlier_messages(recorded) if settings.reply_retry else []

    def watch(text: str) -> HealthFinding | None:  # a loop is stopped after a line, not after the whole reply
        return degenerate_opening(text, user_text=recorded.message.content, earlier_replies=earlier,
                                  earlier_messages=said)

    def by_model() -> tuple[ReplyHealth, GuardVerdict | None, list[HealthFinding]]:
        """The model's reply: streamed, checked, asked for again, guarded; the program's words where it had none."""
        _stream(pipeline, session, engine, plan, settings, streamed, should_stop, on_token, on_prefill,
                watch=watch if settings.reply_retry else None)
        health = ReplyHealth()
        findings = pipeline.check_reply(recorded, streamed.text) if streamed.pieces and not streamed.stopped else []
        if streamed.cut_short is not None and streamed.cut_short.kind not in {f.kind for f in findings}:
            findings.append(streamed.cut_short)
        health.attempts.append([f"{f.kind}: {f.detail}" for f in findings])
        # The first attempt may stand in for a worse retry only when it is whole and a pasted label
        # was all that was wrong with it (one the watch stopped is a copy's first line, however clean).
        first_whole = streamed.cut_short is None and not {f.kind for f in findings} & (DEGENERATE - {"scaffolding"})
        if _ask_again(pipeline, recorded, findings) and settings.reply_retry:
            health.retried, health.first_reply = True, streamed.text
            if on_retry:
                on_retry("; ".join(f.detail for f in findings if f.kind in WORTH_RETRY))
            again, variation = _retry_request(pipeline, recorded, plan, streamed.text, findings, said)
            streamed.restart()
            _stream(pipeline, session, engine, again, settings, streamed, should_stop, on_token, None, variation)
            findings = pipeline.check_reply(recorded, streamed.text) if streamed.pieces and not streamed.stopped else []
            health.attempts.append([f"{f.kind}: {f.detail}" for f in findings])
        guard = None
        if settings.guard != "off" and streamed.pieces and not streamed.stopped:
            guard, findings = _guard(pipeline, recorded, engine, plan, settings, streamed, should_stop, on_token,
                                     on_retry, findings)
        if (degenerate(findings) or _broken_form(findings)) and settings.reply_retry and streamed.pieces \
                and not streamed.stopped:
            # The guard's first reply passed the checks: a retry that turned into a copy is worse.
            before_guard = guard.first_reply if guard is not None and guard.retried else ""
            checked = streamed.text
            findings = _keep_best(pipeline, recorded, streamed, [before_guard, health.first_reply if first_whole else ""],
                                  findings, on_token, on_retry)
            if guard is not None and streamed.text != checked:
                # The reply kept is checked again (bench health: the first plan came back, mended, with its cashews
                # for a child with a tree nut allergy, and the findings of the retry it replaced said nothing).
                guard.findings = guard.first_findings if before_guard and streamed.text == before_guard \
                    else _guarded(pipeline, recorded, streamed, settings)
        if guard is not None and settings.guard == "fix" and streamed.pieces and not streamed.stopped:
            # (A ruled-out food goes from any reply, a copy too: nothing else may keep it in front of the user.)
            _leave_out_ruled_out(pipeline, recorded, streamed, guard, on_token, on_retry)
            # A summary asked for gets the values it left out even when the reply is no answer (run H:
            # hc-en-02's plan opened with the user's first message and named no allergy).
            _complete_recap(pipeline, recorded, streamed, guard, on_token, on_retry)
        # (Any finding, not only a copy: run P's "Okay, I'm ready. Please let me know the specific details of your
        # party…" only promised, to "Please keep all your answers under 100 words from now on".)
        if findings and settings.reply_retry and streamed.pieces and not streamed.stopped:
            findings = _acknowledge(pipeline, recorded, streamed, health, findings, on_token, on_retry)
        if settings.reply_retry and streamed.pieces and not streamed.stopped and not health.acknowledged:
            findings = _recollect(pipeline, recorded, streamed, health, findings, on_token, on_retry)
        if streamed.lead and settings.reply_retry and streamed.text.strip() and not streamed.stopped:
            findings = _list_alone(pipeline, recorded, streamed, findings, on_token, on_retry)
        if health.acknowledged and guard is not None:
            # What the user reads now is the program's, made of memory's values: the guard's word on the
            # model's attempt is moot (a Pilot walk: "it goes over 预算: 1500" under "好的，记下了：预算: 1500；
            # 10个人（之前是8个人）。").
            guard.model_text, guard.findings = guard.model_text or health.model_reply, []
        return health, guard, findings

    try:
        if (first := _said_first(pipeline, recorded, settings)):
            # A message that only told something memory took in, or only asked what the user said, is answered by
            # memory at once (read blind in round fourteen, the program's such replies were 12 of 15 good, the
            # 0.5B's 11 of 69; in round fifteen 13 of 13 and 0 of 15).
            health, guard = ReplyHealth(acknowledged=True), None
            findings: list[HealthFinding] = []
            streamed.add(first, on_token)
            streamed.first_token = time.perf_counter() - streamed.started
        else:
            health, guard, findings = by_model()
    except BaseException:
        if streamed.pieces:
            pipeline.record_reply(session, streamed.stored, stopped=True, page_out=False, draft=streamed.draft)
        raise
    elapsed = time.perf_counter() - started
    # The program's acknowledgment is the user's to read, not the model's to copy (run L: shown "好的，记下了：
    # 人数。", the 0.5B said it to the next messages).
    health.kept_out = degenerate(findings) or health.acknowledged
    reason = f"{ACKNOWLEDGED}: said by the program" if health.acknowledged else \
        "; ".join(f"{f.kind}: {f.detail}" for f in findings if f.degenerate) if health.kept_out else ""
    reply = pipeline.record_reply(session, streamed.stored, stopped=streamed.stopped, draft=streamed.draft,
                                  unhealthy=reason) if streamed.pieces or streamed.stopped or streamed.lead else None
    record = pipeline.log(recorded, plan, reply, first_token_seconds=streamed.first_token, prefill=prefill_log(engine),
                          health=health, guard=guard)
    queue_jobs(pipeline, session, recorded, reply)
    gen_seconds = elapsed - (streamed.first_token or 0.0)
    return TurnResult(recorded, reply.message if reply else None, streamed.stopped, plan, record, streamed.first_token,
                      gen_seconds, streamed.received)


def _ask_again(pipeline: TurnPipeline, recorded: RecordedInput, findings: list[HealthFinding]) -> bool:
    """Whether the model is asked for its reply once more: ``worth_retry``, but a word or two to a message memory
    took something from is left to the program's acknowledgment, which says what was taken (a retry would only
    delay it)."""
    if not worth_retry(findings):
        return False
    too_short = [f for f in findings if f.kind == "empty" and f.detail == A_WORD_OR_TWO]
    return not (too_short and not worth_retry([f for f in findings if f not in too_short]) and pipeline.took_in(recorded))


def _keeping_lead(on_retry: Callable[[str], None] | None, on_token: Callable[[str], None] | None,
                  lead: str) -> Callable[[str], None] | None:
    """``on_retry`` that shows the program's lead again after the caller cleared what it showed."""
    if on_retry is None or on_token is None:
        return on_retry
    told, show = on_retry, on_token

    def retrying(reason: str) -> None:
        told(reason)
        show(lead)
    return retrying


def _retry_request(pipeline: TurnPipeline, recorded: RecordedInput, plan: ContextPlan, rejected: str,
                   findings: list[HealthFinding], said: list[str]) -> tuple[ContextPlan, Variation]:
    """What a second attempt at a degenerate reply is asked with.

    The conversation as the first attempt saw it (the healthy replies included), with a line before
    the input saying what was wrong ("answer in your own words …"). Shown only the user's turns, the
    0.5B said the first of them back ("Hi! I'm planning a family trip to Lisbon…", 3 of 9 retries
    in an A/B on failed turns, against 7 of 9 answers with the replies shown); shown the replies
    without a bar, it copied one of them. So the retry copies no run (8 Chinese characters, 24
    letters; ``engine.no_copy``) of any reply it is shown, of the rejected one (unless a pasted label
    was all that was wrong with it), of the memory notes when it pasted them, nor of its own line,
    and opens unlike the rejected reply. The
    user's messages are no source: barred from them the 0.5B still said them back, mangled ("香格里老"
    for 香格里拉), and a mangled echo passes the checks and feeds the history where a plain one is
    caught and kept out."""
    user_text = recorded.message.content
    note = retry_note(findings, user_text, pipeline.reply_lang(recorded.session, user_text))
    again = plan.with_note(note)
    messages = again.messages
    copied = tuple(pipeline.similar_replies(recorded, rejected))
    shown = tuple(m["content"] for m in messages if m["role"] == "assistant")
    kinds = {f.kind for f in findings}
    own = () if kinds <= {"scaffolding"} else (rejected,)
    # Notes pasted back (round seven: "菜单: 有点慌，帮我想想菜单" a character off) are no source of a run
    # either: the values stay usable, a whole note is not.
    notes = tuple(pipeline.notes(recorded.session)) if "scaffolding" in kinds else ()
    variation = Variation(seed=random.randrange(1, 2**31), avoid=(rejected, *copied),
                          sources=tuple(dict.fromkeys((*own, *copied, *shown, *notes))), lines=(note,) if note else ())
    return again, variation


def translate_input(pipeline: TurnPipeline, recorded: RecordedInput, engine: ChatEngine, settings: Settings,
                    should_stop: StopCheck | None = None) -> str | None:
    """The input in the language of a document in scope that is written in the other one, by
    the chat model on its scratch context (``memory.documents.translation``); None when no
    document needs it, ``translate_questions`` is off, or the model wrote nothing usable."""
    target = pipeline.translation_target(recorded) if settings.translate_questions else None
    if target is None:
        return None
    inner = unwrap(engine)
    try:
        scratch = inner.scratch() if isinstance(inner, ScratchEngine) else inner
    except ModelLoadError:  # no memory for a second context: search without a translation
        return None
    # The chat's own context (no scratch, or a GPU's) is used through its wrapper, lock included.
    side = engine if scratch is inner else scratch
    return translate_question(side, recorded.message.content, target, should_stop=should_stop)


def _guard(pipeline: TurnPipeline, recorded: RecordedInput, engine: ChatEngine, plan: ContextPlan, settings: Settings,
           streamed: _Streamed, should_stop: StopCheck | None, on_token: Callable[[str], None] | None,
           on_retry: Callable[[str], None] | None, health: list[HealthFinding]
           ) -> tuple[GuardVerdict, list[HealthFinding]]:
    """Check the reply against memory (``memory.reply_guard``); with ``guard = "fix"``, a reply that
    states an old value, breaks a limit or a rule, or applies a dropped rule is asked for once more
    with a one-line correction before the input (the prompt before it stays the cached prefix).
    Returns the verdict and the reply checks of the reply kept."""
    session, user_text = recorded.session, recorded.message.content
    found = _guarded(pipeline, recorded, streamed, settings)
    verdict = GuardVerdict(findings=found, mode=settings.guard)
    note = guard_note(found, pipeline.reply_lang(session, user_text))
    if settings.guard != "fix" or not note or degenerate(health):
        return verdict, health
    if on_retry:
        on_retry("; ".join(f"{f.kind}: {f.detail}" for f in found))
    first = streamed.text
    streamed.restart()
    _stream(pipeline, session, engine, plan.with_note(note), settings, streamed, should_stop, on_token, None)
    again = _guarded(pipeline, recorded, streamed, settings)
    checks = pipeline.check_reply(recorded, streamed.text) if streamed.pieces and not streamed.stopped else []
    return GuardVerdict(findings=again, first_findings=found, retried=True, first_reply=first, mode="fix"), checks


def _guarded(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed,
             settings: Settings) -> list[GuardFinding]:
    """The guard's findings on the reply so far; a summary's left-out values are moot under the program's list."""
    found = pipeline.guard(recorded.session, streamed.text, user_text=recorded.message.content,
                           finished=len(streamed.pieces) < settings.max_tokens)
    return [f for f in found if not (streamed.lead and f.kind == "omitted")]


def _broken_form(findings: list[HealthFinding]) -> bool:
    return any(f.kind in MENDABLE for f in findings)


def _keep_best(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, others: list[str],
               findings: list[HealthFinding], on_token: Callable[[str], None] | None,
               on_retry: Callable[[str], None] | None) -> list[HealthFinding]:
    """After the retries, a reply still degenerate, or still broken in its form, is replaced by the first attempt
    (the kept one, then the earlier ones) that is a whole answer once mended: without the sentences holding the
    prompt's labels, a block said again, a list announced and never given (``memory.reply_form.mended``); else by
    the first that is at least no copy. Returns the checks of the reply kept (the old ones when none will do)."""
    lang = pipeline.reply_lang(recorded.session, recorded.message.content)
    notes = pipeline.notes(recorded.session)
    tried: list[tuple[str, list[HealthFinding]]] = []
    own: tuple[str, list[HealthFinding]] | None = None  # the kept reply, tidied
    for n, text in enumerate((streamed.text, *others)):
        tidied = mended(without_pasted_notes(without_scaffolding(text), notes), lang) if text else ""
        if tidied:
            tried.append((tidied, pipeline.check_reply(recorded, tidied)))
            own = tried[-1] if n == 0 else own
    for whole in (True, False):
        for tidied, checks in tried:
            if not degenerate(checks) and not (whole and _broken_form(checks)):
                if tidied != streamed.text:
                    streamed.replace(tidied, "kept the answer without what broke its form", on_token, on_retry)
                return checks
    if streamed.lead:
        # The program's list stands alone rather than above a plan that pastes the notes or copies a reply (round
        # seventeen: "虾过敏: 虾一定不能有；预算控制：人少了那预算就压到1500吧。" under the list, after its retry).
        streamed.replace("", "kept the list without a plan that was no answer", on_token, on_retry)
        return []
    if own is not None and own[0] != streamed.text and any(f.kind == "scaffolding" for f in findings):
        # With no attempt an answer, the prompt's own lines are still not shown (round twenty: "本次回复请注意：…用中文
        # 回答。 Lin's dad is diabetic…" was kept whole, the note to the model pasted at its top).
        streamed.replace(own[0], "kept the reply without the prompt's lines it pasted", on_token, on_retry)
        return own[1]
    return findings


def _said_first(pipeline: TurnPipeline, recorded: RecordedInput, settings: Settings) -> str:
    """What the program answers at once when it answers such messages itself (``acknowledge = "first"``): a
    message that only told something memory took in, by what it took in; one that only asks what the user said
    before, by what memory holds of it ("What I have noted: …"); "" when the model answers."""
    # (Answered again, regenerate, the model answers: the same words again would be the identical text.)
    if settings.acknowledge != "first" or not recorded.fresh:
        return ""
    text = recorded.message.content
    if only_tells(text):
        # A bare "Got it. Noted." names nothing: the model answers first ("I'll mostly be coding in Python and Java,
        # maybe some light gaming" asks for advice without a question; bench health read it as no answer), and the
        # program's words stay for an attempt that is no answer (``_acknowledge``).
        said = pipeline.acknowledgment(recorded)
        return "" if said in bare_acknowledgments() else said
    # (Read blind in round fifteen: "I gave you $250." and "The flight date I said again was July 14." — the
    # 0.5B's answers to such questions, off; memory holds the values.)
    return pipeline.recollection(recorded, "")[0] if only_asks_what_was_said(text) else ""


def _acknowledge(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, health: ReplyHealth,
                 findings: list[HealthFinding], on_token: Callable[[str], None] | None,
                 on_retry: Callable[[str], None] | None) -> list[HealthFinding]:
    """No attempt answered a message that only told something ("我弟说他也要跟着去，那就5个人了"): the
    program says what memory took in from it ("好的，记下了：5个人（之前是4个人）。") in place of a parrot;
    the model's attempt stays in the turn log. Returns the checks of the reply kept."""
    said = pipeline.acknowledgment(recorded) if only_tells(recorded.message.content) else ""
    if not said:
        return findings
    health.acknowledged, health.model_reply = True, streamed.text
    streamed.replace(said, "said what memory took in", on_token, on_retry)
    return []  # the program's words, in the reply's language, never the message's own (tests/memory/test_acknowledgment.py)


SHORT_ANSWER = 60  # characters: a reply this short that names nothing asked about is replaced, not added to


def _recollect(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, health: ReplyHealth,
               findings: list[HealthFinding], on_token: Callable[[str], None] | None,
               on_retry: Callable[[str], None] | None) -> list[HealthFinding]:
    """Asked what the user said ("What budget did I give you?"), a reply that is no answer, or a short
    one naming none of it ("10 now.", run N), gives way to the program's sentence saying what memory
    holds ("What I have noted: Budget for food and drinks is around $250."); a longer one naming none
    of it gets that sentence after it. Returns the checks of the reply kept."""
    said, missed = pipeline.recollection(recorded, streamed.text)
    if not said or not (missed or findings):
        return findings
    # (Any finding makes it no answer: run O's "对不起，我之前的回答中提到的虾过敏情况与你的描述完全不符…" only
    # promised, to "我刚才说谁过敏来着？对什么过敏？".)
    if findings or len(streamed.text.strip()) < SHORT_ANSWER:
        health.acknowledged, health.model_reply = True, streamed.text
        streamed.replace(said, "said what memory holds", on_token, on_retry)
        return []
    streamed.add(f"\n\n{said}", on_token)
    health.recollected = said
    return findings


def _leave_out_ruled_out(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, guard: GuardVerdict,
                         on_token: Callable[[str], None] | None, on_retry: Callable[[str], None] | None) -> None:
    """A reply that, asked once more, still offers a food an allergy or a diet in memory rules out
    loses the sentences offering it, where enough is left to read: the user never reads "Sushi with
    Shrimp" for a guest with a shellfish allergy as a suggestion (``guard.model_text`` keeps it)."""
    if not any(f.kind == "ruled_out" for f in guard.findings):
        return
    model_text = streamed.text
    kept = pipeline.without_ruled_out(recorded.session, model_text)
    if kept != model_text:
        streamed.replace(kept, "left out the suggestions an allergy or a diet rules out", on_token, on_retry)
        guard.model_text = guard.model_text or model_text
        guard.findings = [f for f in pipeline.guard(recorded.session, kept, user_text=recorded.message.content)
                          if not (streamed.lead and f.kind == "omitted")]


NO_ANSWER = WORTH_RETRY | {"empty"}  # what, still wrong after the retries, leaves the program's list alone


def _list_alone(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, findings: list[HealthFinding],
                on_token: Callable[[str], None] | None, on_retry: Callable[[str], None] | None) -> list[HealthFinding]:
    """The program's list stands alone when what the model wrote under it is, in the end, no answer or broken (bench
    health, round twenty-three: "当然，请提供你的具体方案，我会根据这些要求逐步进行。" under the list, once the sentences
    stating an old value had gone; "1. 场地必须离 subway站近：" and a list it never gave). Read blind in round twenty-two,
    none of the 0.5B's plans under the lists was usable. Returns the checks of what stays."""
    if not any(f.kind in NO_ANSWER for f in pipeline.check_reply(recorded, streamed.text)):
        return findings
    streamed.replace("", "kept the list without words under it that were no answer", on_token, on_retry)
    return []


def _complete_recap(pipeline: TurnPipeline, recorded: RecordedInput, streamed: _Streamed, guard: GuardVerdict,
                    on_token: Callable[[str], None] | None, on_retry: Callable[[str], None] | None) -> None:
    """A reply to "summarise everything" that, asked once more, still states an old value loses the
    sentences stating it, and one that still leaves current values out gets them added by the program
    (``guard.completed``): the user's plan names everything memory holds, and nothing it replaced."""
    model_text = streamed.text
    kept, lines, values = pipeline.recap_completion(recorded.session, model_text, user_text=recorded.message.content)
    if streamed.lead:  # the program's list before it names them all
        lines, values = "", []
    if kept != model_text:  # sentences stating an old value go ("for our 4 people" when it is 5 now)
        streamed.replace(kept, "left out the sentences stating an old value", on_token, on_retry)
        guard.model_text = guard.model_text or model_text
    if lines:
        streamed.add(lines, on_token)
        guard.completed, guard.added = values, lines
    if kept != model_text or lines:
        guard.findings = [f for f in pipeline.guard(recorded.session, streamed.text, user_text=recorded.message.content)
                          if f.kind != "omitted"]


@dataclass
class _Streamed:
    """One reply as it streams: its pieces, its draft row, when the first piece came."""

    pieces: list[str] = field(default_factory=list)
    draft: Message | None = None
    first_token: float | None = None
    stopped: bool = False
    cut_short: HealthFinding | None = None  # why the watch stopped this attempt early
    received: int = 0  # pieces the engine streamed over every attempt (a kept text replaces, it is not streamed)
    started: float = field(default_factory=time.perf_counter)
    lead: str = ""  # the program's words before the model's (a summary's list of what memory holds)
    script: ScriptHold | None = None  # the language each attempt is held to as it is sampled

    @property
    def text(self) -> str:
        """What the model wrote (and the program put in its place): what the checks read."""
        return "".join(self.pieces)

    @property
    def shown_lead(self) -> str:
        return f"{self.lead}\n\n" if self.lead else ""

    @property
    def stored(self) -> str:
        """The reply as the user reads it: the program's lead, then the model's text."""
        return f"{self.shown_lead}{self.text}" if self.text.strip() else self.lead

    def restart(self) -> None:
        """Start a second attempt in the same draft row (its first-token time stays the first's)."""
        self.pieces, self.stopped, self.cut_short = [], False, None

    def replace(self, text: str, reason: str, on_token: Callable[[str], None] | None,
                on_retry: Callable[[str], None] | None) -> None:
        """Put ``text`` in place of what streamed: ``on_retry(reason)`` clears what the caller showed."""
        if on_retry:
            on_retry(reason)
        self.restart()
        self.add(text, on_token)

    def add(self, text: str, on_token: Callable[[str], None] | None) -> None:
        """Add the program's ``text`` after what streamed, and show it."""
        self.pieces.append(text)
        if on_token:
            on_token(text)


def _stream(pipeline: TurnPipeline, session: Session, engine: ChatEngine, plan: ContextPlan, settings: Settings,
            streamed: _Streamed, should_stop: StopCheck | None, on_token: Callable[[str], None] | None,
            on_prefill: Progress | None, variation: Variation | None = None,
            watch: Callable[[str], HealthFinding | None] | None = None) -> None:
    saved_at = 0.0
    extra: dict[str, Any] = {key: value for key, value in (("variation", variation), ("script", streamed.script))
                             if value is not None}
    pieces = engine.stream_chat(plan.messages, max_tokens=settings.max_tokens, temperature=settings.temperature,
                                should_stop=should_stop, progress=on_prefill, **extra)
    for piece in pieces:
        now = time.perf_counter()
        if streamed.first_token is None:
            streamed.first_token = now - streamed.started
        streamed.pieces.append(piece)
        streamed.received += 1
        # Saved before it is shown, then at least every second: a killed process loses at
        # most the last second of what the user saw.
        if streamed.draft is None:
            streamed.draft, saved_at = pipeline.start_reply(session, streamed.stored), now
        elif now - saved_at >= DRAFT_SAVE_SECONDS or len(streamed.pieces) == 1:
            pipeline.save_reply(streamed.draft, streamed.stored)
            saved_at = now
        if on_token:
            on_token(piece)
        if watch is not None and (why := watch(streamed.text)):
            streamed.cut_short = why
            pipeline.save_reply(streamed.draft, streamed.stored)
            close = getattr(pieces, "close", None)
            if close is not None:
                close()  # the engine stops generating (and a locked engine lets the lane go)
            return
    streamed.stopped = bool(should_stop and should_stop())
