"""Moving conversations in and out: Markdown/JSON export, ChatGPT and Paperclip JSON import.

No Textual here: the TUI runs these in a worker with a progress callback, the CLI directly.
"""
