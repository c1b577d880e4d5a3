import { setTimeout as sleep } from "node:timers/promises";
import type { Bundle } from "./build.ts";
import type { BenchRequest } from "./wire.ts";
import { freePort, startWorkerd, writeConfig, type BindingValue, type Workerd } from "./workerd.ts";

/** Sends one request; resolves with the answer, or rejects if nothing answers. */
export function send(url: string, request: BenchRequest, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "POST", headers: request.headers, body: request.body, signal });
}

/**
 * Polls until the server answers `request` with a 2xx and the body is read; returns the time
 * that took in milliseconds, counted from `since` (performance.now()).
 */
export async function firstAnswer(
  server: Workerd,
  request: BenchRequest,
  since: number,
  timeoutMs = 20_000,
): Promise<number> {
  for (;;) {
    if (server.process.exitCode !== null)
      throw new Error(`workerd exited (${server.process.exitCode}):\n${server.log()}`);
    let response: Response | undefined;
    try {
      response = await send(server.url, request);
    } catch {
      // Not listening yet.
    }
    if (response) {
      const body = await response.text();
      if (response.ok) return performance.now() - since;
      throw new Error(`workerd answered ${response.status}: ${body.slice(0, 300)}`);
    }
    if (performance.now() - since > timeoutMs)
      throw new Error(`workerd did not answer within ${timeoutMs} ms:\n${server.log()}`);
    await sleep(1);
  }
}

/** Starts workerd on a fresh port with the bundle and waits for its first answer. */
export async function serve(
  bundle: Bundle,
  bindings: Record<string, BindingValue>,
  probe: BenchRequest,
): Promise<Workerd> {
  const port = await freePort();
  const server = startWorkerd(writeConfig(bundle, port, bindings), port);
  try {
    await firstAnswer(server, probe, performance.now());
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
