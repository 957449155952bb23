"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Helpdesk Triage (helpdesk-triage)
__version__ = "1.0.0"
