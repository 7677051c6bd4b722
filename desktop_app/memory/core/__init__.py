"""Shared nouns of the memory core: the typed rows, turn numbers, turn records, the frozen head, safe text."""
