import type { McpServer } from "../mcp/index.ts";

/** One MCP endpoint of this Worker, as the playground lists it. */
export type EndpointEntry = {
  path: string;
  name: string;
  title?: string;
  description?: string;
  /** For the hub: the servers it aggregates, in catalog order. */
  upstreams?: string[];
};

/**
 * The endpoints this Worker serves, for `GET /api/servers`: the playground offers them when
 * connecting and suggests them when a URL is wrong. Only names and descriptions: never the
 * remote upstreams' URLs or headers.
 */
export function directory(
  hubPath: string,
  servers: Readonly<Record<string, McpServer>>,
  remoteNames: readonly string[],
): { endpoints: EndpointEntry[] } {
  const mounted = Object.entries(servers).map(([name, server]) => {
    const { title, description } = server.definition;
    return {
      path: `${hubPath}/${name}`,
      name,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
    };
  });
  const hub = {
    path: hubPath,
    name: "hub",
    title: "edgemcp hub",
    description: "Every server below (and remote ones) as one server, names <server>__<name>.",
    upstreams: [...Object.keys(servers), ...remoteNames],
  };
  return { endpoints: [hub, ...mounted] };
}
