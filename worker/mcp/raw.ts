/** A result already serialized for its era, spliced into the response without re-encoding. */
export class RawResult {
  constructor(readonly json: string) {}
}
