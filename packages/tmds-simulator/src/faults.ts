/**
 * Fault injection for tests and benchmarks, off by default. Per endpoint (or '*' for every
 * endpoint without its own entry): added latency, and outcomes that replace the real answer.
 * A script, when present, decides the next requests one by one before any rate applies, so tests
 * can be exact; rates draw from a seeded generator, so a run is repeatable for a seed.
 */
import { z } from 'zod';
import { REST_ENDPOINTS, type RestEndpoint } from './endpoints';
import { Prng } from './random';

export const FAULT_OUTCOMES = ['ok', '500', '429', 'malformed', 'reset'] as const;
export type FaultOutcome = (typeof FAULT_OUTCOMES)[number];

export interface EndpointFaults {
  /** Added before answering. */
  latencyMs?: number;
  /** 0..1 */
  error500Rate?: number;
  /** 0..1: answers 429 with Retry-After: retryAfterSecs. */
  error429Rate?: number;
  /** Default 1. */
  retryAfterSecs?: number;
  /** 0..1: 200 with a truncated JSON body. */
  malformedRate?: number;
  /** 0..1: socket destroyed without any response. */
  resetRate?: number;
  /** Consumed one per request before rates apply: deterministic faults for tests. */
  script?: Array<FaultOutcome>;
}

/** '*' applies to every endpoint without its own entry. */
export type FaultConfig = Partial<Record<RestEndpoint | '*', EndpointFaults>>;

const rate = z.number().min(0).max(1).optional();

const EndpointFaultsSchema = z.strictObject({
  latencyMs: z.number().min(0).max(600_000).optional(),
  error500Rate: rate,
  error429Rate: rate,
  retryAfterSecs: z.number().int().min(0).max(86_400).optional(),
  malformedRate: rate,
  resetRate: rate,
  script: z.array(z.enum(FAULT_OUTCOMES)).optional(),
});

export const FaultConfigSchema = z.partialRecord(z.enum([...REST_ENDPOINTS, '*']), EndpointFaultsSchema.optional());

/** Validates a fault configuration from outside (a control request, a config file); throws a readable error. */
export function parseFaultConfig(value: unknown): FaultConfig {
  const parsed = FaultConfigSchema.safeParse(value);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`invalid fault configuration: ${detail}`);
  }
  const config: FaultConfig = {};
  for (const [key, faults] of Object.entries(parsed.data)) {
    if (faults !== undefined) config[key as keyof FaultConfig] = faults;
  }
  return config;
}

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
  retryAfterSecs: number;
}

const NO_FAULT: FaultDecision = { latencyMs: 0, outcome: 'ok', retryAfterSecs: 1 };

export class FaultInjector {
  private config: FaultConfig = {};
  /** Remaining script per config key, consumed as requests arrive. */
  private scripts = new Map<string, FaultOutcome[]>();
  private readonly rng: Prng;

  constructor(seed: number) {
    this.rng = new Prng(seed);
  }

  /** Replaces the whole configuration (scripts start over). */
  set(config: FaultConfig): void {
    this.config = parseFaultConfig(config);
    this.scripts = new Map();
    for (const [key, faults] of Object.entries(this.config)) {
      if (faults?.script) this.scripts.set(key, [...faults.script]);
    }
  }

  clear(): void {
    this.config = {};
    this.scripts = new Map();
  }

  current(): FaultConfig {
    return structuredClone(this.config);
  }

  decide(endpoint: RestEndpoint): FaultDecision {
    const key = this.config[endpoint] ? endpoint : this.config['*'] ? '*' : null;
    if (key === null) return NO_FAULT;
    const faults = this.config[key] ?? {};
    const latencyMs = faults.latencyMs ?? 0;
    const retryAfterSecs = faults.retryAfterSecs ?? 1;
    const scripted = this.scripts.get(key)?.shift();
    if (scripted) return { latencyMs, outcome: scripted, retryAfterSecs };
    // One draw against cumulative rates, so each rate is the exact probability of its outcome.
    const draw = this.rng.next();
    let threshold = 0;
    const rates: Array<[FaultOutcome, number | undefined]> = [
      ['reset', faults.resetRate],
      ['500', faults.error500Rate],
      ['429', faults.error429Rate],
      ['malformed', faults.malformedRate],
    ];
    for (const [outcome, probability] of rates) {
      threshold += probability ?? 0;
      if (draw < threshold) return { latencyMs, outcome, retryAfterSecs };
    }
    return { latencyMs, outcome: 'ok', retryAfterSecs };
  }
}
