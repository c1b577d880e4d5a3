import { existsSync, readFileSync } from "node:fs";
import { Validator, type Schema } from "@cfworker/json-schema";
import type { Era } from "./contenders.ts";

// The official schemas live beside the project (../shared/spec); a plain clone lacks them, and
// then answers are checked by shape only.
const SCHEMA_FILES: Record<Era, URL> = {
  "2026": new URL("../../../shared/spec/schema-2026-07-28.json", import.meta.url),
  "2025": new URL("../../../shared/spec/schema-2025-11-25.json", import.meta.url),
};

// 2026-07-28 names whole responses; the 2025 schema has the JSON-RPC response and the result apart.
const RESPONSE_DEFS: Record<Era, Record<string, string>> = {
  "2026": {
    "tools/call": "CallToolResultResponse",
    "tools/list": "ListToolsResultResponse",
    "resources/read": "ReadResourceResultResponse",
  },
  "2025": {
    "tools/call": "CallToolResult",
    "tools/list": "ListToolsResult",
    "resources/read": "ReadResourceResult",
  },
};

const defs = new Map<Era, Record<string, Schema> | undefined>();
const validators = new Map<string, Validator>();

function defsOf(era: Era): Record<string, Schema> | undefined {
  if (!defs.has(era)) {
    const file = SCHEMA_FILES[era];
    defs.set(
      era,
      existsSync(file)
        ? (JSON.parse(readFileSync(file, "utf8")) as { $defs: Record<string, Schema> }).$defs
        : undefined,
    );
  }
  return defs.get(era);
}

/** Whether answers are checked against the official schema of the era (2026-07-28 by default). */
export function haveSchema(era: Era = "2026"): boolean {
  return defsOf(era) !== undefined;
}

function validate(era: Era, def: string, value: unknown): void {
  const key = `${era} ${def}`;
  let found = validators.get(key);
  if (!found) {
    found = new Validator(
      { $ref: `#/$defs/${def}`, $defs: defsOf(era) } as Schema,
      "2020-12",
      false,
    );
    validators.set(key, found);
  }
  const outcome = found.validate(value);
  if (!outcome.valid) {
    const errors = outcome.errors.slice(0, 3).map((e) => `${e.instanceLocation}: ${e.error}`);
    const version = era === "2026" ? "2026-07-28" : "2025-11-25";
    throw new Error(`The answer breaks the ${version} schema (${def}): ${errors.join("; ")}`);
  }
}

/** Throws when a message the server sent breaks the official schema of the era. */
export function checkWire(
  message: Record<string, unknown>,
  method: string,
  era: Era = "2026",
): void {
  if (!haveSchema(era)) return;
  if ("method" in message) return validate(era, "ProgressNotification", message);
  const def = RESPONSE_DEFS[era][method];
  if (def === undefined) throw new Error(`No schema definition for ${method} answers.`);
  if (era === "2026") return validate(era, def, message);
  validate(era, "JSONRPCResultResponse", message);
  validate(era, def, message.result);
}
