// Preloaded with `node --import` into a process whose peak memory is
// measured (bench/harness-memory.ts): at exit it writes the process's peak
// resident set size, as the kernel counted it (getrusage's ru_maxrss, in
// KiB), on a line of its own to stderr (`max-rss-kib N`). The measured
// program is not changed. Nothing else imports this file: importing it
// registers the hook.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nmax-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
