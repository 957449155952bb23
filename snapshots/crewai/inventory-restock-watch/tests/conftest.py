"""Offline test setup. CrewAI reads these switches once, when first imported, so they are
set here, before a test module imports crewai."""

from __future__ import annotations

import os
import tempfile

_HOME = tempfile.mkdtemp(prefix="team-tests-home-")
os.environ.update(
    {
        "CREWAI_DISABLE_TELEMETRY": "true",
        "CREWAI_DISABLE_TRACKING": "true",
        "CREWAI_TRACING_ENABLED": "false",
        "CREWAI_DISABLE_VERSION_CHECK": "true",
        "OTEL_SDK_DISABLED": "true",
        "HOME": _HOME,
        "XDG_DATA_HOME": os.path.join(_HOME, "data"),
    }
)
