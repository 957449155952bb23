"""The grammar of the commands that start runs (`watch`, `poll`; checks.parse_run_options):
their own options, then `--` and the options of each run; options before `--` that the
command does not know go to the runs too, in order (`poll`'s first form)."""

from __future__ import annotations

import argparse

import pytest
from common_project import checks


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="team poll")
    parser.add_argument("--once", action="store_true")
    parser.add_argument("--interval", type=int, default=60)
    return parser


@pytest.mark.parametrize(
    ("argv", "once", "interval", "run"),
    [
        (["--once", "--", "--inputs", "@a.json"], True, 60, ["--inputs", "@a.json"]),
        (["--once", "--inputs", "@a.json"], True, 60, ["--inputs", "@a.json"]),
        (["--inputs", "@a.json", "--interval", "5"], False, 5, ["--inputs", "@a.json"]),
        # After `--` everything is the run's, its own options' names and a second `--` too.
        (["--", "--once", "--", "x"], False, 60, ["--once", "--", "x"]),
        (["--trace", "t", "--", "--verbose"], False, 60, ["--trace", "t", "--verbose"]),
        ([], False, 60, []),
    ],
)
def test_run_options_follow_dashdash_and_unknown_options_join_them(
    argv: list[str], once: bool, interval: int, run: list[str]
) -> None:
    args, run_options = checks.parse_run_options(_parser(), argv)
    assert (args.once, args.interval, run_options) == (once, interval, run)


def test_a_bad_value_of_the_commands_own_option_is_refused() -> None:
    with pytest.raises(SystemExit) as refused:
        checks.parse_run_options(_parser(), ["--interval", "soon", "--", "--inputs", "{}"])
    assert refused.value.code == 2
