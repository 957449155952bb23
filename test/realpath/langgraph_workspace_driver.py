"""One worker of test/realpath/langgraph-postgres.test.ts: writes a LangGraph export's
workspace through the runner's store (workspace_store.open_store: LangGraph's PostgresStore
with DATABASE_URL), as the `workspace` command and the agents' tools do.

    python langgraph_workspace_driver.py PACKAGE WORKER ROUNDS START_AT

From START_AT (seconds since the epoch: the workers start together, their imports done), each
round: create a row of its own, then read the shared row and write it back with the
version it read (compare-and-set). Prints one JSON line: the versions its shared-row writes
got and how many were refused as conflicts.
"""

from __future__ import annotations

import json
import sys
import time

from envelope_runtime.langgraph.workspace_store import open_store, open_workspace
from envelope_runtime.team_package import TeamPackage

DOC = "messaging-experiments"
SHARED = "shared"


def main() -> None:
    package, worker, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    workspace = open_workspace(TeamPackage(package), open_store())
    workspace.rows(DOC)  # the connection and the tables ready before the start
    time.sleep(max(0.0, float(sys.argv[4]) - time.time()))
    won: list[int] = []
    conflicts = 0
    for i in range(rounds):
        [own] = workspace.write(
            DOC, [{"id": f"{worker}-{i}", "data": {"angle": f"{worker} {i}"}}], "human"
        )
        assert own.outcome == "written", own
        current = workspace.row(DOC, SHARED)
        assert current is not None
        [shared] = workspace.write(
            DOC,
            [
                {
                    "id": SHARED,
                    "version": current["version"],
                    "data": {"angle": f"{worker} {i}"},
                }
            ],
            "human",
        )
        if shared.outcome == "written":
            assert shared.version is not None
            won.append(shared.version)
        else:
            assert shared.outcome == "conflict", shared
            conflicts += 1
    print(json.dumps({"worker": worker, "won": won, "conflicts": conflicts}))


if __name__ == "__main__":
    main()
