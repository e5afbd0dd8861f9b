package io.symbolicate.app.cli;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.symbolication.minidump.WalkedDumpEvent;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.symbols.id.DebugIdentifiers;
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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
        "Walk the dump's stacks with the Breakpad symbol directory DIR (name/DEBUGID/name.sym)",
        "and print Breakpad's minidump_stackwalk report: human-readable, or with -m its",
        "machine-readable lines, byte for byte; with --json the symbolicated event the stream",
        "would emit for this dump (docs/minidump.md)."
      })
  static final class Walk implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DUMP", description = "the minidump")
    Path dump;

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

    @Override
    public Integer call() {
      if (symbols != null && !Files.isDirectory(symbols)) {
        throw new UserException("--symbols " + symbols + " is not a directory");
      }
      if (machine && json) {
        throw new UserException("-m and --json are exclusive: choose one output");
      }
      String out;
      try (Minidump d = Minidump.open(dump)) {
        ProcessState state =
            new MinidumpProcessor(
                    symbols == null ? SymbolSupplier.NONE : new SymbolDirectory(symbols))
                .process(d);
        if (json) {
          CrashEvent raw = rawEvent(eventId != null ? eventId : sha256(dump), state.cpu());
          SymbolicatedEvent event =
              WalkedDumpEvent.of(
                  raw,
                  state,
                  d.modules() == null ? List.of() : d.modules(),
                  d.crashpadInfo(),
                  System.currentTimeMillis());
          // signed as the stream signs its outputs, with the default frame lists
          out =
              RecordJson.write(new EventSigner(SignatureLists.defaults()).sign(event), true) + "\n";
        } else {
          out =
              machine
                  ? MachineReadableWriter.write(state)
                  : HumanReadableWriter.write(
                      state, HumanReadableWriter.Dialect.CURRENT, stackContents);
        }
      } catch (MinidumpException e) {
        throw new UserException(dump + ": not a readable minidump: " + e.getMessage(), 1, e);
      } catch (IOException e) {
        throw new UserException("cannot read " + dump + ": " + e.getMessage(), 1, e);
      }
      System.out.print(out);
      System.out.flush();
      return 0;
    }

    /**
     * The raw event the dump came in as far as this command knows it: a native event of the
     * dump's architecture without frames (the stream's events will carry the dump by reference).
     */
    static CrashEvent rawEvent(String id, String arch) {
      return CrashEvent.newBuilder()
          .setEventId(id)
          .setScope(DebugIdentifiers.GLOBAL_SCOPE)
          .setReceivedAt(null)
          .setPlatform(Platform.native$)
          .setRelease(null)
          .setDist(null)
          .setAttributes(new java.util.HashMap<>())
          .setNative$(NativePayload.newBuilder().setArch(arch.isEmpty() ? null : arch).build())
          .setJavascript(null)
          .setJvm(null)
          .build();
    }

    static String sha256(Path file) throws IOException {
      try (var in = Files.newInputStream(file)) {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
          md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is part of every JDK", e);
      }
    }
  }
}
