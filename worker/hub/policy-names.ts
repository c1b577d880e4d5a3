// Tool and prompt names are 1-128 of these; resource URIs, which a hub does not rename, are not.
const MEMBER_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Policy names for a server a hub mounts as `upstream`: its bare names are also known as
 * `<upstream><separator><name>`, so a rule written for the hub's name holds on the server's
 * own endpoint (`mcpApp(server, { policy: accessPolicy({ names: hubNamesOf("ops") }) })`).
 */
export function hubNamesOf(upstream: string, separator = "__") {
  return (name: string): readonly string[] =>
    MEMBER_NAME.test(name) ? [`${upstream}${separator}${name}`] : [];
}

/**
 * Policy names for a hub: a prefixed name is also known by its bare name on its server, so a
 * rule written for the server's own endpoint holds through the hub. The prefix ends at the
 * first separator.
 */
export function bareNamesOf(separator = "__") {
  return (name: string): readonly string[] => {
    const at = name.indexOf(separator);
    return MEMBER_NAME.test(name) && at > 0 ? [name.slice(at + separator.length)] : [];
  };
}
