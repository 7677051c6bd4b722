"""Paperclip: an offline terminal assistant with a layered memory core."""

__version__ = "0.1.0"
