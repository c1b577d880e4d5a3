/**
 * A small Markdown reader that produces a tree, never HTML: the view renders the tree as
 * elements, so server text cannot inject markup. It covers what tool and resource text uses:
 * headings, paragraphs, fenced code, lists, quotes, rules, tables, emphasis, code and links.
 */
export type Inline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong" | "em"; c: Inline[] }
  | { t: "link"; href: string | undefined; c: Inline[] };

export type Block =
  | { t: "h"; level: number; c: Inline[] }
  | { t: "p"; c: Inline[] }
  | { t: "code"; lang: string; v: string }
  | { t: "list"; ordered: boolean; items: Inline[][] }
  | { t: "quote"; c: Block[] }
  | { t: "hr" }
  | { t: "table"; head: Inline[][]; rows: Inline[][][] };

/** Only these link targets become links; anything else (javascript:, data:) stays text. */
export function safeHref(href: string): string | undefined {
  return /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : undefined;
}

// Underscore emphasis only at word edges: snake_case names stay as they are.
const INLINE =
  /`([^`]+)`|\*\*(.+?)\*\*|(?<!\w)__(.+?)__(?!\w)|\*([^*\s][^*]*?)\*|(?<!\w)_([^_\s][^_]*?)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>/;

/** Inline spans of one line or paragraph. */
export function inlines(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest !== "") {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ t: "text", v: rest });
      break;
    }
    if (m.index > 0) out.push({ t: "text", v: rest.slice(0, m.index) });
    if (m[1] !== undefined) out.push({ t: "code", v: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined)
      out.push({ t: "strong", c: inlines(m[2] ?? m[3]!) });
    else if (m[4] !== undefined || m[5] !== undefined)
      out.push({ t: "em", c: inlines(m[4] ?? m[5]!) });
    else if (m[6] !== undefined) out.push({ t: "link", href: safeHref(m[7]!), c: inlines(m[6]) });
    else out.push({ t: "link", href: safeHref(m[8]!), c: [{ t: "text", v: m[8]! }] });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => inlines(c.trim()));
const LIST = /^\s*([-*+]|\d+[.)])\s+(.*)$/;

/** Parses Markdown text into blocks. */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++)
        body.push(lines[i]!);
      blocks.push({ t: "code", lang: fence[2] ?? "", v: body.join("\n") });
      i++;
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ t: "h", level: heading[1]!.length, c: inlines(heading[2]!) });
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (line.trimStart().startsWith(">")) {
      const quoted: string[] = [];
      for (; i < lines.length && lines[i]!.trimStart().startsWith(">"); i++)
        quoted.push(lines[i]!.trimStart().replace(/^>\s?/, ""));
      blocks.push({ t: "quote", c: parseMarkdown(quoted.join("\n")) });
      continue;
    }
    if (line.includes("|") && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? "")) {
      const head = cells(line);
      const rows: Inline[][][] = [];
      for (i += 2; i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== ""; i++)
        rows.push(cells(lines[i]!));
      blocks.push({ t: "table", head, rows });
      continue;
    }
    const item = LIST.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]!);
      const items: Inline[][] = [];
      for (; i < lines.length; i++) {
        const next = LIST.exec(lines[i]!);
        if (next) items.push(inlines(next[2]!));
        else if (/^\s{2,}\S/.test(lines[i]!) && items.length > 0)
          items[items.length - 1]!.push({ t: "text", v: " " }, ...inlines(lines[i]!.trim()));
        else break;
      }
      blocks.push({ t: "list", ordered, items });
      continue;
    }
    const para: string[] = [];
    for (
      ;
      i < lines.length &&
      lines[i]!.trim() !== "" &&
      !/^(#{1,6}\s|\s*```|\s*>)/.test(lines[i]!) &&
      !LIST.exec(lines[i]!);
      i++
    )
      para.push(lines[i]!.trim());
    // A line no rule claimed still moves the reader on.
    if (para.length === 0) para.push(lines[i++]!.trim());
    blocks.push({ t: "p", c: inlines(para.join(" ")) });
  }
  return blocks;
}
