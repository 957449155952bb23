"""Runs an exported CrewAI team in-process through its documented Python surface,
`<pkg>.main.main(argv)` (what the console script calls), for the real-path harness.

Usage:
  python crewai_driver.py events PKG OUT ARGV_JSON
      Listens on CrewAI's event bus for every event type CrewAI defines, runs the team once
      and writes {"code": exit code, "events": [{"type", "data"}]} to OUT, each event as
      its model_dump(mode="json") (its str() when that fails).
  python crewai_driver.py concurrent PKG OUT ARGV_A_JSON ARGV_B_JSON
      Runs the team twice at once, in two threads of this process, and writes
      {"codes": [a, b], "errors": [...]} to OUT.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import threading
import traceback
from typing import Any


def _event_types() -> list[type]:
    import crewai.events as events_pkg
    from crewai.events.base_events import BaseEvent

    # Import every module of crewai.events so that every event class is defined.
    for module in pkgutil.walk_packages(events_pkg.__path__, f"{events_pkg.__name__}."):
        try:
            importlib.import_module(module.name)
        except Exception:  # noqa: BLE001 - an optional integration that cannot load
            pass
    found: list[type] = []
    pending = [BaseEvent]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            if sub not in found:
                found.append(sub)
                pending.append(sub)
    return found


def events(pkg: str, out: str, argv: list[str]) -> int:
    from crewai.events import crewai_event_bus

    seen: list[dict[str, Any]] = []
    lock = threading.Lock()

    def record(source: Any, event: Any) -> None:
        try:
            data: Any = event.model_dump(mode="json")
        except Exception:  # noqa: BLE001 - some events hold objects pydantic cannot dump
            data = str(event)
        with lock:
            seen.append({"type": type(event).__name__, "data": data})

    types = _event_types()
    for event_type in types:
        crewai_event_bus.register_handler(event_type, record)
    main = importlib.import_module(f"{pkg}.main")
    code = main.main(argv)
    crewai_event_bus.flush(timeout=30.0)
    with lock, open(out, "w", encoding="utf-8") as handle:
        json.dump({"code": code, "types": len(types), "events": seen}, handle)
    return 0


def concurrent(pkg: str, out: str, argvs: list[list[str]]) -> int:
    main = importlib.import_module(f"{pkg}.main")
    codes: list[int | None] = [None] * len(argvs)
    errors: list[str] = []
    start = threading.Barrier(len(argvs))

    def one(index: int) -> None:
        start.wait()
        try:
            codes[index] = main.main(argvs[index])
        except SystemExit as stop:  # a documented surface must not exit the process
            errors.append(f"run {index}: SystemExit({stop.code})")
        except BaseException:  # noqa: BLE001
            errors.append(f"run {index}: {traceback.format_exc()}")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(argvs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"codes": codes, "errors": errors}, handle)
    return 0


if __name__ == "__main__":
    mode, package, target = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "events":
        sys.exit(events(package, target, json.loads(sys.argv[4])))
    sys.exit(concurrent(package, target, [json.loads(a) for a in sys.argv[4:]]))
