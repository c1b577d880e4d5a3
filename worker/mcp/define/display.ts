import type { Icon } from "../../../shared/protocol/content.ts";

/** What clients may show of a tool, resource, template or prompt besides its name. */
export type Display = {
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
};
