"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

# Weekly Pipeline Review (weekly-pipeline-review)
__version__ = "1.0.3"
