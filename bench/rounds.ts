// The load part of `npm run bench`, one operation at a time: the servers of
// the operation all up at once, the plants its requests need stored first
// (ids 1 to N, by creates through the API, the same in every server), a
// warm-up, then rounds alternating between the servers (the first rotating
// each round). Every request of a round must be answered with the
// operation's success status; anything else is reported as a failure.
import { runLoad, type LoadRequest } from './load.js';
import type { MemoryFigures, Settings } from './report.js';
import type { RunningServer, ServerKind } from './servers.js';
import type { RoundResult } from './stats.js';
import { residentBytes, sleep } from '../lib/process.js';

export interface OperationPlan {
  request: LoadRequest;
  servers: ServerKind[];
  /** Plants each server stores (ids 1 to this) before the warm-up. */
  stored: number;
  /** The list's page size. */
  pageSize?: number;
  /** The status every answer must have. */
  success: string;
  /** Environment of the servers of this operation (the uncapped stores). */
  env: (kind: ServerKind) => Record<string, string>;
}

export interface RoundsContext {
  settings: Settings;
  token: string;
  start: (kind: ServerKind, env: Record<string, string>) => Promise<RunningServer>;
  stop: (server: RunningServer) => Promise<void>;
  noteExit: (server: RunningServer, when: string) => void;
  failures: string[];
  log: (text: string) => void;
  /** Idle and after-load RSS go here, for the create's servers. */
  memory?: Record<string, MemoryFigures>;
}

/** The plants a delete operation needs stored: every round's deletes, the warm-up's, and room for requests in flight. */
export function plantsForDeletes(settings: Settings): number {
  return settings.deletesPerRound * settings.rounds + warmupDeletes(settings) + settings.connections * 4;
}

function warmupDeletes(settings: Settings): number {
  return Math.ceil(settings.deletesPerRound / 4);
}

export async function runOperation(
  plan: OperationPlan,
  context: RoundsContext,
): Promise<Record<string, RoundResult[]>> {
  const { settings, token } = context;
  const rounds: Record<string, RoundResult[]> = {};
  const servers: RunningServer[] = [];
  const nextIds: Record<string, () => number> = {};
  try {
    for (const kind of plan.servers) {
      const server = await context.start(kind, plan.env(kind));
      servers.push(server);
      rounds[kind.name] = [];
      if (plan.stored > 0) {
        let seed = 0;
        const filled = await runLoad({
          url: server.url,
          token,
          connections: settings.connections,
          amount: plan.stored,
          nextId: () => ++seed,
        });
        if (filled.statusCounts['200'] !== plan.stored)
          context.failures.push(
            `${kind.name} stored ${filled.statusCounts['200'] ?? 0} of the ${plan.stored} plants its ${plan.request} rounds need`,
          );
      }
      // A create's ids continue after the stored ones; a delete's take the stored ones in turn.
      let id = plan.request === 'create' ? plan.stored : 0;
      nextIds[kind.name] = () => ++id;
    }
    await sleep(500);
    if (context.memory)
      for (const server of servers) context.memory[server.kind.name] = { idleBytes: residentBytes(server.process.pid) };
    const load = (server: RunningServer, measured: boolean, deleteAmount: number) =>
      runLoad({
        url: server.url,
        token,
        connections: settings.connections,
        ...(plan.request === 'delete'
          ? { amount: deleteAmount }
          : { durationSeconds: measured ? settings.roundSeconds : settings.warmupSeconds }),
        nextId: nextIds[server.kind.name]!,
        request: plan.request,
        stored: plan.stored,
        ...(plan.pageSize !== undefined ? { pageSize: plan.pageSize } : {}),
        ...(measured ? { serverPid: server.process.pid } : {}),
      });
    for (const server of servers) {
      await load(server, false, warmupDeletes(settings));
      context.noteExit(server, `the ${plan.request} warm-up`);
    }
    for (let round = 0; round < settings.rounds; round++) {
      // Rotate who goes first, so no server always runs right after the same neighbour.
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(round + k) % servers.length]!;
        const result = await load(server, true, settings.deletesPerRound);
        rounds[server.kind.name]![round] = result;
        context.noteExit(server, `${plan.request} round ${round + 1}`);
        const refused = Object.entries(result.statusCounts).filter(([status]) => status !== plan.success);
        if (refused.length > 0)
          context.failures.push(
            `${server.kind.name} answered ${refused.map(([status, count]) => `${count} × ${status}`).join(', ')} in ${plan.request} round ${round + 1}: its figures are not of ${plan.success}s alone`,
          );
      }
      context.log(`${plan.request}: round ${round + 1}/${settings.rounds} done`);
    }
  } finally {
    for (const server of servers) {
      if (context.memory?.[server.kind.name])
        context.memory[server.kind.name]!.afterLoadBytes = residentBytes(server.process.pid);
      await context.stop(server);
    }
  }
  return rounds;
}
