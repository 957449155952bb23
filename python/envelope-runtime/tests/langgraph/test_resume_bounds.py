"""cleaned_resume (envelope_runtime.langgraph.server_app) against the order it replaced:
every secret value redacted from the whole resume value, then the value bounded. It now
keeps lists and maps to MAX_ITEMS first, redacts what is kept, and cuts each text after
redacting it: the same output, without redacting the items a hostile value adds past the
limit, and no part of a secret where a text is cut.

Deterministic: the values come from seeded random generators.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from envelope_runtime import redaction
from envelope_runtime.echo import ECHO_LIMIT, cut

server_app: Any = importlib.import_module("envelope_runtime.langgraph.server_app")

MAX_ITEMS: int = server_app.MAX_ITEMS
MAX_DEPTH: int = server_app.MAX_DEPTH
TEXT_LIMIT: int = server_app.TEXT_LIMIT

# One contains another (the longer is redacted whole); one has characters JSON escapes; the
# last is too short to be redacted at all. FILLER shares no character with their starts.
SECRETS = ["sk-live-0123456789", "QWERTYUIOPASDF", "QWERTYUIOPASDF-extended", 'Zq9"\\mnopqrst']
SHORT = "Zq9xyzw"
ALL = [*SECRETS, SHORT]
FILLER = "abcdefgh "
LONGEST = (ECHO_LIMIT, 500)  # longest_accepted: ECHO_LIMIT, or a gate's longer action


def _old_bounded(value: Any, longest: int, depth: int = 0, key: str = "") -> Any:
    """server_app.bounded as it was before cleaned_resume bounded first (verbatim)."""
    if isinstance(value, str):
        if key in ("record", "action") and len(value) > longest:
            return cut(value)
        return server_app._text(value)
    if isinstance(value, list | dict) and depth >= MAX_DEPTH:
        return f"… (nested deeper than {MAX_DEPTH} levels)"
    if isinstance(value, list):
        kept = [_old_bounded(item, longest, depth + 1) for item in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            more = f"… and {len(value) - MAX_ITEMS} more items"
            kept.append({"record": more, "action": more} if key == "decisions" else more)
        return kept
    if isinstance(value, dict):
        out = {
            server_app._text(str(k), ECHO_LIMIT): _old_bounded(item, longest, depth + 1, str(k))
            for k, item in list(value.items())[:MAX_ITEMS]
        }
        if len(value) > MAX_ITEMS:
            out["…"] = f"and {len(value) - MAX_ITEMS} more keys"
        return out
    return value


def _old_redact_keys(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, dict):
        return {
            redaction.redact(str(key), secrets): _old_redact_keys(item, secrets)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_old_redact_keys(item, secrets) for item in value]
    return value


def old_order(value: Any, secrets: list[str], longest: int) -> str:
    """The old cleaned_resume: redact everything, then bound; as the JSON the server keeps."""
    cleaned = _old_bounded(_old_redact_keys(redaction.redact(value, secrets), secrets), longest)
    return json.dumps(cleaned, ensure_ascii=False)


def new_order(value: Any, secrets: list[str], longest: int) -> str:
    return json.dumps(server_app.cleaned_resume(value, secrets, longest), ensure_ascii=False)


def texts(value: Any) -> list[str]:
    """Every text of a JSON-like value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, item in value.items() for t in [k, *texts(item)]]
    if isinstance(value, list):
        return [t for item in value for t in texts(item)]
    return []


def assert_no_secret_start(cleaned: Any) -> None:
    """No text holds the first 4 characters of a secret value, as written or JSON-escaped."""
    starts = {form[:4] for s in SECRETS for form in (s, json.dumps(s)[1:-1])}
    for text in texts(cleaned):
        assert not [start for start in starts if start in text], text


def straddling(rng: random.Random, cut_at: int) -> str:
    """Filler with a secret (as written or JSON-escaped) starting near `cut_at`, where
    bounding before redacting would cut it."""
    secret = rng.choice(ALL)
    form = rng.choice([secret, json.dumps(secret)[1:-1]])
    start = cut_at - rng.randrange(len(form) + 30)
    return filler(rng, max(start, 0)) + form + filler(rng, rng.randrange(50, 4000))


def filler(rng: random.Random, n: int) -> str:
    return "".join(rng.choices(FILLER, k=n))


def text(rng: random.Random, key: str = "", short: bool = False) -> str:
    kind = rng.randrange(2, 6) if short else rng.randrange(6)
    if kind == 0:  # across a text's cut
        return straddling(rng, TEXT_LIMIT - len(f"… ({TEXT_LIMIT * 2} characters)"))
    if kind == 1 and key in ("record", "action"):  # across an overlong decision's cut
        return straddling(rng, ECHO_LIMIT - len("… (1000 characters)"))
    parts = [filler(rng, rng.randrange(12)) for _ in range(rng.randrange(1, 4))]
    for i in range(len(parts) - 1):
        parts[i] += rng.choice([*ALL, json.dumps(rng.choice(ALL))[1:-1], "[redacted]"])
    return "".join(parts)


def value(rng: random.Random, depth: int, beyond: bool, key: str = "") -> Any:
    """A JSON-like value: within the limits, or (`beyond`) with a list or map past
    MAX_ITEMS, or nesting past MAX_DEPTH, here and there (what a big one holds is within)."""
    kind = rng.randrange(10)
    nest = depth < MAX_DEPTH - 1
    big = beyond and rng.random() < 0.5
    # What a big one holds: texts and scalars (values within the limits are tested apart).
    inner, below = (False, MAX_DEPTH) if big else (beyond, depth + 1)
    if kind < 2 and nest:
        size = MAX_ITEMS + rng.randrange(-1, 40) if big else rng.randrange(5)
        return [value(rng, below, inner) for _ in range(size)]
    if kind < 4 and nest:
        size = MAX_ITEMS + rng.randrange(-1, 40) if big else rng.randrange(5)
        items: dict[str, Any] = {}
        for i in range(size):
            # Past MAX_ITEMS the old order counted keys after redaction merged some; each
            # key starts with its index so none merge there. Within the limits they may.
            name = rng.choice(["record", "action", "decisions", "feedback", text(rng, "", big)])
            name = f"{i}:{name}" if big else name
            items[name] = value(rng, below, inner, name)
        return items
    if kind == 4:
        return rng.choice([None, True, 0, 1.5, -7])
    if kind == 5 and depth < MAX_DEPTH - 2:  # a gate's decisions
        n = MAX_ITEMS + rng.randrange(-1, 5) if big else rng.randrange(4)
        fields = ("record", "action", "feedback")
        return {"decisions": [{f: text(rng, f, big) for f in fields} for _ in range(n)]}
    if kind == 6 and beyond:  # nested past MAX_DEPTH
        deep: Any = {"feedback": text(rng, "feedback")}
        for _ in range(MAX_DEPTH + rng.randrange(-1, 3)):
            deep = rng.choice([[deep], {text(rng): deep}])
        return deep
    return text(rng, key, depth >= MAX_DEPTH)  # short in a big one (it holds many)


@pytest.mark.parametrize("beyond", [False, True], ids=["within-limits", "beyond-limits"])
def test_the_output_is_the_old_orders_and_holds_no_part_of_a_secret(beyond: bool) -> None:
    rng = random.Random(20261207 + beyond)
    cut_some = 0
    for case in range(30 if beyond else 400):
        given = value(rng, 0, beyond)
        secrets = rng.choice([SECRETS, ALL, [SECRETS[0]], []])
        for longest in LONGEST[:1] if beyond else LONGEST:
            new = new_order(given, secrets, longest)
            assert new == old_order(given, secrets, longest), case
            if secrets == SECRETS or secrets == ALL:
                assert_no_secret_start(json.loads(new))
        cut_some += any(mark in new for mark in ("… and ", "more keys", "nested deeper than"))
    # Many of the values beyond the limits are cut (13 of 30), those within never are.
    assert cut_some >= 10 if beyond else cut_some == 0


def test_a_secret_across_every_cut_is_redacted_whole() -> None:
    rng = random.Random(7)
    for secret in SECRETS:
        for form in sorted({secret, json.dumps(secret)[1:-1]}):
            starts = [*range(ECHO_LIMIT - 45, ECHO_LIMIT), *range(TEXT_LIMIT - 60, TEXT_LIMIT)]
            for start in starts:
                tail = filler(rng, 3000)
                given = {
                    "decisions": [{"record": "r1", "action": "x" * start + form + tail}],
                    "x" * start + form + tail: "a key",
                    "feedback": "y" * start + form + tail,
                }
                new = server_app.cleaned_resume(given, SECRETS, ECHO_LIMIT)
                assert_no_secret_start(new)
                assert json.dumps(new, ensure_ascii=False) == old_order(given, SECRETS, ECHO_LIMIT)
    # Bounding alone, before any redaction, would have cut some secret and kept its start.
    given = {"feedback": "y" * (TEXT_LIMIT - 30) + SECRETS[0] + "z" * 100}
    naive = redaction.redact(server_app.bounded(given, ECHO_LIMIT), SECRETS)
    assert SECRETS[0][:4] in naive["feedback"]


def test_a_100000_item_resume_redacts_only_what_it_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    redacted: list[str] = []
    real = redaction._redact_text

    def counted(text: str, values: Any) -> str:
        redacted.append(text)
        return real(text, values)

    monkeypatch.setattr(redaction, "_redact_text", counted)
    items = [
        {"record": f"r{i}", "action": "approve", "feedback": f"{SECRETS[0]} {i}"}
        for i in range(100_000)
    ]
    resume = {"decisions": items, **{f"{SECRETS[1]}{i}": i for i in range(100_000)}}
    out = server_app.cleaned_resume(resume, SECRETS, ECHO_LIMIT)
    assert len(out["decisions"]) == MAX_ITEMS + 1
    assert out["decisions"][0]["feedback"] == "[redacted] 0"
    assert out["…"] == f"and {100_001 - MAX_ITEMS} more keys"
    # Each kept decision's 3 keys and 3 texts, the kept keys of the map: O(MAX_ITEMS), not
    # the 700 000 texts of the value.
    assert len(redacted) <= 7 * MAX_ITEMS + 10
