import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph";
/** The store's folder, created on first use. */
export declare const WORKSPACE_DIR_ENV = "ENVELOPE_WORKSPACE_DIR";
/** Where the store is when WORKSPACE_DIR_ENV is unset: in the directory the runner runs in. */
export declare const DEFAULT_WORKSPACE_DIR = ".envelope-workspace";
export declare class FileStore extends BaseStore {
    readonly dir: string;
    readonly lockWaitMs: number;
    private readonly lock;
    private readonly held;
    private queue;
    private scrubbed;
    /** `lockWaitMs`: how long an operation waits for another process's lock before it fails. */
    constructor(dir: string, lockWaitMs?: number);
    /** Run `fn` holding the store's lock, across processes; nested calls in it do not wait again. */
    exclusive<T>(fn: () => Promise<T>): Promise<T>;
    batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
    private searchIn;
    private namespacesIn;
    /**
     * The items of the namespaces `operations` need, as the files hold them now: a get's or a
     * put's namespace is its own file (fileOf), a search's those whose file name starts with its
     * prefix; listing namespaces reads them all.
     */
    private load;
    /** The namespaces `changed`, written whole (one left empty: its file removed). */
    private save;
}
/** The runner's store: LangGraph.js's PostgresStore when DATABASE_URL is set (the runs are there too), else a FileStore in ENVELOPE_WORKSPACE_DIR, else .envelope-workspace/. */
export declare function openWorkspaceStore(env?: Readonly<Record<string, string | undefined>>): FileStore | DatabaseStore;
/** PostgreSQL's URL: the runner's checkpoints and the workspace's store there instead of files (as the Python LangGraph runner's). */
export declare const DATABASE_ENV = "DATABASE_URL";
/** The URL for messages: its password (in the URL or its query) hidden. */
export declare function shownUrl(url: string): string;
/** Where the runs are kept, for messages: `PostgreSQL, postgresql://user:***@host/db`. */
export declare const databaseWhere: (url: string) => string;
/**
 * The workspace's store in PostgreSQL: database.ts's PostgresStore (LangGraph.js's), loaded on
 * first use (the package only then), each namespace's labels escaped for it (toDatabase). It has
 * no lock across processes: the rules' compare-and-set goes by claims (workspace.ts), as on a
 * server's store. `close` ends its connections.
 */
export declare class DatabaseStore extends BaseStore {
    readonly url: string;
    private inner;
    constructor(url: string);
    batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
    close(): Promise<void>;
}
/** What ServerStore, ServerThreads and `watch --url` use of @langchain/langgraph-sdk's Client (a test gives a fake). */
export interface ServerClient {
    store: {
        getItem(namespace: string[], key: string): Promise<{
            namespace: string[];
            key: string;
            value: Record<string, unknown>;
            createdAt?: string;
            updatedAt?: string;
            created_at?: string;
            updated_at?: string;
        } | null>;
        putItem(namespace: string[], key: string, value: Record<string, unknown>, options?: {
            index?: false | string[] | null;
        }): Promise<void>;
        deleteItem(namespace: string[], key: string): Promise<void>;
        searchItems(namespacePrefix: string[], options?: {
            filter?: Record<string, unknown>;
            limit?: number;
            offset?: number;
            query?: string;
        }): Promise<{
            items: Array<Record<string, unknown>>;
        }>;
        listNamespaces(options?: {
            prefix?: string[];
            suffix?: string[];
            maxDepth?: number;
            limit?: number;
            offset?: number;
        }): Promise<{
            namespaces: string[][];
        }>;
    };
    threads: {
        create(payload?: {
            metadata?: Record<string, unknown>;
        }): Promise<{
            thread_id: string;
        }>;
        search(query?: {
            limit?: number;
            offset?: number;
        }): Promise<Array<Record<string, unknown>>>;
        getHistory(threadId: string, options?: {
            limit?: number;
            before?: unknown;
            checkpoint?: Record<string, unknown>;
        }): Promise<Array<Record<string, unknown>>>;
        getState(threadId: string): Promise<{
            values: unknown;
            next: string[];
            tasks: Array<{
                interrupts?: unknown[];
            }>;
        }>;
        delete(threadId: string): Promise<void>;
    };
    runs: {
        create(threadId: string, assistantId: string, payload?: {
            input?: Record<string, unknown>;
            config?: Record<string, unknown>;
            context?: unknown;
            metadata?: Record<string, unknown>;
        }): Promise<{
            run_id: string;
        }>;
        join(threadId: string, runId: string): Promise<unknown>;
        get(threadId: string, runId: string): Promise<{
            status: string;
        }>;
    };
}
/** @langchain/langgraph-sdk's Client for the Agent Server at `url` (the export installs the SDK: @langchain/langgraph depends on it). */
export declare function serverClient(url: string): Promise<ServerClient>;
/**
 * The store of an Agent Server (`langgraphjs dev`, a deployment) through the SDK's store API:
 * the rows a served team's agents write, for a person's `workspace --url` and `watch --url`
 * (the Python LangGraph target's run_client.ServerStore). It has no lock: the rules'
 * compare-and-set goes by claims on the server's store (workspace.ts), as the graph's own does.
 */
export declare class ServerStore extends BaseStore {
    readonly client: ServerClient;
    constructor(client: ServerClient);
    batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
    private one;
}
