"""The files beside a pipeline run's state, loaded once a run starts: the lock a process
holds while it runs or resumes the run (RunLock), and, for a run waiting at its gates, the
decisions template a reviewer fills in (pending_summary), never written over their work."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .. import decision_files
from ..team_package import TeamPackage
from .flow_runner import resume_command

if TYPE_CHECKING:
    from .state import RunState, RunStore


def pending_summary(
    package: TeamPackage, run: RunState, store: RunStore, args: Any
) -> dict[str, Any]:
    """Write a decisions template beside the run and describe what awaits review: the
    records as the run was saved, secret values redacted (they go to stdout and a file)."""
    gates = package.team.GATES
    waiting = {
        name: {
            "actions": [action.label for action in gates[name].actions],
            "decisions": [
                {**row, "action": "", "feedback": ""} for row in gate.listing(gates[name].fields)
            ],
        }
        for name, gate in store.load(run.id).gates.items()
        if gate.status == "waiting"
    }
    template = decisions_path(store, run.id)
    given: Path | None = getattr(args, "decisions", None)  # resume's --decisions
    if getattr(args, "late_decisions", False):  # came after a deadline: not read (gate_revision)
        given = None
    records = {name: {row["record"] for row in gate["decisions"]} for name, gate in waiting.items()}
    if decision_files.must_keep(template, given, _decision_lists, records):
        # A reviewer's answers that this run has not read: never lost to a blank template.
        print(
            f"Kept {template}: it holds filled-in decisions that this run did not read.",
            file=sys.stderr,
        )
    else:
        decision_files.move_aside_stale(template, given, _decision_lists)
        document = {"run": run.id, "gates": waiting}
        decision_files.write_atomically(
            template, json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        )
    # Relative to where the runner ran: the command still works where the state is copied
    # with the project (a CI artifact).
    decisions = ("--decisions", os.path.relpath(template))
    return {
        "status": "pending",
        "run_id": run.id,
        "gates": waiting,
        "decisions_file": str(template),
        "resume": resume_command(package, run.id, args, *decisions),
    }


def decisions_path(store: RunStore, run_id: str) -> Path:
    """The decisions template the runner writes for a run waiting at its gates."""
    return store.directory / f"{run_id}.decisions.json"


def _decision_lists(data: Any) -> dict[str, Any] | None:
    gates = data.get("gates") if isinstance(data, dict) else None
    if not isinstance(gates, dict):
        return None
    return {
        name: gate.get("decisions") if isinstance(gate, dict) else None
        for name, gate in gates.items()
    }


class RunLock:
    """Which process runs a run, on this machine: an exclusive flock on `.<run id>.lock`
    beside the run's state, held while a process runs or resumes it. The system drops it
    when the process ends, however it ends (Ctrl-C, a crash, SIGKILL), so a run left
    `running` whose lock is free has no process any more. The file says who holds it, and
    `release` removes it, still locked: a process that opened it before then locks a file no
    longer at that path, which `acquire` checks after locking (and then locks the path's new
    file), so two processes never hold two files of one name. Not with DATABASE_URL
    (processes on other machines lock nothing here) nor without flock (Windows): there
    `acquire` answers None, "cannot tell"."""

    def __init__(self, store: RunStore, run_id: str) -> None:
        self.path = store.directory / f".{run_id}.lock"
        self._store = store
        self._file: IO[str] | None = None

    def acquire(self) -> bool | None:
        """Take the lock: True, False when another process holds it, None: cannot tell."""
        try:
            import fcntl
        except ImportError:
            return None
        if self._store.database is not None:
            return None
        while True:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                file = open(self.path, "a+", encoding="utf-8")  # held until release
            except OSError:
                return None
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                file.close()
                return False
            except OSError:  # a file system without locks
                file.close()
                return None
            try:
                if os.path.samestat(os.fstat(file.fileno()), os.stat(self.path)):
                    break
            except FileNotFoundError:
                pass
            file.close()  # its holder removed it after we opened it: take the path's file
        file.truncate(0)
        file.write(f"process {os.getpid()} on {socket.gethostname()}\n")
        file.flush()
        self._file = file
        return True

    def holder(self) -> str:
        """Who holds the lock, as its holder wrote it."""
        try:
            return self.path.read_text(encoding="utf-8").strip() or "another process"
        except OSError:
            return "another process"

    def release(self) -> None:
        """Remove the lock file, then drop the lock (a run's work is saved by then)."""
        if self._file is not None:
            try:
                self.path.unlink()  # ours: no one else removes a file we lock
            except OSError:  # a directory we may not write: the file stays, as harmless
                pass
            self._file.close()  # closing it drops the lock
            self._file = None
