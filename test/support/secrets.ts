/** Bearer tokens the test Worker knows, by the subject each stands for. */
export const TEST_TOKENS = { alice: "token-alice", bob: "token-bob" } as const;

/** Secrets the Worker gets in tests (never used outside them). */
export const TEST_SECRETS = {
  EDGEMCP_SECRET: "test-only-secret-0123456789abcdef0123456789",
  API_TOKENS: Object.entries(TEST_TOKENS)
    .map(([subject, token]) => `${token}=${subject}`)
    .join(","),
};
