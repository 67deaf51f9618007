import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir as osHomedir } from "node:os";
import { join } from "node:path";
import type { AdapterSettings } from "@bounded-mcp/mcp-adapter";
import { ADAPTER_SETTINGS } from "@bounded-mcp/mcp-adapter/settings";

/** Where the user's cache folder is looked up; every part defaults to this process's. */
export interface UserCacheLocation {
  /** Read for XDG_CACHE_HOME and LOCALAPPDATA; default process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Default process.platform. */
  platform?: NodeJS.Platform;
  /** Default os.homedir(). */
  homedir?: string;
}

/** The stdio default store, opened: the settings to run with and where they point. */
export interface UserCacheStore {
  /** The given settings with the fs store in the cache folder (and its key ring, if none was set). */
  settings: AdapterSettings;
  /** `<user cache>/bounded-mcp`. */
  dir: string;
  /** The fs store's folder: `<dir>/artifacts`. */
  storeDir: string;
  /** The key ring file used (`<dir>/keys`), or null when the key ring was configured. */
  keyFile: string | null;
}

/**
 * `bounded-mcp` in the user's cache folder: `$XDG_CACHE_HOME` when set (on every platform, so
 * tests and CI can point it at a temporary folder), else `~/Library/Caches` on macOS,
 * `%LOCALAPPDATA%` on Windows (else `~\AppData\Local`), `~/.cache` elsewhere. Pure: nothing is
 * created.
 */
export function userCacheDir(location: UserCacheLocation = {}): string {
  const environment = location.environment ?? process.env;
  const platform = location.platform ?? process.platform;
  const home = location.homedir ?? osHomedir();
  const xdg = environment.XDG_CACHE_HOME?.trim();
  if (xdg) return join(xdg, "bounded-mcp");
  if (platform === "darwin") return join(home, "Library", "Caches", "bounded-mcp");
  if (platform === "win32") {
    const local = environment.LOCALAPPDATA?.trim();
    return join(local || join(home, "AppData", "Local"), "bounded-mcp");
  }
  return join(home, ".cache", "bounded-mcp");
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException | null)?.code ?? "");
}

function readKeyFile(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch (error) {
    if (isCode(error, "ENOENT")) return null;
    throw error;
  }
}

/**
 * The key ring text of `path`, created on first use as `local:<64 hex>` with mode 0600. The
 * file is written whole under a temporary name, then hard-linked to `path`, which fails when
 * `path` exists: of two processes starting at once one link wins and both read the winner's
 * file, never a half-written one. Where hard links are unsupported, an exclusive create is used
 * (a process reading in that instant could see it empty: it then fails to start, never runs with
 * another key).
 */
export function readOrCreateKeyFile(path: string): string {
  const existing = readKeyFile(path);
  if (existing !== null) return existing;
  const text = `local:${randomBytes(32).toString("hex")}\n`;
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (isCode(error, "EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS")) {
      try {
        writeFileSync(path, text, { mode: 0o600, flag: "wx" });
      } catch (inner) {
        if (!isCode(inner, "EEXIST")) throw inner;
      }
    } else if (!isCode(error, "EEXIST")) {
      throw error;
    }
  } finally {
    unlinkSync(temporary);
  }
  return readKeyFile(path) ?? "";
}

/**
 * The default store of a stdio program (both apps' CLIs use it when no store was chosen): the fs
 * store in {@link userCacheDir} (folder mode 0700), and, when no key ring was configured
 * (`keyRingSource` "random"), the key ring of `<dir>/keys` (created on first use, mode 0600;
 * see {@link readOrCreateKeyFile}), so a restarted or second process reads the same artifacts
 * and cursors for their whole TTL. `keyRingSource` then says "file". Throws when the folder or
 * the key file cannot be created or the key file does not hold a key ring (its path in the
 * message). Limits: the key file is as secret as the artifacts; anyone who can read it can mint
 * cursors for this user's stdio scope.
 */
export function openUserCacheStore(
  settings: AdapterSettings,
  location: UserCacheLocation = {},
): UserCacheStore {
  const dir = userCacheDir(location);
  const storeDir = join(dir, "artifacts");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const store = { kind: "fs" as const, dir: storeDir };
  if (settings.keyRingSource !== "random") {
    return { settings: { ...settings, store }, dir, storeDir, keyFile: null };
  }
  const keyFile = join(dir, "keys");
  const parsed = ADAPTER_SETTINGS.keys.schema.safeParse(readOrCreateKeyFile(keyFile));
  if (!parsed.success || parsed.data === null) {
    throw new Error(
      `the key file ${keyFile} does not hold a key ring ([kid:]secret, hex 64+ characters): delete it to get a new one`,
    );
  }
  return {
    settings: { ...settings, store, keyRing: parsed.data, keyRingSource: "file" },
    dir,
    storeDir,
    keyFile,
  };
}
