"""Edit a message and regenerate from there, regenerate a reply, switch between versions —
a mixin for the chat screen.

The discarded tail is archived as a version and the memory it wrote is rolled back by the
store (:mod:`desktop_app.memory.store.branches`) inside the inference worker, right before
the new turn runs; switching back restores the tail and replays its memory extraction.
"""

from __future__ import annotations

from desktop_app.memory.turn import remember_input
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import TextDialog
from desktop_app.ui.screens.host import ChatHost
from desktop_app.ui.widgets.chat_log import ChatLog


class BranchActions(ChatHost):
    """Expects the chat screen's ``store``, ``session``, ``generating``, ``start_turn`` and ``run_store_job``."""

    def action_select_messages(self) -> None:
        self.query_one(ChatLog).focus()

    async def on_chat_log_action_requested(self, message: ChatLog.ActionRequested) -> None:
        message.stop()
        if message.action == "edit":
            self.edit_message(message.message_id)
        elif message.action == "regenerate":
            await self.regenerate(message.message_id)
        elif message.action == "versions":
            self.switch_version(message.message_id, message.step)

    # -- regenerate ------------------------------------------------------------------------
    async def action_regenerate(self) -> None:
        """Regenerate the last reply (the old one stays reachable as a version)."""
        if self.session is None:
            return
        last = self.store.last_messages(self.session.id, 1)
        if not last:
            self.notify(t("regen.nothing"), markup=False, severity="warning")
            return
        await self.regenerate(last[0].id)

    async def regenerate(self, message_id: int) -> None:
        """Answer again: for a reply, the message before it; for a message of yours, that one."""
        if self.session is None or self._busy(t("what.regenerate")):
            return
        message = self.store.get_message(message_id)
        anchor = message.id if message.role == "user" else self.store.anchor_before(message.id)
        if anchor == 0 or self.store.get_message(anchor).role != "user":
            self.notify(t("regen.nothing"), markup=False, severity="warning")
            return
        await self.start_turn(None, anchor_id=anchor)

    # -- edit ------------------------------------------------------------------------------
    def action_edit_last(self) -> None:
        if self.session is None:
            return
        ids = self.store.user_message_ids(self.session.id)
        if not ids:
            self.notify(t("edit.no_user"), markup=False, severity="warning")
            return
        self.edit_message(ids[-1])

    def edit_message(self, message_id: int) -> None:
        if self.session is None or self._busy(t("what.edit")):
            return
        message = self.store.get_message(message_id)
        if message.role != "user":
            self.notify(t("edit.no_user"), markup=False, severity="warning")
            return
        anchor = self.store.anchor_before(message.id)

        async def edited(text: str | None) -> None:
            if text:
                await self.start_turn(text, anchor_id=anchor)

        self.app.push_screen(TextDialog(t("edit.title"), message.content),
                             lambda text: self.call_next(edited, text))

    # -- versions --------------------------------------------------------------------------
    def switch_version(self, message_id: int, step: int) -> None:
        if self.session is None or self._busy(t("what.versions")):
            return
        note = self.store.version_notes(self.session.id).get(message_id)
        if note is None:
            self.notify(t("versions.none"), markup=False, severity="warning")
            return
        anchor, number, count = note
        target = number + step
        if not 1 <= target <= count or step == 0:
            return
        slot = self.store.versions_at(self.session.id, anchor)[target - 1]
        session_id = self.session.id

        def job(store):
            store.restore_version(slot.version_id, replay=lambda m: remember_input(store, m))
            first = store.list_messages(session_id, after_id=anchor, limit=1)
            return first[0].id if first else None

        async def done(first_id: int | None) -> None:
            await self.open_session(self.store.get_session(session_id))
            log = self.query_one(ChatLog)
            view = log.view_of(first_id) if first_id is not None else None
            if view is not None:
                log.focus()
                log._select(view)
            self.notify(t("versions.switched", n=target, of=count), markup=False)

        self.run_store_job(job, done, group="versions", exclusive=True)
