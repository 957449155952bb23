"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

__version__ = "0.9.0"
