// JSON Merge Patch (RFC 7396) on JSON texts: the stored plant's text and
// the patch's text as sent, merged member by member, so that every value
// the patch does not touch keeps its text (a number every digit and its
// form, 12.50 stays 12.50) and the patch's values are its text as sent.
// RFC 7396 §2: a patch that is not an object replaces the target whole; a
// member whose value is null removes the target's member; an object merges
// into the target's member (into {} when the target has none or it is not
// an object); any other value replaces it. Members keep their order; new
// ones follow, in the patch's order.
import { SentReader } from '../json/json-text.js';

/** A value read from its text: an object's members (name → as written, and value), or any other value's compact text. */
type Node = { members: Map<string, { written: string; node: Node }> } | { text: string };

/** MergePatch(target, patch) of RFC 7396 §2, on texts the exact parser accepted; the merged text, compact. */
export function mergePatch(target: string, patch: string): string {
  return write(merged(read(target), read(patch)));
}

function merged(target: Node | undefined, patch: Node): Node {
  if (!('members' in patch)) return patch;
  const members = new Map(target !== undefined && 'members' in target ? target.members : []);
  for (const [name, { written, node }] of patch.members) {
    if ('text' in node && node.text === 'null') members.delete(name);
    else members.set(name, { written, node: merged(members.get(name)?.node, node) });
  }
  return { members };
}

function read(text: string): Node {
  const reader = new SentReader(text);
  return readAt(reader, text, reader.valueStart(0)).node;
}

function readAt(reader: SentReader, text: string, start: number): { node: Node; end: number } {
  if (text.charCodeAt(start) !== 0x7b) {
    const out: string[] = [];
    const end = reader.copyValue(start, out);
    return { node: { text: out.join('') }, end };
  }
  const members = new Map<string, { written: string; node: Node }>();
  const end = reader.memberValues(start, (name, written, valueStart) => {
    const member = readAt(reader, text, valueStart);
    members.set(name, { written, node: member.node });
    return member.end;
  });
  return { node: { members }, end };
}

function write(node: Node): string {
  if ('text' in node) return node.text;
  return `{${[...node.members.values()].map(({ written, node: value }) => `${written}:${write(value)}`).join(',')}}`;
}
