// The cluster's entry modules, written beside the deploy bundle: each imports the bundle as it
// is and adds a test-only switch around it. These files exist only in the cluster's temporary
// folder, so the deployed Worker has neither switch.
//
// The Durable Object host: each class is exported as a subclass whose methods (RPC, fetch,
// alarm) first wait the delay set for that class; `POST /__cluster/slow?class=<name>&ms=<n>` on
// the host's own port sets it (0 ends it).
//
// A Worker process: its clock runs `CLUSTER_CLOCK_OFFSET_MS` (a binding) ahead of the machine's
// (behind when negative): `Date` is replaced by one whose now is offset, as a host whose clock
// drifted would give every module.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** The host's entry module, written into `bundle` next to index.js; returns its path. */
export function writeHostEntry(bundle: string, classNames: string[]): string {
  const exports = classNames
    .map((name) => `export const ${name} = slowed("${name}", app.${name});`)
    .join("\n");
  const source = `import * as app from "./index.js";
const delays = new Map();
const wait = (name) => {
  const ms = delays.get(name) ?? 0;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
};
function slowed(name, Base) {
  const Slowed = class extends Base {};
  for (const key of Object.getOwnPropertyNames(Base.prototype)) {
    const method = Base.prototype[key];
    if (key === "constructor" || typeof method !== "function") continue;
    Object.defineProperty(Slowed.prototype, key, {
      configurable: true,
      writable: true,
      value: async function (...args) {
        await wait(name);
        return method.apply(this, args);
      },
    });
  }
  return Slowed;
}
${exports}
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname !== "/__cluster/slow") return app.default.fetch(request, env, ctx);
    delays.set(url.searchParams.get("class"), Number(url.searchParams.get("ms")));
    return new Response("ok\\n");
  },
};
`;
  const path = join(bundle, "cluster-host.js");
  writeFileSync(path, source);
  return path;
}

/** A Worker process's entry module, written into `bundle`; returns its path. */
export function writeWorkerEntry(bundle: string): string {
  const source = `import app from "./index.js";
const RealDate = Date;
let offset = 0;
class OffsetDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = OffsetDate;
export default {
  fetch(request, env, ctx) {
    offset = Number(env.CLUSTER_CLOCK_OFFSET_MS ?? 0) || 0;
    return app.fetch(request, env, ctx);
  },
};
`;
  const path = join(bundle, "cluster-worker.js");
  writeFileSync(path, source);
  return path;
}
