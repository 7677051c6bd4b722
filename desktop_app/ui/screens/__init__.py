"""Screens: the chat screen and the small modal dialogs."""
