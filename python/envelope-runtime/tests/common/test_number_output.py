"""A number output (`input_spec.Number`, TeamResult's type for an output of type "number"):
validated as a float, so the JSON schema a model is shown (CrewAI's prompt, structured
output's tools and response formats) says "number" as before, and written as an int when
integral, so a count the model answers as 3 is 3 in the run's result, not 3.0."""

from __future__ import annotations

import json
from typing import Any

import pytest
from common_project import input_spec, module, team
from pydantic import BaseModel, Field

from envelope_runtime.testing import sample

Number = input_spec.Number


class _Result(BaseModel):
    count: Number = Field(description="How many.")
    share: Number | None = Field(default=None, description="Which part.")


class _Floats(BaseModel):
    count: float = Field(description="How many.")
    share: float | None = Field(default=None, description="Which part.")


def test_an_integral_number_is_written_as_an_int_and_a_fraction_as_it_is() -> None:
    result = _Result.model_validate_json('{"count": 3, "share": 2.5}')
    assert type(result.count) is float  # validated as before
    # CrewAI's runner prints model_dump() with json.dumps; LangGraph keeps mode="json".
    for dumped in (result.model_dump(), result.model_dump(mode="json")):
        assert dumped == {"count": 3, "share": 2.5}
        assert (type(dumped["count"]), type(dumped["share"])) == (int, float)
    assert json.dumps(result.model_dump()) == '{"count": 3, "share": 2.5}'
    assert result.model_dump_json() == '{"count":3,"share":2.5}'
    assert _Result(count=-0.0).model_dump() == {"count": 0, "share": None}
    # An int default is not validated: it stays one. Past 2**53 a float stays a float.
    assert _Result.model_construct(count=4).model_dump()["count"] == 4
    assert type(_Result(count=2.0**60).model_dump()["count"]) is float


def test_the_schema_a_model_is_shown_is_a_floats() -> None:
    assert _Result.model_json_schema() == {**_Floats.model_json_schema(), "title": "_Result"}


def _team_result() -> type[BaseModel]:
    found = getattr(team, "TeamResult", None) or module("state").TeamResult  # CrewAI, LangGraph
    assert isinstance(found, type) and issubclass(found, BaseModel)
    return found


def test_the_team_result_writes_an_integral_number_output_as_an_int() -> None:
    model = _team_result()
    schema = model.model_json_schema()
    assert "integer" not in json.dumps(schema)  # every number output is shown as "number"

    def is_number(node: dict[str, Any]) -> bool:
        return node.get("type") == "number" or any(
            o.get("type") == "number" for o in node.get("anyOf", [])
        )

    numbers = [key for key, node in schema["properties"].items() if is_number(node)]
    if not numbers:
        pytest.skip("the team has no number output")
    data = sample(schema)
    for value, written in ((3, "3"), (3.0, "3"), (2.5, "2.5")):
        result = model.model_validate({**data, **dict.fromkeys(numbers, value)})
        # CrewAI's runner and run files: model_dump(); LangGraph's state: mode="json"
        for dumped in (
            result.model_dump(by_alias=True),
            result.model_dump(mode="json", by_alias=True),
            json.loads(result.model_dump_json(by_alias=True)),
        ):
            assert {key: json.dumps(dumped[key]) for key in numbers} == dict.fromkeys(
                numbers, written
            )
