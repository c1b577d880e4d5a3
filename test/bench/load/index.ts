import type { Options } from "../options.ts";
import type { LoadGenerator } from "./types.ts";

/** The generator the options ask for; autocannon is loaded only when used. */
export async function loadGenerator(name: Options["loadgen"]): Promise<LoadGenerator> {
  if (name === "wrk") return (await import("./wrk.ts")).wrk;
  return (await import("./autocannon.ts")).autocannonGenerator;
}
