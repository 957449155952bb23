"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

# Vendor Onboarding Review (parallel-gates)
__version__ = "1.1.0"
