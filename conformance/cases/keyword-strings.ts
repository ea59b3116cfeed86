// The cases of the string keywords (JSON Schema Validation 2020-12 §6.3:
// minLength, maxLength, pattern) and of format, whose integer formats
// (int32, int64) bound a number instead.
import { integerRange } from '../../spec/formats.js';
import { FORMAT_SAMPLES, patternSamples, stringsOfLength } from './schema-values.js';
import { numberValue } from './number-values.js';
import { show, stringStems } from './keyword-sites.js';
import type { Proposal, ProposalSite, Proposer } from './keyword-proposals.js';

/** minLength and maxLength: strings of the bound's length, inside, and one character past it, outside. */
function proposeLength(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { model, site, current, inside, outside } = at;
  if (typeof value !== 'number') return [];
  const stems = stringStems(model, site, current);
  const [ins, outs] = keyword === 'minLength' ? [value, value - 1] : [value, value + 1];
  return [
    ...stringsOfLength(ins, stems).map((s) => inside(s, `of ${ins} characters (${keyword} ${value})`)),
    ...(outs >= 0
      ? stringsOfLength(outs, stems).map((s) => outside(s, `of ${outs} characters (${keyword} ${value})`))
      : []),
  ];
}

/** pattern: the base's string and samples that match, inside; strings one edit away that do not, outside. */
function proposePattern(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { current, inside, outside } = at;
  if (typeof value !== 'string') return [];
  const stem = typeof current === 'string' ? current : 'plant';
  const ins = [...(typeof current === 'string' ? [current] : []), ...patternSamples(value)];
  const outs = [
    '',
    ' ',
    '!',
    'x',
    '0',
    `${stem} `,
    ` ${stem}`,
    `${stem}\n`,
    `${stem}!`,
    stem.toUpperCase(),
    stem.toLowerCase(),
    `${stem}${stem}`,
    stem.slice(1),
  ];
  return [
    ...ins.map((s) => inside(s, `${show(s)} (matches ${value})`)),
    ...outs.map((s) => outside(s, `${show(s)} (does not match ${value})`)),
  ];
}

/** format: an integer format's smallest and largest values and one past each; a string format's samples on each side. */
function proposeFormat(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { inside, outside } = at;
  if (typeof value !== 'string') return [];
  const range = integerRange(value);
  if (range) {
    return [
      inside(numberValue({ n: range[0], d: 1n }), `${range[0]}, the smallest ${value}`),
      inside(numberValue({ n: range[1], d: 1n }), `${range[1]}, the largest ${value}`),
      outside(numberValue({ n: range[0] - 1n, d: 1n }), `${range[0] - 1n}, one below ${value}`),
      outside(numberValue({ n: range[1] + 1n, d: 1n }), `${range[1] + 1n}, one above ${value}`),
    ];
  }
  const samples = FORMAT_SAMPLES[value];
  return samples
    ? [
        ...samples.inside.map((s) => inside(s, `${show(s)} (a ${value})`)),
        ...samples.outside.map((s) => outside(s, `${show(s)} (not a ${value})`)),
      ]
    : [];
}

export const STRING_PROPOSERS: Record<string, Proposer> = {
  minLength: proposeLength,
  maxLength: proposeLength,
  pattern: proposePattern,
  format: proposeFormat,
};
