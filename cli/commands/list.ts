import type { ListOptions, McpClient, ServerDescription } from "../../shared/client/index.ts";
import { signedInFetch } from "../auth/signed-in.ts";
import { CapturingFetch } from "../capture.ts";
import { connectOrReport, describeFailure, requestTimeout } from "../client.ts";
import { printCurl } from "../curl.ts";
import { Exit, println } from "../io.ts";
import { jsonText } from "../terminal-text.ts";
import { serverCommand, UsageError } from "../options.ts";
import { section, summary } from "../render.ts";

const HELP = `Usage: edgemcp list <url> [tools|prompts|resources|templates] [options]

Lists what an MCP server offers (every kind it advertises, or one), walking all pages.

Options:
  --json                       print the lists as JSON
  --curl                       print the curl command of each list request instead
  --timeout <ms>               how long connecting, and then each list, may wait for its
                               answer (default: no limit)
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>" (or set EDGEMCP_TOKEN)
      --max-reply-bytes <n>    read at most n bytes of one reply (default 16777216, 16 MiB)`;

type Row = [string, string];
type Listed = { items: readonly object[]; rows: Row[] };

function listed<T extends object>(items: readonly T[], row: (item: T) => Row): Listed {
  return { items, rows: items.map(row) };
}

const KIND_NAMES = ["tools", "prompts", "resources", "templates"] as const;
type Kind = (typeof KIND_NAMES)[number];

/** Each kind of list: the capability that advertises it, its method, and how to load it. */
const KINDS = {
  tools: {
    title: "Tools",
    method: "tools/list",
    capability: "tools",
    json: "tools",
    load: async (client: McpClient, options: ListOptions) =>
      listed((await client.listTools(options)).result.tools, (tool) => [
        tool.name,
        summary(tool.description ?? tool.title),
      ]),
  },
  prompts: {
    title: "Prompts",
    method: "prompts/list",
    capability: "prompts",
    json: "prompts",
    load: async (client: McpClient, options: ListOptions) =>
      listed((await client.listPrompts(options)).result.prompts, (prompt) => [
        prompt.name,
        summary(prompt.description ?? prompt.title),
      ]),
  },
  resources: {
    title: "Resources",
    method: "resources/list",
    capability: "resources",
    json: "resources",
    load: async (client: McpClient, options: ListOptions) =>
      listed((await client.listResources(options)).result.resources, (resource) => [
        resource.uri,
        summary(resource.description ?? resource.title ?? resource.name),
      ]),
  },
  templates: {
    title: "Resource templates",
    method: "resources/templates/list",
    capability: "resources",
    json: "resourceTemplates",
    load: async (client: McpClient, options: ListOptions) =>
      listed((await client.listResourceTemplates(options)).result.resourceTemplates, (template) => [
        template.uriTemplate,
        summary(template.description ?? template.title ?? template.name),
      ]),
  },
} satisfies Record<
  Kind,
  {
    title: string;
    method: string;
    capability: "tools" | "prompts" | "resources";
    json: string;
    load: (client: McpClient, options: ListOptions) => Promise<Listed>;
  }
>;

function isKind(name: string): name is Kind {
  return (KIND_NAMES as readonly string[]).includes(name);
}

/** Whether the server advertises the capability a kind of list needs. */
function offers(server: ServerDescription, kind: Kind): boolean {
  return server.capabilities[KINDS[kind].capability] !== undefined;
}

/** The kinds to list: the one asked for, or every kind the server advertises. */
function kindsFor(asked: string | undefined, server: ServerDescription): Kind[] {
  if (asked !== undefined) {
    if (!isKind(asked)) {
      throw new UsageError(`Unknown kind "${asked}": use ${KIND_NAMES.join(", ")}.`);
    }
    return [asked];
  }
  return KIND_NAMES.filter((kind) => offers(server, kind));
}

function heading(url: URL, server: ServerDescription): string {
  const info = server.serverInfo;
  const name = info ? `${info.title ?? info.name} ${info.version}` : "(unnamed server)";
  return `${name} · MCP ${server.protocolVersion} · ${url.href}`;
}

/** `edgemcp list`: the server's catalog for people, as JSON, or as curl commands. */
export const list = serverCommand({
  help: HELP,
  accepts: ["json", "curl", "timeout", "max-reply-bytes"],
  rest: 1,
  run: async ({ values, url, rest, given, maxReplyBytes, timeoutMs }, io) => {
    const capture = new CapturingFetch(
      signedInFetch(url, given, io.env, (u, init) => fetch(u, init)),
    );
    const client = await connectOrReport(
      { url, given, maxReplyBytes, timeoutMs },
      io,
      capture.fetch,
    );
    if (!client) return Exit.failed;
    try {
      const kinds = kindsFor(rest[0], client.server);
      const absent = kinds.find((kind) => !offers(client.server, kind));
      if (absent !== undefined && !values.curl) {
        const { capability } = KINDS[absent];
        println(
          io.stderr,
          `The server does not offer ${absent}: its capabilities have no "${capability}".`,
        );
        return Exit.failed;
      }
      if (values.curl) {
        for (const kind of kinds) {
          capture.arm(KINDS[kind].method);
          await KINDS[kind].load(client, {}).catch(() => undefined);
          printCurl(io, capture.take(), given, client);
        }
        return Exit.ok;
      }
      const lists = new Map<Kind, Listed>();
      for (const kind of kinds)
        lists.set(kind, await KINDS[kind].load(client, requestTimeout(timeoutMs)));
      if (values.json) {
        const json: Record<string, unknown> = { server: client.server };
        for (const [kind, { items }] of lists) json[KINDS[kind].json] = items;
        println(io.stdout, jsonText(json));
        return Exit.ok;
      }
      const sections = [...lists].map(([kind, { rows }]) => section(KINDS[kind].title, rows));
      println(io.stdout, [heading(url, client.server), ...sections].join("\n\n"));
      return Exit.ok;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      println(io.stderr, describeFailure(error));
      return Exit.failed;
    } finally {
      if (!values.curl) await client.close();
    }
  },
});
