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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code symbolicator minidump}: read minidumps and walk their stacks as Breakpad does. */
@Command(name = "minidump", mixinStandardHelpOptions = true,
    description = "Minidumps: walk every thread's stack and symbolicate it (Breakpad's rules).",
    subcommands = {MinidumpCommand.Walk.class})
final class MinidumpCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("missing subcommand: use 'minidump walk DUMP --symbols DIR' (see 'minidump --help')");
  }

  @Command(name = "walk", mixinStandardHelpOptions = true,
      description = {"Walk the dump's stacks with the Breakpad symbol directory DIR (name/DEBUGID/name.sym)",
          "and print Breakpad's minidump_stackwalk report: human-readable, or with -m its",
          "machine-readable lines, byte for byte (docs/minidump.md)."})
  static final class Walk implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DUMP", description = "the minidump")
    Path dump;

    @Option(names = "--symbols", paramLabel = "DIR", description = "Breakpad symbol directory (default: none)")
    Path symbols;

    @Option(names = "-m", description = "machine-readable output (minidump_stackwalk -m)")
    boolean machine;

    @Option(names = "-s", description = "also print the stack contents (minidump_stackwalk -s)")
    boolean stackContents;

    @Override
    public Integer call() {
      if (symbols != null && !Files.isDirectory(symbols)) {
        throw new UserException("--symbols " + symbols + " is not a directory");
      }
      ProcessState state;
      try (Minidump d = Minidump.open(dump)) {
        state = new MinidumpProcessor(symbols == null ? SymbolSupplier.NONE : new SymbolDirectory(symbols)).process(d);
      } catch (MinidumpException e) {
        throw new UserException(dump + ": not a readable minidump: " + e.getMessage(), 1, e);
      } catch (IOException e) {
        throw new UserException("cannot read " + dump + ": " + e.getMessage(), 1, e);
      }
      System.out.print(machine ? MachineReadableWriter.write(state)
          : HumanReadableWriter.write(state, HumanReadableWriter.Dialect.CURRENT, stackContents));
      System.out.flush();
      return 0;
    }
  }
}
