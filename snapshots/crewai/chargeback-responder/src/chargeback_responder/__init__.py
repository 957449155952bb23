"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Chargeback Responder (chargeback-responder)
__version__ = "0.9.0"
