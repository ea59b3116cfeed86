// The HTML report (--html FILE): one self-contained file that works opened
// from disk. No network loads: inline CSS and script, pinned by a Content
// Security Policy with their hashes (default-src 'none'). The page's data,
// the run's JSON report, is embedded in a <script type="application/json">
// with every "<" escaped, so no text of a check or of a target's answer can
// close the element. Report contents come from remote targets and are
// untrusted: the page's script inserts all text with textContent, never as
// markup. This file makes the page; its script's parts are html-client.ts
// (the start) and the sections it draws (html-summary.ts, html-matrix.ts,
// html-coverage.ts).
import { createHash } from 'node:crypto';
import type { RunResult } from '../run/result.js';
import { toJsonReport } from './json.js';
import { clientMain } from './html-client.js';
import { drawCounts, drawDivergences, drawFailures, drawNotices } from './html-summary.js';
import { drawMatrix } from './html-matrix.js';
import { drawCoverage } from './html-coverage.js';

const STYLE = `
:root { --pass: #1a7f37; --non-strict: #9a6700; --fail: #cf222e; --skip: #6e7781; --error: #8250df; font-family: system-ui, sans-serif; }
body { margin: 1.5rem; color: #1f2328; background: #fff; overflow-wrap: break-word; }
@media (max-width: 40rem) { body { margin: .6rem; } }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
.meta { color: #59636e; margin: 0 0 .8rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
#matrix { width: 100%; }
th, td { border: 1px solid #d1d9e0; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.o-pass { color: var(--pass); } .o-non-strict { color: var(--non-strict); } .o-fail { color: var(--fail); font-weight: 600; } .o-skip { color: var(--skip); } .o-error { color: var(--error); font-weight: 600; }
td.cell { white-space: nowrap; }
td.cell.o-pass { background: #dafbe1; } td.cell.o-fail { background: #ffebe9; } td.cell.o-non-strict { background: #fff8c5; } td.cell.o-error { background: #fbefff; } td.cell.o-skip { background: #f6f8fa; }
.tag { font-size: .75rem; font-weight: normal; border-radius: .6rem; padding: 0 .35rem; margin-left: .3rem; background: #eaeef2; color: #1f2328; }
.tag.unexplained { background: #cf222e; color: #fff; } .tag.stale { background: #9a6700; color: #fff; }
.alert { border: 2px solid #cf222e; background: #ffebe9; padding: .5rem .8rem; margin: .5rem 0; }
.note { border: 1px solid #d1d9e0; background: #f6f8fa; padding: .5rem .8rem; margin: .5rem 0; }
#filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0; }
#filters fieldset { border: 1px solid #d1d9e0; padding: .2rem .6rem; }
.why ul { margin: 0; padding-left: 1.1rem; }
td.detail { background: #fbfcfd; font-weight: normal; color: #1f2328; }
details { margin-top: .3rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: .4rem; margin: .2rem 0; max-height: 16rem; overflow: auto; }
dl { margin: .2rem 0; } dt { font-weight: 600; margin-top: .3rem; } dd { margin: 0 0 0 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
ol.failures { padding-left: 1.4rem; }
li.failure { margin: .6rem 0; padding: .3rem .8rem; border-left: 4px solid currentColor; background: #fff; }
li.failure .cause, li.failure dl, li.failure ul { color: #1f2328; font-weight: normal; }
li.failure .cause strong { color: inherit; }
ul.consequences { margin: .2rem 0; padding-left: 1.2rem; }
ul.consequences > li { color: #1f2328; font-weight: normal; }
ul.consequences > li::marker { color: var(--fail); }
.then { margin: .4rem 0 0; font-weight: 600; color: #1f2328; }
[hidden] { display: none !important; }
`;

/** The parts of the page, in the order they are drawn. */
const PARTS = [drawCounts, drawNotices, drawFailures, drawDivergences, drawMatrix, drawCoverage];

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');

/** Data for a <script type="application/json">: no "<" at all, so nothing can end the element. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function toHtml(run: RunResult, generated = new Date().toISOString()): string {
  const script = `(${clientMain.toString()})(${PARTS.map((part) => part.toString()).join(', ')});`;
  const csp = `default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; script-src 'sha256-${sha256(script)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Plant Store conformance</title>
<style>${STYLE}</style>
</head>
<body>
<div id="app"><noscript>This report needs JavaScript to draw the matrix; the same data is in the JSON report.</noscript></div>
<script type="application/json" id="report-data">${embedJson({ ...toJsonReport(run), generated })}</script>
<script>${script}</script>
</body>
</html>
`;
}
