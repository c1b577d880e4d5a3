import { readdirSync, readFileSync } from "node:fs";

/** The resident memory of the workerd processes under this one, in MiB. */
export function workerdRss(): number {
  let kib = 0;
  const children = new Map<number, number[]>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, "utf8"));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    queue.push(...(children.get(pid) ?? []));
    if (!commands.get(pid)?.includes("workerd")) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return kib / 1024;
}
