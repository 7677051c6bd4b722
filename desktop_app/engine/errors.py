"""Engine errors carry one sentence a user can act on."""


class EngineError(RuntimeError):
    """Base class: ``str(error)`` is a one-line message for the user."""


class ModelLoadError(EngineError):
    """The model file is missing, not a GGUF, corrupt, or could not be loaded."""


class ContextFullError(EngineError):
    """The prompt does not fit the model's context window."""


class JSONOutputError(EngineError):
    """A reply that should have filled a JSON schema did not (invalid, cut off, not an object)."""


class ServerError(EngineError):
    """An OpenAI-compatible server is down, refused the request, or does not have the model."""


class GenerationStopped(EngineError):
    """A structured (JSON) call was stopped between tokens because the chat needs the model."""
