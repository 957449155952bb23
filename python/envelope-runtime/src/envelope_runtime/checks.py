"""The runner's helpers the targets share: a run's inputs from every source, checked by the
team's `TeamInputs` (collect_inputs), and the shared pieces of inputs.py
(flags, sources, the environment, echoes) named here too. Nothing here imports a framework.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .echo import ECHO_LIMIT as ECHO_LIMIT
from .inputs import MAX_INPUT_PROBLEMS as MAX_INPUT_PROBLEMS
from .inputs import NO_DEFAULT as NO_DEFAULT
from .inputs import Ask as Ask
from .inputs import EnvRequirement as EnvRequirement
from .inputs import InputError as InputError
from .inputs import InputSpec as InputSpec
from .inputs import InputType as InputType
from .inputs import add_input_flags as add_input_flags
from .inputs import checked as checked
from .inputs import coerce_flag as coerce_flag
from .inputs import collect_inputs as collect_inputs
from .inputs import cut as cut
from .inputs import env_file_problems as env_file_problems
from .inputs import input_env_name as input_env_name
from .inputs import input_specs as input_specs
from .inputs import missing_env as missing_env
from .inputs import parse_inputs_json as parse_inputs_json
from .inputs import quoted as quoted
from .inputs import report_problems as report_problems
from .inputs import resume_options as resume_options
from .inputs import strict_json as strict_json
from .model_env import load_problems as load_problems

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
