package io.symbolicate.connectors.loader;

import io.symbolicate.symbols.table.TableKind;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each converter's warm-up ({@link TableConverter#warmUp}) once per JVM, on a background
 * thread paced like a load. Without it the process's first big file is converted while the JIT
 * compiles the converter, and those compilations take CPU from the stream threads in the middle
 * of the load (docs/benchmarks.md); with it they happen at start-up, before events flow.
 */
public final class ConverterWarmup implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConverterWarmup.class);
  // per converter class: the compiled code is the JVM's, shared by every loader in it
  private static final Set<Class<?>> CLAIMED = ConcurrentHashMap.newKeySet();

  private final CompletableFuture<Map<TableKind, Long>> done = new CompletableFuture<>();
  private final Thread thread;

  private ConverterWarmup(List<TableConverter> todo, CpuBudget cpu) {
    thread = new Thread(() -> run(todo, cpu), "symbol-loader-warmup");
    thread.setDaemon(true);
  }

  /**
   * Starts warming the converters that no loader in this JVM has warmed yet. The result maps
   * each warmed converter's kind to the input bytes it converted.
   */
  public static ConverterWarmup start(Collection<TableConverter> converters, CpuBudget cpu) {
    List<TableConverter> todo = converters.stream().filter(c -> CLAIMED.add(c.getClass())).toList();
    ConverterWarmup w = new ConverterWarmup(todo, cpu);
    if (todo.isEmpty()) {
      w.done.complete(Map.of());
    } else {
      w.thread.start();
    }
    return w;
  }

  /** Completes when the warm-up has ended (with what each converter converted). */
  public CompletableFuture<Map<TableKind, Long>> done() {
    return done;
  }

  private void run(List<TableConverter> todo, CpuBudget cpu) {
    Map<TableKind, Long> converted = new LinkedHashMap<>();
    var mx = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < todo.size(); i++) {
      TableConverter c = todo.get(i);
      if (Thread.currentThread().isInterrupted()) {
        unclaim(todo.subList(i, todo.size()));
        break;
      }
      long t0 = System.nanoTime();
      long cpu0 = mx.getCurrentThreadCpuTime();
      try {
        LoadPacer pacer = cpu.pacerForCurrentThread();
        long bytes = c.warmUp(pacer);
        pacer.finish();
        if (bytes > 0) {
          converted.put(c.kind(), bytes);
          log.info(
              "converter warm-up: {} converted {} MB in {} ms ({} ms of CPU, {} of a core)",
              c.kind(),
              bytes >> 20,
              (System.nanoTime() - t0) / 1_000_000,
              (mx.getCurrentThreadCpuTime() - cpu0) / 1_000_000,
              pacer.effectiveShareText());
        }
      } catch (InterruptedIOException e) {
        // the loader is closing: the next loader started in this JVM warms what is left
        unclaim(todo.subList(i, todo.size()));
        break;
      } catch (Exception e) {
        // the sample is ours: a failure here is a converter bug, which real files would meet too
        log.warn(
            "converter warm-up of {} failed; its first real file will be converted cold",
            c.kind(),
            e);
      }
    }
    done.complete(converted);
  }

  private static void unclaim(List<TableConverter> left) {
    left.forEach(c -> CLAIMED.remove(c.getClass()));
  }

  /** Stops a warm-up still running (the loader is closing). */
  @Override
  public void close() {
    thread.interrupt();
  }
}
