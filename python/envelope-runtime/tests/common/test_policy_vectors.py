"""Access policies (policy.py, python-common): the decision vectors every target and the
TypeScript evaluator share. Each target's HTTP tool and shipped POLICIES are tested in
that target's test_policy.py.

Skipped for teams without egress (whose exports have no policy.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from common_project import policy, policy_rules

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[4] / "spec" / "access-policy-vectors.json").read_text(encoding="utf-8")
)


def _policy(entry: dict[str, Any]) -> Any:
    """A vector's egress, as the definition writes it."""
    if "allowedHosts" in entry:
        return policy.AccessPolicy.from_allowed_hosts(entry["allowedHosts"])
    return policy.AccessPolicy.model_validate(entry["accessPolicy"])


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_policy_vector(vector: dict[str, Any]) -> None:
    decision = policy_rules.evaluate(
        _policy(vector["policy"]), vector["method"], vector["url"], vector["variables"]
    )
    expected = vector["expect"]
    assert ("allow" if decision.allowed else "deny") == expected["decision"]
    assert decision.reason == expected["reason"]
    assert decision.rule == expected["rule"]


def test_vectors_cover_every_rule_feature() -> None:
    rules = [r for v in VECTORS for r in v["policy"].get("accessPolicy", {}).get("rules", [])]
    assert {r["action"] for r in rules} == {"allow", "deny", "require_approval"}
    assert any(r.get("host", "").startswith("*.") for r in rules)
    assert any("{{" in r.get("host", "") for r in rules)
    assert any("pathPrefix" in r for r in rules) and any("host" not in r for r in rules)
    assert any("allowedHosts" in v["policy"] for v in VECTORS)
    assert len(VECTORS) >= 20


def test_dot_segment_normalized_url_is_what_gets_requested() -> None:
    allow_all = policy.AccessPolicy(default_action="allow")
    decision = policy_rules.evaluate(allow_all, "GET", "https://h.test/a/./b/../c?q=1#frag", {})
    assert decision.url == "https://h.test/a/c?q=1"


def test_expand_fills_known_names_and_keeps_the_others() -> None:
    assert policy.expand("{{A}}/{{B}}/{A}", {"A": "x"}) == "x/{{B}}/{A}"
