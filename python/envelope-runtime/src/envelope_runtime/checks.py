"""What the run commands share besides a run's inputs: the options a later `resume` needs
(`resume_options`) and the grammar of the commands that start runs (`watch`, `poll`:
`RUN_OPTIONS_USAGE`, `parse_run_options`). Only these: the input and environment checks are
inputs.py's, `InputSpec` input_spec.py's, `quoted` echo.py's, imported from there, so loading
this module loads none of them. Nothing here imports a framework.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def resume_options(state_dir: str, default_state_dir: str, env_file: str | None) -> list[str]:
    """The options a later `resume` needs to find a run: where its state is, and its .env."""
    options: list[str] = []
    if state_dir != default_state_dir:
        options += ["--state-dir", state_dir]
    if env_file is not None:
        options += ["--env-file", env_file]
    return options


RUN_OPTIONS_USAGE = "[-- RUN OPTIONS]"
"""The usage line's last part of every command that starts runs (`watch`, `poll`)."""


def parse_run_options(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[argparse.Namespace, list[str]]:
    """A command that starts runs (`watch`, `poll`): its own options, and those it gives each
    run. Run options go after `--`, one grammar for every such command; options before it
    that the command does not know go to the runs too (`poll`'s first form), in order."""
    argv = list(argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    args, unknown = parser.parse_known_args(argv[:cut])
    return args, [*unknown, *argv[cut + 1 :]]
