import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

// zod/mini carries no error messages ("Invalid input" for everything); classic zod sets English
// when it loads. The runtime's errors quote zod's messages, so English is set here too, unless the
// application already chose a locale or its own messages.
const current = z.config();
if (!current.localeError && !current.customError) z.config(en());
