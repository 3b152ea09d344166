import type { AfterWrite, BeforeDelete, BeforeWrite, Row } from './definition';

/** Where a hook runs among the others of its list: lower first; equal orders keep the order they were added in. */
export interface HookOptions {
  order?: number;
}

interface Entry<F> {
  name: string;
  order: number;
  seq: number;
  fn: F;
}

/**
 * An ordered list of named hooks (style habit 13): modules add rules to a resource without replacing
 * each other's. A name is taken once, so a second module reusing it fails at start-up instead of
 * silently overwriting the first.
 */
export class HookList<F> {
  private entries: Entry<F>[] = [];
  private seq = 0;

  constructor(private readonly what: string) {}

  add(name: string, fn: F, opts: HookOptions = {}): void {
    if (this.entries.some((e) => e.name === name)) throw new Error(`${this.what}: a hook named '${name}' exists`);
    this.entries.push({ name, order: opts.order ?? 0, seq: this.seq++, fn });
    this.entries.sort((a, b) => a.order - b.order || a.seq - b.seq);
  }

  /** The hooks in the order they run. */
  list(): readonly F[] {
    return this.entries.map((e) => e.fn);
  }

  /** The names in the order they run (for tests and start-up logs). */
  names(): readonly string[] {
    return this.entries.map((e) => e.name);
  }

  get size(): number {
    return this.entries.length;
  }
}

/**
 * A resource's hooks, typed by its stored row `R`: `beforeWrite` hooks run in order, each given the
 * data the previous one returned (the first gets the validated body); `afterWrite` hooks run in order
 * after the row is written, in the same transaction.
 */
export class ResourceHooks<R extends object = Row> {
  readonly beforeWrite: HookList<BeforeWrite<R>>;
  readonly beforeDelete: HookList<BeforeDelete<R>>;
  readonly afterWrite: HookList<AfterWrite<R>>;

  constructor(resource: string) {
    this.beforeWrite = new HookList(`${resource}.beforeWrite`);
    this.beforeDelete = new HookList(`${resource}.beforeDelete`);
    this.afterWrite = new HookList(`${resource}.afterWrite`);
  }
}

/** Orders the definition's own hooks run at: before any module's (which add theirs at 100 and up). */
export const DEFINITION_HOOK_ORDER = 0;
