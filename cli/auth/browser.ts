import { spawn } from "node:child_process";

/**
 * Opens a URL in the user's browser when there is one to open: a desktop session on Linux
 * (DISPLAY or WAYLAND_DISPLAY), macOS, or Windows. Never fails: the URL is printed anyway.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ["xdg-open", [url]]
          : [undefined, []];
  if (command === undefined) return false;
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
