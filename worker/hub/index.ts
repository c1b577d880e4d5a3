// The hub (`import { hubServer } from "edgemcp/hub"`): one endpoint over several MCP servers.
export { hubServer, type HubConfig } from "./hub-server.ts";
export { remoteUpstreams, type InProcessApp, type UpstreamConfig } from "./upstreams.ts";
export { bareNamesOf, hubNamesOf } from "./policy-names.ts";
