package io.symbolicate.testkit.events;

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
 * one), the first frame trusted as "context" and the callers as "cfi".
 */
public final class BenchEvents {
  public static final int FRAMES = 30;

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
      modules.add(
          NativeModule.newBuilder()
              .setType("elf")
              .setCodeFile(SyntheticSymFile.debugFile(m))
              .setDebugFile(SyntheticSymFile.debugFile(m))
              .setDebugId(SyntheticSymFile.debugId(m))
              .setImageAddr(0x10000000L * (m + 1))
              .setImageSize(0x1000000L)
              .build());
    }
    if (big) {
      modules.add(
          NativeModule.newBuilder()
              .setType("elf")
              .setCodeFile(bigModule[1])
              .setDebugFile(bigModule[1])
              .setDebugId(bigModule[0])
              .setImageAddr(0x7000000000L)
              .setImageSize(0x10000000L)
              .build());
    }
  }

  /** Event {@code i}, its frames drawn from {@code rnd}. */
  public CrashEvent event(int i, Random rnd) {
    List<NativeFrame> frames = new ArrayList<>(FRAMES);
    for (int f = 0; f < FRAMES; f++) {
      int m = big && f == 0 ? modules.size() - 1 : rnd.nextInt(warmModules);
      // never a FUNC's first byte: a caller frame is looked up one byte lower, and below the first
      // FUNC no symbol covers it. Such frames came up by chance in the load phase's 300k events
      // but not in the warm rounds' 20k, so only the load run met that path uncompiled, and threw
      // the stream's compiled lookups and encoder away mid-run (session 19, docs/benchmarks.md)
      long offset =
          0x1000L
              + (long) rnd.nextInt(functions) * SyntheticSymFile.FUNC_SIZE
              + 1
              + rnd.nextInt(SyntheticSymFile.FUNC_SIZE - 1);
      frames.add(
          NativeFrame.newBuilder()
              .setModuleIndex(m)
              .setModuleOffset(offset)
              .setTrust(f == 0 ? "context" : "cfi")
              .build());
    }
    return CrashEvent.newBuilder()
        .setEventId("bench-" + i + (big ? "-big" : ""))
        .setScope("global")
        .setReceivedAt(Instant.now())
        .setPlatform(Platform.native$)
        .setRelease("bench@1")
        .setDist(null)
        .setAttributes(Map.of())
        .setNative$(
            NativePayload.newBuilder()
                .setArch("amd64")
                .setModules(modules)
                .setThreads(
                    List.of(NativeThread.newBuilder().setCrashed(true).setFrames(frames).build()))
                .build())
        .build();
  }
}
