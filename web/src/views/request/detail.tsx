import { useState } from "preact/hooks";
import { UriTemplate } from "../../../../shared/uri-template.ts";
import type { Item } from "../../lib/catalog-view.ts";
import { encodePermalink, type RequestKind } from "../../lib/permalink.ts";
import { calls, expandTemplate, latestCall } from "../../state/calls.ts";
import { headerMap, shareableHeaders } from "../../state/connection.ts";
import { saveRequest } from "../../state/history.ts";
import {
  noteDraftParses,
  selectedRequest,
  sendSelected,
  type PendingRequest,
} from "../../state/request.ts";
import { drafts, notify, session, timeoutSeconds } from "../../state/store.ts";
import { exchanges } from "../../state/wire.ts";
import { CallView } from "../call/call-view.tsx";
import { CompletingArgs } from "./completing-args.tsx";
import { copying, copyText } from "../../state/copy.ts";
import { ItemHeader } from "./item-header.tsx";
import { RequestEditor } from "../form/request-editor.tsx";
import { ResourceSubscribe } from "./resource-subscribe.tsx";
import { SchemaSummary } from "./schema-summary.tsx";
import { TaskMode } from "./task-mode.tsx";
import { TokenHint } from "../connection/token-hint.tsx";

function ActionBar({ request }: { request: PendingRequest }) {
  const { kind, name, args, blocked } = request;
  const [saving, setSaving] = useState(false);
  const [label, setLabel] = useState("");
  const current = session.value;
  const last = latestCall(kind, name);
  const firstExchange = last && exchanges.value.find((e) => e.traceId === last.traceId);
  const link = () => {
    if (!current) return;
    const hash = encodePermalink({
      url: current.url,
      era: current.era,
      kind,
      name,
      args,
      headers: headerMap(),
      shareable: shareableHeaders(),
    });
    history.replaceState(null, "", hash);
    void copyText(
      location.href,
      "the link to this request (header values left out unless ticked “in links”)",
    );
  };
  return (
    <div class="action-bar">
      <button
        type="button"
        class="primary"
        disabled={!request.ready}
        title={blocked ?? "Send (Ctrl+Enter)"}
        onClick={sendSelected}
        data-action="send"
      >
        {kind === "tool" ? "Call tool" : kind === "prompt" ? "Get prompt" : "Read resource"}
      </button>
      {blocked ? (
        <span class="muted small">{blocked}</span>
      ) : (
        <span class="muted small">Ctrl+Enter</span>
      )}
      <label
        class="timeout small"
        title="Cancels the call after this long without an answer or progress"
      >
        timeout{" "}
        <input
          type="number"
          min={1}
          max={3600}
          value={timeoutSeconds.value}
          onInput={(e) => {
            const seconds = Number(e.currentTarget.value);
            if (Number.isFinite(seconds) && seconds >= 1) timeoutSeconds.value = seconds;
          }}
        />{" "}
        s
      </label>
      <div class="more-actions">
        <button
          type="button"
          disabled={!firstExchange}
          title={
            firstExchange
              ? "The last request exactly as sent"
              : "Send once to copy the exact request"
          }
          onClick={() =>
            firstExchange &&
            (copying.value = {
              url: firstExchange.url,
              method: firstExchange.httpMethod,
              headers: firstExchange.requestHeaders,
              body: firstExchange.requestBody,
            })
          }
        >
          Copy as curl / fetch
        </button>
        <button type="button" onClick={link} disabled={!current}>
          Permalink
        </button>
        {saving ? (
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!current || label.trim() === "") return;
              saveRequest({ label: label.trim(), url: current.url, kind, name, args });
              notify(`Saved “${label.trim()}”.`);
              setSaving(false);
              setLabel("");
            }}
          >
            <label class="sr-only" for="save-label">
              Name for the saved request
            </label>
            <input
              id="save-label"
              value={label}
              placeholder="Name"
              onInput={(e) => setLabel(e.currentTarget.value)}
            />
            <button type="submit">Save</button>
          </form>
        ) : (
          <button type="button" onClick={() => setSaving(true)} disabled={!current}>
            Save…
          </button>
        )}
      </div>
    </div>
  );
}

function Calls({
  kind,
  name,
  outputSchema,
}: {
  kind: RequestKind;
  name: string;
  outputSchema?: Record<string, unknown> | undefined;
}) {
  const mine = calls.value.filter((c) => c.kind === kind && c.name === name);
  const [latest, ...older] = mine;
  if (!latest) return null;
  return (
    <>
      <CallView call={latest} outputSchema={outputSchema} />
      {older.length > 0 ? (
        <p class="muted small">
          {older.length} earlier call{older.length === 1 ? "" : "s"} in History.
        </p>
      ) : null}
    </>
  );
}

/** The selected item: what it is, its arguments editor, the send bar and its latest call. */
export function Detail({ entry }: { entry: Item }) {
  const request = selectedRequest.value;
  const args = request?.args;
  const setArgs = (value: unknown) => (drafts.value = { ...drafts.value, [entry.key]: value });
  let editor = null;
  if (entry.kind === "tool") {
    editor = (
      <>
        <TokenHint tool={entry.item} />
        <SchemaSummary schema={entry.item.inputSchema} title="Input schema" />
        {entry.item.outputSchema ? (
          <SchemaSummary schema={entry.item.outputSchema} title="Output schema" />
        ) : null}
        <RequestEditor
          key={entry.key}
          schema={entry.item.inputSchema}
          value={args ?? {}}
          onChange={setArgs}
          onDraftState={(parses) => noteDraftParses(entry.key, parses)}
          idPrefix="args"
        />
        <TaskMode tool={entry.item} />
      </>
    );
  } else if (entry.kind === "resource") {
    editor = <ResourceSubscribe uri={entry.item.uri} />;
  } else if (entry.kind === "prompt") {
    const specs = (entry.item.arguments ?? []).map((a) => ({
      name: a.name,
      required: a.required === true,
      ...(a.title ? { title: a.title } : {}),
      ...(a.description ? { description: a.description } : {}),
    }));
    editor = (
      <CompletingArgs
        key={entry.key}
        args={specs}
        value={args}
        onChange={setArgs}
        reference={{ type: "ref/prompt", name: entry.item.name }}
        idPrefix="prompt-arg"
      />
    );
  } else if (entry.kind === "template") {
    const variables = new UriTemplate(entry.item.uriTemplate).variables;
    const uri = expandTemplate(entry.item.uriTemplate, args);
    editor = (
      <>
        <CompletingArgs
          key={entry.key}
          args={variables.map((v) => ({ name: v, required: true }))}
          value={args}
          onChange={setArgs}
          reference={{ type: "ref/resource", uri: entry.item.uriTemplate }}
          idPrefix="template-var"
        />
        <p class="small">
          Reads <code>{uri}</code>
        </p>
      </>
    );
  }
  return (
    <article class="detail" aria-label={`${entry.kind} ${request?.name ?? ""}`}>
      <ItemHeader entry={entry} />
      {editor}
      {request ? <ActionBar request={request} /> : null}
      {request ? (
        <Calls
          kind={request.kind}
          name={request.name}
          outputSchema={entry.kind === "tool" ? entry.item.outputSchema : undefined}
        />
      ) : null}
    </article>
  );
}
