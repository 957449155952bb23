"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Engineering Hiring Loop (engineering-hiring-loop)
__version__ = "1.4.0"
