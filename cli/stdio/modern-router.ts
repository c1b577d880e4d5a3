import { errorText } from "../../shared/error-text.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject, JsonRpcRequest } from "../../shared/protocol/messages.ts";
import { answers, replyMessages } from "./reply.ts";
import { modernHeaders } from "./routing.ts";
import { ToolHeaders } from "./tool-headers.ts";
import type { Upstream } from "./upstream.ts";

/** Pages the bridge walks when it lists tools itself. */
const MAX_PAGES = 64;

/**
 * The routing headers of 2026-era requests. A `tools/call` needs its tool's `x-mcp-header`
 * declarations, learned from the tool lists the host asks for, or fetched by the bridge when
 * the host calls a tool it never listed.
 */
export class ModernRouter {
  private readonly tools: ToolHeaders;
  private listing: Promise<void> | undefined;
  private ownIds = 0;

  constructor(
    private readonly upstream: Upstream,
    private readonly log: (line: string) => void,
  ) {
    this.tools = new ToolHeaders(log);
  }

  /** The headers a 2026 request needs: version, method, name and `Mcp-Param-*`. */
  async headers(
    version: string,
    request: JsonRpcRequest,
    signal: AbortSignal,
  ): Promise<Record<string, string>> {
    const params = request.params ?? {};
    let values: Record<string, string> = {};
    if (request.method === "tools/call" && typeof params.name === "string") {
      if (!this.tools.knows(params.name)) {
        this.listing ??= this.listTools(version, params._meta, signal).finally(() => {
          this.listing = undefined;
        });
        await this.listing;
      }
      const args = isJsonObject(params.arguments) ? params.arguments : {};
      values = this.tools.valuesFor(params.name, args);
    }
    return modernHeaders(version, request.method, params, values);
  }

  /** Learns from a `tools/list` response on its way to the host (and drops unusable tools). */
  observeList(request: JsonRpcRequest, message: JsonObject): JsonObject {
    if (!isJsonObject(message.result)) return message;
    const firstPage = typeof request.params?.cursor !== "string";
    return { ...message, result: this.tools.learn(message.result, firstPage) };
  }

  /** The tool list changed: what was learned is stale. */
  reset(): void {
    this.tools.reset();
  }

  /** Lists the tools with the call's envelope; failures leave the call to the server. */
  private async listTools(version: string, meta: unknown, signal: AbortSignal): Promise<void> {
    const { progressToken: _unused, ...envelope } = isJsonObject(meta) ? meta : {};
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = { ...(cursor === undefined ? {} : { cursor }), _meta: envelope };
      const id = `edgemcp-stdio-${++this.ownIds}`;
      const body = { jsonrpc: "2.0", id, method: "tools/list", params };
      cursor = undefined;
      try {
        const headers = modernHeaders(version, "tools/list", params, {});
        const response = await this.upstream.post(body, headers, signal);
        if (!response.ok) {
          await response.body?.cancel();
          return;
        }
        for await (const message of replyMessages(response)) {
          if (!answers(message, id) || !isJsonObject(message.result)) continue;
          this.tools.learn(message.result, page === 0);
          const next = message.result.nextCursor;
          if (typeof next === "string") cursor = next;
        }
      } catch (error) {
        this.log(`Could not list the tools: ${errorText(error)}`);
        return;
      }
      if (cursor === undefined) return;
    }
  }
}
