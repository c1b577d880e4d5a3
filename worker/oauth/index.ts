// edgemcp/oauth: the Worker as the OAuth 2.1 authorization server of its own MCP endpoints.
export { signIn, type SignIn } from "./sign-in.ts";
export type { DemoUser, ProtectedEndpoint, SignInOptions } from "./options.ts";
export type { Upstream } from "./upstream.ts";
