// What a lint of the document found, as the reports carry it (lint.ts makes
// it from Spectral's results; lint-cache.ts keeps and reads it back).
export const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

export interface LintFinding {
  code: string;
  /** For a run: a house rule's error is a warning. */
  severity: (typeof SEVERITIES)[number];
  message: string;
  path: string;
}
