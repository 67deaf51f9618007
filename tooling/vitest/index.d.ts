import type { UserConfig } from "vitest/config";

/** The shared vitest configuration, merged with a package's overrides. */
export declare function createVitestConfig(overrides?: UserConfig): UserConfig;
