package io.symbolicate.testkit;

import java.io.IOException;
import java.io.InputStream;

/**
 * Entry point of the broker JVM that {@link ChildProcessKafka} starts: it runs {@code kafka.Kafka}
 * and halts as soon as its stdin reaches end-of-file, which happens when the parent JVM dies in
 * any way (even SIGKILL), so a crashed test never leaves a broker behind.
 */
public final class ChildBrokerMain {
  private ChildBrokerMain() {}

  public static void main(String[] args) throws Exception {
    Thread watchdog =
        new Thread(
            () -> {
              try (InputStream in = System.in) {
                byte[] buf = new byte[64];
                while (in.read(buf) >= 0) {
                  // the parent never writes; reading only waits for end-of-file
                }
              } catch (IOException ignored) {
                // a broken pipe means the same as end-of-file
              }
              Runtime.getRuntime().halt(86);
            },
            "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    kafka.Kafka.main(args);
  }
}
