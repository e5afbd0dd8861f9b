package io.symbolicate.app.cli;

import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator minidump}: read minidumps and walk their stacks as Breakpad does. */
@Command(
    name = "minidump",
    mixinStandardHelpOptions = true,
    description = "Minidumps: walk every thread's stack and symbolicate it (Breakpad's rules).",
    subcommands = {MinidumpCommand.Walk.class})
final class MinidumpCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException(
        "missing subcommand: use 'minidump walk DUMP --symbols DIR' (see 'minidump --help')");
  }

  @Command(
      name = "walk",
      mixinStandardHelpOptions = true,
      description = {
        "Walk the dump's stacks with the Breakpad symbol directory DIR (name/DEBUGID/name.sym)"
            + " and print Breakpad's minidump_stackwalk report: human-readable, or with -m its"
            + " machine-readable lines, byte for byte; with --json the symbolicated event the"
            + " stream would emit for this dump (docs/minidump.md).",
        "Several dumps (files, directories of *.dmp files, or - for a list of paths on stdin)"
            + " are walked on --threads threads, each symbol file read once: one report per dump"
            + " into --output-dir (NAME.stackwalk.out, with -m NAME.stackwalk.machine_readable.out,"
            + " with --json NAME.json), or one JSON line per dump on stdout ({\"input\", \"report\"}"
            + " or {\"input\", \"error\"})."
      })
  static final class Walk implements Callable<Integer> {
    @Parameters(
        arity = "1..*",
        paramLabel = "DUMP",
        description = "minidumps, directories of *.dmp files, or - (paths on stdin)")
    List<String> dumps;

    @Option(
        names = "--symbols",
        paramLabel = "DIR",
        description = "Breakpad symbol directory (default: none)")
    Path symbols;

    @Option(names = "-m", description = "machine-readable output (minidump_stackwalk -m)")
    boolean machine;

    @Option(names = "-s", description = "also print the stack contents (minidump_stackwalk -s)")
    boolean stackContents;

    @Option(
        names = "--json",
        description = "print the symbolicated event (JSON, the schema's field names)")
    boolean json;

    @Option(
        names = "--event-id",
        paramLabel = "ID",
        description = "event_id of the raw event with --json (default: the dump's SHA-256 in hex)")
    String eventId;

    @Mixin BatchOptions batch;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      if (symbols != null && !Files.isDirectory(symbols)) {
        throw new UserException("--symbols " + symbols + " is not a directory");
      }
      if (machine && json) {
        throw new UserException("-m and --json are exclusive: choose one output");
      }
      if (eventId != null && json && Batch.isBatch(dumps, batch.outputDir)) {
        throw new UserException("--event-id names one dump's event: give one dump");
      }
      // one supplier for every dump: each symbol file is read once, whichever thread needs it
      MinidumpProcessor processor =
          new MinidumpProcessor(
              symbols == null ? SymbolSupplier.NONE : new SymbolDirectory(symbols));
      if (!Batch.isBatch(dumps, batch.outputDir)) {
        Path dump = Path.of(dumps.get(0));
        String out;
        try {
          out = report(processor, dump);
        } catch (MinidumpException e) {
          throw new UserException(dump + ": not a readable minidump: " + e.getMessage(), 1, e);
        } catch (IOException e) {
          throw new UserException("cannot read " + dump + ": " + e.getMessage(), 1, e);
        }
        System.out.print(out);
        System.out.flush();
        return 0;
      }
      String suffix =
          json ? ".json" : machine ? ".stackwalk.machine_readable.out" : ".stackwalk.out";
      return Batch.run(
          Batch.inputs(dumps, System.in, ".dmp"),
          dump -> {
            try {
              return report(processor, dump);
            } catch (MinidumpException e) {
              throw new UserException("not a readable minidump: " + e.getMessage(), 1, e);
            } catch (IOException e) {
              throw new UserException("cannot read: " + e.getMessage(), 1, e);
            }
          },
          batch.options(suffix, json),
          System.out,
          spec.commandLine().getErr());
    }

    /** The report of one dump in the output asked for. */
    private String report(MinidumpProcessor processor, Path dump)
        throws IOException, MinidumpException {
      try (Minidump d = Minidump.open(dump)) {
        ProcessState state = processor.process(d);
        if (json) {
          // in a class of its own: the event's classes (Avro, the signer) load for --json alone
          return WalkedDumpJson.write(dump, d, state, eventId);
        }
        return machine
            ? MachineReadableWriter.write(state)
            : HumanReadableWriter.write(state, HumanReadableWriter.Dialect.CURRENT, stackContents);
      }
    }
  }
}
