"""Model access: llama.cpp chat and embedding models, tokenizers. No Textual."""

from desktop_app.engine.protocol import ChatEngine, ChatMessage, TokenCounter

__all__ = ["ChatEngine", "ChatMessage", "TokenCounter"]
