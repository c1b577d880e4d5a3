// Tests a server's `pattern` against a value away from the page's thread: a pattern that
// backtracks without end holds only this worker, which the page ends when its time is up.
import { matchPattern, type PatternJob } from "./pattern-match.ts";

self.onmessage = (event: MessageEvent<PatternJob>) => {
  self.postMessage({ id: event.data.id, started: true });
  self.postMessage(matchPattern(event.data));
};
