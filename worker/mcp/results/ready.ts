/** A result already serialized for its era, spliced into the response without re-encoding. */
export class RawResult {
  constructor(readonly json: string) {}
}

/**
 * A result produced by another server (the hub forwarding a call), sent on as it is: only the
 * shape 2025 clients require is adjusted. It may also be a task (`resultType: "task"`).
 */
export class ForwardedResult {
  constructor(readonly json: Record<string, unknown>) {}
}
