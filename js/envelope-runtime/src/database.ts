// The command-line runner's runs and workspace in PostgreSQL, when DATABASE_URL is set (as the
// Python LangGraph runner keeps them there): LangGraph.js's own PostgresSaver and PostgresStore
// (@langchain/langgraph-checkpoint-postgres, their tables created on first use), so any machine
// with the URL resumes a run and shares the rows. Beside them, what the package has no place
// for: each thread's worked time (table envelope_thread_work, for timeout.runMs across
// resumes), and the lock that lets one process at a time run or resume a thread: a session
// advisory lock, which the server releases when the holder's connection ends, so a process
// killed mid-run leaves none behind. Loaded only when DATABASE_URL is set.
import { hostname } from "node:os";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { WorkTime } from "./checkpoint.js";
import type { LockHolder } from "./thread-files.js";
import { databaseWhere } from "./workspace-store.js";

/** What this uses of pg (the package's driver, a dependency of the export; pg ships no types of its own). */
interface Client {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  release(destroy?: boolean): void;
}
interface Pool extends Pick<Client, "query"> {
  connect(): Promise<Client>;
}

/** The advisory locks' first key (the second is the thread id's hashtext): this runner's threads, apart from other users of advisory locks. */
const LOCK_CLASS = 0x454e56; // "ENV"

/** A PostgresSaver that also keeps each thread's worked time and locks a thread for one process (the FileSaver's counterparts). */
export class DatabaseSaver extends PostgresSaver {
  private readonly time = new WorkTime();
  private readonly locks = new Map<string, Client>();
  private ready: Promise<void> | undefined;

  constructor(
    private readonly db: Pool,
    readonly where: string,
    /** The team whose checkpoints this writes (their metadata's envelope_team): a database may hold other teams' runs. */
    readonly team: string,
  ) {
    super(db);
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: Parameters<PostgresSaver["put"]>[3]): Promise<RunnableConfig> {
    return super.put(config, checkpoint, { ...metadata, envelope_team: this.team } as CheckpointMetadata, newVersions);
  }

  /** The package's tables and the worked-time table, once. */
  async prepare(): Promise<void> {
    this.ready ??= (async () => {
      await this.setup();
      await this.db.query("CREATE TABLE IF NOT EXISTS envelope_thread_work (thread_id TEXT PRIMARY KEY, worked_ms DOUBLE PRECISION NOT NULL)");
    })();
    return this.ready;
  }

  /** Read `thread`'s worked time from the database (before workedMs is asked). */
  async readWorked(thread: string): Promise<void> {
    await this.prepare();
    const { rows } = await this.db.query<{ worked_ms: number }>("SELECT worked_ms FROM envelope_thread_work WHERE thread_id = $1", [thread]);
    this.time.kept[thread] = Number(rows[0]?.worked_ms ?? 0);
  }

  workedMs(thread: string): number {
    return this.time.of(thread);
  }

  startWork(thread: string, clock: () => number, fresh = false): void {
    this.time.start(thread, clock, fresh);
  }

  async stopWork(thread: string, atLeast = 0): Promise<number> {
    const total = this.time.stop(thread, atLeast);
    await this.db.query("INSERT INTO envelope_thread_work (thread_id, worked_ms) VALUES ($1, $2) ON CONFLICT (thread_id) DO UPDATE SET worked_ms = EXCLUDED.worked_ms", [thread, total]);
    return total;
  }

  /** The threads of this saver's team. */
  async threads(): Promise<string[]> {
    await this.prepare();
    const found = new Set<string>();
    for await (const item of this.list({}, { filter: { envelope_team: this.team } })) found.add(String(item.config.configurable?.thread_id));
    return [...found].sort();
  }

  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    await this.db.query("DELETE FROM envelope_thread_work WHERE thread_id = $1", [threadId]);
  }

  /** Take `thread`'s lock on a connection of its own, held until unlock (or the process ends): null, or who holds it. */
  async lock(thread: string): Promise<LockHolder | null> {
    const client = await this.db.connect();
    try {
      // Who holds a lock is told by its session's application_name.
      await client.query("SELECT set_config('application_name', $1, false)", [`envelope-runner ${process.pid} ${hostname()}`.slice(0, 63)]);
      const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken", [LOCK_CLASS, thread]);
      if (rows[0]?.taken) {
        this.locks.set(thread, client);
        return null;
      }
      const held = await client.query<{ name: string | null; addr: string | null }>(
        "SELECT a.application_name AS name, a.client_addr::text AS addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1::int4::oid AND l.objid = hashtext($2)::oid",
        [LOCK_CLASS, thread],
      );
      const [, pid, host] = /^envelope-runner (\d+) (.*)$/.exec(held.rows[0]?.name ?? "") ?? [];
      client.release(true);
      return { who: pid ? `process ${pid} on ${host}` : "another process" };
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  /** Release `thread`'s lock: its connection closed (the server drops a session's locks with it). */
  unlock(thread: string): void {
    this.locks.get(thread)?.release(true);
    this.locks.delete(thread);
  }

  /** Every lock released, the pool's connections closed (the process can end). */
  override async end(): Promise<void> {
    for (const thread of [...this.locks.keys()]) this.unlock(thread);
    await super.end();
  }
}

/** The runner's saver of `team`'s runs on `url`, its tables made. */
export async function openDatabaseSaver(url: string, team: string): Promise<DatabaseSaver> {
  const pg = (await import("pg" as string)) as { default: { Pool: new (config: { connectionString: string }) => Pool } };
  const saver = new DatabaseSaver(new pg.default.Pool({ connectionString: url }), databaseWhere(url), team);
  await saver.prepare();
  return saver;
}

/** The workspace's store on `url`: LangGraph.js's PostgresStore (its tables made on first use). */
export function openDatabaseStore(url: string): PostgresStore {
  return PostgresStore.fromConnString(url);
}
