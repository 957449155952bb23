"""envelope-runtime: what an Envelope team exported to CrewAI or LangGraph needs and its
framework does not offer — policy-checked HTTP, gate rules, the workspace rules,
placeholders, redaction, connection packs, schedules and traces.

The public API is the list in the library's README.md ("Public API"): public modules and
their public names. Generated team code imports each name from the module that defines it,
so a team loads only the modules its features need; every other module and name is private
and may change within a version line.
"""

__version__ = "0.1.0"
