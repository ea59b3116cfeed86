// Every operation's pipeline (server/http/pipeline.ts): its stages are the order
// of checks of docs/server.md, whatever the operation (a stage that does not
// apply has nothing to run), the route is made of them in that order, and
// the stub hands its stages to each route rather than changing the routes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { operationsOf, readOpenApi } from '../../spec/openapi.js';
import { buildApp } from '../../server/app.js';
import { PlantChanges } from '../../server/changes.js';
import { createMemoryStore } from '../../server/store/memory-store.js';
import { findResources } from '../../server/operations/resources.js';
import { ALL_INFERENCES, servedOperations, type ServedOperation } from '../../server/operations/served.js';
import { routeOptionsOf, type Stage } from '../../server/http/pipeline.js';
import { operationPipeline } from '../../server/http/routes.js';
import { acceptedValues } from '../../server/security/accepted.js';
import { credentialStage } from '../../server/security/check.js';
import { stub } from '../../server/stub/index.js';
import { operationContract } from '../../server/http/validation.js';
import { AUTH, JSON_TYPE } from './support.js';

const DOC = fileURLToPath(new URL('../../../docs/server.md', import.meta.url)); // from dist/test/server/
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/operations/${name}`, import.meta.url));

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

/** The served operations of a document, and the stub's stages for them when asked for. */
function served(specPath: string | undefined, withStub: boolean) {
  const { document, source } = readOpenApi(specPath);
  const model = findResources(document, operationsOf(document), { inferResources: true, inferReferences: true })!;
  const contract = operationContract(document, source, model);
  const store = createMemoryStore(100, 1 << 20);
  const { operations, plants: rule } = servedOperations(document, {
    contract,
    model,
    store,
    changes: new PlantChanges(),
    inference: ALL_INFERENCES,
  });
  const stages = withStub ? stub({}, { contract, store, rule }).stagesFor : undefined;
  const pipelineOf = (operation: ServedOperation) =>
    operationPipeline(operation, {
      credentials: (security) => credentialStage(security, () => acceptedValues(undefined)),
      bodyLimit: 1024,
      stub: stages,
    });
  return { operations, pipelineOf };
}

const named = (stages: readonly Stage[]) => stages.map(({ name, stubOnly }) => ({ name, stubOnly: stubOnly === true }));
const hookOf = (stage: Stage | undefined) => (stage !== undefined && 'run' in stage ? stage.run : undefined);
const stageNamed = (stages: readonly Stage[], name: string) => hookOf(stages.find((stage) => stage.name === name));

describe('the pipelines', { timeout: 60_000 }, () => {
  test("every operation's stages are docs/server.md's order of checks, the stub's marked stub only", () => {
    const documented = documentedStages(readFileSync(DOC, 'utf8'));
    assert.ok(documented.length >= 9, `the doc's list has the stages: ${JSON.stringify(documented)}`);
    for (const spec of [undefined, fixture('crud.yaml'), fixture('unmapped.yaml')]) {
      for (const withStub of [true, false]) {
        const { operations, pipelineOf } = served(spec, withStub);
        for (const operation of operations)
          assert.deepEqual(named(pipelineOf(operation)), documented, `${operation.method} ${operation.path}`);
      }
    }
  });

  test("the doc's list is read as written: a stage moved in it no longer matches", () => {
    const text = readFileSync(DOC, 'utf8')
      .replace('6. **delay**', '6. **JSON syntax**')
      .replace('7. **JSON syntax**', '7. **delay**');
    const { operations, pipelineOf } = served(undefined, true);
    assert.notDeepEqual(named(pipelineOf(operations[0]!)), documentedStages(text));
  });

  test("the route runs each stage's function in its phase, in the list's order; the stub's only with the stub", () => {
    for (const withStub of [true, false]) {
      const { operations, pipelineOf } = served(undefined, withStub);
      const stages = pipelineOf(operations[0]!);
      const route = routeOptionsOf(stages);
      const inPhase = (phase: Stage['phase']) =>
        stages
          .filter((stage) => stage.phase === phase)
          .map(hookOf)
          .filter((run) => run !== undefined);
      assert.deepEqual(route.onRequest, inPhase('onRequest'));
      assert.deepEqual(route.preParsing, inPhase('preParsing'));
      assert.deepEqual(route.preValidation, inPhase('preValidation'));
      assert.deepEqual(route.preHandler, inPhase('preHandler'));
      assert.equal(route.bodyLimit, 1024);
      const stubHooks = stages.filter((stage) => stage.stubOnly).map(hookOf);
      assert.equal(stubHooks.length, 3);
      assert.ok(withStub ? stubHooks.every((run) => run !== undefined) : stubHooks.every((run) => run === undefined));
      // The create of the shipped document: credentials and JSON syntax, and the stub's three; no parameters.
      assert.equal(route.onRequest.length + route.preValidation.length + route.preHandler.length, withStub ? 5 : 2);
    }
  });

  test('a stage that does not apply has nothing to run: no credentials where security is [], no body stages without a body, no parameters stage without parameters', () => {
    const { operations, pipelineOf } = served(fixture('open-operation.yaml'), false);
    const of = (method: string, path: string) =>
      pipelineOf(operations.find((op) => op.method === method && op.path === path)!);
    const publicList = of('GET', '/plants');
    assert.equal(stageNamed(publicList, 'credentials'), undefined, 'security: [] needs none');
    assert.notEqual(stageNamed(publicList, 'parameters'), undefined, 'limit is checked');
    assert.equal(stageNamed(publicList, 'content type'), undefined);
    assert.equal(stageNamed(publicList, 'JSON syntax'), undefined);
    const remove = of('DELETE', '/plants/{id}');
    assert.notEqual(stageNamed(remove, 'credentials'), undefined, "the document's security applies");
    assert.notEqual(stageNamed(remove, 'parameters'), undefined, 'the id is checked');
    const create = of('POST', '/plants');
    assert.equal(stageNamed(create, 'parameters'), undefined);
    assert.notEqual(stageNamed(create, 'content type'), undefined);
  });

  test('a list whose stages go back in the request lifecycle is refused, not run in another order', () => {
    const { operations, pipelineOf } = served(undefined, true);
    const stages = [...pipelineOf(operations[0]!)];
    const credentials = stages.shift() as Stage;
    stages.splice(3, 0, credentials); // after the content type (preParsing)
    assert.throws(
      () => routeOptionsOf(stages),
      /stage credentials runs in onRequest, before the stage above it \(preParsing\)/,
    );
    const handlerSwapped = [...served(undefined, false).pipelineOf(operations[0]!)];
    const [store, answer] = handlerSwapped.splice(-2, 2) as [Stage, Stage];
    handlerSwapped.push(answer, store);
    assert.throws(
      () => routeOptionsOf(handlerSwapped),
      /handler steps are schema, store and answer, in this order; declared: schema, answer, store/,
    );
  });

  test("the stub's plugin changes no route: the journal records the create, a read, a wrong method and an unknown path", async () => {
    const app = buildApp({
      stub: {},
      specPath: fileURLToPath(new URL('../../../test/fixtures/get-plant-by-id.yaml', import.meta.url)),
    });
    try {
      const answers = [
        await app.inject({
          method: 'POST',
          url: '/plants',
          headers: { ...AUTH, ...JSON_TYPE },
          payload: '{"id": 1, "name": "Fern"}',
        }),
        await app.inject({ method: 'GET', url: '/plants/1' }),
        await app.inject({ method: 'GET', url: '/plants' }),
        await app.inject({ method: 'GET', url: '/nowhere' }),
      ].map((res) => res.statusCode);
      assert.deepEqual(answers, [200, 401, 405, 404]);
      const { entries } = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json<{
        entries: Array<{ method: string; path: string; status: number }>;
      }>();
      assert.deepEqual(
        entries.map(({ method, path, status }) => `${method} ${path} ${status}`),
        ['POST /plants 200', 'GET /plants/1 401', 'GET /plants 405', 'GET /nowhere 404'],
      );
    } finally {
      await app.close();
    }
  });
});
