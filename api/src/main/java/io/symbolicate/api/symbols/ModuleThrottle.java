package io.symbolicate.api.symbols;

import io.symbolicate.symbols.table.ModuleRef;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most one action per module per interval (requests to the loader, use reports). Bounded:
 * past {@code maxEntries} modules it forgets them all, which at worst repeats one action each.
 */
final class ModuleThrottle {
  private final Map<ModuleRef, Long> last = new ConcurrentHashMap<>();
  private final long intervalMs;
  private final int maxEntries;

  ModuleThrottle(long intervalMs, int maxEntries) {
    this.intervalMs = intervalMs;
    this.maxEntries = maxEntries;
  }

  /** True (and records {@code now}) when the module's last action is older than the interval. */
  boolean tryAcquire(ModuleRef ref, long now) {
    Long prev = last.get(ref);
    if (prev != null && now - prev < intervalMs) {
      return false;
    }
    if (last.size() > maxEntries) {
      last.clear();
    }
    last.put(ref, now);
    return true;
  }

  /** Forgets the module (its action failed and may be tried again at once). */
  void release(ModuleRef ref) {
    last.remove(ref);
  }
}
