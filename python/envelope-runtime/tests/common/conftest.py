"""python-common's tests (see common_project.py), run with either target's suite.

Every module here has a name no target suite uses (common_project.py, not project.py):
pytest imports the modules of both folders into one namespace. Nothing here imports a
framework; the target's conftest.py sets up the run (offline switches, a fresh working
directory).
"""

from __future__ import annotations

import sys
from pathlib import Path

# This folder's modules, whatever pytest's import mode and wherever it is run from (the
# target suites import input_cases.py and common_helpers.py from here too).
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
