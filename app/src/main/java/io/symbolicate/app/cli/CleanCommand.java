package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reset.ResetException;
import io.symbolicate.app.reset.StreamsClean;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code symbolicator clean}: remove the stopped stream application from the cluster. */
@Command(
    name = "clean",
    mixinStandardHelpOptions = true,
    description = {
      "Remove the stopped stream application from the cluster: its group, its internal",
      "topics and this machine's state of it; with --delete-outputs also topic.symbolicated,",
      "topic.dlq and topic.missing, unless another producer writes to them. Keeps the input, the",
      "symbol topics and the loader's group. Refuses while an instance runs, or while events are",
      "still parked (--discard-parked). Run it (or delete state.dir/application.id) on every",
      "machine that ran an instance. See README, Reprocessing."
    })
final class CleanCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Option(names = "--dry-run", description = "Print what the clean would do, and do nothing.")
  boolean dryRun;

  @Option(
      names = "--delete-outputs",
      description = "Also delete the output topics (symbolicated, DLQ, missing).")
  boolean deleteOutputs;

  @Option(
      names = "--discard-parked",
      description = {
        "Clean even though events are still parked",
        "(they are then never symbolicated nor dead-lettered)."
      })
  boolean discardParked;

  @Override
  public Integer call() {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    try {
      StreamsClean clean = new StreamsClean(cfg);
      StreamsClean.CleanPlan plan = clean.plan(deleteOutputs);
      System.out.println((dryRun ? "would clean " : "cleaning ") + plan.describe());
      if (plan.parkedEvents() > 0) {
        System.out.println(
            "note: "
                + plan.parkedEvents()
                + " parked event(s) would be lost"
                + (discardParked ? " (allowed)" : "; refused without --discard-parked"));
      }
      if (!dryRun) {
        clean.apply(plan, discardParked);
        System.out.println(
            "done: the next 'run' with this configuration starts as a new application, reading "
                + cfg.get(ConfigKeys.TOPIC_RAW)
                + " from the start (Kafka Streams' auto.offset.reset)");
      }
    } catch (ResetException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    return 0;
  }
}
