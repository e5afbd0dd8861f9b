package io.symbolicate.topology.bench;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The benchmarks' native events: one crashed thread of 30 frames, each at a random FUNC of a
 * random module of {@link SyntheticSymFile}'s (the first frame in the big module, when there is
 * one), the first frame trusted as "context" and the callers as "cfi"; one frame in
 * {@link #NO_SYMBOL_EVERY} events where no symbol covers it.
 */
public final class BenchEvents {
  public static final int FRAMES = 30;

  /**
   * The last frame of one event in this many lies where no symbol covers it (before the module's
   * first FUNC), as some frames of real stacks do. Every run, the warm rounds included, then takes
   * that path: left to chance, the warm rounds' events had none, the JIT compiled the path out of
   * the lookups and the encoder, and the first such frame of the (longer) load run threw that
   * compiled code away mid-run (session 19's flight recording, docs/benchmarks.md).
   */
  public static final int NO_SYMBOL_EVERY = 100;

  /** Inside the module's image, below its first FUNC (0x1000). */
  static final long NO_SYMBOL_OFFSET = 0x10;

  private final List<NativeModule> modules = new ArrayList<>();
  private final int warmModules;
  private final int functions;
  private final boolean big;

  /**
   * @param bigModule debug id and file of a module every event's first frame falls in, or null
   */
  public BenchEvents(int warmModules, int functionsPerModule, String[] bigModule) {
    this.warmModules = warmModules;
    this.functions = functionsPerModule;
    this.big = bigModule != null;
    for (int m = 0; m < warmModules; m++) {
      modules.add(NativeModule.newBuilder().setType("elf").setCodeFile(SyntheticSymFile.debugFile(m))
          .setDebugFile(SyntheticSymFile.debugFile(m)).setDebugId(SyntheticSymFile.debugId(m))
          .setImageAddr(0x10000000L * (m + 1)).setImageSize(0x1000000L).build());
    }
    if (big) {
      modules.add(NativeModule.newBuilder().setType("elf").setCodeFile(bigModule[1]).setDebugFile(bigModule[1])
          .setDebugId(bigModule[0]).setImageAddr(0x7000000000L).setImageSize(0x10000000L).build());
    }
  }

  /** Event {@code i}, its frames drawn from {@code rnd}. */
  public CrashEvent event(int i, Random rnd) {
    List<NativeFrame> frames = new ArrayList<>(FRAMES);
    for (int f = 0; f < FRAMES; f++) {
      int m = big && f == 0 ? modules.size() - 1 : rnd.nextInt(warmModules);
      long offset = 0x1000L + (long) rnd.nextInt(functions) * SyntheticSymFile.FUNC_SIZE
          + rnd.nextInt(SyntheticSymFile.FUNC_SIZE);
      if (i % NO_SYMBOL_EVERY == NO_SYMBOL_EVERY - 1 && f == FRAMES - 1) {
        offset = NO_SYMBOL_OFFSET;
      }
      frames.add(NativeFrame.newBuilder().setModuleIndex(m).setModuleOffset(offset)
          .setTrust(f == 0 ? "context" : "cfi").build());
    }
    return CrashEvent.newBuilder().setEventId("bench-" + i + (big ? "-big" : ""))
        .setScope("global").setReceivedAt(Instant.now()).setPlatform(Platform.native$)
        .setRelease("bench@1").setDist(null).setAttributes(Map.of())
        .setNative$(NativePayload.newBuilder().setArch("amd64").setModules(modules)
            .setThreads(List.of(NativeThread.newBuilder().setCrashed(true).setFrames(frames).build())).build())
        .build();
  }
}
