"""The footer at 80, 120 and 200 columns, in Chinese and English, idle, while the meter shows
its progress and while a reply streams: every key it shows is whole and inside it — bindings
that do not fit are left out whole, never cut mid-word (a CJK character is two cells)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets._footer import FooterKey

from desktop_app.ui.i18n import set_lang
from desktop_app.ui.widgets.context_meter import ContextMeter

SIZES = [(80, 24), (120, 40), (200, 50)]


def footer_row(app) -> str:
    """The bottom row as the terminal shows it (wide characters take two cells)."""
    strip = app.screen._compositor.render_strips()[-1]
    return "".join(segment.text for segment in strip)


def check_footer(app) -> list[str]:
    """What is wrong with the footer now: keys cut, outside it, or over each other."""
    footer = app.screen.query_one("Footer")
    shown = [key for key in footer.query(FooterKey) if key.display]
    problems = []
    row = footer_row(app)
    edge = footer.region.right
    for key in shown:
        region = key.region
        if region.width < cell_len(key.render().plain) or region.right > edge or region.x < footer.region.x:
            problems.append(f"{key.description!r} is cut or outside the footer ({region}, footer ends at {edge})")
        if key.description and key.description not in row:
            problems.append(f"{key.description!r} is not whole in {row!r}")
    for one in shown:
        for other in shown:
            if one is not other and one.region.overlaps(other.region):
                problems.append(f"{one.description!r} overlaps {other.description!r}")
    return problems


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_footer_shows_whole_bindings_only(settings, ui, size, lang):
    set_lang(lang)
    engine = ui.HoldingEngine("好的 我 记下 了。" if lang == "zh" else "Noted, thank you.", hold_after=2)
    app = ui.scripted_app(settings.model_copy(update={"lang": lang}), engine)
    async with app.run_test(size=size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        assert not check_footer(app), check_footer(app)
        keys = {key.action.rpartition(".")[2] for key in app.screen.query(FooterKey) if key.display}
        assert {"quit", "command_palette"} <= keys  # left out last
        if size[0] >= 120:
            assert {"submit", "help", "new_session"} <= keys

        # the meter grows while it shows progress: the footer loses keys, not halves of them
        app.chat.query_one(ContextMeter).show_progress("warming", 0.45)
        await pilot.pause()
        await pilot.pause()
        assert not check_footer(app), check_footer(app)

        app.chat.query_one(ContextMeter).show_progress(None)
        chat_input = app.chat.query_one("#chat-input")
        chat_input.text = "记住：预算五千。" if lang == "zh" else "Remember: the budget is 5000."
        await pilot.press("enter")
        await ui.wait_until(pilot, engine.held.is_set)
        await pilot.pause()
        await pilot.pause()
        assert not check_footer(app), check_footer(app)
        engine.release.set()
        await ui.wait_for_reply(pilot)
