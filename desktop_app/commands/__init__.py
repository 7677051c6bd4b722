"""Headless subcommands; one module each, registered in ``cli.COMMAND_MODULES``."""
