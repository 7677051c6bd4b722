"""Paperclip's memory core. No Textual, no rich: usable headless and from tests."""
