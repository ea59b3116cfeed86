// Markdown that text from a target cannot break: the job summary of the
// Action and compat's report put what a server answered inside fences and
// table cells.

/** A fenced block the text cannot close early: the fence is longer than any run of backticks in it. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Text inside a Markdown table cell or heading: no markup, no line breaks. */
export function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]<>()#+!|~]/g, '\\$&');
}
