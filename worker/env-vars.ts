/** A string variable or secret of the Worker, if set (library users' `Env` types vary). */
export function readVar(env: Cloudflare.Env, name: string): string | undefined {
  const value: unknown = Reflect.get(env, name);
  return typeof value === "string" ? value : undefined;
}
