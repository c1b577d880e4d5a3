import { existsSync, readFileSync } from "node:fs";
import { Validator, type Schema } from "@cfworker/json-schema";

// The official schema lives beside the project (../shared/spec); a plain clone lacks it, and
// then answers are checked by shape only.
const SCHEMA_FILE = new URL("../../../shared/spec/schema-2026-07-28.json", import.meta.url);

const RESPONSE_DEFS: Record<string, string> = {
  "tools/call": "CallToolResultResponse",
  "tools/list": "ListToolsResultResponse",
  "resources/read": "ReadResourceResultResponse",
};

let defs: Record<string, Schema> | undefined;
const validators = new Map<string, Validator>();

/** Whether answers are checked against the official 2026-07-28 schema. */
export function haveSchema(): boolean {
  if (defs === undefined && existsSync(SCHEMA_FILE)) {
    defs = (JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as { $defs: Record<string, Schema> })
      .$defs;
  }
  return defs !== undefined;
}

function validator(def: string): Validator {
  let found = validators.get(def);
  if (!found) {
    found = new Validator({ $ref: `#/$defs/${def}`, $defs: defs } as Schema, "2020-12", false);
    validators.set(def, found);
  }
  return found;
}

/** Throws when a message the server sent breaks the official schema. */
export function checkWire(message: Record<string, unknown>, method: string): void {
  if (!haveSchema()) return;
  const def = "method" in message ? "ProgressNotification" : RESPONSE_DEFS[method];
  if (def === undefined) throw new Error(`No schema definition for ${method} answers.`);
  const outcome = validator(def).validate(message);
  if (!outcome.valid) {
    const errors = outcome.errors.slice(0, 3).map((e) => `${e.instanceLocation}: ${e.error}`);
    throw new Error(`The answer breaks the 2026-07-28 schema (${def}): ${errors.join("; ")}`);
  }
}
