// A throwaway PostgreSQL cluster for the tests (test/support/postgres.ts)
// and the benchmarks (bench/run.ts): in tools/, which both may import (not
// test/, which only tests import) and the npm package does not ship (it is
// not in package.json's files). initdb into a temporary folder, a server on
// a free loopback port, stopped and removed at the end. It uses the machine's PostgreSQL binaries (Debian's
// `postgresql` package); `findPostgres()` says when there are none, so a
// test can skip with that reason. initdb refuses to run as root, so as root
// the cluster runs as the `postgres` user (runuser).
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort, LOOPBACK, runProcess } from '../lib/process.js';

export interface PostgresBinaries {
  /** The folder holding initdb, pg_ctl and postgres. */
  bin: string;
}

/** The newest PostgreSQL under /usr/lib/postgresql (Debian), or the one whose pg_ctl is on PATH; else a reason. */
export function findPostgres(): PostgresBinaries | { missing: string } {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return { bin: join(debian, versions[0], 'bin') };
  }
  try {
    const pgCtl = execFileSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).trim();
    if (pgCtl) return { bin: join(pgCtl, '..') };
  } catch {
    // not on PATH either
  }
  return {
    missing:
      'PostgreSQL is not installed (no pg_ctl under /usr/lib/postgresql or on PATH; on Debian: apt-get install postgresql)',
  };
}

export interface Cluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Stops the database server (fast shutdown); the data stays. */
  stopServer(): Promise<void>;
  /** Starts it again on the same port, with the same data. */
  startServer(): Promise<void>;
  /** Stops the server and removes the cluster's folder. Safe to call twice. */
  destroy(): Promise<void>;
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
async function pg(bin: string, tool: string, args: string[], timeoutMs = 60_000): Promise<void> {
  const command = asRoot
    ? { file: 'runuser', args: ['-u', 'postgres', '--', join(bin, tool), ...args] }
    : { file: join(bin, tool), args };
  const done = await runProcess({ ...command, stdout: 'ignore', timeoutMs, name: tool });
  if (done.code !== 0)
    throw new Error(
      `${tool} ${args.join(' ')} failed (${done.signal ?? `exit ${done.code}`}): ${done.stderr.trim().slice(-2000)}`,
    );
}

/** A new folder in the temporary folder, owned by the user the cluster runs as. */
function clusterFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-pg-'));
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  return dir;
}

async function initdb(binaries: PostgresBinaries, data: string): Promise<void> {
  await pg(binaries.bin, 'initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
}

/**
 * The data folder of a cluster initdb made, kept in `templates` (a folder of
 * the caller's) for the clusters started after it, made the first time. A
 * copy of a stopped cluster's data folder is a cluster of its own; copying
 * its 40 MB takes a tenth of initdb's CPU (about 0.7 s), which each of the
 * test suite's PostgreSQL files paid. Two processes making it at once each
 * make their own and keep the first moved into place. Undefined when it
 * cannot be made or moved there (the caller runs initdb itself).
 */
async function templateData(binaries: PostgresBinaries, templates: string): Promise<string | undefined> {
  const template = join(templates, `postgres-${binaries.bin.replace(/[^A-Za-z0-9]+/g, '-')}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const scratch = clusterFolder();
  try {
    await initdb(binaries, join(scratch, 'data'));
    mkdirSync(templates, { recursive: true });
    renameSync(join(scratch, 'data'), template);
  } catch {
    // Another process moved its template into place first, or the folder is on another file system.
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return existsSync(join(template, 'PG_VERSION')) ? template : undefined;
}

/** Copies a data folder with each file's owner and mode (PostgreSQL refuses a data folder others can read). */
async function copyData(from: string, to: string): Promise<boolean> {
  try {
    const done = await runProcess({
      file: 'cp',
      args: ['-a', from, to],
      stdout: 'ignore',
      timeoutMs: 60_000,
      name: 'cp',
    });
    return done.code === 0;
  } catch {
    return false; // no cp: initdb instead
  }
}

export interface ClusterOptions {
  /** A folder where the first cluster keeps a copy of initdb's output, which later clusters copy instead of running initdb. */
  templates?: string;
}

export async function startCluster(binaries: PostgresBinaries, { templates }: ClusterOptions = {}): Promise<Cluster> {
  const template = templates === undefined ? undefined : await templateData(binaries, templates);
  const dir = clusterFolder();
  const data = join(dir, 'data');
  const port = await freePort();
  if (template === undefined || !(await copyData(template, data))) {
    rmSync(data, { recursive: true, force: true }); // what a failed copy left
    await initdb(binaries, data);
  }
  // Loopback only; the socket in the cluster's own folder (not /var/run/postgresql).
  const options = `-p ${port} -c listen_addresses=${LOOPBACK} -k ${dir}`;
  let running = false;
  const startServer = async () => {
    await pg(binaries.bin, 'pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
    running = true;
  };
  const stopServer = async () => {
    await pg(binaries.bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    running = false;
  };
  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    if (running) await stopServer().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await startServer();
  } catch (error) {
    await destroy();
    throw error;
  }
  return { url: `postgres://postgres@${LOOPBACK}:${port}/postgres`, port, stopServer, startServer, destroy };
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
