import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { encodeHeaderValue } from "../../../../shared/protocol/headers.ts";
import { defineServer, prompt, tool } from "../../../../worker/mcp/index.ts";
import { legacyRequest, mcpRequest } from "../../../support/mcp-request.ts";
import { serve } from "../../custom-server.ts";

// A server written with zod/mini, the smallest zod: the runtime itself runs on zod/mini and
// accepts any zod 4 schema, so such a Worker carries no classic zod at all.
const mini = defineServer({
  name: "mini",
  version: "1.0.0",
  tools: [
    tool({
      name: "greet",
      description: "Greets someone in a region",
      input: z.object({
        name: z.string().check(z.describe("Who to greet")),
        region: z.string().check(z.meta({ "x-mcp-header": "Region" })),
        times: z.optional(z.int().check(z.positive())),
      }),
      output: z.object({ greeting: z.string() }),
      run: ({ name, region, times = 1 }) => ({
        greeting: `${"Hello, ".repeat(times)}${name} in ${region}!`,
      }),
    }),
  ],
  prompts: [
    prompt({
      name: "welcome",
      args: z.object({
        who: z.string().check(z.describe("Who is welcomed")),
        tone: z.optional(z.string()),
      }),
      get: ({ who, tone }) => `Welcome, ${who}${tone ? ` (${tone})` : ""}!`,
    }),
  ],
});
const server = serve(mini);

const greet = (args: Record<string, unknown>, region = String(args.region)) =>
  server.send(
    mcpRequest(
      "tools/call",
      { name: "greet", arguments: args },
      { headers: { "Mcp-Param-Region": encodeHeaderValue(region) } },
    ),
    "tools/call",
  );

describe("a server written with zod/mini", () => {
  it("lists JSON Schemas derived from zod/mini, with descriptions and x-mcp-header", async () => {
    const { final } = await server.send(mcpRequest("tools/list", {}), "tools/list");
    expect(final?.result?.tools).toEqual([
      expect.objectContaining({
        name: "greet",
        inputSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "Who to greet" },
            region: { type: "string", "x-mcp-header": "Region" },
            times: { type: "integer", exclusiveMinimum: 0 },
          },
          required: ["name", "region"],
        },
        outputSchema: {
          type: "object",
          properties: { greeting: { type: "string" } },
          required: ["greeting"],
          additionalProperties: false,
        },
      }),
    ]);
  });

  it("validates arguments and returns structured content", async () => {
    const { final } = await greet({ name: "Ann", region: "eu", times: 2 });
    expect(final?.result?.structuredContent).toEqual({ greeting: "Hello, Hello, Ann in eu!" });
  });

  it("answers invalid arguments with an isError result and zod's English message", async () => {
    const { status, final } = await greet({ name: 42, region: "eu", times: -1 });
    expect(status).toBe(200);
    expect(final?.result?.isError).toBe(true);
    expect(final?.result?.content).toEqual([
      {
        type: "text",
        text: "Invalid arguments: arguments.name: Invalid input: expected string, received number; arguments.times: Too small: expected number to be >0. Call the tool again with arguments that match its inputSchema.",
      },
    ]);
  });

  it("checks the Mcp-Param header declared with z.meta against the body", async () => {
    const { status, final } = await greet({ name: "Ann", region: "eu" }, "us");
    expect(status).toBe(400);
    expect(final?.error?.code).toBe(-32020);
  });

  it("lists prompt arguments with their z.describe descriptions and required flags", async () => {
    const { final } = await server.send(mcpRequest("prompts/list", {}), "prompts/list");
    expect(final?.result?.prompts?.[0]?.arguments).toEqual([
      { name: "who", description: "Who is welcomed", required: true },
      { name: "tone", required: false },
    ]);
  });

  it("serves the same definitions to a 2025 client", async () => {
    const request = legacyRequest("prompts/get", { name: "welcome", arguments: { who: "Bo" } });
    const { final } = await server.send(request, "prompts/get", "2025");
    expect(final?.result?.messages?.[0]?.content).toEqual({ type: "text", text: "Welcome, Bo!" });
  });
});

describe("zod/mini's error messages", () => {
  // zod/mini has no messages of its own; shared/zod-locale.ts sets English when nothing is set.
  const fresh = async () => {
    vi.resetModules();
    await import("../../../../shared/zod-locale.ts");
    return z.config();
  };

  it("are English once the runtime loads, when the application chose none", async () => {
    const saved = { ...z.config() };
    try {
      z.config({ localeError: undefined, customError: undefined });
      const mini = z.string();
      expect(z.safeParse(mini, 1).error?.issues[0]?.message).toBe("Invalid input");
      await fresh();
      expect(z.safeParse(mini, 1).error?.issues[0]?.message).toBe(
        "Invalid input: expected string, received number",
      );
    } finally {
      z.config(saved);
    }
  });

  it("stay the application's own when it set them", async () => {
    const saved = { ...z.config() };
    try {
      z.config({ localeError: undefined, customError: () => "nope" });
      await fresh();
      expect(z.safeParse(z.string(), 1).error?.issues[0]?.message).toBe("nope");
    } finally {
      z.config(saved);
    }
  });
});
