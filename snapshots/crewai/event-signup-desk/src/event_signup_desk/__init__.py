"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Event Signup Desk (event-signup-desk)
__version__ = "1.2.0"
