"""How an access policy decides (`evaluate` and the request checks of policy.py's
AccessPolicy), and the tool's text of what came of a request (`describe`, `failed`: every
HTTP tool's, http_request's and the packs'), imported by the HTTP tools where they check a
request: building a team needs only the policy's data (policy.py).

Policy semantics (Envelope accessPolicyVersion "1"): rules are checked top to
bottom and the first match wins; a rule without `host`, `methods` or `path_prefix`
matches any value of it; `host` is a hostname, `*.` and a hostname (any subdomain,
not the domain itself) or `*` (every host); `require_approval` is treated as deny
with the rule's reason; `{{VAR}}` in a host or path prefix is expanded from the
given variables when the request is made; `default_action` applies when no rule
matches. A host we cannot read (`**`, `a*b.com`, a scheme or port, "") or a
placeholder without a value fails closed: an allow rule never matches, a deny or
require_approval rule matches every host (or path). A URL with an invalid port or
a control character is refused. The decision vectors shared with every target
(envelope-export's spec/access-policy-vectors.json) fix every case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import SplitResult, urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ConfigDict

from .placeholders import PLACEHOLDER as _PLACEHOLDER
from .policy import AccessPolicy, Header, _as_pairs, expand
from .redaction import redact

__all__ = [
    "REFUSED_HEADERS",
    "Decision",
    "describe",
    "evaluate",
    "example_host",
    "failed",
    "header_pairs",
    "refused_header",
    "unparsable_url",
]


class Decision(BaseModel):
    """The outcome of `evaluate`: whether the request may be sent, and why."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str
    rule: int | None = None
    """1-based index of the matching rule; None when default_action applied."""
    url: str = ""
    """The URL to request: dot segments removed from the path, fragment dropped."""


_ENCODED_DOT = re.compile(r"%2e", re.IGNORECASE)


def _remove_dot_segments(path: str) -> str:
    # RFC 3986 section 5.2.4, so /api/v2/tickets/../users cannot pass a prefix rule.
    segments = _ENCODED_DOT.sub(".", path).split("/")
    output: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".":
            if last:
                output.append("")
        elif segment == "..":
            if len(output) > 1:
                output.pop()
            if last:
                output.append("")
        else:
            output.append(segment)
    normalized = "/".join(output)
    return normalized if normalized.startswith("/") else "/" + normalized


# A hostname: dot-separated labels without wildcards, URL delimiters or blanks.
_LABEL = r"[^\x00-\x20\x7f*/:@?#\[\]\\%.]+"
_HOST_PATTERN = re.compile(rf"\*|(?:\*\.)?{_LABEL}(?:\.{_LABEL})*\.?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _host_matches(pattern: str, host: str) -> bool | None:
    """Whether `host` matches a readable pattern; None when the pattern cannot be read."""
    pattern = pattern.lower()
    if _PLACEHOLDER.search(pattern) or not _HOST_PATTERN.fullmatch(pattern):
        return None
    pattern = pattern.rstrip(".")
    if pattern == "*":
        return True
    if pattern.startswith("*."):
        suffix = pattern[1:]
        return host.endswith(suffix) and len(host) > len(suffix)
    return host == pattern


def example_host(pattern: str) -> str | None:
    """A host that `pattern` matches ({{NAME}} kept), or None when it cannot be read.

    For the project's tests, which must never pick a URL the policy cannot read.
    """
    if not _HOST_PATTERN.fullmatch(_PLACEHOLDER.sub("x", pattern.lower())):
        return None
    pattern = pattern.rstrip(".")
    if pattern == "*":
        return "any.envelope.invalid"
    return "sub" + pattern[1:] if pattern.startswith("*.") else pattern


def _valid_port(parts: SplitResult) -> bool:
    try:
        _ = parts.port  # raises ValueError for a port that is no number 0-65535
    except ValueError:
        return False
    return True


def evaluate(policy: AccessPolicy, method: str, url: str, variables: Mapping[str, str]) -> Decision:
    """Decide whether `method url` may be requested under `policy`."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return Decision(allowed=False, reason="the URL is not valid")
    if _CONTROL.search(url.strip()) or not _valid_port(parts):
        return Decision(allowed=False, reason="the URL is not valid")
    if parts.scheme.lower() not in ("http", "https") or not host:
        return Decision(allowed=False, reason="only http and https URLs are allowed")
    path = _remove_dot_segments(parts.path or "/")
    target = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
    method = method.upper()

    for index, rule in enumerate(policy.rules, start=1):
        # What cannot be read fails closed: no allow, and a deny that covers everything.
        unread = rule.action != "allow"
        unreadable = False
        if rule.host is not None:
            matched = _host_matches(expand(rule.host, variables), host)
            unreadable = matched is None
            if not (unread if matched is None else matched):
                continue
        if rule.methods is not None and method not in (m.upper() for m in rule.methods):
            continue
        if rule.path_prefix is not None:
            prefix = expand(rule.path_prefix, variables)
            if _PLACEHOLDER.search(prefix):
                unreadable = True
                if not unread:
                    continue
            elif not path.startswith(prefix):
                continue
        if rule.action == "allow":
            reason = rule.reason or f"allowed by rule {index}"
            return Decision(allowed=True, reason=reason, rule=index, url=target)
        if rule.action == "require_approval":
            reason = rule.reason or "this request requires human approval"
        else:
            reason = rule.reason or f"denied by rule {index}"
        if unreadable and not rule.reason:
            reason += (
                f" (rule {index} has a host or path prefix that cannot be read; it fails closed)"
            )
        return Decision(allowed=False, reason=reason, rule=index, url=target)

    allowed = policy.default_action == "allow"
    reason = f"no rule matched; defaultAction is {policy.default_action}"
    return Decision(allowed=allowed, reason=reason, url=target)


def unparsable_url(url: str) -> str | None:
    """Why httpx cannot send to `url` (None when it can), so a bad URL is refused, not raised."""
    try:
        _ = httpx.URL(url).host  # .host decodes the IDNA name: "xn--zz.com" fails only here
    except (httpx.InvalidURL, ValueError) as error:
        return f"the HTTP client cannot parse the URL ({type(error).__name__}: {error})"
    return None


REFUSED_HEADERS = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "te",
        "trailer",
        "upgrade",
        "proxy-authorization",
        "proxy-connection",
    }
)
"""Headers the model may not set: `Host` would send the request to another virtual host than
the URL the policy allowed (on a shared front end, one the policy denies); the others frame
the request or the connection, which the HTTP client owns."""


def refused_header(pairs: Iterable[tuple[str, str]]) -> str | None:
    """Why one of `pairs` may not be sent (any case of its name), or None."""
    for name, _value in pairs:
        if name.strip().lower() in REFUSED_HEADERS:
            return (
                f"the {name.strip()} header is set by the HTTP client from the URL and the body, "
                "never by the request's headers"
            )
    return None


def header_pairs(
    headers: Iterable[Header | Mapping[str, str]] | Mapping[str, str] | None,
    variables: Mapping[str, str],
) -> list[tuple[str, str]]:
    """The headers to send, in order (a name may repeat), each value's `{{NAME}}` filled in
    from `variables`; validated arguments (Header) or their JSON data (dicts, a map)."""
    items = _as_pairs(headers) if headers is not None else []
    return [
        (header.name, expand(header.value, variables))
        for header in (Header.model_validate(item) for item in items)
    ]


def describe(response: httpx.Response, max_body_chars: int, secrets: Sequence[str]) -> str:
    """A response as the tool's text: status, where a redirect points (redirects are not
    followed: the next hop must pass the policy too), the body cut at `max_body_chars`."""
    lines = [f"HTTP {response.status_code} {response.reason_phrase}"]
    if response.is_redirect:
        lines.append(f"Location: {response.headers.get('location', '')}")
    text = response.text
    if len(text) > max_body_chars:
        text = text[:max_body_chars] + f"\n[truncated {len(text)} chars]"
    lines.append(text)
    return redact("\n".join(lines), secrets)


def failed(error: Exception, secrets: Sequence[str]) -> str:
    """A request that could not be made, as the tool's text (never raised)."""
    return redact(f"REQUEST FAILED: {type(error).__name__}: {error}", secrets)
