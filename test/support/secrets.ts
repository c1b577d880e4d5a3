/** Secrets the Worker gets in tests (never used outside them). */
export const TEST_SECRETS = {
  EDGEMCP_SECRET: "test-only-secret-0123456789abcdef0123456789",
  API_TOKENS: "token-alice=alice,token-bob=bob",
};
