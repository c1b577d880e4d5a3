// The ops tools import it from here (worker/servers/ops/index.ts); the one sleep is shared.
export { sleep } from "../../../shared/sleep.ts";
