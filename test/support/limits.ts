/**
 * Per-caller limits for test runs of the whole Worker: every test caller is the same anonymous
 * address, so the deployed defaults would refuse a suite's worth of requests. The limits
 * themselves are tested on their own endpoints (test/worker/mcp/limits/).
 */
export const TEST_LIMIT_VARS = {
  RATE_LIMIT_REQUESTS: "1000000",
  RATE_LIMIT_TOOL_CALLS: "1000000",
  MAX_LISTEN_STREAMS: "10000",
  MAX_LIVE_TASKS: "10000",
};
