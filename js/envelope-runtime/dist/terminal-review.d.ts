import { type DecisionItem, type GateSpec, type GateState } from "./gates.js";
/** Asks one line (`prompt` shown first); null: no more input (end of file). */
export type Ask = (prompt: string) => Promise<string | null>;
/** The reviewer's decisions on the gate's undecided records; null when they gave none (input ended at once). */
export declare function reviewAtTerminal(spec: GateSpec, gate: GateState, ask: Ask, write: (text: string) => void): Promise<DecisionItem[] | null>;
/** Lines of standard input, each asked with its prompt on standard error; `close` ends it (else the process waits on stdin). */
export declare function terminalAsk(): {
    ask: Ask;
    close: () => void;
};
