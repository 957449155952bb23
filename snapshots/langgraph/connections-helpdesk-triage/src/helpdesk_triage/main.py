"""The team's command line: the console script of pyproject.toml, or
`python -m helpdesk_triage.main`.

`run` (the default) starts a run of graph.py's graph, checkpointed on disk; `resume
THREAD_ID` continues one that stopped. The runner behind them, with its checks of the
environment and the inputs, is envelope_support/runner.py.
"""

from __future__ import annotations

from .envelope_support.runner import COMMAND, amain, main, run

__all__ = ["COMMAND", "amain", "main", "run"]

if __name__ == "__main__":
    run()
