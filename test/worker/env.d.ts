import type * as WorkerModule from "../../worker/index.ts";

declare global {
  namespace Cloudflare {
    // Types `exports` from "cloudflare:workers" as the Worker under test.
    interface GlobalProps {
      mainModule: typeof WorkerModule;
    }
  }
}
