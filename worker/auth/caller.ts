/**
 * Who is calling, as established by authentication: the subject, the roles and scopes policy
 * rules may name, `props` from sign-in, and `credential`, the `Authorization` value that proved it, for forwarding
 * to servers of the same deployment (the hub's in-process ones).
 */
export type Caller = {
  subject: string;
  roles?: readonly string[];
  scopes?: readonly string[];
  credential?: string;
  /** What sign-in stored for the caller (edgemcp/oauth): a name, upstream claims. */
  props?: Readonly<Record<string, unknown>>;
  /**
   * The credential is good at this Worker only (a token its sign-in issued for one of its
   * endpoints): the hub hands it to the servers of this Worker, never to an upstream outside it.
   */
  localCredential?: boolean;
};
