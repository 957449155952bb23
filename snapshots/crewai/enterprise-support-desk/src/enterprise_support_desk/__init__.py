"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Enterprise Support Desk (enterprise-support-desk)
__version__ = "3.0.2"
