#!/usr/bin/env node
// node scripts/estimate-test-run.mjs [--cores 2] [--scale 1]: how long
// `npm test`'s run of the files would take, from scripts/test-costs.json,
// at 1 to 6 files at a time, by name and costliest first (the order of
// scripts/test-order.mjs). A model, not a measurement: each file alone takes
// `wall` seconds and `cpu` seconds of CPU, so it asks for cpu/wall cores
// while it runs; when the running files ask for more than the cores, all of
// them slow alike. --scale multiplies the result (docs/development.md says
// how it was fitted to a measured quiet run). Files without a cost are left
// out, and counted.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { costKey, orderByCost, readCosts } from './test-order.mjs';

const { values } = parseArgs({
  options: { cores: { type: 'string', default: '2' }, scale: { type: 'string', default: '1' } },
});
const cores = Number(values.cores);
const scale = Number(values.scale);
const root = join('dist', 'test');
const files = [];
const walk = (path) => {
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
  else if (path.endsWith('.test.js')) files.push(path);
};
walk(root);
const costs = readCosts();
const known = files.filter((file) => costs.has(costKey(file, root)));

/** The run's wall time and the share of the cores it kept busy, for the files in this order, `at` at a time. */
function simulate(order, at) {
  const queue = order.map((file) => ({ ...costs.get(costKey(file, root)), left: 1 }));
  const running = [];
  const step = 0.05;
  let time = 0;
  let busy = 0;
  while (queue.length > 0 || running.length > 0) {
    while (running.length < at && queue.length > 0) running.push(queue.shift());
    const asked = running.reduce((sum, file) => sum + file.cpu / Math.max(file.wall, 0.1), 0);
    const slowdown = Math.max(1, asked / cores);
    busy += Math.min(asked, cores) * step;
    for (const file of running) file.left -= step / (Math.max(file.wall, 0.1) * slowdown);
    time += step;
    for (let i = running.length - 1; i >= 0; i--) if (running[i].left <= 0) running.splice(i, 1);
  }
  return { seconds: time * scale, busy: busy / (cores * time) };
}

const cpu = known.reduce((sum, file) => sum + costs.get(costKey(file, root)).cpu, 0);
console.log(
  `${known.length} files with a cost (${files.length - known.length} without), ${cpu.toFixed(0)} s of CPU, on ${cores} cores, scaled by ${scale}`,
);
const show = ({ seconds, busy }) => `${seconds.toFixed(0).padStart(5)} s (${(busy * 100).toFixed(0)} % busy)`;
for (let at = 1; at <= 6; at++) {
  console.log(
    `${at} at a time: by name ${show(simulate(known, at))}, costliest first ${show(simulate(orderByCost(known, costs, root), at))}`,
  );
}
