"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

# Support Tier (support-tier)
__version__ = "1.0.0"
