"""The team's command line: the console script of pyproject.toml, or
`python -m engineering_hiring_loop.main`.

`engineering_hiring_loop [run]` starts a run of graph.py's graph,
checkpointed on disk;
`engineering_hiring_loop resume THREAD_ID`
continues one waiting at a review gate. The runner behind it, with its checks of
the environment and the inputs, is envelope_support/runner.py.
"""

from __future__ import annotations

from .envelope_support.runner import COMMAND, amain, main, run

__all__ = ["COMMAND", "amain", "main", "run"]

if __name__ == "__main__":
    run()
