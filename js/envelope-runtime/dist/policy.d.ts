export type PolicyAction = "allow" | "deny" | "require_approval";
export interface PolicyRule {
    host?: string;
    methods?: readonly string[];
    pathPrefix?: string;
    action: PolicyAction;
    reason?: string;
}
export interface AccessPolicy {
    defaultAction: "allow" | "deny";
    rules: readonly PolicyRule[];
}
export interface Decision {
    allowed: boolean;
    reason: string;
    /** 1-based index of the matching rule; null when defaultAction applied. */
    rule: number | null;
    /** The URL to request: dot segments removed from the path, fragment dropped. */
    url: string;
}
/** `allowedHosts` is an allow rule per host with defaultAction deny. */
export declare function fromAllowedHosts(hosts: readonly string[]): AccessPolicy;
/** Decide whether `method url` may be requested under `policy`. */
export declare function evaluate(policy: AccessPolicy, method: string, url: string, variables: Readonly<Record<string, string>>): Decision;
/** Headers the model may not set: `Host` would reach another virtual host than the URL the policy allowed; the others frame the request or the connection, which the HTTP client owns. */
export declare const REFUSED_HEADERS: ReadonlySet<string>;
/** Why one of `pairs` may not be sent, or undefined. */
export declare function refusedHeader(pairs: ReadonlyArray<readonly [string, string]>): string | undefined;
