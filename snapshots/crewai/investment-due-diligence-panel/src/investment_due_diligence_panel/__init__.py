"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Investment Due Diligence Panel (investment-due-diligence-panel)
__version__ = "1.2.0"
