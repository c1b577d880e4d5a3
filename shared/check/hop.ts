/** One hop a browser client on another origin needs: how it is observed, and its verdict. */

/** What a browser on the origin would get for one request (as far as the probe can tell). */
export type HopRead = {
  /** Any HTTP answer came back. */
  reached: boolean;
  /** The status, when known (a browser cannot see it when CORS hides the answer). */
  status?: number;
  /** The answer carries Access-Control-Allow-Origin for the origin (or `*`). */
  corsAllowed: boolean;
  /** Headers the page could read (after Access-Control-Expose-Headers). */
  headers?: Headers;
  body?: string;
  /** Where the answer came from, when a redirect was followed to get it. */
  redirectedTo?: string;
};

/** How the hops are observed: in a browser by trying, from the CLI by reading the CORS headers. */
export interface HopProbe {
  /** Request headers (lower case) a preflight for `method` refuses; undefined when unreachable. */
  preflight(url: string, method: string, headers: string[]): Promise<string[] | undefined>;
  read(
    url: string,
    method: "GET" | "POST",
    headers: Record<string, string>,
    body?: string,
  ): Promise<HopRead>;
}

export type HopStatus = "pass" | "fail" | "skip";

/** One hop's verdict. */
export type Hop = {
  rule: string;
  title: string;
  status: HopStatus;
  seen: string;
  /** What the server must change (empty when it passes). */
  fix: string;
  /** Whether routing through this Worker's relay gets around the failure. */
  relayHelps: boolean;
};

/** Whether the relay gets around a failed hop, in words. */
export function relayVerdict(hop: Hop): string {
  return hop.relayHelps
    ? "Until then, this Worker's relay gets around it (the playground's Auto or relay connection)."
    : "The relay does not help here.";
}

/** The headers an MCP client sends that need a preflight (`Authorization` always named). */
export const PREFLIGHTED = [
  "content-type",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "authorization",
];

/** A hop's verdict; a failure is one the relay gets around unless said otherwise. */
export const hop = (
  rule: string,
  title: string,
  status: HopStatus,
  seen: string,
  fix = "",
  relayHelps = status === "fail",
): Hop => ({
  rule,
  title,
  status,
  seen,
  fix,
  relayHelps,
});
