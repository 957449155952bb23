"""envelope-runtime for CrewAI teams (CrewAI 1.15). Its public modules and names, those a
team's generated code imports (crew.py, flow.py, main.py, models.py, team.py and its tests),
are listed in the library's README.md ("Public API"); everything else here is private."""
