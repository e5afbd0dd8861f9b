package io.symbolicate.symbols.cfi;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.minidump.walk.CfiRules;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import io.symbolicate.symbols.testing.Fuzzing;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the unwind-info readers (docs/fuzzing.md). In every build each replays its
 * corpus under {@code src/test/resources/.../CfiFuzzTestsInputs/<target>/}; {@code
 * scripts/fuzz.sh} runs one coverage-guided.
 */
class CfiFuzzTests {
  private static final CfiArch[] ARCHES = {CfiArch.X86, CfiArch.X86_64, CfiArch.ARM, CfiArch.ARM64};

  /**
   * Byte 0: the machine (bits 0-1: x86, x86-64, arm, arm64) and the section kind (bit 2 set:
   * {@code .debug_frame}); bytes 1-4: the section's address (little-endian); the rest: the
   * section. The reader answers with a summary (bad entries skipped inside); every record it
   * writes must parse in the stack walker's CFI rules, and there are never more records than
   * input bytes (each row costs an instruction byte).
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void ehFrame(byte[] data) throws Exception {
    if (data.length < 5) {
      return;
    }
    CfiArch arch = ARCHES[data[0] & 3];
    boolean eh = (data[0] & 4) == 0;
    long address =
        (data[1] & 0xFFL)
            | (data[2] & 0xFFL) << 8
            | (data[3] & 0xFFL) << 16
            | (data[4] & 0xFFL) << 24;
    byte[] section = Arrays.copyOfRange(data, 5, data.length);
    expect(
        data,
        () -> {
          Checked out = new Checked();
          DwarfCfiReader.readSection(
              Section.of(
                  eh ? ".eh_frame" : ".debug_frame", address, section, ByteOrder.LITTLE_ENDIAN),
              eh,
              arch,
              0,
              out);
          check(out.lines.size() <= data.length, "more records than input bytes");
        },
        CfiException.class);
  }

  /**
   * Byte 0: the machine (0 x86-64, 1 x86, 2 arm64); bytes 1-2: the length L of {@code
   * __unwind_info} (little-endian); then L bytes of it; the rest is {@code __eh_frame}, placed at
   * 0x100002000. Every record must parse in the walker's CFI rules.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void compactUnwind(byte[] data) throws Exception {
    if (data.length < 3) {
      return;
    }
    CfiArch arch =
        new CfiArch[] {CfiArch.X86_64, CfiArch.X86, CfiArch.ARM64, CfiArch.X86_64}[data[0] & 3];
    int len = Math.min(data.length - 3, (data[1] & 0xFF) | (data[2] & 0xFF) << 8);
    Map<String, Section> map = new HashMap<>();
    map.put(
        "__unwind_info",
        Section.of(
            "__unwind_info",
            0x100001000L,
            Arrays.copyOfRange(data, 3, 3 + len),
            ByteOrder.LITTLE_ENDIAN));
    map.put(
        ".eh_frame",
        Section.of(
            ".eh_frame",
            0x100002000L,
            Arrays.copyOfRange(data, 3 + len, data.length),
            ByteOrder.LITTLE_ENDIAN));
    ObjectSections sections =
        new ObjectSections() {
          @Override
          public Optional<Section> section(String name) {
            return Optional.ofNullable(map.get(name));
          }

          @Override
          public boolean littleEndian() {
            return true;
          }

          @Override
          public int addressSize() {
            return arch.pointerSize();
          }
        };
    expect(
        data,
        () -> {
          Checked out = new Checked();
          CompactUnwindReader.readMachO(sections, arch, 0x100000000L, a -> "_sigtramp", out);
          check(out.lines.size() <= 2L * data.length, "more records than input bytes");
        },
        CfiException.class);
  }

  /**
   * Byte 0: the machine (bit 0 clear: x64, set: arm64); bytes 1-2 and 3-4: the exception
   * directory's RVA and size (little-endian); the rest: the image, RVA = offset into it. Every
   * record must parse in the walker's CFI rules; an x64 entry gives at most one record, arm64
   * entries at most {@link PeUnwindReader#RECORDS_PER_ENTRY} on average.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void peUnwind(byte[] data) throws Exception {
    if (data.length < 5) {
      return;
    }
    boolean arm64 = (data[0] & 1) != 0;
    long rva = (data[1] & 0xFFL) | (data[2] & 0xFFL) << 8;
    long size = (data[3] & 0xFFL) | (data[4] & 0xFFL) << 8;
    FlatImage image = new FlatImage(Arrays.copyOfRange(data, 5, data.length));
    expect(
        data,
        () -> {
          Checked out = new Checked();
          DwarfCfiReader.Summary s =
              arm64
                  ? PeUnwindReader.readArm64(image, rva, size, out)
                  : PeUnwindReader.readX64(image, rva, size, out);
          check(s.records() == out.lines.size(), "summary counts other records");
          long most = arm64 ? PeUnwindReader.RECORDS_PER_ENTRY * (size / 8) + 1024 : size / 12;
          check(out.lines.size() <= most, "more records than the budget");
        },
        CfiException.class);
  }

  /** Records, each checked against the walker's rule parser as it arrives. */
  private static final class Checked extends CfiRecords {
    @Override
    public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
      String rules = new String(buf, off, len, StandardCharsets.US_ASCII);
      check(new CfiRules().apply(rules), "INIT rules do not parse: " + rules);
      super.stackCfiInit(address, size, buf, off, len);
    }

    @Override
    public void stackCfiDelta(long address, byte[] buf, int off, int len) {
      String rules = new String(buf, off, len, StandardCharsets.US_ASCII);
      check(new CfiRules().apply(rules), "delta rules do not parse: " + rules);
      super.stackCfiDelta(address, buf, off, len);
    }
  }
}
