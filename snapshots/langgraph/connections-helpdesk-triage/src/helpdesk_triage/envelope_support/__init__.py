"""Envelope's generic support code for this LangGraph project, copied by envelope-export.

Each file here is the same in every export made by the same envelope-export version (a
team gets only the files it uses); what is about this team is one level up (graph.py,
state.py, context.py, team.py, models.py, prompts/). Edit here only if you will not export
the team again: an export replaces these files.
"""

__version__ = "0.1.0"
