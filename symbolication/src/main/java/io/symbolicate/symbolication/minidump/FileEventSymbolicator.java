package io.symbolicate.symbolication.minidump;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.apple.AppleReportEvents;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.UnusableEventException;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.table.ModuleRef;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The native step for events that carry a file to fetch or walk (docs/minidump.md, "Dumps in
 * the stream"): a minidump, inline or by reference, or an Apple crash report by reference (an
 * inline one was read at decoding). It is in front of the frame-based native step, which gets
 * every other native event, and an Apple report's event once read.
 *
 * <p>A dump by reference is fetched off the stream threads ({@link FetchedFiles}); the event
 * stays parked meanwhile. Its modules are the ones its walk consults: at every pass over the
 * parked events the dump is walked with the answers the store has, and the event waits for every
 * module that walk consulted (the modules of its frames, and of the stack words a scan tried),
 * up to {@code max.modules.per.event}. Symbols and CFI arriving change the walk, which may then
 * consult further modules, requested in turn; once every consulted module has an answer (or the
 * deadline passed) the final walk is the output.
 */
public final class FileEventSymbolicator implements PlatformSymbolicator {
  /** Limits of dumps in the stream. */
  public record Settings(
      long maxDumpBytes, long maxHeldBytes, Duration fetchRetry, int maxModules, int maxFrames) {
    public static final long DEFAULT_MAX_DUMP_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_HELD_BYTES = 256L << 20;
    public static final Duration DEFAULT_FETCH_RETRY = Duration.ofSeconds(5);

    public static Settings defaults(int maxModules) {
      return new Settings(
          DEFAULT_MAX_DUMP_BYTES,
          DEFAULT_MAX_HELD_BYTES,
          DEFAULT_FETCH_RETRY,
          maxModules,
          MinidumpProcessor.DEFAULT_MAX_FRAMES);
    }
  }

  /** How long a fetched file of an event that no longer comes by (moved away) is kept. */
  static final long IDLE_MILLIS = 10 * 60_000L;

  private final PlatformSymbolicator frames;
  private final Settings settings;
  private final FetchedFiles files;

  public FileEventSymbolicator(
      PlatformSymbolicator frames, AttachmentFetcher fetcher, Settings settings) {
    if (frames.platform() != Platform.native$) {
      throw new IllegalArgumentException("dumps are native: " + frames.platform());
    }
    this.frames = frames;
    this.settings = settings;
    this.files =
        new FetchedFiles(
            fetcher,
            settings.maxDumpBytes(),
            settings.maxHeldBytes(),
            settings.fetchRetry().toMillis(),
            IDLE_MILLIS);
  }

  /** The dump an event carries, or null. */
  static Attachment dumpOf(CrashEvent event) {
    return event.getNative$() == null ? null : event.getNative$().getMinidump();
  }

  /** The Apple report an event carries by reference (not inline), or null. */
  static Attachment appleReferenceOf(CrashEvent event) {
    if (event.getNative$() == null || dumpOf(event) != null) {
      return null;
    }
    Attachment a = event.getNative$().getAppleCrashReport();
    return a != null && a.getData() == null && a.getText() == null ? a : null;
  }

  /** The file the step fetches or reads for the event, or null. */
  private static Attachment fileOf(CrashEvent event) {
    Attachment dump = dumpOf(event);
    return dump != null ? dump : appleReferenceOf(event);
  }

  /** The event an Apple report by reference makes, once fetched (docs/apple-crash.md). */
  private CrashEvent appleEvent(CrashEvent event) {
    Attachment a = appleReferenceOf(event);
    if (a.getKey() == null) {
      throw new UnusableEventException(
          ErrorKind.invalid_event,
          "native.apple_crash_report has neither data, text nor key: nothing to read");
    }
    byte[] report = files.peek(fileId(event));
    if (report == null) {
      throw new IllegalStateException(
          "the report of " + event.getEventId() + " was dropped before it was read");
    }
    try {
      return AppleReportEvents.withReport(event, report);
    } catch (AppleCrashReportException e) {
      throw new UnusableEventException(
          ErrorKind.unreadable_attachment,
          "native.apple_crash_report (" + FetchedFiles.describe(a) + "): " + e.getMessage());
    }
  }

  @Override
  public Platform platform() {
    return Platform.native$;
  }

  @Override
  public int tableFormatVersion() {
    return frames.tableFormatVersion();
  }

  @Override
  public int minReadableTableVersion() {
    return frames.minReadableTableVersion();
  }

  @Override
  public ModuleReadiness readiness(long startedAt) {
    return frames.readiness(startedAt);
  }

  @Override
  public Platform tablePlatform(CrashEvent event, ModuleResult module) {
    // a walked file's modules index the file's list, not the event's
    return fileOf(event) == null ? frames.tablePlatform(event, module) : platform();
  }

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event) {
    return fileOf(event) == null ? frames.modulesNeeded(event) : List.of();
  }

  @Override
  public boolean awaitingInput(CrashEvent event, long nowMillis) {
    Attachment a = fileOf(event);
    if (a == null) {
      return frames.awaitingInput(event, nowMillis);
    }
    return inline(a) == null && files.get(fileId(event), a, nowMillis) == null;
  }

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event, SymbolLookup lookup) {
    if (dumpOf(event) == null) {
      return frames.modulesNeeded(
          appleReferenceOf(event) == null ? event : appleEvent(event), lookup);
    }
    StoreSymbols symbols = new StoreSymbols(lookup, event.getScope(), settings.maxModules());
    walk(read(event), symbols); // a dump read from bytes holds nothing to close
    return symbols.refs();
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    if (dumpOf(event) == null) {
      return frames.symbolicate(
          appleReferenceOf(event) == null ? event : appleEvent(event), lookup, nowMillis);
    }
    StoreSymbols symbols = new StoreSymbols(lookup, event.getScope(), settings.maxModules());
    Minidump dump = read(event);
    ProcessState state = walk(dump, symbols);
    return WalkedDumpEvent.of(
        event,
        state,
        dump.modules() == null ? List.of() : dump.modules(),
        dump.crashpadInfo(),
        nowMillis,
        symbols::statusOf);
  }

  @Override
  public void done(CrashEvent event) {
    if (fileOf(event) != null) {
      files.release(fileId(event));
    }
    frames.done(event);
  }

  /** Bytes held by fetched dumps (metrics). */
  public long heldBytes() {
    return files.heldBytes();
  }

  private ProcessState walk(Minidump dump, StoreSymbols symbols) {
    try {
      return new MinidumpProcessor(symbols, settings.maxFrames()).process(dump);
    } catch (MinidumpException e) {
      throw new UnusableEventException(
          ErrorKind.unreadable_attachment, "the minidump cannot be walked: " + e.getMessage());
    }
  }

  /** The event's dump, parsed; its bytes are inline or fetched (awaitingInput said so). */
  private Minidump read(CrashEvent event) {
    Attachment a = dumpOf(event);
    byte[] bytes = inline(a);
    String where = "inline";
    if (bytes == null) {
      // awaitingInput said it is there, in the same pass
      bytes = files.peek(fileId(event));
      where = FetchedFiles.describe(a);
      if (bytes == null) {
        throw new IllegalStateException(
            "the dump of " + event.getEventId() + " was dropped before its walk");
      }
    }
    if (bytes.length > settings.maxDumpBytes()) {
      throw new UnusableEventException(
          ErrorKind.too_large,
          "the minidump ("
              + where
              + ") is "
              + bytes.length
              + " bytes, more than minidump.max.bytes="
              + settings.maxDumpBytes());
    }
    try {
      return Minidump.read(bytes);
    } catch (MinidumpException e) {
      throw new UnusableEventException(
          ErrorKind.unreadable_attachment,
          "the minidump (" + where + ") cannot be read: " + e.getMessage());
    }
  }

  private static byte[] inline(Attachment a) {
    if (a.getData() != null) {
      ByteBuffer b = a.getData().duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }
    if (a.getText() != null) {
      return a.getText().toString().getBytes(StandardCharsets.ISO_8859_1);
    }
    if (a.getKey() == null) {
      throw new UnusableEventException(
          ErrorKind.invalid_event,
          "the file the event carries has neither data, text nor key: nothing to read");
    }
    return null;
  }

  private static String fileId(CrashEvent event) {
    Attachment a = fileOf(event);
    return event.getScope()
        + "\u0000"
        + event.getEventId()
        + "\u0000"
        + a.getBucket()
        + "\u0000"
        + a.getKey();
  }
}
