import * as z from "zod/mini";
import type { InputHandlers } from "../shared/client/index.ts";
import type { ElicitParams } from "../shared/protocol/input-requests.ts";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
} from "../shared/protocol/input.ts";
import "../shared/zod-locale.ts";
import { acceptExample } from "./answer-hints.ts";
import { println, type Io } from "./io.ts";
import { UsageError } from "./options.ts";

/**
 * `--answer`: what the command answers when the server asks for input during a call. Each
 * member is the answer to every request of its kind; a string stands for a text reply from the
 * model, a list of URIs for the roots.
 */
const AnswersSchema = z.strictObject({
  elicitation: z.optional(ElicitResultSchema),
  sampling: z.optional(z.union([z.string(), CreateMessageResultSchema])),
  roots: z.optional(z.union([z.array(z.string()), ListRootsResultSchema])),
});
export type Answers = z.infer<typeof AnswersSchema>;

export const ANSWER_EXAMPLE = `{"elicitation":{"action":"accept","content":{"ok":true}},"sampling":"Paris.","roots":["file:///work"]}`;

/** The `--answer` JSON checked; a mistake names the member and what it takes. */
export function parseAnswers(text: string): Answers {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : "";
    throw new UsageError(
      `--answer is not valid JSON (${why}). It takes an object like ${ANSWER_EXAMPLE}.`,
    );
  }
  const parsed = z.safeParse(AnswersSchema, value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.map(String).join(".")}` : "";
  throw new UsageError(
    `--answer${where}: ${issue?.message ?? "invalid"}. It takes an object like ${ANSWER_EXAMPLE}.`,
  );
}

/** The fields a form elicitation asks for, for the person reading stderr. */
function fieldsOf(params: ElicitParams): string {
  if (params.mode === "url") return `open ${params.url}`;
  const required = new Set(params.requestedSchema.required ?? []);
  return Object.entries(params.requestedSchema.properties)
    .map(([name, field]) => {
      const type = typeof field.type === "string" ? field.type : "value";
      return `${name} (${type}${required.has(name) ? ", required" : ""})`;
    })
    .join(", ");
}

function samplingAnswer(answer: string | CreateMessageResult): CreateMessageResult {
  return typeof answer === "string"
    ? {
        role: "assistant",
        content: { type: "text", text: answer },
        model: "edgemcp-cli",
        stopReason: "endTurn",
      }
    : answer;
}

function rootsAnswer(answer: string[] | ListRootsResult): ListRootsResult {
  return Array.isArray(answer) ? { roots: answer.map((uri) => ({ uri })) } : answer;
}

/**
 * The handlers `edgemcp call` answers input requests with, each request told on stderr.
 * Elicitation is always declared: without an answer it is declined, which a server must
 * accept as the user saying no. Sampling and roots are declared only when `--answer` gives
 * them, so a server that needs them knows the command cannot.
 */
export function answerHandlers(answers: Answers | undefined, io: Io): InputHandlers {
  const handlers: InputHandlers = {
    elicitation: async (params, { key }) => {
      println(io.stderr, `The server asks (elicitation "${key}"): ${params.message}`);
      println(io.stderr, `  it wants: ${fieldsOf(params)}`);
      const answer: ElicitResult = answers?.elicitation ?? { action: "decline" };
      println(
        io.stderr,
        answers?.elicitation
          ? `  answered: ${answer.action} (from --answer)`
          : `  declined: no --answer given; to accept, pass --answer '${acceptExample(params)}'`,
      );
      return answer;
    },
  };
  const sampling = answers?.sampling;
  if (sampling !== undefined) {
    handlers.sampling = async (params, { key }) => {
      const asked = params.messages.length;
      println(
        io.stderr,
        `The server asks the model (sampling "${key}", ${asked} message${asked === 1 ? "" : "s"}); answered from --answer`,
      );
      return samplingAnswer(sampling);
    };
  }
  const roots = answers?.roots;
  if (roots !== undefined) {
    handlers.roots = async ({ key }) => {
      println(io.stderr, `The server asks for the roots (roots "${key}"); answered from --answer`);
      return rootsAnswer(roots);
    };
  }
  return handlers;
}
