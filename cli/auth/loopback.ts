import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text}</p>`;

/**
 * The redirect target of a command-line sign-in (RFC 8252 §7.3): an HTTP server on 127.0.0.1 at
 * a port the system picks, which takes one callback at /callback and then closes.
 */
export class LoopbackRedirect {
  private constructor(
    private readonly server: Server,
    readonly redirectUri: string,
    private readonly callback: Promise<URL>,
  ) {}

  static async start(): Promise<LoopbackRedirect> {
    let deliver: (url: URL) => void = () => {};
    const callback = new Promise<URL>((resolve) => (deliver = resolve));
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method !== "GET" || url.pathname !== "/callback") {
        response.writeHead(404, { "content-type": "text/plain" }).end("Not found.");
        return;
      }
      const failed = url.searchParams.has("error");
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(
          failed
            ? PAGE(
                "Sign-in refused",
                "The sign-in was refused; the terminal says why. You can close this tab.",
              )
            : PAGE(
                "Signed in",
                "Back to the terminal: edgemcp has the answer. You can close this tab.",
              ),
        );
      deliver(new URL(`${redirectUri(server)}${url.search}`));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return new LoopbackRedirect(server, redirectUri(server), callback);
  }

  /** Resolves with the callback URL, or rejects when `signal` fires first (the time limit). */
  wait(signal: AbortSignal): Promise<URL> {
    return new Promise((resolve, reject) => {
      const onAbort = () =>
        reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      void this.callback.then(resolve);
    });
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}

function redirectUri(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/callback`;
}
