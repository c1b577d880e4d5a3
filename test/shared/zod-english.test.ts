import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { McpError } from "../../shared/client/index.ts";
import { parseResult } from "../../shared/client/parse.ts";
import { readJson } from "../../shared/client/auth/read-json.ts";
import { schemaFindings } from "../../shared/check/finding.ts";
import { issuesLine } from "../../shared/zod-issues.ts";
import { elicit } from "../../worker/mcp/input/requests.ts";

// As in a Worker built with zod/mini that set no locale: zod writes "Invalid input" for every
// issue, and the words people read must come from edgemcp itself.
let saved: ReturnType<typeof z.config>;
beforeEach(() => {
  saved = { ...z.config() };
  z.config({ localeError: undefined, customError: undefined });
});
afterEach(() => void z.config(saved));

const Tools = z.object({ tools: z.array(z.object({ name: z.string() })) });

describe("what people read of a value that fails its schema is English, with no zod locale set", () => {
  it("loading the client sets no zod configuration (the hub shares its isolate)", async () => {
    vi.resetModules();
    await import("../../shared/client/index.ts");
    await import("../../shared/check/finding.ts");
    expect(z.config().localeError).toBeUndefined();
  });

  it("one line for a person: each issue at its path, the rest counted", () => {
    const value = { tools: [{ name: 1 }, { name: null }, {}] };
    const parsed = z.safeParse(Tools, value);
    expect(parsed.success).toBe(false);
    expect(issuesLine(parsed.error!, value, 2)).toBe(
      "at tools.0.name: Invalid input: expected string, received number; at tools.1.name: Invalid input: expected string, received null (and 1 more)",
    );
  });

  it("a client's invalid result", () => {
    const failure = (() => {
      try {
        return parseResult(
          Tools,
          { tools: [{ name: 7 }] },
          { era: "modern", method: "tools/list" },
        );
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as Error).message).toBe(
      "The tools/list result is not valid: at tools.0.name: Invalid input: expected string, received number.",
    );
  });

  it("a check's finding", () => {
    expect(schemaFindings(Tools, { tools: "all" }, "result.shape", "tools/list")).toEqual([
      {
        level: "error",
        rule: "result.shape",
        message: "tools/list at tools: Invalid input: expected array, received string",
      },
    ]);
  });

  it("an authorization server's malformed document", async () => {
    const failure = await readJson(
      "https://as.example/.well-known/oauth-authorization-server",
      new Response(JSON.stringify({ issuer: 42 })),
      z.object({ issuer: z.string() }),
      { step: "server-metadata", rule: "RFC 8414", what: "server metadata" },
    ).catch((error: unknown) => error);
    expect((failure as Error).message).toContain(
      '"issuer": Invalid input: expected string, received number.',
    );
  });

  it("a client's elicitation answer the tool's form refuses", () => {
    const request = elicit({ message: "Age?", schema: z.object({ age: z.number() }) });
    expect(request.parse({ action: "accept", content: { age: "ten" } })).toEqual({
      ok: false,
      reason: "at age: Invalid input: expected number, received string",
    });
  });
});
