package io.symbolicate.topology.loader;

import java.util.concurrent.ThreadFactory;

/**
 * Threads for symbol loading, which is background work next to the stream threads: daemon, at
 * the lowest Java priority. Linux ignores Java priorities under the JVM's default policy; the
 * launcher's {@code -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10} maps this
 * one to nice 10, so when the cores are contended the scheduler gives them to the stream threads
 * first (README, "Command line"). Lowering a thread's priority needs no permission.
 */
public final class BackgroundThreads {
  private BackgroundThreads() {}

  /** A factory of daemon threads called {@code name}, at {@link Thread#MIN_PRIORITY}. */
  public static ThreadFactory named(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setPriority(Thread.MIN_PRIORITY);
      return t;
    };
  }
}
