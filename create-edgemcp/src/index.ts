#!/usr/bin/env node
// `npm create edgemcp@latest my-server`: writes a Worker with one MCP server, installs it, and
// says what to do next.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { AUTH_CHOICES, generate } from "./generate.ts";
import { install, packageManager } from "./install.ts";
import { nameProblem, projectName } from "./names.ts";

const HELP = `Usage: npm create edgemcp@latest <directory> [-- options]

Writes an MCP server for Cloudflare Workers (one tool, a resource and a prompt, with a test),
installs it, and generates its types.

Options:
  --auth oauth       sign-in: the Worker is the OAuth authorization server of its
                     endpoint (a login and consent page, tokens in KV); every request
                     needs a token (default: none, anyone may call)
  --skip-install     write the files only
  --edgemcp <spec>   the edgemcp version to depend on (default: ^${ownVersion()})
  -h, --help         this help`;

function ownVersion(): string {
  const json: unknown = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  );
  return typeof json === "object" && json !== null && "version" in json
    ? String(json.version)
    : "0.0.0";
}

async function askForDirectory(): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question("Directory for the new server (my-mcp-server): ");
  prompt.close();
  return answer.trim() || "my-mcp-server";
}

const SIGN_IN_NOTE = `
Hosts sign in on the page the server's 401 leads to: the development login on localhost, and
once deployed an upstream provider you register (README.md, "Sign-in").
`;

function isAuthChoice(value: string): value is (typeof AUTH_CHOICES)[number] {
  return (AUTH_CHOICES as readonly string[]).includes(value);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      "skip-install": { type: "boolean" },
      auth: { type: "string" },
      edgemcp: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const dir = positionals[0] ?? (await askForDirectory());
  if (dir === undefined) {
    console.error(`Give a directory for the new server.\n\n${HELP}`);
    return 2;
  }
  const auth = values.auth ?? "none";
  if (!isAuthChoice(auth)) {
    console.error(`--auth is one of ${AUTH_CHOICES.join(", ")}, not "${auth}".`);
    return 2;
  }
  const name = projectName(dir);
  const problem = nameProblem(name);
  if (problem) {
    console.error(problem);
    return 2;
  }
  generate({ dir, name, edgemcp: values.edgemcp ?? `^${ownVersion()}`, auth });
  console.log(`Wrote ${name} in ${dir}.`);
  const manager = packageManager(process.env.npm_config_user_agent);
  if (!values["skip-install"] && !install(dir, manager)) {
    console.error(`Installing failed; run "${manager} install" in ${dir} to retry.`);
    return 1;
  }
  const cd = relative(process.cwd(), dir) || ".";
  console.log(`
Next:
  cd ${cd}
  ${values["skip-install"] ? `${manager} install && ` : ""}${manager} start   # the server at http://localhost:8787/mcp
  ${manager} test    # its tests, in workerd
${auth === "oauth" ? SIGN_IN_NOTE : ""}
Then deploy it with ${auth === "oauth" ? '"npx wrangler secret put EDGEMCP_SECRET" and ' : ""}"npx wrangler deploy"
(README.md has the details and how to connect clients).`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
