import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type McpClient, type Progress } from "../../../shared/client/index.ts";
import { textOf, uniqueLabel } from "../support/clients.ts";
import { AUTH, hubUrl } from "./support.ts";

describe("edgemcp client against the hub", () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect(hubUrl().href, { headers: AUTH });
  });
  afterAll(async () => {
    await client.close();
  });

  it("connects in the 2026 era to the hub", () => {
    expect(client.era).toBe("modern");
    expect(client.server.serverInfo).toMatchObject({ name: "edgemcp-hub" });
  });

  it("lists the prefixed tools of the mounted servers and the external one", async () => {
    const names = (await client.listTools()).result.tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "everything__add_numbers",
        "analytics__execute_query",
        "notes__search_notes",
        "ops__run_build",
        "ext__echo",
      ]),
    );
  });

  it("calls a tool of an in-process upstream with its progress relayed", async () => {
    const progress: Progress[] = [];
    const { result } = await client.callTool(
      "ops__run_build",
      { project: "edge", steps: 3, step_ms: 10 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.structuredContent).toMatchObject({ project: "edge", steps: 3 });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it("calls a tool of the external upstream with its progress relayed", async () => {
    const progress: Progress[] = [];
    const { result } = await client.callTool(
      "ext__slow",
      { steps: 2, delayMs: 10, label: uniqueLabel("edge") },
      { onProgress: (p) => progress.push(p) },
    );
    expect(textOf(result)).toBe("counted to 2");
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
  });
});
