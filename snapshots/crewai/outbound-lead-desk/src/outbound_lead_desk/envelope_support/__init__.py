"""Envelope's generic support code for this CrewAI project, copied by envelope-export.

Every export made by the same envelope-export version holds the same files here; what is
about this team is one level up (crew.py, flow.py, team.py, models.py, config/). Edit here
only if you will not export the team again: an export replaces these files.
"""

__version__ = "0.1.0"
