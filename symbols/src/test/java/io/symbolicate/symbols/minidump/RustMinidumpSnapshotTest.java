package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * rust-minidump's snapshots where it and Breakpad agree: each frame of the crashed thread has the
 * same instruction pointer, stack pointer and "Found by" (rust-minidump prints the module offset
 * of the caller-adjusted address, one less than Breakpad's: the manifest's note, not compared).
 * Its fuzzer-found dumps without a thread list are refused with a reason, as Breakpad refuses
 * them.
 */
class RustMinidumpSnapshotTest {
  static final Path RUST = SharedFixtures.fixtures("minidump").resolve("rust-minidump/testdata");
  static final Path SNAPSHOTS =
      SharedFixtures.fixtures("minidump").resolve("derived/rust-minidump-snapshot-bodies");

  record SnapFrame(long pc, long sp, String foundBy) {}

  /** The frames of the snapshot's "(crashed)" thread. */
  static List<SnapFrame> snapshotFrames(String file, String pcName, String spName)
      throws Exception {
    List<SnapFrame> out = new ArrayList<>();
    boolean in = false;
    Long pc = null;
    Long sp = null;
    Pattern reg = Pattern.compile("(\\w+) = 0x([0-9a-f]+)");
    for (String line : Files.readAllLines(SNAPSHOTS.resolve(file))) {
      if (line.startsWith("Thread ")) {
        in = line.contains("(crashed)");
        continue;
      }
      if (!in) {
        continue;
      }
      if (line.isEmpty() || line.startsWith("Loaded modules")) {
        break;
      }
      Matcher m = reg.matcher(line);
      while (m.find()) {
        if (m.group(1).equals(pcName)) {
          pc = Long.parseUnsignedLong(m.group(2), 16);
        } else if (m.group(1).equals(spName)) {
          sp = Long.parseUnsignedLong(m.group(2), 16);
        }
      }
      if (line.trim().startsWith("Found by: ")) {
        out.add(new SnapFrame(pc, sp, line.trim().substring("Found by: ".length())));
        pc = null;
        sp = null;
      }
    }
    return out;
  }

  static void assertSameFrames(CallStack ours, List<SnapFrame> theirs) {
    assertThat(theirs).hasSizeGreaterThan(3);
    assertThat(ours.frames()).hasSize(theirs.size());
    for (int i = 0; i < theirs.size(); i++) {
      Frame f = ours.frames().get(i);
      SnapFrame s = theirs.get(i);
      assertThat(f.context().pc()).as("frame " + i + " pc").isEqualTo(s.pc());
      assertThat(f.context().sp()).as("frame " + i + " sp").isEqualTo(s.sp());
      assertThat(f.trust().description()).as("frame " + i).isEqualTo(s.foundBy());
    }
  }

  static ProcessState process(String dump, SymbolSupplier s) throws Exception {
    try (Minidump d = Minidump.open(RUST.resolve(dump))) {
      return new MinidumpProcessor(s).process(d);
    }
  }

  @Test
  void linuxMiniWithoutSymbols() throws Exception {
    ProcessState s = process("linux-mini.dmp", SymbolSupplier.NONE);
    assertSameFrames(
        s.threads().get(s.requestingThread()), snapshotFrames("linux_human.txt", "rip", "rsp"));
  }

  @Test
  void testDmpWithTestAppSymbolsOnly() throws Exception {
    ProcessState s = process("test.dmp", new SymbolDirectory(RUST.resolve("symbols")));
    assertSameFrames(
        s.threads().get(s.requestingThread()), snapshotFrames("human-symbols.txt", "eip", "esp"));
    // without kernel32.sym the last frame keeps its module and no function, as in the snapshot
    Frame last = s.threads().get(0).frames().get(3);
    assertThat(last.module().codeFile()).endsWith("kernel32.dll");
    assertThat(last.function()).isEmpty();
  }

  @Test
  void fuzzedDumpsWithoutAThreadListAreRefused() {
    for (String dump : new String[] {"invalid-range.dmp", "invalid-record-count.dmp"}) {
      assertThatThrownBy(() -> process(dump, SymbolSupplier.NONE))
          .isInstanceOf(MinidumpException.class)
          .hasMessageContaining("no thread list");
    }
  }
}
