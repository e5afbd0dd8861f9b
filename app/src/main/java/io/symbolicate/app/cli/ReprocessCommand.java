package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.symbolication.signature.EventSigner;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code symbolicator reprocess}: symbolicate again exactly the events that missed one module. */
@Command(
    name = "reprocess",
    mixinStandardHelpOptions = true,
    description = {
      "Symbolicate again exactly the events that missed one module (its symbols came late):",
      "reads topic.symbolicated, finds the events whose latest output has the module missing",
      "(or --status), and writes them to topic.raw once each, marked reprocessed; the running app",
      "does the rest. Needs no stop. See README, Reprocessing.",
      "With --signatures-only: sign the events again with the configured lists (signatures.lists.dir),",
      "without symbol lookups, and write those whose signature changed back to topic.symbolicated."
    })
final class ReprocessCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Spec CommandSpec spec;

  @Option(
      names = "--module",
      paramLabel = "MODULE",
      description = {
        "A key of symbols.missing (scope|platform|module, e.g. global|native|xul.pdb/44E4...2),",
        "or a bare module key (native debug_file/debug_id, JS debug id or URL, JVM mapping UUID)."
      })
  String module;

  @Option(
      names = "--status",
      split = ",",
      paramLabel = "STATUS",
      description = "Module statuses to reprocess (default: missing,malformed,fetch_failed).")
  List<String> statuses;

  @Option(
      names = "--from-datetime",
      paramLabel = "INSTANT",
      description = {
        "Only events whose output is timestamped at or after this instant",
        "(the input record's timestamp, which a reprocessed event keeps)."
      })
  String from;

  @Option(
      names = "--to-datetime",
      paramLabel = "INSTANT",
      description = "Only events whose output is timestamped at or before this instant.")
  String to;

  @Option(names = "--dry-run", description = "Count the events, and write nothing.")
  boolean dryRun;

  @Option(
      names = "--max-rate",
      paramLabel = "EVENTS_PER_SECOND",
      defaultValue = "0",
      description = {
        "Write at most this many events a second (default: no limit), so that a module many",
        "events missed does not crowd live events out of the app's input."
      })
  double maxRate;

  @Option(
      names = "--force",
      description = {
        "Write even though the module's table is not loaded yet",
        "(the events would come out missing again)."
      })
  boolean force;

  @Option(
      names = "--signatures-only",
      description = {
        "Regenerate the signatures alone (after the signature lists",
        "changed; restart the app with them first): no symbol lookups, no input written. Takes",
        "no --module, --status or --force."
      })
  boolean signaturesOnly;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (signaturesOnly) {
      if (module != null || statuses != null || force) {
        throw new UserException("--signatures-only takes no --module, --status or --force");
      }
    } else if (module == null) {
      throw new UserException("Missing required option: '--module=MODULE' (or --signatures-only)");
    }
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    if (signaturesOnly) {
      return signatures(cfg, out, err);
    }
    Set<ModuleStatus> wanted = ModuleReprocessing.Selection.MENDABLE;
    if (statuses != null) {
      wanted = EnumSet.noneOf(ModuleStatus.class);
      for (String s : statuses) {
        try {
          wanted.add(ModuleStatus.valueOf(s.trim()));
        } catch (IllegalArgumentException e) {
          throw new UserException(
              "--status: unknown module status '"
                  + s
                  + "' (one of "
                  + List.of(ModuleStatus.values())
                  + ")");
        }
      }
    }
    ModuleReprocessing.Selection sel;
    try {
      sel =
          ModuleReprocessing.Selection.of(
              module,
              wanted,
              InstantOption.parse("--from-datetime", from),
              InstantOption.parse("--to-datetime", to));
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    if (maxRate < 0 || Double.isNaN(maxRate) || Double.isInfinite(maxRate)) {
      throw new UserException("--max-rate must be a number of events per second, 0 for no limit");
    }
    ModuleReprocessing reprocessing;
    try {
      reprocessing =
          new ModuleReprocessing(
              cfg,
              line -> {
                err.println(line);
                err.flush();
              });
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    try {
      checkTableLoaded(reprocessing, sel, cfg, err);
      report(reprocessing.run(sel, dryRun, maxRate), cfg, out, err);
    } catch (ModuleReprocessing.ReprocessException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    return 0;
  }

  /**
   * Refuses (exit 3) a real run while the module's table is not loaded, unless --force; a dry
   * run, --force and a bare module key only get a note.
   */
  private void checkTableLoaded(
      ModuleReprocessing reprocessing,
      ModuleReprocessing.Selection sel,
      AppConfig cfg,
      PrintWriter err) {
    if (force) {
      err.println("note: --force: whether the module's table is loaded is not checked");
      return;
    }
    Boolean loaded;
    try {
      loaded = reprocessing.loaded(sel);
    } catch (ModuleReprocessing.ReprocessException e) {
      if (!dryRun) {
        throw new UserException(
            "cannot tell whether the module's table is loaded ("
                + e.getMessage()
                + "); write anyway with --force",
            3,
            e);
      }
      err.println("note: cannot tell whether the module's table is loaded: " + e.getMessage());
      return;
    }
    if (loaded == null) {
      err.println(
          "note: a bare module key names no scope and platform, so whether its table is loaded "
              + "is not checked");
    } else if (!loaded) {
      String why =
          "the table of "
              + module
              + " is not loaded yet ("
              + cfg.get(ConfigKeys.TOPIC_INDEX)
              + " has no found "
              + "state for it): its events would come out missing again. Upload the file, announce it on "
              + cfg.get(ConfigKeys.TOPIC_UPLOADS)
              + ", wait for the loader";
      if (!dryRun) {
        throw new UserException(why + ", or write anyway (--force)", 3, null);
      }
      err.println("note: " + why);
    }
  }

  private int signatures(AppConfig cfg, PrintWriter out, PrintWriter err) {
    java.time.Instant fromAt = InstantOption.parse("--from-datetime", from);
    java.time.Instant toAt = InstantOption.parse("--to-datetime", to);
    if (maxRate < 0 || Double.isNaN(maxRate) || Double.isInfinite(maxRate)) {
      throw new UserException("--max-rate must be a number of events per second, 0 for no limit");
    }
    EventSigner signer;
    try {
      signer = new EventSigner(cfg.signatureLists());
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
    ModuleReprocessing.SignatureRun r;
    try {
      r =
          new ModuleReprocessing(
                  cfg,
                  line -> {
                    err.println(line);
                    err.flush();
                  })
              .resign(signer, fromAt, toAt, dryRun, maxRate);
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    } catch (ModuleReprocessing.ReprocessException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    StringBuilder sb = new StringBuilder();
    sb.append(r.events())
        .append(" event(s) signed again, ")
        .append(r.changed())
        .append(dryRun ? " would change" : " changed")
        .append(" (")
        .append(r.scanned())
        .append(" output records read");
    if (r.undecodable() > 0) {
      sb.append(", ").append(r.undecodable()).append(" undecodable skipped");
    }
    sb.append(')');
    if (!dryRun) {
      sb.append("; written to ")
          .append(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED))
          .append(": ")
          .append(r.written());
      if (r.tooLarge() > 0) {
        sb.append(", too large for the output topic: ").append(r.tooLarge());
      }
    }
    out.println(sb);
    out.flush();
    if (r.lost() > 0) {
      err.println(
          "warning: "
              + r.lost()
              + " output record(s) were deleted by retention before they could be read");
    }
    if (!r.complete(dryRun)) {
      throw new UserException(
          (r.changed() - r.written() - r.tooLarge())
              + " of "
              + r.changed()
              + " changed event(s) were not written"
              + (r.failed() > 0 ? " (" + r.failed() + " failed)" : "")
              + (r.lost() > 0 ? "; records were lost to retention" : "")
              + "; run the command again",
          3,
          null);
    }
    return 0;
  }

  /** The summary on stdout; exit 3 when events were not all written or records were lost. */
  private void report(
      ModuleReprocessing.Result r, AppConfig cfg, PrintWriter out, PrintWriter err) {
    StringBuilder sb = new StringBuilder();
    sb.append(dryRun ? "would reprocess " : "found ")
        .append(r.matched())
        .append(" event(s) that missed ")
        .append(module)
        .append(" (")
        .append(r.scanned())
        .append(" output records read");
    if (r.undecodable() > 0) {
      sb.append(", ").append(r.undecodable()).append(" undecodable skipped");
    }
    sb.append(')');
    if (!dryRun) {
      sb.append("; written to ")
          .append(cfg.get(ConfigKeys.TOPIC_RAW))
          .append(": ")
          .append(r.written());
      if (r.tooLarge() > 0) {
        sb.append(", too large for max.event.bytes once re-encoded: ").append(r.tooLarge());
      }
    }
    out.println(sb);
    out.flush();
    if (r.lost() > 0) {
      err.println(
          "warning: "
              + r.lost()
              + " output record(s) were deleted by retention before they could "
              + "be read; their events were not considered");
    }
    if (!r.complete(dryRun)) {
      long notWritten = r.matched() - r.written() - r.tooLarge();
      String what =
          dryRun
              ? "output records were lost to retention while reading, so the count may be short"
              : (notWritten > 0
                      ? notWritten
                          + " of "
                          + r.matched()
                          + " event(s) were not written"
                          + (r.failed() > 0 ? " (" + r.failed() + " failed)" : "")
                      : "every event found was written")
                  + (r.lost() > 0
                      ? "; records were lost to retention before they could be read"
                      : "");
      throw new UserException(
          what
              + (dryRun
                  ? ""
                  : "; run the command again (an event written twice comes "
                      + "out twice; consumers keep the latest)"),
          3,
          null);
    }
  }
}
