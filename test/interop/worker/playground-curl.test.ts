import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { connect } from "../../../shared/client/index.ts";
import type { SentRequest } from "../../../shared/curl.ts";
import { toCurl, toFetch } from "../../../web/src/lib/curl.ts";
import { recordingFetch } from "../../../web/src/state/recording-fetch.ts";
import { exchanges } from "../../../web/src/state/wire.ts";

const run = promisify(execFile);

/** The result member of a JSON-RPC answer, whether it came as JSON or as an SSE stream. */
function resultOf(text: string): unknown {
  const data = text.includes("data: ")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .at(-1)
    : text;
  return (JSON.parse(data ?? "null") as { result?: unknown }).result;
}

/** Calls a tool with the edgemcp client through the playground's recorder; returns what it sent. */
async function recordedCall(): Promise<{ request: SentRequest; structured: unknown }> {
  const client = await connect(`${inject("workerUrl")}/mcp/everything`, {
    fetch: recordingFetch(),
    headers: { Authorization: "Bearer token-alice", "X-Trace-Note": "it's quoted" },
  });
  const { result } = await client.callTool("add_numbers", { a: 2, b: 40 });
  const exchange = exchanges.value.findLast((e) => e.rpcMethod === "tools/call");
  if (!exchange) throw new Error("the call was not recorded");
  return {
    request: {
      url: exchange.url,
      method: exchange.httpMethod,
      headers: exchange.requestHeaders,
      body: exchange.requestBody,
    },
    structured: result.structuredContent,
  };
}

describe("copy as curl and fetch, run for real", () => {
  it("a copied curl command gets the answer the client got, headers and _meta included", async () => {
    const { request, structured } = await recordedCall();
    expect(structured).toEqual({ sum: 42 });
    const { stdout } = await run("bash", ["-c", toCurl(request, { revealSecrets: true })]);
    expect(resultOf(stdout)).toMatchObject({
      resultType: "complete",
      structuredContent: { sum: 42 },
    });
  });

  it("with secrets masked, the command reads them from the environment and still works", async () => {
    const { request } = await recordedCall();
    const command = toCurl(request, { revealSecrets: false });
    expect(command).not.toContain("token-alice");
    const { stdout } = await run("bash", ["-c", command], {
      env: { ...process.env, MCP_AUTHORIZATION: "Bearer token-alice" },
    });
    expect(resultOf(stdout)).toMatchObject({ structuredContent: { sum: 42 } });
    const refused = await run("bash", ["-c", command], {
      env: { ...process.env, MCP_AUTHORIZATION: "Bearer wrong" },
    });
    expect(refused.stdout).not.toContain('"sum"');
  });

  it("a copied fetch call gets the same answer", async () => {
    const { request } = await recordedCall();
    const { stdout } = await run(process.execPath, [
      "--input-type=module",
      "-e",
      toFetch(request, { revealSecrets: true }),
    ]);
    const [status, ...rest] = stdout.split(" ");
    expect(status).toBe("200");
    expect(resultOf(rest.join(" "))).toMatchObject({ structuredContent: { sum: 42 } });
  });
});
