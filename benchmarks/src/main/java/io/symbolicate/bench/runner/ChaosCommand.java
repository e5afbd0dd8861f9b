package io.symbolicate.bench.runner;

import io.symbolicate.app.cli.UserException;
import io.symbolicate.bench.chaos.ChaosRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator bench chaos}: faults on a real 3-node cluster while events flow (docs/operations.md#chaos). */
@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    description = {
      "A 3-node KRaft cluster (replication factor 3, min.insync.replicas=2), --instances 'run' instances",
      "and a loader as child processes, S3 behind a pausable proxy. While the events flow: kill -9 an instance,",
      "stop the broker coordinating the group, start a new instance, restart the broker, pause S3. Then a",
      "read_committed reader must see every event once and the DLQ only the bad events; prints each",
      "partition's longest stall. Exit 0 when it passed, 1 when not."
    })
final class ChaosCommand implements Callable<Integer> {
  @Option(
      names = "--events",
      defaultValue = "30000",
      description = "Events (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--rate",
      defaultValue = "400",
      description = "Events per second (default: ${DEFAULT-VALUE}).")
  int rate;

  @Option(
      names = "--partitions",
      defaultValue = "6",
      description = "Input partitions (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = "--instances",
      defaultValue = "3",
      description = "Instances at the start (default: ${DEFAULT-VALUE}).")
  int instances;

  @Option(
      names = "--bad-events",
      defaultValue = "30",
      description =
          "Undecodable events among them, each due once in the DLQ (default: ${DEFAULT-VALUE}).")
  int badEvents;

  @Option(
      names = "--s3-pause-seconds",
      defaultValue = "20",
      description = "How long S3 hangs (default: ${DEFAULT-VALUE}).")
  double s3Pause;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "Working directory: state, logs (default: a new temporary one, removed when the run passed).")
  Path dir;

  @Option(names = "--keep-logs", description = "Keep the directory even when the run passed.")
  boolean keepLogs;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "A configuration key for every instance, as 'run --set' takes it (repeatable), e.g. "
              + "streams.commit.interval.ms=1000 to measure it against the faults.")
  List<String> settings = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    for (String s : settings) {
      if (s.indexOf('=') < 1) {
        throw new UserException("--set takes KEY=VALUE, not '" + s + "'");
      }
    }
    if (events < 1 || rate < 1 || partitions < 1 || instances < 2 || badEvents < 0 || s3Pause < 0) {
      throw new UserException(
          "--events, --rate and --partitions must be positive, --instances at least 2 "
              + "(one is killed), --bad-events and --s3-pause-seconds not negative");
    }
    Path work = dir != null ? dir : Files.createTempDirectory("symbolicator-chaos");
    ChaosRun.Report r =
        new ChaosRun(
                new ChaosRun.Options(
                    events,
                    rate,
                    partitions,
                    instances,
                    badEvents,
                    ChaosRun.fullPlan(events, rate, s3Pause),
                    work,
                    keepLogs || dir != null,
                    settings),
                System.out)
            .run();
    return r.passed() ? 0 : 1;
  }
}
