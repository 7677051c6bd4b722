"""Memory you can see and steer: the panel, slash commands typed in the chat, and the item
actions (confirm, reject, pin, correct, revoke, forget) — a mixin for the chat screen.

Every change goes through :mod:`desktop_app.memory.controls` (validated patches) or, for
forgetting, the store's plan-then-delete; both run as store jobs off the UI thread.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from desktop_app.memory.core.records import TurnRecord
from desktop_app.memory.lang.text import clip
from desktop_app.ui.i18n import current_lang, t
from desktop_app.ui.screens.dialogs import ConfirmDialog, NameDialog
from desktop_app.ui.screens.host import ChatHost
from desktop_app.ui.shown import shown
from desktop_app.ui.widgets.chat_log import ChatLog
from desktop_app.ui.widgets.memory_panel import MemoryPanel, load_panel_state

IN_USE_CHARS = 40  # characters of a value the note under a reply shows

if TYPE_CHECKING:
    from desktop_app.memory.store.forget import ForgetPlan

# Below this width the sidebar makes way for the memory panel (and comes back when it closes).
ROOMY_WIDTH = 140
# Panel/detail actions carried out by a memory command of the same effect.
COMMAND_OF = {"confirm": "confirm", "reject": "reject", "pin": "pin", "unpin": "unpin", "revoke": "revoke"}


def describe_plan(plan: ForgetPlan) -> str:
    """The confirmation text: what will be deleted, in the UI's language."""
    from desktop_app.memory.forgetting import describe

    return describe(plan, current_lang())


class MemoryActions(ChatHost):
    """Expects the chat screen's ``store``, ``session``, ``generating`` and ``run_store_job``."""

    # -- the panel ---------------------------------------------------------------------------
    def action_toggle_memory(self) -> None:
        from textual.widgets import OptionList

        from desktop_app.ui.widgets.chat_input import ChatInput
        from desktop_app.ui.widgets.session_list import Sidebar

        panel, sidebar = self.query_one(MemoryPanel), self.query_one(Sidebar)
        panel.display = not panel.display
        if panel.display:
            self.refresh_memory()
            self._sidebar_hidden_for_panel = sidebar.display and self.size.width < ROOMY_WIDTH
            if self._sidebar_hidden_for_panel:
                sidebar.display = False
            # The panel's keys (p, c, r, d, y/n …) work at once: its list takes the focus.
            panel.query_one("#memory-list", OptionList).focus()
        else:
            if getattr(self, "_sidebar_hidden_for_panel", False):
                sidebar.display = True
                self._sidebar_hidden_for_panel = False
            self.query_one(ChatInput).focus()

    def on_resize(self, event) -> None:
        """With the panel open, the sidebar makes way when the terminal narrows and comes back when
        it widens again (the choice is not only made when F4 is pressed)."""
        from desktop_app.ui.widgets.session_list import Sidebar

        panel, sidebar = self.query_one(MemoryPanel), self.query_one(Sidebar)
        if not panel.display:
            return
        narrow = event.size.width < ROOMY_WIDTH
        if narrow and sidebar.display:
            sidebar.display, self._sidebar_hidden_for_panel = False, True
        elif not narrow and getattr(self, "_sidebar_hidden_for_panel", False):
            sidebar.display, self._sidebar_hidden_for_panel = True, False

    def refresh_memory(self) -> None:
        """Re-read the panel's state (a few small queries; WAL reads never wait on writers)."""
        if self.session is not None:
            self.query_one(MemoryPanel).show(load_panel_state(self.store, self.session.id))

    async def on_memory_panel_action_requested(self, message: MemoryPanel.ActionRequested) -> None:
        message.stop()
        await self.item_action(message.action, message.item_id)

    async def item_action(self, action: str | None, item_id: int | None) -> None:
        """Carry out ``action`` on item ``item_id`` (from the panel keys or the detail screen)."""
        if action is None or self.session is None:
            return
        if action == "forget_topic":
            self.app.push_screen(NameDialog(t("memory.topic_title"), placeholder=t("memory.topic_placeholder"),
                                            empty_error=t("memory.topic_placeholder")), self.forget_topic)
            return
        item = self.store.get_item(item_id) if item_id is not None else None
        if item is None or (item.session_id != self.session.id and item.scope != "profile"):
            self.notify(t("memory.not_item"), markup=False, severity="warning")
            return
        if action == "open":
            from desktop_app.ui.screens.memory_item import MemoryItemScreen

            self.app.push_screen(MemoryItemScreen(self.store, item),
                                 lambda chosen: self.call_next(self.item_action, chosen, item.id))
        elif action in ("confirm", "reject") and item.status != "pending":
            self.notify(t("memory.not_pending", id=item.id), markup=False, severity="warning")
        elif action == "pin" and item.pinned:
            self.memory_command("unpin", str(item.id))
        elif action in COMMAND_OF:
            self.memory_command(COMMAND_OF[action], str(item.id))
        elif action == "correct":
            def corrected(value: str | None) -> None:
                if value:
                    self.memory_command("correct", f"{item.id} {value}")

            self.app.push_screen(
                NameDialog(t("memory.correct_title", id=item.id, kind=t(f"kind.{item.kind}")), item.value,
                           placeholder=item.value,
                           empty_error=t("memory.correct_title", id=item.id, kind=t(f"kind.{item.kind}"))),
                corrected)
        elif action == "forget":
            session_id = self.session.id
            self.plan_forget(lambda store: _forget_plan(store, store.get_session(session_id), str(item.id)))
        elif action == "scope":
            self.memory_command("scope", f"{item.id} {'session' if item.scope == 'profile' else 'profile'}")

    async def show_memory_notices(self, record: TurnRecord | None) -> None:
        """After a turn: what memory did that the user should know or answer (pending rules)."""
        notices = [o.notice_in(current_lang()) for o in record.memory if o.notice] if record is not None else []
        if record is not None and record.guard is not None:  # what the guard found and a retry did not fix
            notices += [t(f"guard.{f.kind}", item=f.item, current=f.current, old=f.old) for f in record.guard.findings]
        if record is not None and record.in_use:  # the memory this reply was given, ✓ where it used it
            # (a value cut is marked so: "#1 hey, I'm throwing a housewarming party a" read as a typo, a user's walk)
            used = t("memory.in_use_join").join(f"#{u.id} {shown(clip(u.value, IN_USE_CHARS))}{' ✓' if u.used else ''}"
                                              for u in record.in_use[:8])
            notices.append(t("memory.in_use", items=used, used=sum(u.used for u in record.in_use),
                             n=len(record.in_use)))
        if notices:
            await self.query_one(ChatLog).add_note("\n".join(notices))

    # -- memory commands (slash and panel) ---------------------------------------------------
    def is_memory_command(self, text: str) -> bool:
        from desktop_app.memory.controls import SLASH_COMMANDS

        match = re.match(r"^/(\w+)", text.strip())
        return match is not None and match.group(1).lower() in SLASH_COMMANDS

    def run_slash(self, text: str) -> None:
        """A slash command typed in the chat: answered from memory, shown, never sent to the model.
        ``/forget`` lists what it will delete in a dialog and asks first."""
        match = re.match(r"^/forget\s+(.+?)(?:\s+--yes)?$", text.strip(), re.I | re.S)
        if match and self.session is not None:
            session_id, arg = self.session.id, match.group(1).strip()
            self.plan_forget(lambda store: _forget_plan(store, store.get_session(session_id), arg))
            return
        self._memory_job(lambda store, session: _slash(store, session, text), echo=text)

    def memory_command(self, name: str, arg: str) -> None:
        """Run memory command ``name`` (the panel's keys use the same code as the slash commands)."""
        from desktop_app.memory.controls import run_command

        def job(store, session):
            import time

            from desktop_app.memory.controls import MemoryCommandError, SlashResult
            from desktop_app.memory.write.patches import PatchRejected

            try:
                return run_command(store, session, name, arg, time.time(), lang=current_lang())
            except (MemoryCommandError, PatchRejected) as exc:
                return SlashResult(command=name, ok=False, text=str(exc))

        self._memory_job(job, echo=None)

    def _memory_job(self, job, *, echo: str | None) -> None:
        assert self.session is not None  # its callers run with a session open
        session_id = self.session.id

        async def done(result) -> None:
            if result is None:
                return
            if echo is not None:
                await self.query_one(ChatLog).add_note(f"{echo}\n{result.text}", ok=result.ok)
            else:
                self.notify(result.text, markup=False, severity="information" if result.ok else "warning")
            self.refresh_memory()
            self.refresh_sessions()

        self.run_store_job(lambda store: job(store, store.get_session(session_id)), done, group="memory")

    # -- forgetting ------------------------------------------------------------------------
    def forget_topic(self, topic: str | None) -> None:
        if topic and self.session is not None:
            session_id = self.session.id
            self.plan_forget(lambda store: _forget_plan(store, store.get_session(session_id), topic))

    def plan_forget(self, planner) -> None:
        """Plan in a worker, list what will go, delete only after the user confirms."""
        if self._busy(t("what.forget")):
            return

        def planned(plan) -> None:
            if isinstance(plan, str):  # not a memory id of this session, nothing to name
                self.notify(plan, markup=False, severity="warning")
                return
            if plan.empty:
                self.notify(t("memory.nothing_matches", topic=plan.what), markup=False, severity="warning")
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self._forget(plan)

            self.app.push_screen(ConfirmDialog(describe_plan(plan), t("forget.button")), confirmed)

        self.run_store_job(planner, planned, group="memory")

    def _forget(self, plan: ForgetPlan) -> None:
        from desktop_app.memory.forgetting import carry_out

        # The chat context holds the words too: it is not saved again, and the next prompt
        # is evaluated afresh (carry_out deletes the states saved on disk).
        self.jobs.interrupt()
        self.context_owner.session_id = None

        async def done(counts: dict) -> None:
            self.notify(t("memory.forgotten", what=plan.what, **counts), markup=False)
            if self.session is not None:
                await self.open_session(self.store.get_session(self.session.id))

        self.run_store_job(lambda store: carry_out(store, plan), done, group="memory")


def _forget_plan(store, session, arg: str):
    """The forget plan for an item id or a topic, or the one-line reason there is none."""
    from desktop_app.memory.controls import MemoryCommandError, plan_forget

    try:
        return plan_forget(store, session, arg)
    except (MemoryCommandError, LookupError, ValueError) as exc:
        return str(exc)


def _slash(store, session, text: str):
    from desktop_app.memory.controls import handle_slash

    return handle_slash(store, session, text, lang=current_lang())
