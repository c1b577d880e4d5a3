import type * as z from "zod";
import { AuthError, type AuthStepName } from "./errors.ts";

/** Which document is being read, for the words of its errors. */
export type DocumentKind = { step: AuthStepName; rule: string; what: string };

/** Reads a 200 JSON document of the expected shape, or fails saying what the server sent instead. */
export async function readJson<T>(
  url: string,
  response: Response,
  schema: z.ZodType<T>,
  kind: DocumentKind,
): Promise<T> {
  const text = await response.text();
  if (response.status !== 200) {
    throw new AuthError(
      kind.step,
      kind.rule,
      `The ${kind.what} at ${url} answered HTTP ${response.status}, not 200.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AuthError(
      kind.step,
      kind.rule,
      `The ${kind.what} at ${url} is not JSON; the server's owner must serve a JSON object there.`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join(".")}"` : "the document";
    throw new AuthError(
      kind.step,
      kind.rule,
      `The ${kind.what} at ${url} is malformed: ${where}: ${issue?.message ?? "invalid"}.`,
    );
  }
  return parsed.data;
}
