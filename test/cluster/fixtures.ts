// Secrets and tokens of a test cluster: its own, as a deployment has (the published ones serve
// localhost only), and limits raised for every caller (one test raises its own).
import { TEST_LIMIT_VARS } from "../support/limits.ts";

/** A sealing secret as `openssl rand` would give one. */
export const randomSecret = () => `${crypto.randomUUID()}${crypto.randomUUID()}`;

export const TOKENS = {
  alice: `cluster-alice-${crypto.randomUUID()}`,
  bob: `cluster-bob-${crypto.randomUUID()}`,
  carol: `cluster-carol-${crypto.randomUUID()}`,
} as const;

export function clusterBindings(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...TEST_LIMIT_VARS,
    EDGEMCP_SECRET: randomSecret(),
    API_TOKENS: Object.entries(TOKENS)
      .map(([subject, token]) => `${token}=${subject}`)
      .join(","),
    ...extra,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bundle the test run built once (global-setup.ts), for `startCluster`'s `bundle`. */
export const testBundle = (): { bundle?: string } =>
  process.env.CLUSTER_TEST_BUNDLE ? { bundle: process.env.CLUSTER_TEST_BUNDLE } : {};
