"""The Textual application: settings, the UI thread's store, quitting safely, ``run_app``.

Everything visible lives in :class:`~desktop_app.ui.screens.chat.ChatScreen`; the app only
wires it up and makes sure a reply being written when the user quits is stopped and stored.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from desktop_app import paths
from desktop_app.config import Settings
from desktop_app.memory.store import Store
from desktop_app.ui.i18n import current_lang, set_lang, t, translate_bindings
from desktop_app.ui.inference import EmbedderFactory, EngineFactory, default_embedder_factory, default_engine_factory
from desktop_app.ui.palette import PaperclipCommands
from desktop_app.ui.screens.chat import ChatScreen
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import shown

CSS_FILE = paths.assets_dir() / "paperclip.tcss"
QUIT_WAIT_SECONDS = 10.0


class PaperclipApp(App[int]):
    """Paperclip's terminal UI. ``engine_factory(settings)`` runs in a worker thread."""

    TITLE = "Paperclip"
    CSS_PATH = CSS_FILE if CSS_FILE.exists() else None
    COMMANDS = App.COMMANDS | {PaperclipCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, settings: Settings, *, session_name: str | None = None,
                 engine_factory: EngineFactory | None = None,
                 embedder_factory: EmbedderFactory | None = None) -> None:
        super().__init__()
        set_lang(settings.lang)
        self.settings = settings
        self.session_name = session_name
        self.engine_factory = engine_factory or default_engine_factory
        # None: no background embedding (tests); run_app passes the real llama.cpp embedder.
        self.embedder_factory = embedder_factory
        # The UI thread's own connection; worker threads open theirs.
        self.store = Store(settings.db_path)
        self.chat = ChatScreen(settings, self.store, self.engine_factory, session_name)
        # The app's own footer entries (Ctrl+Q, the palette) in the user's language too; English
        # keeps Textual's own labels.
        if settings.lang != "en":
            translate_bindings(self)
            # Textual declares it a ClassVar but reads it through the instance: set for this app only.
            self.COMMAND_PALETTE_DISPLAY = t("bind.command_palette")  # type: ignore[misc]

    def get_default_screen(self) -> ChatScreen:
        return self.chat

    async def on_event(self, event: events.Event) -> None:
        # Keys for a dialog that is not on the terminal yet wait for its first frame (Dialog);
        # quitting does not.
        screen = self.screen if self._running and self.screen_stack else None
        if isinstance(event, events.Key) and not event.is_forwarded and isinstance(screen, Dialog) \
                and not screen.drawn and event.key != "ctrl+q":
            screen.hold_key(event)
            return
        await super().on_event(event)

    def on_mount(self) -> None:
        self.apply_theme(self.settings.theme)
        self._catch_hangups()
        self._tell_unsaved_language()

    def _tell_unsaved_language(self) -> None:
        """A language given by ``--lang`` (or the environment) lasts this run only; say how to
        keep it, so the next start and the headless commands speak it too."""
        from desktop_app.config import ConfigError, read_config_file

        try:
            saved = read_config_file().get("lang", "en")
        except ConfigError:
            return
        if self.settings.lang != saved:
            self.notify(t("settings.lang_unsaved"), markup=False, timeout=8)

    def _catch_hangups(self) -> None:
        """SIGHUP (the terminal closed) and SIGTERM quit like Ctrl+Q: a streaming reply stops
        and is stored whole, and the context state is saved."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()
        self._signals = []
        for name in ("SIGHUP", "SIGTERM"):
            if (number := getattr(signal, name, None)) is None:
                continue
            try:
                loop.add_signal_handler(number, lambda: asyncio.ensure_future(self.action_quit()))
                self._signals.append(number)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
                pass

    def on_unmount(self) -> None:
        import asyncio

        loop = asyncio.get_running_loop()
        for number in getattr(self, "_signals", []):
            loop.remove_signal_handler(number)

    def apply_theme(self, theme: str) -> None:
        self.theme = "textual-light" if theme == "light" else "textual-dark"

    def toggle_theme(self) -> None:
        """Switch dark/light and remember the choice in the config file."""
        self.apply_settings({"theme": "light" if self.settings.theme == "dark" else "dark"})

    def apply_settings(self, changes: dict) -> Path:
        """Use ``changes`` now and persist them to the TOML config (only the keys the file
        already had plus these, so ``--db`` or other flags of this run are not written)."""
        from desktop_app.config import read_config_file, save_config
        from desktop_app.ui.screens.settings import MODEL_KEYS

        lang_before = self.settings.lang
        self.settings = self.settings.model_copy(update=changes)
        self.chat.settings = self.settings
        stored = {**read_config_file(), **changes}
        path = save_config(Settings(**{k: v for k, v in stored.items() if v is not None}))
        if "theme" in changes:
            self.apply_theme(self.settings.theme)
        if "lang" in changes:
            set_lang(self.settings.lang)
            self.notify(t("settings.restart_lang" if self.settings.lang != lang_before else "settings.lang_saved"),
                        markup=False)
        if "embed_model" in changes:
            self.chat.embedder = None
            self.chat.embedder_error = None
        if any(key in changes for key in MODEL_KEYS):
            self.notify(t("settings.swapping", name=self.settings.model_path.name), markup=False)
            self.chat.action_reload_model()
        self.notify(t("settings.saved", path=path), markup=False)
        return path

    def notify(self, message: str, *args, **kwargs) -> None:
        """Notifications quote stored text (names, values): shown without terminal escapes."""
        super().notify(shown(str(message)), *args, **kwargs)

    def action_command_palette(self) -> None:
        """Textual's palette, with its placeholder and keys in the UI language."""
        from textual.command import CommandPalette

        # is_open takes App[object], and App is invariant in its return type (this is an App[int]).
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            palette = CommandPalette(id="--command-palette", placeholder=t("palette.placeholder"))
            if current_lang() != "en":
                translate_bindings(palette)
            self.push_screen(palette)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title == "Quit":
                command = SystemCommand("Quit", "Stop any reply (it is kept), then exit (Ctrl+Q)", self.action_quit)
            # Textual's own commands in the UI language (English keeps Textual's words).
            key = f"system.{command.title.lower()}"
            if current_lang() != "en" and t(key) != key:
                command = command._replace(title=t(key), help=t(f"{key}.help"))
            yield command

    async def action_quit(self) -> None:
        """Stop a streaming reply first so its partial text is stored, then exit."""
        if not await self.chat.stop_reply_and_wait(QUIT_WAIT_SECONDS):
            self.notify("The reply did not stop in time; quitting anyway.", markup=False, severity="warning")
        self.exit(0)

    # -- the TUI's error boundary (the CLI's is cli.main) -------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """Textual ends a widget's message loop on an unhandled exception, so the app exits; what
        the terminal gets is one line. A failure the user can act on (a full disk, a read-only or
        damaged database, a refused file) says what to do; a bug's traceback goes to
        ``crash.log`` in the data folder. Everything stored before it stays stored."""
        from desktop_app.commands.failures import explain_failure

        message = explain_failure(error, self.settings.db_path)
        if message is None:
            log = write_crash_log(error)
            message = (f"unexpected error ({type(error).__name__}: {error}); "
                       + (f"the details are in {log} — please report it" if log else "please report it"))
        self.failure_line = message
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if getattr(self, "failure_line", None) is None or "debug" in self.features:
            super()._print_error_renderables()
            return
        self._exit_renderables.clear()
        from desktop_app.commands.failures import one_line

        print(f"paperclip: {one_line(self.failure_line)}", file=sys.stderr)

    def wait_for_reply(self, timeout: float = QUIT_WAIT_SECONDS) -> bool:
        """Block until no reply is being written (after the event loop has ended)."""
        self.chat.stop_requested.set()
        return self.chat.reply_done.wait(timeout)


def write_crash_log(error: BaseException) -> Path | None:
    """Append ``error``'s traceback to ``<data dir>/crash.log`` (0600); its path, or None."""
    import time
    import traceback

    from desktop_app.private_files import private_dir

    path = paths.data_dir() / "crash.log"
    try:
        private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            handle.write("".join(traceback.format_exception(error)))
        return path
    except OSError:
        return None


def run_app(settings: Settings, session_name: str | None = None) -> int:
    """Run the TUI until the user quits; returns the exit code for ``paperclip``."""
    from desktop_app.memory.store.db import DatabaseError

    try:
        app = PaperclipApp(settings, session_name=session_name, embedder_factory=default_embedder_factory)
    except DatabaseError as exc:
        print(f"paperclip: {exc}", file=sys.stderr)
        return 1
    try:
        app.run()
    finally:
        # However the loop ended, let a reply in flight stop and store its partial text. Background
        # memory work stops at its next check (what it had not done is in memory_backlog and runs
        # at the next start); the screen is gone by now, so say why the shell waits.
        app.chat.jobs.cancel()
        app.chat.jobs.interrupt()
        if app.chat.jobs.running or not app.chat.reply_done.is_set():
            print("paperclip: stopping background work and saving the context …", file=sys.stderr, flush=True)
        app.wait_for_reply()
        app.chat.save_context()  # so reopening this session starts warm
        app.store.close()
    return app.return_code or 0
