// Real components for the end-to-end tests: a `bastide serve` on a
// loopback port over a temporary SQLite file, and Debian's Chromium driven
// by playwright-core (no browser download).

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const BIN = process.env.BASTIDE_BIN ?? resolve(import.meta.dirname, '../../target/debug/bastide');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export interface Server { url: string; dir: string; proc: ChildProcess; stop(): Promise<void>; kill(): Promise<void> }

/** Starts a server; `again` restarts one on the same address and database. */
export async function startServer(again?: { dir: string; url: string }): Promise<Server> {
  const dir = again?.dir ?? mkdtempSync(join(tmpdir(), 'bastide-e2e-'));
  const addr = again ? again.url.replace('http://', '') : '127.0.0.1:0';
  const proc = spawn(BIN, ['serve', '--addr', addr, '--database', join(dir, 'games.db'), '--bot-move-ms', '2000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  proc.stderr?.on('data', (d: Buffer) => { errors += d.toString(); });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${errors}`)), 20_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^/\s]+)\//.exec(out);
      if (m?.[1]) { clearTimeout(timer); ok(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); fail(new Error(`server exited ${code}: ${errors}`)); });
  });
  return {
    url, dir, proc,
    async stop() {
      proc.kill('SIGINT');
      await new Promise((ok) => { proc.once('exit', ok); setTimeout(ok, 3000); });
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      proc.kill('SIGKILL');
      await new Promise((ok) => { proc.once('exit', ok); setTimeout(ok, 3000); });
    },
  };
}

/** Chromium with a fresh profile: Playwright makes a new temporary one per launch (it refuses `--user-data-dir`). */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** The final scores `bastide replay` computes from a record. */
export function replayScores(dir: string, record: unknown): number[] {
  const file = join(dir, `record-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(record));
  const out = JSON.parse(execFileSync(BIN, ['replay', file, '--compact']).toString()) as { scores: number[]; finished: boolean };
  if (!out.finished) throw new Error('the record does not end the game');
  return out.scores;
}
