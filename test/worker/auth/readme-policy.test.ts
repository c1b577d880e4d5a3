import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import readme from "../../../README.md?raw";
import worker from "../../../worker/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";

/** The first JSON block of the README's "### Policy" section, exactly as written. */
const README_POLICY = (() => {
  const section = readme.slice(readme.indexOf("### Policy"));
  const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error("README has no policy example");
  return block;
})();

const tokens = "token-alice=alice,token-bob=bob,token-root=root:admin";
const as = (who: string) => ({ Authorization: `Bearer token-${who}` });

/** The Worker of this repository, with the README's policy as its MCP_POLICY. */
async function status(
  server: string,
  method: string,
  params: Record<string, unknown>,
  who: string,
): Promise<number> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    mcpRequest(method, params, { server, headers: as(who) }),
    { ...env, MCP_POLICY: README_POLICY, API_TOKENS: tokens },
    ctx,
  );
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return response.status;
}

const call = (server: string, name: string, who: string) =>
  status(server, "tools/call", { name, arguments: {} }, who);

describe("the README's example policy, as written, on this Worker", () => {
  it.each([
    ["ops", "deploy_release"],
    ["", "ops__deploy_release"],
  ])("denies deploys on /mcp/%s (%s) to a caller without the admin role", async (server, name) => {
    expect(await call(server, name, "alice")).toBe(403);
  });

  it.each([
    ["notes", "delete_note"],
    ["", "notes__delete_note"],
  ])("denies *delete* on /mcp/%s (%s)", async (server, name) => {
    expect(await call(server, name, "alice")).toBe(403);
  });

  it.each([
    ["analytics", "triage_incident"],
    ["", "analytics__triage_incident"],
  ])("denies bob prompts on /mcp/%s (%s) and lets alice have them", async (server, name) => {
    const params = { name, arguments: { incident_id: "1" } };
    expect(await status(server, "prompts/get", params, "bob")).toBe(403);
    expect(await status(server, "prompts/get", params, "alice")).toBe(200);
  });

  it.each([
    ["analytics", "triage_incident"],
    ["", "analytics__triage_incident"],
  ])(
    "denies bob completing the arguments of a prompt it may not get, on /mcp/%s",
    async (server, name) => {
      const params = {
        ref: { type: "ref/prompt", name },
        argument: { name: "incident_id", value: "" },
      };
      expect(await status(server, "completion/complete", params, "bob")).toBe(403);
      expect(await status(server, "completion/complete", params, "alice")).toBe(200);
    },
  );

  it.each([
    ["ops", "deploy_release"],
    ["", "ops__deploy_release"],
  ])("lets the admin role deploy on /mcp/%s (%s)", async (server, name) => {
    expect(await call(server, name, "root")).not.toBe(403);
  });

  it("lets what no rule names through on both endpoints", async () => {
    expect(await call("notes", "search_notes", "alice")).toBe(200);
    expect(await call("", "notes__search_notes", "alice")).toBe(200);
  });
});
