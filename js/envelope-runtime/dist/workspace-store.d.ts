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
    /** `lockWaitMs`: how long an operation waits for another process's lock before it fails. */
    constructor(dir: string, lockWaitMs?: number);
    /** Run `fn` holding the store's lock, across processes; nested calls in it do not wait again. */
    exclusive<T>(fn: () => Promise<T>): Promise<T>;
    batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>>;
    private searchIn;
    private namespacesIn;
    /** Every namespace's items, as the files hold them now. */
    private load;
    /** The namespaces `changed`, written whole (one left empty: its file removed). */
    private save;
}
/** The runner's store: a FileStore in ENVELOPE_WORKSPACE_DIR, else .envelope-workspace/. */
export declare function openWorkspaceStore(env?: Readonly<Record<string, string | undefined>>): FileStore;
