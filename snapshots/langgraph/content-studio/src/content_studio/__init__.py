"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

# Content Studio (content-studio)
__version__ = "2.3.1"
