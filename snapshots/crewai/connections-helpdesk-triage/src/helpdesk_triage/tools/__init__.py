"""Your own tools (CrewAI's tools folder): see custom_tool.py."""

# the Helpdesk Triage team's own tools
# (those the definition gives its agents — http_request, connection packs, workspace
# documents — come from envelope-runtime)
