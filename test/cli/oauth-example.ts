import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const EXAMPLE = join(
  import.meta.dirname,
  "../../node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js",
);

/** A port free right now on loopback (the example binds its own ports from the environment). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The official TypeScript SDK's example server with `--oauth`: its MCP endpoint requires a token
 * from its demo authorization server (dynamic registration, PKCE, consent granted at once).
 */
export type OAuthExample = { url: string; issuer: string; close(): void };

export async function startOAuthExample(): Promise<OAuthExample> {
  const [mcpPort, authPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, [EXAMPLE, "--oauth"], {
    env: { ...process.env, MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the example did not start:\n${output}`)),
      30_000,
    );
    const seen = () => {
      if (
        output.includes("MCP Streamable HTTP Server listening") &&
        output.includes("Authorization Server listening")
      ) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", (chunk: Buffer) => ((output += chunk.toString()), seen()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the example exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://localhost:${mcpPort}/mcp`,
    issuer: `http://localhost:${authPort}`,
    close: () => child.kill(),
  };
}
