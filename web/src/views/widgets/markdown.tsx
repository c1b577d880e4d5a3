import type { ComponentChildren } from "preact";
import { parseMarkdown, type Block, type Inline } from "../../lib/markdown.ts";

function renderInline(nodes: Inline[]): ComponentChildren {
  return nodes.map((node, i) => {
    switch (node.t) {
      case "text":
        return node.v;
      case "code":
        return <code key={i}>{node.v}</code>;
      case "strong":
        return <strong key={i}>{renderInline(node.c)}</strong>;
      case "em":
        return <em key={i}>{renderInline(node.c)}</em>;
      case "link":
        return node.href ? (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(node.c)}
          </a>
        ) : (
          <span key={i}>{renderInline(node.c)}</span>
        );
    }
  });
}

function renderBlock(block: Block, i: number): ComponentChildren {
  switch (block.t) {
    case "h": {
      // Server headings sit inside the page's own; they are shown smaller, never as page headings.
      return (
        <p key={i} class={`md-h md-h${block.level}`}>
          <strong>{renderInline(block.c)}</strong>
        </p>
      );
    }
    case "p":
      return <p key={i}>{renderInline(block.c)}</p>;
    case "code":
      return (
        <pre key={i} class="code">
          <code>{block.v}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, j) => <li key={j}>{renderInline(item)}</li>);
      return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
    }
    case "quote":
      return <blockquote key={i}>{block.c.map(renderBlock)}</blockquote>;
    case "hr":
      return <hr key={i} />;
    case "table":
      return (
        <div class="table-wrap" key={i}>
          <table>
            <thead>
              <tr>
                {block.head.map((c, j) => (
                  <th key={j}>{renderInline(c)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((c, j) => (
                    <td key={j}>{renderInline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** Markdown from a server, rendered as elements (never as HTML). */
export function Markdown({ text }: { text: string }) {
  return <div class="markdown">{parseMarkdown(text).map(renderBlock)}</div>;
}
