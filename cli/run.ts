// The `edgemcp` command line: which command runs, its help, and how failures become exit codes.
import { call } from "./commands/call.ts";
import { check } from "./commands/check.ts";
import { list } from "./commands/list.ts";
import { login, logout } from "./commands/login.ts";
import { stdio } from "./commands/stdio.ts";
import { Exit, println, type Command, type Io } from "./io.ts";
import { UsageError } from "./options.ts";
import { packageVersion } from "./version.ts";

const COMMANDS = { stdio, check, list, call, login, logout } satisfies Record<string, Command>;

const USAGE = `edgemcp ${packageVersion()}: command-line tools for any MCP server

Usage:
  edgemcp stdio <url>                       serve a remote MCP server to a host over stdio
  edgemcp check <url> [--json]              a conformance report; exits 1 when a check fails
  edgemcp list <url> [kind] [--json|--curl] tools, prompts, resources and templates
  edgemcp call <url> <tool> [--args JSON] [--json|--curl]
                                            call a tool; exits 1 when it reports an error
  edgemcp login <url>                       sign in (OAuth) in your browser; the others use it
  edgemcp logout <url>                      forget the tokens kept for the server

Every command takes:
  -H, --header "Name: value"   send a header with every request (repeatable)
      --bearer <token>         send "Authorization: Bearer <token>"
  -h, --help                   the command's own options

Environment:
  EDGEMCP_TOKEN        a bearer token (kept out of the process list and of host configs' args)
  EDGEMCP_HEADERS      more headers, as a JSON object: {"X-Api-Key":"..."}
  EDGEMCP_CONFIG_DIR   where "edgemcp login" keeps tokens (default: your config folder)

Run "edgemcp <command> --help" for details.`;

function isCommand(name: string): name is keyof typeof COMMANDS {
  return Object.hasOwn(COMMANDS, name);
}

/** Runs one command line and returns its exit code; nothing here exits the process. */
export async function run(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    println(name === undefined ? io.stderr : io.stdout, USAGE);
    return name === undefined ? Exit.usage : Exit.ok;
  }
  if (name === "--version" || name === "-v") {
    println(io.stdout, packageVersion());
    return Exit.ok;
  }
  if (!isCommand(name)) {
    println(io.stderr, `edgemcp: unknown command "${name}".\n\n${USAGE}`);
    return Exit.usage;
  }
  try {
    return await COMMANDS[name](args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      println(io.stderr, `edgemcp ${name}: ${error.message}\nRun "edgemcp ${name} --help".`);
      return Exit.usage;
    }
    println(
      io.stderr,
      `edgemcp ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return Exit.failed;
  }
}
