"""A LangGraph project exported from an Envelope team definition (see envelope.json)."""

# Incident Response Crew (incident-response-crew)
__version__ = "4.1.0"
