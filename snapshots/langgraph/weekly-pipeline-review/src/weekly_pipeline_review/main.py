"""The team's command line: the console script of pyproject.toml, or
`python -m weekly_pipeline_review.main`.

`weekly_pipeline_review [run]` starts a run of graph.py's graph,
checkpointed on disk. The runner behind it, with its checks of
the environment and the inputs, is envelope_support/runner.py.
"""

from __future__ import annotations

from .envelope_support.runner import COMMAND, amain, main, run

__all__ = ["COMMAND", "amain", "main", "run"]

if __name__ == "__main__":
    run()
