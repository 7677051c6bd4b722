"""Session management for the chat screen: open, new, rename, delete, switch.

A mixin so the chat screen stays about chatting. Every change is a store job (a thread
worker with its own connection, ``ui.jobs``), so a write that waits for another thread's
transaction — or cascades through a big session's rows on delete — never blocks the event
loop. Changes are refused while a reply streams, because the worker is writing into the
current session.
"""

from __future__ import annotations

from desktop_app.memory.core.models import Session
from desktop_app.memory.store.sessions import SessionNotFound
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import ConfirmDialog, NameDialog
from desktop_app.ui.screens.host import ChatHost
from desktop_app.ui.shown import shown
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.chat_log import ChatLog
from desktop_app.ui.widgets.session_list import SessionList, Sidebar


class SessionActions(ChatHost):
    """Expects ``store``, ``session``, ``session_name`` and ``generating`` on the screen."""

    def open_initial_session(self) -> None:
        """``--session NAME`` (created when missing), else the most recent, else 'default'."""
        wanted = self.session_name

        def job(store) -> Session:
            if wanted:
                return store.session_named(wanted)
            return store.latest_session() or store.session_named(t("session.first"))

        async def found(session: Session) -> None:
            await self.open_session(session)
            self.query_one(ChatInput).focus()

        self.run_store_job(job, found, group="sessions")

    async def open_session(self, session: Session) -> None:
        leaving = self.session.id if self.session is not None and self.session.id != session.id else None
        self.session = session
        self.warm_session(session.id, leaving=leaving)  # runs with the idle work below
        self.app.sub_title = shown(session.name)
        # The meter follows the session at once (no await in between): a model that finished
        # loading before the session opened found no session to read the last prompt from.
        self.show_context()
        log = self.query_one(ChatLog)
        await log.show_messages(self.store.list_messages(session.id))
        log.show_versions(self.store.version_notes(session.id))
        announced: set[int] = self.__dict__.setdefault("_rules_announced", set())
        rules = [] if session.id in announced else self.store.list_items(session.id, statuses=("active",),
                                                                           kinds=("directive",))
        announced.add(session.id)
        if rules:  # said once, when the session is first opened in this run: what every reply here follows
            listed = t("memory.rules_join").join(f"#{r.id} {shown(r.value)}" for r in rules[:6])
            await log.add_note(t("memory.rules_in_force", rules=listed))
        self.refresh_sessions()
        self.refresh_memory()
        self.run_memory_jobs()

    def refresh_sessions(self) -> None:
        sessions = self.store.list_sessions()
        if self.session is not None:
            self.session = next((s for s in sessions if s.id == self.session.id), self.session)
        self.query_one(SessionList).show_sessions(sessions, self.session.id if self.session else None)

    def _busy(self, what: str) -> bool:
        if self.generating:
            self.notify(t("chat.stop_first", what=what), markup=False, severity="warning")
        return self.generating

    # -- switch ---------------------------------------------------------------------------
    async def on_session_list_session_chosen(self, message: SessionList.SessionChosen) -> None:
        await self.switch_session(message.session_id)
        self.query_one(ChatInput).focus()

    async def switch_session(self, session_id: int) -> None:
        if self.session is not None and session_id == self.session.id:
            return
        if self._busy(t("what.switch")):
            self.refresh_sessions()
            return
        try:
            session = self.store.get_session(session_id)
        except SessionNotFound:
            self.notify("That session no longer exists.", markup=False, severity="warning")
            self.refresh_sessions()
            return
        await self.open_session(session)

    def action_focus_sessions(self) -> None:
        sidebar = self.query_one(Sidebar)
        sidebar.display = True
        self.query_one(SessionList).focus()

    # -- new ------------------------------------------------------------------------------
    def action_new_session(self) -> None:
        if not self._busy(t("what.new")):
            self.app.push_screen(NameDialog(t("session.new"), self._unused_name()), self.create_session)

    def create_session(self, name: str | None) -> None:
        if not name:
            return

        async def created(session: Session | str) -> None:
            if isinstance(session, str):
                self.notify(session, markup=False, severity="warning")
                return
            await self.open_session(session)
            self.query_one(ChatInput).focus()

        self.run_store_job(lambda store: _or_reason(store.create_session, name), created, group="sessions")

    def _unused_name(self) -> str:
        taken = {s.name for s in self.store.list_sessions()}
        number = len(taken) + 1
        while t("session.numbered", n=number) in taken:
            number += 1
        return t("session.numbered", n=number)

    # -- rename ---------------------------------------------------------------------------
    def action_rename_session(self) -> None:
        if self.session is not None and not self._busy(t("what.rename")):
            self.app.push_screen(NameDialog(t("session.rename", name=self.session.name), self.session.name),
                                 self.rename_session)

    def rename_session(self, name: str | None) -> None:
        if not name or self.session is None:
            return
        session_id = self.session.id

        def renamed(session: Session | str) -> None:
            if isinstance(session, str):
                self.notify(session, markup=False, severity="warning")
                return
            if self.session is not None and self.session.id == session.id:
                self.session = session
                self.app.sub_title = shown(session.name)
            self.refresh_sessions()

        self.run_store_job(lambda store: _or_reason(store.rename_session, session_id, name), renamed,
                           group="sessions")

    # -- delete ---------------------------------------------------------------------------
    def action_delete_session(self) -> None:
        if self.session is None or self._busy(t("what.delete")):
            return
        session = self.store.get_session(self.session.id)
        question = t("session.delete", name=session.name, n=session.message_count)
        self.app.push_screen(ConfirmDialog(question), self._delete_confirmed)

    def _delete_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.delete_current_session()

    def delete_current_session(self):
        """Delete the open session, then open the most recent one (or a fresh 'default')."""
        if self.session is None or self._busy(t("what.delete")):
            return None
        name, session_id = self.session.name, self.session.id
        self.session = None

        def job(store) -> Session:
            store.delete_session(session_id)
            return store.latest_session() or store.session_named(t("session.first"))

        async def deleted(next_session: Session) -> None:
            await self.open_session(next_session)
            self.notify(t("session.deleted", name=name), markup=False)

        return self.run_store_job(job, deleted, group="sessions")


def _or_reason(write, *args):
    """The write's result, or its one-line refusal (a name already taken) for the UI to show."""
    try:
        return write(*args)
    except ValueError as exc:
        return str(exc)
