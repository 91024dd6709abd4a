import { isLeft } from 'fp-ts/lib/Either.js';
import { ContainerModule, type Container } from 'inversify';
import type { Logger } from 'pino';
import { QuickJsScriptSandbox } from '@tessera/adapters-graph';
import {
  DEFAULT_TRIGGER_RUN_CONFIG,
  resumeRunning,
  runDueTriggers,
  token,
  Tokens,
  TRIGGER_RUN_ENTITY,
  type Clock,
  type OrganizationDirectory,
  type ScriptLimits,
  type ScriptSandbox,
  type Tenant,
  type TenantRegistry,
  type TriggerRunConfig,
} from '@tessera/core/internal';
import { CliTokens } from './container.js';
import { provide, resolve } from './di.js';

/**
 * The server's trigger runner (issue 16, docs/scripts.md "Server triggers"): a loop of the host
 * around the core's use case `runDueTriggers`. Every organization of the directory is opened
 * once; its abandoned runs are queued again (`resumeRunning`: this process is the data folder's
 * one runner); a pass runs when a record of the organization changes (its change feed) and
 * every `pollMs` (runs waiting for their back-off). One pass per organization at a time; passes
 * of several organizations run side by side on the sandbox's threads.
 */
export type TriggerRunnerSettings = {
  pollMs: number;
  config: Partial<TriggerRunConfig>;
};

/** The sandbox's threads when TESSERA_TRIGGER_THREADS is not set. */
export const DEFAULT_SCRIPT_THREADS = 2;

/** TESSERA_TRIGGER_* settings (docs/operations.md); absent or not a positive number: the defaults. */
export const triggerSettingsFromEnv = (env: Record<string, string | undefined>): TriggerRunnerSettings & { threads?: number; limits: Partial<ScriptLimits> } => {
  const n = (v: string | undefined): number | undefined => (v !== undefined && /^[1-9]\d{0,8}$/.test(v.trim()) ? Number(v.trim()) : undefined);
  const limits: Partial<ScriptLimits> = {};
  const time = n(env.TESSERA_TRIGGER_TIME_MS);
  const memory = n(env.TESSERA_TRIGGER_MEMORY_MB);
  if (time !== undefined) limits.timeMs = time;
  if (memory !== undefined) limits.memoryBytes = memory * 1024 * 1024;
  const config: Partial<TriggerRunConfig> = { limits };
  const attempts = n(env.TESSERA_TRIGGER_ATTEMPTS);
  const backoff = n(env.TESSERA_TRIGGER_BACKOFF_MS);
  const lease = n(env.TESSERA_TRIGGER_LEASE_MS);
  if (attempts !== undefined) config.maxAttempts = attempts;
  if (backoff !== undefined) config.backoffMs = backoff;
  if (lease !== undefined) config.leaseMs = lease;
  const threads = n(env.TESSERA_TRIGGER_THREADS);
  // An organization runs on all threads but one: its endless loops leave a thread to the others.
  config.concurrency = Math.max(1, (threads ?? DEFAULT_SCRIPT_THREADS) - 1);
  return { pollMs: n(env.TESSERA_TRIGGER_POLL_MS) ?? 1_000, config, threads, limits };
};

type Watched = { tenant: Tenant; unsubscribe: () => void; running: Promise<void> | null; again: boolean };

export class TriggerRunner {
  private readonly orgs = new Map<string, Watched>();
  private readonly opening = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { directory: OrganizationDirectory; tenants: TenantRegistry; sandbox: ScriptSandbox; clock: Clock; logger: Logger },
    private readonly settings: TriggerRunnerSettings,
  ) {}

  /** Starts the loop; the first poll opens the organizations and resumes their runs. */
  start(): void {
    this.schedule(0);
  }

  /** Stops the loop and waits for the passes under way (their runs end or are resumed at the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.orgs.values()) w.unsubscribe();
    await Promise.all([...this.orgs.values()].map((w) => w.running));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      const names = await this.deps.directory.list();
      await Promise.all(names.filter((n) => !this.orgs.has(n) && !this.opening.has(n)).map((n) => this.watch(n)));
      for (const name of this.orgs.keys()) this.kick(name);
    } catch (e) {
      this.deps.logger.warn({ err: e }, 'trigger runner: poll failed');
    }
    this.schedule(this.settings.pollMs);
  }

  private async watch(name: string): Promise<void> {
    this.opening.add(name);
    try {
      const status = await this.deps.directory.status(name);
      if (status !== null && status !== 'ready') return; // created half-way or failed: tried again at the next poll
      const tenant = await this.deps.tenants.open(name);
      const resumed = await resumeRunning({ store: tenant.store, clock: this.deps.clock, entities: () => tenant.entities() });
      if (isLeft(resumed)) this.deps.logger.warn({ org: name, error: resumed.left }, 'trigger runner: resuming runs failed');
      else if (resumed.right > 0) this.deps.logger.info({ org: name, resumed: resumed.right }, 'trigger runner: runs of a stopped process queued again');
      if (this.stopped) return;
      // A change of a record may have queued runs: a pass now rather than at the next poll.
      const unsubscribe = tenant.feed.subscribe((c) => {
        if (c.entity !== TRIGGER_RUN_ENTITY) this.kick(name);
      });
      this.orgs.set(name, { tenant, unsubscribe, running: null, again: false });
    } catch (e) {
      this.deps.logger.warn({ err: e, org: name }, 'trigger runner: organization not opened');
    } finally {
      this.opening.delete(name);
    }
  }

  /** A pass for one organization: now, or right after the one under way. */
  private kick(name: string): void {
    const w = this.orgs.get(name);
    if (!w || this.stopped) return;
    if (w.running) {
      w.again = true;
      return;
    }
    w.running = this.pass(name, w).finally(() => {
      w.running = null;
      if (w.again) {
        w.again = false;
        this.kick(name);
      }
    });
  }

  private async pass(name: string, w: Watched): Promise<void> {
    try {
      const done = await runDueTriggers({ store: w.tenant.store, sandbox: this.deps.sandbox, clock: this.deps.clock, entities: () => w.tenant.entities(), config: this.settings.config });
      if (isLeft(done)) this.deps.logger.warn({ org: name, error: done.left }, 'trigger runner: pass failed');
      else {
        const { succeeded, retried, failed } = done.right;
        if (failed > 0 || retried > 0) this.deps.logger.info({ org: name, ...done.right }, 'trigger runner: runs failed');
        // A full batch: more may be due at once.
        if (succeeded + retried + failed >= (this.settings.config.batch ?? DEFAULT_TRIGGER_RUN_CONFIG.batch)) w.again = true;
      }
    } catch (e) {
      this.deps.logger.error({ err: e, org: name }, 'trigger runner: pass failed');
    }
  }
}

export const TriggerTokens = {
  Runner: token<TriggerRunner>('cli.TriggerRunner'),
} as const;

/** The script sandbox and the trigger runner of the server (TESSERA_TRIGGER_* settings from `env`). */
export const triggersModule = (env: Record<string, string | undefined>) =>
  new ContainerModule(({ bind }) => {
    const settings = triggerSettingsFromEnv(env);
    provide(bind, Tokens.ScriptSandbox, [], () => new QuickJsScriptSandbox({ threads: settings.threads ?? DEFAULT_SCRIPT_THREADS, limits: settings.limits }));
    provide(
      bind,
      TriggerTokens.Runner,
      [Tokens.OrganizationDirectory, Tokens.TenantRegistry, Tokens.ScriptSandbox, Tokens.Clock, CliTokens.Logger],
      (directory, tenants, sandbox, clock, logger) => new TriggerRunner({ directory, tenants, sandbox, clock, logger }, settings),
    );
  });

/** Starts the runner of a built server container; the answer stops it and its sandbox (before the tenants close). */
export const startTriggers = (container: Container): (() => Promise<void>) => {
  const runner = resolve(container, TriggerTokens.Runner);
  runner.start();
  return async () => {
    await runner.stop();
    await resolve(container, Tokens.ScriptSandbox).close();
  };
};
