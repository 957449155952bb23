"""The runner's helpers the targets share: a run's inputs from every source, checked by the
team's `TeamInputs` (collect_inputs), and the shared pieces of inputs.py
(flags, sources, the environment, echoes) named here too. Nothing here imports a framework.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .echo import quoted as quoted
from .input_spec import NO_DEFAULT as NO_DEFAULT
from .input_spec import InputSpec as InputSpec
from .inputs import EnvRequirement as EnvRequirement
from .inputs import InputError as InputError
from .inputs import add_input_flags as add_input_flags
from .inputs import checked as checked
from .inputs import collect_inputs as collect_inputs
from .inputs import env_file_problems as env_file_problems
from .inputs import missing_env as missing_env
from .inputs import report_problems as report_problems
from .inputs import strict_json as strict_json


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
