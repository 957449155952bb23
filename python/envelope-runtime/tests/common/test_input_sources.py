"""A run's inputs from their sources (inputs.collect_inputs, CONTRACT.md's "Inputs"): which
source wins, how an INPUT_<NAME> variable is named, and every bad value reported at once,
each after its source. A model of its own, so every input type is here whatever the team."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from envelope_runtime.input_spec import input_specs
from envelope_runtime.inputs import InputError, add_input_flags, collect_inputs


class Inputs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
    topic: str = Field(description="what to write about")
    writer: str | None = Field(default=None, alias="lead-writer")
    writer_too: str | None = Field(default=None, alias="lead_writer")  # INPUT_LEAD_WRITER too
    accented: str | None = Field(default=None, alias="réd")
    count: int | float | None = None
    draft: bool | None = None
    tags: list[object] | None = None


def _collect(argv: list[str], **options: Any) -> dict[str, Any]:
    parser = argparse.ArgumentParser()
    add_input_flags(parser, input_specs(Inputs))
    return collect_inputs(parser.parse_args(argv), Inputs, **options)


def test_each_source_overrides_the_ones_below_it(tmp_path: Path) -> None:
    # lowest first: inputs.json, INPUT_<NAME>, a trigger's (base), --inputs, the flags
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps({"topic": "file", "count": 1, "draft": False, "tags": [1]}))
    environ = {"INPUT_TOPIC": "env", "INPUT_COUNT": " 2", "INPUT_LEAD_WRITER": "ann"}
    found = _collect(["--draft", "yes"], inputs_file=str(file), environ=environ, base={"count": 3})
    assert found == {"topic": "env", "lead-writer": "ann", "count": 3, "draft": True, "tags": [1]}
    found = _collect(
        ["--inputs", '{"topic": "json", "count": 4}', "--count", "5"],
        inputs_file=str(file),  # not read when --inputs is given
        environ=environ,
    )
    assert found == {"topic": "json", "lead-writer": "ann", "count": 5}


def test_an_input_variable_is_the_key_upper_cased_other_characters_as_underscores() -> None:
    environ = {"INPUT_TOPIC": "t", "INPUT_LEAD_WRITER": "ann", "INPUT_R_D": "x"}
    # a variable two keys share (lead-writer, lead_writer) belongs to the first
    assert _collect([], environ=environ) == {"topic": "t", "lead-writer": "ann", "réd": "x"}


def test_every_bad_value_is_reported_at_once_after_its_source() -> None:
    environ = {"INPUT_COUNT": "many", "INPUT_TAGS": "[1,"}
    with pytest.raises(InputError) as raised:
        _collect(["--inputs", '{"topic": 5, "nope": 1}', "--draft", "maybe"], environ=environ)
    problems = raised.value.problems
    assert len(problems) == 5, problems
    assert problems[0].startswith("INPUT_COUNT: Input should be a valid number")
    assert problems[1].startswith("INPUT_TAGS: expected JSON (array): ")
    assert problems[2].startswith("--draft: Input should be a valid boolean")
    assert "(true/false, yes/no, on/off, 1/0), got 'maybe'" in problems[2]
    assert set(problems[3:]) == {
        "input 'topic': Input should be a valid string",
        "unknown input 'nope'",
    }


@pytest.mark.parametrize("text", ["[1]", "{oops"])
def test_an_unreadable_inputs_file_is_named_and_hides_no_other_problem(
    text: str, tmp_path: Path
) -> None:
    file = tmp_path / "inputs.json"
    file.write_text(text)
    with pytest.raises(InputError) as raised:
        _collect(["--count", "many"], inputs_file=str(file))
    problems = raised.value.problems
    assert problems[0].startswith(
        f"{file} must be a JSON object" if text == "[1]" else f"{file} is"
    )
    assert "--inputs" not in problems[0]
    assert problems[1].startswith("--count: Input should be a valid number")
    # `topic`, required, may be in the file that could not be read: not called missing
    assert len(problems) == 2, problems


def test_broken_inputs_json_does_not_call_the_inputs_in_it_missing() -> None:
    with pytest.raises(InputError) as raised:
        _collect(["--inputs", '{"topic": "x",'])
    assert raised.value.problems == [
        "--inputs is not valid JSON: Expecting property name enclosed in double quotes"
    ]
    with pytest.raises(InputError) as raised:
        _collect(["--inputs", "{}"])
    assert raised.value.problems == ["input 'topic' is required"]
