import { afterEach, describe, expect, it } from "vitest";
import type { ArtifactStore, StoreCapabilities } from "../types.js";
import { describeConcurrencyCases } from "./cases/concurrency-cases.js";
import { describeExpiryAndQuotaCases } from "./cases/expiry-cases.js";
import { describeLifecycleCases } from "./cases/lifecycle-cases.js";
import { describeRoundTripCases } from "./cases/round-trip-cases.js";
import { describeStagingCases } from "./cases/staging-cases.js";
import { createTestClock, type TestClock } from "./fixtures.js";
import { createItWhen, MIB, START, type SuiteContext } from "./suite-context.js";

/** What the suite passes to a store factory. */
export interface StoreFactoryOptions {
  /** The store's clock; the suite moves it by hand to test expiry. */
  clock: () => number;
  /**
   * Where the store keeps its artifacts (a sub-folder, a key prefix): a short `[a-z0-9-]` name.
   * Two calls with the same location must reach the same artifacts when the store is persistent.
   */
  location: string;
  /** A byte quota the store must enforce, when the store declares the `quota` capability. */
  quotaBytes?: number;
}

/** Makes a fresh store for one test. */
export type StoreFactory = (options: StoreFactoryOptions) => Promise<ArtifactStore>;

/** Options of `runStoreConformanceSuite`. */
export interface StoreConformanceOptions {
  /**
   * What the store declares; the suite checks the store reports exactly this, and skips (visibly,
   * with the reason in the test title) only the cases of a capability declared false.
   * Default: every capability.
   */
  capabilities?: StoreCapabilities;
  /** The large-body case's size (default 64 MiB). */
  largeBodyBytes?: number;
  /** Concurrent writers and readers (default 50). */
  concurrency?: number;
  /** Timeout of the large-body and concurrency cases (default 120 s). */
  slowTestTimeoutMs?: number;
}

/**
 * The one conformance suite every ArtifactStore runs (see the README): round trips of binary,
 * unicode, empty and large bodies, head, expiry at the exact boundary and reported until swept,
 * sweep, quota, concurrent writers and readers, rejected ids, idempotent delete, persistence,
 * sharing, dispose, and staging (stage, commit, discard). Call it at the top level of a vitest test file. Every case creates its stores through
 * `factory` with its own location and disposes them afterwards.
 */
export function runStoreConformanceSuite(
  name: string,
  factory: StoreFactory,
  options: StoreConformanceOptions = {},
): void {
  const capabilities: StoreCapabilities = options.capabilities ?? {
    persistent: true,
    shared: true,
    quota: true,
    staging: true,
  };
  const opened: ArtifactStore[] = [];
  let locationCounter = 0;
  const nextLocation = (): string => {
    locationCounter += 1;
    return `case-${locationCounter}-${Math.random().toString(36).slice(2, 8)}`;
  };
  const open: SuiteContext["open"] = async (clock, extra = {}) => {
    const store = await factory({ clock, location: extra.location ?? nextLocation(), ...extra });
    opened.push(store);
    return store;
  };
  const context: SuiteContext = {
    name,
    capabilities,
    largeBodyBytes: options.largeBodyBytes ?? 64 * MIB,
    concurrency: options.concurrency ?? 50,
    slowTimeout: options.slowTestTimeoutMs ?? 120_000,
    open,
    fresh: async () => {
      const clock: TestClock = createTestClock(START);
      return { store: await open(clock), clock };
    },
    nextLocation,
    itWhen: createItWhen(name, capabilities),
  };

  describe(`${name} store conformance`, () => {
    afterEach(async () => {
      const stores = opened.splice(0);
      await Promise.allSettled(stores.map((store) => store.dispose()));
    });

    it("declares the capabilities the suite runs against, and a name", async () => {
      const { store } = await context.fresh();
      expect({ name: store.name, capabilities: store.capabilities }).toEqual({
        name: store.name,
        capabilities,
      });
      expect(store.name).toMatch(/^[a-z0-9-]+$/);
    });

    describeRoundTripCases(context);
    describeExpiryAndQuotaCases(context);
    describeConcurrencyCases(context);
    describeLifecycleCases(context);
    describeStagingCases(context);
  });
}
