/** The triggering rows of this run: {document, trigger, row} each. */
export declare const TRIGGERED: Array<{
    document: string;
    trigger: {
        column: string;
        status: string;
    };
    row: unknown;
}>;
/** The triggering rows as a task receives them, after the run inputs ("" when none). */
export declare function triggerText(): string;
