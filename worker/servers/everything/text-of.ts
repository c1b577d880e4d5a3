/** The text of a sampled message's content block, or the block as JSON when it is not text. */
export const textOf = (content: unknown) =>
  typeof content === "object" && content !== null && "text" in content
    ? String(content.text)
    : JSON.stringify(content);
