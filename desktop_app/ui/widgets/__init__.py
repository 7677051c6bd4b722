"""Widgets of the chat screen, one per file."""
