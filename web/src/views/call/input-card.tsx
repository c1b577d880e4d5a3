import { useState } from "preact/hooks";
import type { CreateMessageParams, ElicitParams } from "../../../../shared/client/index.ts";
import { isRecord } from "../../lib/json.ts";
import { safeHref } from "../../lib/markdown.ts";
import { validate } from "../../lib/schema/validate.ts";
import { patternRound } from "../../state/pattern-checks.ts";
import type { PendingInput } from "../../state/inputs.ts";
import { RequestEditor } from "../form/request-editor.tsx";

/** The form's members that an elicitation answer may carry: strings, numbers, booleans, string lists. */
function elicitContent(value: unknown): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [key, member] of Object.entries(isRecord(value) ? value : {})) {
    if (typeof member === "string" || typeof member === "number" || typeof member === "boolean")
      content[key] = member;
    else if (Array.isArray(member) && member.every((m) => typeof m === "string"))
      content[key] = member;
  }
  return content;
}

function ElicitationCard({
  input,
  params,
}: {
  input: Extract<PendingInput, { kind: "elicitation" }>;
  params: ElicitParams;
}) {
  const schema = params.mode === "url" ? undefined : params.requestedSchema;
  const [value, setValue] = useState<unknown>(() => {
    const props = schema?.properties ?? {};
    return Object.fromEntries(
      Object.entries(props)
        .filter(([, p]) => "default" in p)
        .map(([k, p]) => [k, p.default]),
    );
  });
  const [draftOk, setDraftOk] = useState(true);
  void patternRound.value;
  const problems = schema ? validate(schema, value).filter((p) => !p.unchecked) : [];
  const url = params.mode === "url" ? safeHref(params.url) : undefined;
  return (
    <section class="input-card" aria-label="The server asks for input">
      <h4>
        The server asks: <span class="input-message">{params.message}</span>
      </h4>
      <p class="muted small">elicitation/create · input “{input.key}”</p>
      {schema ? (
        <RequestEditor
          schema={schema}
          value={value}
          onChange={setValue}
          onDraftState={setDraftOk}
          idPrefix={`elicit-${input.id}`}
          fieldPrefix={`e${input.id}`}
        />
      ) : url ? (
        <p>
          Open{" "}
          <a href={url} target="_blank" rel="noopener noreferrer">
            {url}
          </a>
          , finish there, then accept.
        </p>
      ) : (
        <p class="banner warn">
          The URL is not http(s); it is not offered as a link:{" "}
          {params.mode === "url" ? params.url : ""}
        </p>
      )}
      <div class="button-row">
        <button
          type="button"
          class="primary"
          disabled={!draftOk || problems.length > 0}
          onClick={() =>
            input.answer(
              schema ? { action: "accept", content: elicitContent(value) } : { action: "accept" },
            )
          }
        >
          Accept
        </button>
        <button type="button" onClick={() => input.answer({ action: "decline" })}>
          Decline
        </button>
        <button type="button" onClick={() => input.answer({ action: "cancel" })}>
          Cancel
        </button>
      </div>
    </section>
  );
}

function SamplingCard({
  input,
  params,
}: {
  input: Extract<PendingInput, { kind: "sampling" }>;
  params: CreateMessageParams;
}) {
  const [text, setText] = useState("");
  const [model, setModel] = useState("human-in-the-playground");
  const id = `sampling-${input.id}`;
  return (
    <section class="input-card" aria-label="The server asks the client's model">
      <h4>The server asks your model for a reply</h4>
      <p class="muted small">
        sampling/createMessage · input “{input.key}” · up to {params.maxTokens} tokens
      </p>
      {params.systemPrompt ? <p class="muted">System: {params.systemPrompt}</p> : null}
      <ol class="messages">
        {params.messages.map((m, i) => (
          <li key={i}>
            <span class="badge">{m.role}</span>{" "}
            {isRecord(m.content) && typeof m.content.text === "string" ? (
              m.content.text
            ) : (
              <code>{JSON.stringify(m.content)}</code>
            )}
          </li>
        ))}
      </ol>
      <label for={`${id}-reply`}>Reply (as the assistant)</label>
      <textarea
        id={`${id}-reply`}
        rows={3}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <label for={`${id}-model`}>Model name</label>
      <input id={`${id}-model`} value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      <div class="button-row">
        <button
          type="button"
          class="primary"
          disabled={text.trim() === ""}
          onClick={() =>
            input.answer({
              role: "assistant",
              content: { type: "text", text },
              model,
              stopReason: "endTurn",
            })
          }
        >
          Send reply
        </button>
      </div>
    </section>
  );
}

/** A question from the server, answered right where the call is shown. */
export function InputCard({ input }: { input: PendingInput }) {
  return input.kind === "elicitation" ? (
    <ElicitationCard input={input} params={input.params} />
  ) : (
    <SamplingCard input={input} params={input.params} />
  );
}
