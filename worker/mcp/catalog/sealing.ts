import { errorText } from "../../../shared/error-text.ts";
import { HttpError } from "../../http/http-error.ts";
import { handleOwner, SealedHandles } from "../../state/handles.ts";
import { keyringWhenNeeded, refuseWeakConfiguredSecrets } from "../../state/keyring.ts";
import { Sealer } from "../../state/sealer.ts";
import type { List, PageFrame } from "../context/paging.ts";
import { sealedPages } from "./pages.ts";
import type { Sealing } from "../context/handles.ts";

/**
 * Sealing with the Worker's `EDGEMCP_SECRET` (and `EDGEMCP_PREVIOUS_SECRETS`, still accepted
 * after a rotation): `ctx.handles`, list cursors and paging past the first page, requestState. Give it to
 * the servers that seal, `defineServer({ ..., sealing })`; a server without it links none of
 * this and needs no secret.
 *
 * Outside localhost every request of such a server first refuses secrets anyone could know
 * (500, saying how to set a real one), whether or not it seals anything: a deployment with the
 * example secret fails at once, not at its first paged list. A missing secret fails the request
 * that first needs one.
 */
export const sealing: Sealing = {
  seals(env, server, subject, local) {
    if (!local) {
      try {
        refuseWeakConfiguredSecrets(env);
      } catch (error) {
        const message = errorText(error);
        console.error(message);
        throw new HttpError(500, `Server misconfigured: ${message}`);
      }
    }
    const sealer = new Sealer(keyringWhenNeeded(env, { local }));
    const handles = new SealedHandles(sealer, handleOwner(server, subject));
    return Object.assign(handles, {
      pages: (frame: (list: List) => PageFrame) => {
        const pager = sealedPages(frame);
        return (list: List, cursor: string | undefined) => pager(list, cursor, handles);
      },
    });
  },
};
