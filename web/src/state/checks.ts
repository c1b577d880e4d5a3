import { signal } from "@preact/signals";
import type { CheckReport } from "../../../shared/check/report.ts";
import { runChecks } from "../../../shared/check/run-checks.ts";
import { errorText } from "../../../shared/error-text.ts";
import { headerMap } from "./connection.ts";

/** One run of the shared checks from this page: running, finished with a report, or failed. */
export type CheckRun = {
  url: string;
  startedAt: number;
  finishedAt?: number;
  report?: CheckReport;
  error?: string;
};

export const checkRun = signal<CheckRun | undefined>(undefined);

/**
 * Runs `shared/check`'s checks (the same ones `edgemcp check` runs) against `url` straight from
 * the browser, with the connection's headers. Not recorded on the wire: most of the checks'
 * requests are broken on purpose, and their refusals would bury the real traffic.
 */
export async function checkServer(url: string): Promise<void> {
  if (checkRun.value && checkRun.value.finishedAt === undefined) return;
  const startedAt = Date.now();
  checkRun.value = { url, startedAt };
  try {
    const report = await runChecks(url, { headers: headerMap() });
    checkRun.value = { url, startedAt, finishedAt: Date.now(), report };
  } catch (error) {
    checkRun.value = { url, startedAt, finishedAt: Date.now(), error: errorText(error) };
  }
}
