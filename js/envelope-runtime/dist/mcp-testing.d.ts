export interface FakeMcpRequest {
    url: string;
    method: string;
    authorization: string | null;
}
/** The fake server: its `fetch` and every request it was sent. */
export declare function fakeMcpServer(): {
    fetch: typeof fetch;
    requests: FakeMcpRequest[];
};
