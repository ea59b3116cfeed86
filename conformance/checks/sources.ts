// Where a check's rule comes from, as the reports print it.
import type { Source } from './types.js';

export const PLANT_STORE_SPEC = 'Plant Store specification';

/** A section of the Plant Store specification, e.g. spec('Create plant, rule 1'). */
export const spec = (section: string): Source => ({ document: PLANT_STORE_SPEC, section });

/** A section of an RFC, linked on rfc-editor.org. */
export const rfc = (n: number, section: string, anchor: string): Source => ({
  document: `RFC ${n}`,
  section,
  url: `https://www.rfc-editor.org/rfc/rfc${n}#${anchor}`,
});

/** RFC 9110 on who erred, which the robustness checks (robust-*.ts) quote: the client for a 4xx, the server for a 5xx. */
export const RFC9110_15_6 =
  'RFC 9110 §15.5: The 4xx (Client Error) class of status code indicates that the client seems to have erred. §15.6: The 5xx (Server Error) class of status code indicates that the server is aware that it has erred or is incapable of performing the requested method.';
