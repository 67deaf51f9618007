import { StoreError } from "../store-error.js";

/** One stored artifact as the eviction plan sees it. */
export interface ShareEntry {
  id: string;
  /** The caller scope (principal) that owns it: the unit a share is counted in. */
  scopeHash: string;
  byteLength: number;
  expired: boolean;
}

/** What {@link planEviction} is asked to make room for. */
export interface EvictionRequest {
  /** Every stored artifact except the one being replaced, oldest first. */
  entries: readonly ShareEntry[];
  /** The scope of the incoming body. */
  scopeHash: string;
  /** Bytes of the incoming body. */
  incoming: number;
  /** The store's cap over all bodies. */
  capBytes: number;
  /** The cap over one scope's bodies (the whole cap: no shares). */
  shareBytes: number;
  /** Bytes being written now (counted in the total, and in the scope's share when its own). */
  reservedBytes?: number;
  /** The part of reservedBytes that belongs to `scopeHash`. */
  reservedOwnBytes?: number;
}

/**
 * The artifacts to remove so that an incoming body fits, in removal order. First the scope's
 * own share: its expired, then its oldest artifacts go until its bytes plus the body fit
 * `shareBytes`; another scope's artifacts are never removed for that. Then the store's cap: expired
 * artifacts of any scope go first; if that is not enough, the oldest artifacts of whichever
 * scope holds the most bytes (the incoming body counted in its own scope). So an artifact is
 * evicted by another scope's put only when its own scope holds at least as many bytes as the
 * putting scope would; with shares of a quarter of the cap that needs four full shares.
 * Pure: the caller removes what it returns.
 */
export function planEviction(request: EvictionRequest): ShareEntry[] {
  const { scopeHash, incoming, capBytes, shareBytes } = request;
  const queues = new Map<string, ShareEntry[]>();
  const held = new Map<string, number>();
  let total = request.reservedBytes ?? 0;
  for (const entry of request.entries) {
    const queue = queues.get(entry.scopeHash) ?? [];
    if (queue.length === 0) queues.set(entry.scopeHash, queue);
    queue.push(entry);
    held.set(entry.scopeHash, (held.get(entry.scopeHash) ?? 0) + entry.byteLength);
    total += entry.byteLength;
  }
  const reservedOwn = request.reservedOwnBytes ?? 0;
  const own = () => (held.get(scopeHash) ?? 0) + reservedOwn;
  const removed: ShareEntry[] = [];
  const gone = new Set<string>();
  const drop = (entry: ShareEntry) => {
    gone.add(entry.id);
    removed.push(entry);
    held.set(entry.scopeHash, (held.get(entry.scopeHash) ?? 0) - entry.byteLength);
    total -= entry.byteLength;
  };
  const ownQueue = queues.get(scopeHash) ?? [];
  for (const entry of [...ownQueue.filter((item) => item.expired), ...ownQueue]) {
    if (own() + incoming <= shareBytes) break;
    if (!gone.has(entry.id)) drop(entry);
  }
  for (const entry of request.entries) {
    if (total + incoming <= capBytes) return removed;
    if (entry.expired && !gone.has(entry.id)) drop(entry);
  }
  while (total + incoming > capBytes) {
    const victim = largestHolder(held, scopeHash, incoming);
    const next = queues.get(victim ?? "")?.find((entry) => !gone.has(entry.id));
    if (next === undefined) break;
    drop(next);
  }
  return removed;
}

function largestHolder(
  held: ReadonlyMap<string, number>,
  scopeHash: string,
  incoming: number,
): string | undefined {
  let largest: string | undefined;
  let most = -1;
  for (const [scope, bytes] of held) {
    const counted = scope === scopeHash ? bytes + incoming : bytes;
    if (bytes > 0 && counted > most) {
      most = counted;
      largest = scope;
    }
  }
  return largest;
}

/**
 * Throws StoreError QUOTA_EXCEEDED (with `limit`) when one body alone is larger than one scope's
 * share of the store: it could only be kept by evicting other scopes' artifacts.
 */
export function assertFitsShare(store: string, bodyBytes: number, shareBytes: number): void {
  if (bodyBytes <= shareBytes) return;
  throw new StoreError({
    code: "QUOTA_EXCEEDED",
    store,
    operation: "put",
    limit: shareBytes,
    limitOf: "share",
    message: `[stores:${store}] put failed: ${bodyBytes} bytes exceed one caller's share of ${shareBytes}`,
  });
}

/** The share the options ask for, checked: at least 1 byte, at most the cap (the default). */
export function resolveShareBytes(
  store: string,
  shareBytes: number | undefined,
  capBytes: number,
): number {
  if (shareBytes === undefined) return capBytes;
  if (!Number.isSafeInteger(shareBytes) || shareBytes < 1) {
    throw new RangeError(`[stores:${store}] shareBytes must be a positive integer`);
  }
  return Math.min(shareBytes, capBytes);
}
