"""Your own tools (CrewAI's tools folder): see custom_tool.py."""
