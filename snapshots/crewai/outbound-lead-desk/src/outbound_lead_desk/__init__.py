"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Outbound Lead Desk (outbound-lead-desk)
__version__ = "1.2.0"
