// The create operation's pipeline (server/routes.ts, createPipeline): its
// stages are the order of checks of docs/server.md, the route is made of
// them in that order, and the stub hands its stages to the route rather than
// changing the route itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { createAuthenticator } from '../../server/auth.js';
import { createRule } from '../../server/create.js';
import { createPipeline, routeOptionsOf, type CreatePipelineOptions, type Stage } from '../../server/routes.js';
import { createMemoryStore } from '../../server/memory-store.js';
import { stub } from '../../server/stub/index.js';
import { loadOperationContract } from '../../server/validation.js';
import { AUTH, JSON_TYPE } from './support.js';

const DOC = fileURLToPath(new URL('../../../docs/server.md', import.meta.url)); // from dist/test/server/

/** The numbered list between the pipeline markers of docs/server.md: each item's name (its bold words) and whether it says "(stub only)". */
function documentedStages(markdown: string): Array<{ name: string; stubOnly: boolean }> {
  const start = markdown.indexOf('<!-- pipeline:start -->');
  const end = markdown.indexOf('<!-- pipeline:end -->');
  assert.ok(start !== -1 && end > start, 'docs/server.md has the pipeline markers');
  return [...markdown.slice(start, end).matchAll(/^\d+\. \*\*([^*]+)\*\*(.*)$/gm)].map(([, name, rest]) => ({
    name: name as string,
    stubOnly: (rest as string).startsWith(' (stub only)'),
  }));
}

function options(withStub: boolean): CreatePipelineOptions {
  const contract = loadOperationContract();
  const store = createMemoryStore(100, 1 << 20);
  const rule = createRule(contract, store);
  return { contract, authenticator: createAuthenticator(undefined), rule, bodyLimit: 1024, stub: withStub ? stub({}, { contract, store, rule }).stages : undefined };
}

const named = (stages: readonly Stage[]) => stages.map(({ name, stubOnly }) => ({ name, stubOnly: stubOnly === true }));
const hookOf = (stage: Stage | undefined) => (stage !== undefined && 'run' in stage ? stage.run : undefined);

describe('the create pipeline', { timeout: 60_000 }, () => {
  test("its stages are docs/server.md's order of checks, the stub's marked stub only", () => {
    const documented = documentedStages(readFileSync(DOC, 'utf8'));
    assert.ok(documented.length >= 8, `the doc's list has the stages: ${JSON.stringify(documented)}`);
    assert.deepEqual(named(createPipeline(options(true))), documented);
    assert.deepEqual(named(createPipeline(options(false))), documented);
  });

  test("the doc's list is read as written: a stage moved in it no longer matches", () => {
    const text = readFileSync(DOC, 'utf8').replace('5. **delay**', '5. **JSON syntax**').replace('6. **JSON syntax**', '6. **delay**');
    assert.notDeepEqual(named(createPipeline(options(true))), documentedStages(text));
  });

  test("the route runs each stage's function in its phase, in the list's order; the stub's only with the stub", () => {
    for (const withStub of [true, false]) {
      const stages = createPipeline(options(withStub));
      const route = routeOptionsOf(stages);
      const inPhase = (phase: Stage['phase']) => stages.filter((stage) => stage.phase === phase).map(hookOf).filter((run) => run !== undefined);
      assert.deepEqual(route.onRequest, inPhase('onRequest'));
      assert.deepEqual(route.preParsing, inPhase('preParsing'));
      assert.deepEqual(route.preValidation, inPhase('preValidation'));
      assert.deepEqual(route.preHandler, inPhase('preHandler'));
      assert.equal(route.bodyLimit, 1024);
      const stubHooks = stages.filter((stage) => stage.stubOnly).map(hookOf);
      assert.equal(stubHooks.length, 3);
      assert.ok(withStub ? stubHooks.every((run) => run !== undefined) : stubHooks.every((run) => run === undefined));
      assert.equal(route.onRequest.length + route.preValidation.length + route.preHandler.length, withStub ? 5 : 2);
    }
  });

  test('a list whose stages go back in the request lifecycle is refused, not run in another order', () => {
    const stages = [...createPipeline(options(true))];
    const credentials = stages.shift() as Stage;
    stages.splice(2, 0, credentials); // after the content type (preParsing)
    assert.throws(() => routeOptionsOf(stages), /stage credentials runs in onRequest, before the stage above it \(preParsing\)/);
    const handlerSwapped = [...createPipeline(options(false))];
    const [store, answer] = handlerSwapped.splice(-2, 2) as [Stage, Stage];
    handlerSwapped.push(answer, store);
    assert.throws(() => routeOptionsOf(handlerSwapped), /handler steps are schema, store and answer, in this order; declared: schema, answer, store/);
  });

  test("the stub's plugin changes no route: the journal records the create, a declared operation, a wrong method and an unknown path", async () => {
    const app = buildApp({ stub: {}, specPath: fileURLToPath(new URL('../../../test/fixtures/get-plant-by-id.yaml', import.meta.url)) });
    try {
      const answers = [
        await app.inject({ method: 'POST', url: '/plants', headers: { ...AUTH, ...JSON_TYPE }, payload: '{"id": 1, "name": "Fern"}' }),
        await app.inject({ method: 'GET', url: '/plants/1' }),
        await app.inject({ method: 'GET', url: '/plants' }),
        await app.inject({ method: 'GET', url: '/nowhere' }),
      ].map((res) => res.statusCode);
      assert.deepEqual(answers, [200, 401, 405, 404]);
      const { entries } = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json() as { entries: Array<{ method: string; path: string; status: number }> };
      assert.deepEqual(
        entries.map(({ method, path, status }) => `${method} ${path} ${status}`),
        ['POST /plants 200', 'GET /plants/1 401', 'GET /plants 405', 'GET /nowhere 404'],
      );
    } finally {
      await app.close();
    }
  });
});
