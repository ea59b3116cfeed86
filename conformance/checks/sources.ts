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
