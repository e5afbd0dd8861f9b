package io.symbolicate.cli;

import io.symbolicate.topology.app.AppConfig;
import io.symbolicate.topology.app.StreamsReset;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code symbolicator reset}: read the input again (reprocessing), with the app stopped. */
@Command(name = "reset", mixinStandardHelpOptions = true,
    description = {"Reset the stopped stream application so that its next run reads crash-events.raw again:",
        "from the earliest offsets, or from the first record at or after --to-datetime.",
        "Deletes the app's internal topics (parked events, missing-symbol counts) and this",
        "machine's state directory of the app; keeps the symbol tables and the outputs.",
        "Refuses while an instance runs. Run it (or delete state.dir/application.id) on every",
        "machine that ran an instance."})
final class ResetCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Option(names = "--to-datetime", paramLabel = "INSTANT",
      description = "Reprocess from this ISO-8601 instant (e.g. 2026-11-20T00:00:00Z) instead of the start.")
  String toDatetime;

  @Option(names = "--dry-run", description = "Print what the reset would do, and do nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    Instant to = null;
    if (toDatetime != null) {
      try {
        to = Instant.parse(toDatetime);
      } catch (DateTimeParseException e) {
        throw new UserException("--to-datetime must be an ISO-8601 instant such as 2026-11-20T00:00:00Z, got '"
            + toDatetime + "'");
      }
    }
    StreamsReset reset = new StreamsReset(cfg);
    StreamsReset.Plan plan;
    try {
      plan = reset.plan(to);
      System.out.println((dryRun ? "would reset " : "resetting ") + plan.describe());
      if (!dryRun) {
        reset.apply(plan);
        System.out.println("done: the next 'run' with this configuration reads " + plan.inputTopic() + " from "
            + (to == null ? "the start" : to));
      }
    } catch (StreamsReset.ResetException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    return 0;
  }
}
