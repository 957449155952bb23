"""envelope-runtime for LangGraph teams (LangGraph 1.2). Its public modules and names, those a
team's generated code imports (graph.py, main.py, models.py, server.py, state.py, team.py
and its tests), are listed in the library's README.md ("Public API"); everything else here is
private."""
