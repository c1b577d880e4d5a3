import { AuthError, withAuth, type AuthEvent } from "../../shared/client/auth/index.ts";
import { loadServer } from "../../shared/client/auth/store.ts";
import { connect } from "../../shared/client/index.ts";
import { openBrowser } from "../auth/browser.ts";
import { authFailureText } from "../auth/failure-text.ts";
import { configDir, fileStore } from "../auth/file-store.ts";
import { LoopbackRedirect } from "../auth/loopback.ts";
import { authFile } from "../auth/signed-in.ts";
import { describeFailure } from "../client.ts";
import { Exit, println, type Command, type Io } from "../io.ts";
import { parseCommandLine, serverUrl, UsageError } from "../options.ts";
import { packageVersion } from "../version.ts";

const HELP = `Usage: edgemcp login <url> [options]

Signs in to an MCP server protected with MCP authorization (OAuth 2.1): finds its
authorization server, registers this command as a client when the server allows it, prints
the sign-in URL and opens it in your browser when there is one, and waits for the redirect
to a one-time address on 127.0.0.1. Tokens are kept per authorization server in your config
folder, readable by you only; call, list, check and stdio use and refresh them.

Options:
      --client-id <id>       a client registered beforehand with the authorization server
      --client-secret <s>    its secret (prefer EDGEMCP_CLIENT_SECRET)
      --scope <scopes>       the scopes to ask for, space-separated (may be repeated);
                             default: those the server names
      --no-browser           print the URL without opening a browser
  -v, --verbose              print each step of the sign-in
  -h, --help                 this help

Environment:
  EDGEMCP_CONFIG_DIR      where tokens are kept (default: your platform's config folder)
  EDGEMCP_CLIENT_SECRET   the pre-registered client's secret`;

/** How long the command waits for the browser to come back. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

function parse(args: string[]) {
  return parseCommandLine(args, {
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    scope: { type: "string", multiple: true },
    "no-browser": { type: "boolean" },
    verbose: { type: "boolean", short: "v" },
    help: { type: "boolean", short: "h" },
  });
}

// RFC 6749 §3.3: a scope token is printable ASCII without space, " or \.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scopes --scope names, space-separated and deduplicated; undefined when none given. */
function askedScopes(given: string[] | undefined): string | undefined {
  const tokens = (given ?? []).flatMap((value) => value.split(/\s+/)).filter((t) => t !== "");
  if (given !== undefined && tokens.length === 0)
    throw new UsageError("--scope needs at least one scope.");
  const bad = tokens.find((token) => !SCOPE_TOKEN.test(token));
  if (bad !== undefined)
    throw new UsageError(
      `${JSON.stringify(bad)} is not a scope: scopes are printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3).`,
    );
  return tokens.length > 0 ? [...new Set(tokens)].join(" ") : undefined;
}

/** What the server left out of the scopes asked for, said when it did. */
function grantedLess(asked: string | undefined, granted: string | undefined): string | undefined {
  if (asked === undefined) return undefined;
  const held = new Set((granted ?? "").split(" "));
  const missing = asked.split(" ").filter((scope) => !held.has(scope));
  return missing.length === 0
    ? undefined
    : `The authorization server did not grant ${missing.map((s) => `"${s}"`).join(", ")} of the scopes asked for.`;
}

/** One step of the sign-in for --verbose: a failure with its rule and what must change. */
function describeEvent(event: AuthEvent): string {
  const line = `  ${event.step}: ${event.status === "ok" ? "" : `${event.status}: `}${event.summary}`;
  if (event.status !== "failed") return line;
  return `${line}${event.fix ? `\n    fix: ${event.fix}` : ""}${event.rule ? `\n    rule: ${event.rule}` : ""}`;
}

/** `edgemcp login <url>`: a fresh sign-in, whatever was kept before. */
export const login: Command = async (args, io: Io) => {
  const { values, positionals } = parse(args);
  if (values.help) {
    println(io.stdout, HELP);
    return Exit.ok;
  }
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const url = serverUrl(positionals[0]);
  const secret = values["client-secret"] ?? io.env.EDGEMCP_CLIENT_SECRET;
  if (secret !== undefined && values["client-id"] === undefined) {
    throw new UsageError("A client secret needs its --client-id.");
  }
  const scope = askedScopes(values.scope);
  const redirect = await LoopbackRedirect.start();
  const deadline = AbortSignal.timeout(SIGN_IN_TIMEOUT_MS);
  const { session, fetch } = withAuth(url, {
    redirectUri: redirect.redirectUri,
    clientName: "edgemcp command line",
    applicationType: "native",
    store: fileStore(configDir(io.env)),
    ...(scope ? { scope } : {}),
    ...(values["client-id"]
      ? { client: { client_id: values["client-id"], ...(secret ? { client_secret: secret } : {}) } }
      : {}),
    ...(values.verbose
      ? { onEvent: (event: AuthEvent) => println(io.stderr, describeEvent(event)) }
      : {}),
    interact: async ({ url: page }) => {
      println(
        io.stderr,
        `Sign in at this URL (waiting up to ${SIGN_IN_TIMEOUT_MS / 60_000} minutes):\n\n  ${page.href}\n`,
      );
      if (!values["no-browser"] && openBrowser(page.href, io.env))
        println(io.stderr, "Opened in your browser.");
      return redirect.wait(deadline);
    },
  });
  try {
    await session.signOut();
    // A server whose reads are open asks for sign-in only on a write: sign in now when it
    // publishes resource metadata, else when it answers 401.
    await session.signInAhead();
    const client = await connect(url, {
      fetch,
      clientInfo: { name: "edgemcp-cli", version: packageVersion() },
    });
    await client.close();
    const status = session.status();
    if (!status) {
      println(io.stdout, `${url.href} did not ask for sign-in; nothing was kept.`);
      return Exit.ok;
    }
    const granted = status.scope ? ` with scope "${status.scope}"` : "";
    const until =
      status.expiresAt === undefined
        ? ""
        : `, the token lasts until ${new Date(status.expiresAt).toISOString()}`;
    println(io.stdout, `Signed in to ${url.href} through ${status.issuer}${granted}${until}.`);
    const less = grantedLess(scope, status.scope);
    if (less) println(io.stderr, less);
    println(io.stdout, `Kept in ${authFile(io.env)}.`);
    return Exit.ok;
  } catch (error) {
    const text = error instanceof AuthError ? authFailureText(error) : describeFailure(error);
    println(
      io.stderr,
      `edgemcp login: ${deadline.aborted ? "no answer from the browser in time." : text}`,
    );
    return Exit.failed;
  } finally {
    redirect.close();
  }
};

/** `edgemcp logout <url>`: forgets the server's tokens (the client registration stays). */
export const logout: Command = async (args, io: Io) => {
  const { values, positionals } = parseCommandLine(args, {
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    println(
      io.stdout,
      "Usage: edgemcp logout <url>\n\nForgets the tokens `edgemcp login` kept for the server.",
    );
    return Exit.ok;
  }
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const url = serverUrl(positionals[0]);
  const store = fileStore(configDir(io.env));
  if ((await loadServer(store, url.href)) === undefined) {
    println(
      io.stdout,
      `No sign-in to ${url.href} is kept in ${authFile(io.env)}; nothing to forget.`,
    );
    return Exit.ok;
  }
  const { session } = withAuth(url, { store });
  await session.signOut();
  println(io.stdout, `Signed out of ${url.href}.`);
  return Exit.ok;
};
