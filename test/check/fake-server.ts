import * as z from "zod";
import type { FetchLike } from "../../shared/client/index.ts";
import { encodeHeaderValue } from "../../shared/protocol/headers.ts";

/** One way a server can break the protocol; the fake server breaks the ones it is given. */
export type Quirk =
  | "ignoresHeaders"
  | "noVersionData"
  | "noResultType"
  | "noServerInfo"
  | "noCacheHints"
  | "scopeChangesByPage"
  | "duplicateTool"
  | "arrayInputSchema"
  | "acceptsBadCursor"
  | "shuffles"
  | "notFoundLegacyCode"
  | "notFoundEmpty"
  | "unknownMethodOk"
  | "reservedCode"
  | "mintsSession"
  | "modernOnly"
  | "legacyOnly"
  | "noCors";

const VERSION = "2026-07-28";
const SERVER_INFO = { name: "fake", version: "1.0.0" };
type FakeTool = { name: string; inputSchema: Record<string, unknown> };
const TOOLS: FakeTool[] = ["alpha", "beta", "gamma"].map((name) => ({
  name,
  inputSchema: { type: "object", properties: {} },
}));

const Message = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string().default(""),
  params: z.record(z.string(), z.unknown()).default({}),
});
const Meta = z.record(z.string(), z.unknown()).catch({});

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

const error = (
  status: number,
  id: unknown,
  code: number,
  message: string,
  data?: unknown,
): Reply => ({
  status,
  body: { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } },
});

/**
 * An in-process MCP server that follows the 2026-07-28 rules the checks test (and the 2025
 * handshake), except for the quirks it is given: each check must pass on the plain server
 * and fail (or warn) on the one quirk that breaks its rule.
 */
export function fakeServer(...quirks: Quirk[]): FetchLike {
  const has = (quirk: Quirk) => quirks.includes(quirk);
  let firstPages = 0;

  const result = (
    id: unknown,
    body: Record<string, unknown>,
    scope?: "public" | "private",
  ): Reply => ({
    status: 200,
    body: {
      jsonrpc: "2.0",
      id,
      result: {
        ...(has("noResultType") ? {} : { resultType: "complete" }),
        ...(scope && !has("noCacheHints") ? { ttlMs: 60_000, cacheScope: scope } : {}),
        ...(has("noServerInfo")
          ? {}
          : { _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } }),
        ...body,
      },
    },
  });

  const toolsPage = (id: unknown, cursor: unknown): Reply => {
    let tools: FakeTool[] = has("duplicateTool") ? [...TOOLS, ...TOOLS.slice(0, 1)] : [...TOOLS];
    if (has("arrayInputSchema")) tools[1] = { name: "beta", inputSchema: { type: "array" } };
    // Every other walk from the start comes back in another order.
    if (cursor === undefined && has("shuffles") && firstPages++ % 2 === 1) tools = tools.reverse();
    if (cursor === undefined) {
      return result(id, { tools: tools.slice(0, 2), nextCursor: "page-2" }, "public");
    }
    if (cursor === "page-2") {
      return result(
        id,
        { tools: tools.slice(2) },
        has("scopeChangesByPage") ? "private" : "public",
      );
    }
    return has("acceptsBadCursor")
      ? toolsPage(id, undefined)
      : error(200, id, -32602, "Invalid cursor");
  };

  const modern = (id: unknown, method: string, params: Record<string, unknown>): Reply => {
    switch (method) {
      case "server/discover":
        return result(
          id,
          { supportedVersions: [VERSION], capabilities: { tools: {}, prompts: {}, resources: {} } },
          "public",
        );
      case "tools/list":
        return toolsPage(id, params.cursor);
      case "prompts/list":
        return result(id, { prompts: [{ name: "hello" }] }, "public");
      case "resources/list":
        return result(id, { resources: [{ uri: "fake://one", name: "one" }] }, "public");
      case "resources/templates/list":
        return result(
          id,
          { resourceTemplates: [{ uriTemplate: "fake://{id}", name: "item" }] },
          "public",
        );
      case "resources/read":
        if (params.uri === "fake://one")
          return result(id, { contents: [{ uri: "fake://one", text: "1" }] }, "public");
        if (has("notFoundEmpty")) return result(id, { contents: [] }, "public");
        return error(200, id, has("notFoundLegacyCode") ? -32002 : -32602, "Resource not found");
      case "tools/call":
      case "prompts/get":
        return error(200, id, -32602, `Unknown ${method === "tools/call" ? "tool" : "prompt"}`);
      default:
        if (has("unknownMethodOk")) return result(id, {});
        return error(404, id, has("reservedCode") ? -32050 : -32601, "Method not found");
    }
  };

  const headerProblem = (
    request: Request,
    method: string,
    params: Record<string, unknown>,
    version: unknown,
  ) => {
    if (has("ignoresHeaders")) return false;
    const name =
      method === "resources/read"
        ? params.uri
        : method.endsWith("/call") || method === "prompts/get"
          ? params.name
          : undefined;
    return (
      request.headers.get("MCP-Protocol-Version") !== version ||
      request.headers.get("Mcp-Method") !== method ||
      (typeof name === "string" && request.headers.get("Mcp-Name") !== encodeHeaderValue(name))
    );
  };

  const post = (request: Request, body: unknown): Reply => {
    const { id, method, params } = Message.parse(body);
    if (id === undefined) return { status: 202 };
    const meta = Meta.parse(params._meta ?? {});
    const version = meta["io.modelcontextprotocol/protocolVersion"];
    if (method === "initialize" || (version === undefined && !request.headers.has("Mcp-Method"))) {
      if (method === "initialize" && has("modernOnly"))
        return error(400, id, -32020, "initialize is not served");
      if (method === "initialize") {
        return {
          status: 200,
          body: {
            jsonrpc: "2.0",
            id,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: SERVER_INFO,
            },
          },
        };
      }
      return method === "tools/list"
        ? { status: 200, body: { jsonrpc: "2.0", id, result: { tools: TOOLS } } }
        : { status: 200, body: { jsonrpc: "2.0", id, result: {} } };
    }
    if (has("legacyOnly")) return error(400, id, -32000, "Bad Request: Server not initialized");
    if (version === undefined || meta["io.modelcontextprotocol/clientCapabilities"] === undefined) {
      return error(400, id, -32602, "Missing _meta member");
    }
    if (headerProblem(request, method, params, version)) {
      return error(400, id, -32020, "Header mismatch");
    }
    if (version !== VERSION) {
      return error(
        400,
        id,
        -32022,
        "Unsupported version",
        has("noVersionData") ? undefined : { supported: [VERSION], requested: version },
      );
    }
    const reply = modern(id, method, params);
    return has("mintsSession") ? { ...reply, headers: { "Mcp-Session-Id": "minted" } } : reply;
  };

  return async (url, init) => {
    const request = new Request(url, init);
    const origin = request.headers.get("Origin");
    const cors: Record<string, string> =
      origin && !has("noCors")
        ? {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Expose-Headers": "Mcp-Session-Id",
          }
        : {};
    if (request.method === "OPTIONS") {
      if (has("noCors")) return new Response(null, { status: 405 });
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          "Access-Control-Allow-Methods": "POST, OPTIONS",
          "Access-Control-Allow-Headers":
            request.headers.get("Access-Control-Request-Headers") ?? "",
        },
      });
    }
    if (request.method !== "POST") return new Response(null, { status: 405, headers: cors });
    const reply = post(request, await request.json());
    const headers = {
      ...cors,
      ...reply.headers,
      ...(reply.body ? { "Content-Type": "application/json" } : {}),
    };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers,
    });
  };
}
