import { useState } from "preact/hooks";
import type { ContentBlock } from "../../../../shared/protocol/content.ts";
import { classifyBlock, type Shown } from "../../lib/classify.ts";
import { Markdown } from "../widgets/markdown.tsx";

/** Text with a Markdown toggle when it looks like Markdown (shown rendered by default then). */
export function Text({ text, markdown }: { text: string; markdown: boolean }) {
  const [asMarkdown, setAsMarkdown] = useState(markdown);
  return (
    <div class="text-block">
      {markdown ? (
        <button
          type="button"
          class="link-button small right"
          onClick={() => setAsMarkdown(!asMarkdown)}
        >
          {asMarkdown ? "show source" : "render Markdown"}
        </button>
      ) : null}
      {asMarkdown ? <Markdown text={text} /> : <pre class="plain">{text}</pre>}
    </div>
  );
}

/** One content block as a person should see it; links read the resource when clicked. */
export function ShownBlock({ shown, onRead }: { shown: Shown; onRead: (uri: string) => void }) {
  switch (shown.kind) {
    case "text":
      return <Text text={shown.text} markdown={shown.markdown} />;
    case "image":
      return (
        <img
          class="media"
          src={shown.src}
          alt={`Image (${shown.mimeType}) returned by the server`}
        />
      );
    case "audio":
      return (
        <audio class="media" controls src={shown.src} aria-label={`Audio (${shown.mimeType})`} />
      );
    case "link":
      return (
        <div class="resource-link">
          <span class="badge">link</span>
          <button
            type="button"
            class="link-button"
            onClick={() => onRead(shown.uri)}
            title={`Read ${shown.uri}`}
          >
            {shown.title ?? shown.name}
          </button>
          <code class="muted small">{shown.uri}</code>
          {shown.mimeType ? <span class="muted small"> {shown.mimeType}</span> : null}
          {shown.description ? <div class="muted small">{shown.description}</div> : null}
        </div>
      );
    case "embedded":
      return (
        <div class="embedded">
          <div class="embedded-head">
            <span class="badge">resource</span> <code>{shown.uri}</code>{" "}
            <span class="muted small">{shown.mimeType ?? ""}</span>
          </div>
          {shown.text !== undefined ? (
            <Text text={shown.text} markdown={shown.mimeType === "text/markdown"} />
          ) : shown.media?.kind === "image" ? (
            <img class="media" src={shown.media.src} alt={`Embedded image ${shown.uri}`} />
          ) : shown.media?.kind === "audio" ? (
            <audio class="media" controls src={shown.media.src} />
          ) : (
            <p class="muted">
              Binary, {shown.bytes} bytes
              {shown.save ? (
                <>
                  {" "}
                  ·{" "}
                  <a href={shown.save.href} download={shown.save.fileName}>
                    Save as {shown.save.fileName}
                  </a>
                </>
              ) : null}
            </p>
          )}
        </div>
      );
    case "invalid":
      return (
        <div class="banner error">
          {shown.reason}
          <pre class="plain">{JSON.stringify(shown.json, null, 2)}</pre>
        </div>
      );
  }
}

export function Blocks({
  blocks,
  onRead,
}: {
  blocks: ContentBlock[];
  onRead: (uri: string) => void;
}) {
  return (
    <div class="blocks">
      {blocks.map((b, i) => (
        <ShownBlock key={i} shown={classifyBlock(b)} onRead={onRead} />
      ))}
    </div>
  );
}
