import { readdirSync, readFileSync } from "node:fs";

/** The processes in process group `pgid` (from /proc): what is left of a part after it stopped. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command (which may hold spaces) in parentheses: state, ppid, pgrp.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return members;
}

/** The resident memory of a process group, in MiB (a part: its Node process and its workerd). */
export function groupRss(pgid: number): number {
  let kib = 0;
  for (const pid of groupMembers(pgid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return kib / 1024;
}
