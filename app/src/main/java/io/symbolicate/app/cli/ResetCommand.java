package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.reset.ResetException;
import io.symbolicate.app.reset.StreamsReset;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code symbolicator reset}: read the input again (reprocessing), with the app stopped. */
@Command(
    name = "reset",
    mixinStandardHelpOptions = true,
    description = {
      "Reset the stopped stream application so that its next run reads crash-events.raw again:",
      "from the earliest offsets, or from the first record at or after --to-datetime.",
      "Deletes the app's internal topics (parked events, missing-symbol counts) and this",
      "machine's task state of the app; keeps the symbol tables and the outputs.",
      "Refuses while an instance runs, and never starts after an event still parked at the stop.",
      "Run it (or delete state.dir/application.id but its global/) on every machine that ran",
      "an instance. See README, Reprocessing."
    })
final class ResetCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Option(
      names = "--to-datetime",
      paramLabel = "INSTANT",
      description =
          "Reprocess from this ISO-8601 instant (e.g. 2026-11-20T00:00:00Z) instead of the start.")
  String toDatetime;

  @Option(names = "--dry-run", description = "Print what the reset would do, and do nothing.")
  boolean dryRun;

  @Option(
      names = "--allow-skipping",
      description =
          "Allow moving a partition past its committed offset (events not processed yet are"
              + " then never processed).")
  boolean allowSkipping;

  @Override
  public Integer call() {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    Instant to = InstantOption.parse("--to-datetime", toDatetime);
    StreamsReset.Plan plan;
    try {
      StreamsReset reset = new StreamsReset(cfg);
      plan = reset.plan(to);
      System.out.println((dryRun ? "would reset " : "resetting ") + plan.describe());
      if (!plan.skipsAhead().isEmpty()) {
        System.out.println(
            "note: "
                + plan.skipsAhead()
                + " would move past the committed offsets, skipping events "
                + "not processed yet"
                + (allowSkipping ? " (allowed)" : "; refused without --allow-skipping"));
      }
      if (!dryRun) {
        reset.apply(plan, allowSkipping);
        System.out.println(
            "done: the next 'run' with this configuration reads "
                + plan.inputTopic()
                + " from "
                + (to == null ? "the start" : to));
      }
    } catch (ResetException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    return 0;
  }
}
