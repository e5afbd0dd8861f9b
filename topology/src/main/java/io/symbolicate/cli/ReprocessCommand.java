package io.symbolicate.cli;

import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.topology.app.AppConfig;
import io.symbolicate.topology.app.ModuleReprocessing;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code symbolicator reprocess}: symbolicate again exactly the events that missed one module. */
@Command(name = "reprocess", mixinStandardHelpOptions = true,
    description = {"Symbolicate again exactly the events that missed one module (its symbols came late):",
        "reads topic.symbolicated, finds the events whose latest output has the module missing",
        "(or --status), and writes them to topic.raw once each, marked reprocessed; the running app",
        "does the rest. Needs no stop. See README, Reprocessing."})
final class ReprocessCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Option(names = "--module", required = true, paramLabel = "MODULE",
      description = {"A key of symbols.missing (scope|platform|module, e.g. global|native|xul.pdb/44E4...2),",
          "or a bare module key (native debug_file/debug_id, JS debug id or URL, JVM mapping UUID)."})
  String module;

  @Option(names = "--status", split = ",", paramLabel = "STATUS",
      description = "Module statuses to reprocess (default: missing,malformed,fetch_failed).")
  List<String> statuses;

  @Option(names = "--from-datetime", paramLabel = "INSTANT", description = "Only outputs written at or after this instant.")
  String from;

  @Option(names = "--to-datetime", paramLabel = "INSTANT", description = "Only outputs timestamped at or before this instant.")
  String to;

  @Option(names = "--dry-run", description = "Count the events, and write nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    Set<ModuleStatus> wanted = ModuleReprocessing.Selection.MENDABLE;
    if (statuses != null) {
      wanted = EnumSet.noneOf(ModuleStatus.class);
      for (String s : statuses) {
        try {
          wanted.add(ModuleStatus.valueOf(s.trim()));
        } catch (IllegalArgumentException e) {
          throw new UserException("--status: unknown module status '" + s + "' (one of " + List.of(ModuleStatus.values())
              + ")");
        }
      }
    }
    ModuleReprocessing.Selection sel;
    try {
      sel = ModuleReprocessing.Selection.of(module, wanted, instant("--from-datetime", from), instant("--to-datetime", to));
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    try {
      ModuleReprocessing.Result r = new ModuleReprocessing(cfg, System.err::println).run(sel, dryRun);
      System.out.println((dryRun ? "would reprocess " : "reprocessed ") + r.matched() + " event(s) that missed "
          + module + " (" + r.scanned() + " output records read" + (r.undecodable() > 0 ? ", " + r.undecodable()
          + " undecodable skipped" : "") + ")" + (dryRun ? "" : "; written to " + cfg.get("topic.raw") + ": "
          + r.written()));
      if (r.failed() > 0) {
        throw new UserException(r.failed() + " event(s) could not be written to " + cfg.get("topic.raw")
            + "; run the command again (an event written twice comes out twice; consumers keep the latest)", 3, null);
      }
    } catch (ModuleReprocessing.ReprocessException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    return 0;
  }

  private static Instant instant(String option, String value) {
    if (value == null) {
      return null;
    }
    try {
      Instant i = Instant.parse(value);
      i.toEpochMilli();
      return i;
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new UserException(option + " must be an ISO-8601 instant such as 2026-11-20T00:00:00Z, got '" + value + "'");
    }
  }
}
