package io.symbolicate.bench.runner;

import io.symbolicate.app.cli.UserException;
import io.symbolicate.bench.soak.SoakRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator bench soak}: the pipeline at half its capacity for a while, its memory sampled. */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the stream app in this JVM (broker in a child JVM, S3 in-process) at about half its",
      "capacity (measured first on a backlog of 20,000 events, or --rate) for --minutes, and prints every",
      "--sample-seconds: heap after a full GC, RSS, parked events, the page cache, RocksDB's memory, the lag;",
      "then whether each stayed flat (last third of the samples against the first). Exit 0 when all did."
    })
final class SoakCommand implements Callable<Integer> {
  @Option(
      names = "--minutes",
      defaultValue = "30",
      description = "How long to soak (default: ${DEFAULT-VALUE}).")
  double minutes;

  @Option(
      names = "--sample-seconds",
      defaultValue = "30",
      description = "Sampling interval (default: ${DEFAULT-VALUE}).")
  int sampleSeconds;

  @Option(
      names = "--rate",
      defaultValue = "0",
      description =
          "Events per second; 0: half the capacity measured at the start (default: ${DEFAULT-VALUE}).")
  int rate;

  @Option(
      names = "--partitions",
      defaultValue = "2",
      description = "Input partitions (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Override
  public Integer call() throws Exception {
    if (minutes <= 0 || sampleSeconds < 1 || rate < 0 || partitions < 1) {
      throw new UserException(
          "--minutes, --sample-seconds and --partitions must be positive, --rate not negative");
    }
    Path dir = Files.createTempDirectory("symbolicator-soak");
    List<SoakRun.Trend> trends =
        new SoakRun(
                new SoakRun.Options(
                    Duration.ofMillis((long) (minutes * 60_000)),
                    Duration.ofSeconds(sampleSeconds),
                    rate,
                    partitions,
                    dir),
                System.out)
            .run();
    return trends.stream().allMatch(SoakRun.Trend::flat) ? 0 : 1;
  }
}
