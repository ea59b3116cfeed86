// PS-QUERY-*: what a list's query parameters say they do, where their names
// and schemas make it unambiguous (model/list-model.ts): a filter named
// after a property of the items (a scalar: the items whose property equals
// it; an array, `?tag=a&tag=b`: the items whose property is any of them),
// and a sort order whose values are property names (a leading `-`
// descending), graded on the answer's items.
import { noteText, type JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';
import type { ListModel, ResourceModel, SortOrder } from '../model/resource.js';
import { describe } from './grades.js';
import { createdId } from './created.js';
import {
  answerJson,
  chainAfterCreate,
  createCall,
  followCalls,
  isSuccess,
  namedItemBody,
  type Call,
  type Chain,
  type Indexed,
  type OpSent,
} from './op-cases.js';
import { isItem, listItems, listPages, PAGE, readPages, switchedOff, usable } from './resource-calls.js';
import { at, combined, created, skipAll, steps } from './state-verdicts.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

const MORE = 'create another item';

/** The string members of a create's request (what the check can give a value of its own). */
const stringMembers = (r: ResourceModel) =>
  new Set((r.create?.request.fields ?? []).filter((f) => f.types.includes('string') && !f.readOnly).map((f) => f.name));
/** The integer and number members of a create's request. */
const numberMembers = (r: ResourceModel) =>
  new Set(
    (r.create?.request.fields ?? [])
      .filter(
        (f) =>
          (f.types.includes('integer') || f.types.includes('number')) && !f.readOnly && f.name !== r.identity.request,
      )
      .map((f) => f.name),
  );

/** The resources whose list the checks can read, with their list. */
function lists(ctx: CheckContext): Array<{ resource: ResourceModel; list: ListModel }> {
  return ctx.model.resources.flatMap((resource) =>
    resource.create && usable(ctx, resource.list) && resource.list.shape ? [{ resource, list: resource.list }] : [],
  );
}

/** A chain that creates an item with each of `values` in `property` (the first by the chain's own create), then `then`. */
function createEach(
  ctx: CheckContext,
  chainNo: number,
  resource: ResourceModel,
  label: string,
  property: string,
  values: JsonValue[],
  then: (chain: Chain) => Call | Call[] | undefined,
): Case<OpSent> {
  const more = values.slice(1).map((value) => (chain: Chain): Call => {
    const body = namedItemBody(ctx, resource, { [property]: value }, label);
    return {
      operation: operationName(resource.create!),
      label: MORE,
      request: createCall(
        ctx,
        resource,
        body,
        `${operationName(resource.create!)}: ${MORE} (${property} ${JSON.stringify(value)})`,
        chain.parent,
      ),
      made: body,
    };
  });
  return chainAfterCreate(ctx, chainNo, label, [...more, then], { [property]: values[0]! }, { resource });
}

/** The items a chain created, each with its id and the body it was created with. */
function madeItems(ctx: CheckContext, r: ResourceModel, chain: Indexed[]) {
  const first = chain[0]!;
  return [
    { body: first.sent.create!, step: first, id: createdId(ctx, r, first.sent.create, first.exchange).id },
    ...steps(chain, MORE).map((s) => ({
      body: s.sent.made!,
      step: s,
      id: createdId(ctx, r, s.sent.made, s.exchange).id,
    })),
  ];
}

/** The pages' items, in order. */
const itemsOf = (list: ListModel, pages: Indexed[]) =>
  pages.flatMap((p) => listItems(list, answerJson(p.exchange)) ?? []);

const filtered: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-QUERY-001',
  title:
    'A list filter named after an item property answers exactly the items whose property is the value given, or any of the values of an array (?tag=a&tag=b)',
  level: 'MUST',
  source: {
    document: 'OpenAPI 3.1',
    section: '§4.8.12.4 Style Values (form, explode: "?id=3&id=4&id=5")',
    url: 'https://spec.openapis.org/oas/v3.1.0#style-values',
  },
  requirement:
    'A parameter of type array with style form and explode true is sent as one name=value pair per value. (A query parameter named after a property of the listed items, inference filter, selects the items whose property equals its value; an array of values, the items whose property is any of them.)',
  grading:
    'MUST (inference filter): a listed item whose property is none of the values asked, or an item created with one of them missing from a list read to its end, fails. A property the document allows no value of its own for: skip.',
  evidence:
    'For each filter of each list: items created with run-unique values of the property (three for an array filter: two asked, one not; two for a scalar), then the list with the filter read to its end: only items with a value asked, every one created with one among them.',
  stage: 'alone',
  precondition: (ctx) => switchedOff(ctx, 'filter'),
  cases: (ctx) => {
    const out: Array<Case<OpSent>> = [];
    for (const { resource, list } of lists(ctx)) {
      for (const f of list.filters) {
        if (!stringMembers(resource).has(f.property)) continue;
        const tag = `q${ctx.ids.fresh().toString(36)}`;
        const values = f.many ? [`${tag}a`, `${tag}b`, `${tag}c`] : [`${tag}a`, `${tag}b`];
        const asked = f.many ? values.slice(0, 2) : values.slice(0, 1);
        const walk = listPages(ctx, list, f.many ? {} : { [f.parameter.name]: asked[0]! }, {
          untilFound: false,
          ...(f.many ? { values: { [f.parameter.name]: asked } } : {}),
        });
        try {
          out.push(createEach(ctx, out.length, resource, `filter ${f.parameter.name}`, f.property, values, walk));
        } catch (err) {
          if (!(err instanceof RuledOut)) throw err;
        }
      }
    }
    if (out.length === 0)
      throw new RuledOut('no list of the document has a filter named after a string property its create can set');
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const r = ctx.model.resources.find((x) => x.collection === chain[0]!.sent.collection) ?? ctx.model.resource;
      const list = r.list!;
      const parameter = chain[0]!.sent.label.replace(/^create \(filter /, '').replace(/\)$/, '');
      const f = list.filters.find((x) => x.parameter.name === parameter)!;
      const made = madeItems(ctx, r, chain);
      const pages = steps(chain, PAGE);
      if (pages.length === 0 || made.some((m) => !isSuccess(m.step.exchange))) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const bad = pages.find((p) => !isSuccess(p.exchange) || !listItems(list, answerJson(p.exchange)));
      if (bad) {
        verdicts.push(
          at(bad, {
            outcome: 'skip',
            actual: `a page was not answered 2xx with the declared list: ${describe(bad.exchange)}`,
          }),
        );
        continue;
      }
      const asked = made.slice(0, f.many ? 2 : 1).map((m) => m.body[f.property]);
      const other = itemsOf(list, pages).find(
        (i) => !asked.some((a) => (i as Record<string, JsonValue>)?.[f.property] === a),
      );
      const name = operationName(list.op);
      if (other !== undefined) {
        verdicts.push(
          at(pages[0]!, {
            outcome: 'fail',
            expected: `only items whose ${f.property} is ${asked.map((a) => JSON.stringify(a)).join(' or ')}`,
            actual: `${name}?${f.parameter.name}=${asked.map((a) => noteText(a)).join(`&${f.parameter.name}=`)}: an item whose ${f.property} is ${JSON.stringify((other as Record<string, JsonValue>)?.[f.property] ?? null)}: ${describe(pages[0]!.exchange)}`,
            cause: `the list's filter ${f.parameter.name} lists items whose ${f.property} is none of the values asked`,
          }),
        );
        continue;
      }
      const wanted = made.slice(0, asked.length);
      const lost = wanted.find(
        (m) => readPages(ctx, list, pages, { resource: r, id: m.id, created: m.body }).found === undefined,
      );
      const whole = readPages(ctx, list, pages, { resource: r, id: undefined, created: {} });
      if (lost && whole.complete)
        verdicts.push(
          at(pages[pages.length - 1]!, {
            outcome: 'fail',
            expected: `every item whose ${f.property} is one of the values asked`,
            actual: `the item created with ${f.property} ${JSON.stringify(lost.body[f.property])} is missing (${whole.why}): ${describe(pages[pages.length - 1]!.exchange)}`,
            cause: `the list's filter ${f.parameter.name} leaves out an item whose ${f.property} is one of the values asked`,
          }),
        );
      else if (lost)
        verdicts.push({ outcome: 'skip', actual: `the filtered list was not read to its end: ${whole.why}` });
      else verdicts.push({ outcome: 'pass' });
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** The values to create three items with, for a sort by `property`: ASCII letters and digits (one order whatever the collation), or integers. */
function sortValues(ctx: CheckContext, r: ResourceModel, order: SortOrder): JsonValue[] | string {
  const n = ctx.ids.fresh();
  if (stringMembers(r).has(order.property)) {
    const tag = `s${n.toString(36)}`;
    // Created out of order (b, c, a): a list that ignores the sort shows it.
    return [`${tag}b`, `${tag}c`, `${tag}a`];
  }
  if (numberMembers(r).has(order.property)) return [n + 1n, n + 2n, n];
  return `${order.property} is not a string or number member the create sets: its order is not unambiguous`;
}

const sorted: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-QUERY-002',
  title:
    "A list's sort order whose values name an item property (a leading - descending) lists the items in that order of the property",
  level: 'MUST',
  source: {
    document: 'OpenAPI 3.1',
    section: '§4.8.12 Parameter Object: schema (enum)',
    url: 'https://spec.openapis.org/oas/v3.1.0#parameter-object',
  },
  requirement:
    'The schema defining the type used for the parameter. (An enum of values that are property names of the listed items, with a leading - for the descending order: inference sort; the order is graded only where it is unambiguous, ASCII letters and digits of one length, or integers.)',
  grading:
    'MUST (inference sort): with three items created out of order, the list sorted by the value asked holding them in another order than that of the property (ascending, or descending for a leading -) fails. A property of another type (a boolean, a date), or items not all found in the pages read: skip, saying why.',
  evidence:
    'For each sort value of each list: three items created with run-unique values of the property in another order than sorted, then the list with the sort read until all three are found, their places in the order the value names.',
  stage: 'alone',
  precondition: (ctx) => switchedOff(ctx, 'sort'),
  cases: (ctx) => {
    const out: Array<Case<OpSent>> = [];
    const skipped: string[] = [];
    for (const { resource, list } of lists(ctx)) {
      for (const s of list.sorts) {
        for (const order of s.orders) {
          const values = sortValues(ctx, resource, order);
          if (typeof values === 'string') {
            skipped.push(values);
            continue;
          }
          const walk = listPages(ctx, list, { [s.parameter.name]: order.value }, { untilFound: false });
          try {
            out.push(
              createEach(
                ctx,
                out.length,
                resource,
                `sort ${s.parameter.name}=${order.value}`,
                order.property,
                values,
                walk,
              ),
            );
          } catch (err) {
            if (!(err instanceof RuledOut)) throw err;
            skipped.push(err.message);
          }
        }
      }
    }
    if (out.length === 0)
      throw new RuledOut(
        skipped.length > 0
          ? skipped.join('; ')
          : 'no list of the document has a sort parameter whose values name a property',
      );
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const r = ctx.model.resources.find((x) => x.collection === chain[0]!.sent.collection) ?? ctx.model.resource;
      const list = r.list!;
      const value = /=(.*)\)$/.exec(chain[0]!.sent.label)?.[1] ?? '';
      const order = list.sorts.flatMap((s) => s.orders).find((o) => o.value === value)!;
      const made = madeItems(ctx, r, chain);
      const pages = steps(chain, PAGE);
      if (pages.length === 0 || made.some((m) => !isSuccess(m.step.exchange))) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const items = itemsOf(list, pages);
      const places = made.map((m) =>
        items.findIndex((i) => isItem(ctx, i, { resource: r, id: m.id, created: m.body })),
      );
      if (places.some((p) => p < 0)) {
        verdicts.push({
          outcome: 'skip',
          actual: `not all three items created were found in the ${pages.length} page(s) read`,
        });
        continue;
      }
      // The values sorted: the places must follow them.
      const byValue = made
        .map((m, i) => ({ v: m.body[order.property]!, place: places[i]! }))
        .sort((a, b) => compare(a.v, b.v) * (order.descending ? -1 : 1));
      const inOrder = byValue.every((x, i) => i === 0 || byValue[i - 1]!.place < x.place);
      verdicts.push(
        inOrder
          ? { outcome: 'pass' }
          : at(pages[0]!, {
              outcome: 'fail',
              expected: `the items in ${order.descending ? 'descending' : 'ascending'} order of ${order.property}: ${byValue.map((x) => JSON.stringify(x.v, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).join(', ')}`,
              actual: `${operationName(list.op)}?…=${order.value} lists them at places ${byValue.map((x) => x.place + 1).join(', ')}: ${describe(pages[0]!.exchange)}`,
              cause: `the list's sort ${order.value} does not order the items by ${order.property}`,
            }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** The order of two values the check chose (strings of ASCII letters and digits, or integers). */
function compare(a: JsonValue, b: JsonValue): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = noteText(a);
  const y = noteText(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const queryChecks = [filtered, sorted];
