package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import org.tukaani.xz.MemoryLimitException;
import org.tukaani.xz.XZInputStream;

/**
 * MiniDebugInfo (GDB, Fedora): an xz-compressed ELF in {@code .gnu_debugdata} holding the
 * {@code .symtab} a stripped file lost, so its functions still get public symbols.
 */
public final class MiniDebugInfo {
  /** Most bytes the embedded ELF may inflate to; real ones are kilobytes to a few megabytes. */
  static final int MAX_SIZE = 256 << 20;

  /** Memory the xz decoder may use (its dictionary), in KiB: xz's default preset needs 9 MiB. */
  private static final int XZ_MEMORY_LIMIT_KIB = 16 << 10;

  private MiniDebugInfo() {}

  /** The embedded ELF of {@code elf}, if it has a {@code .gnu_debugdata}. */
  public static Optional<ElfFile> of(ElfFile elf) {
    Optional<Section> section = elf.section(".gnu_debugdata");
    if (section.isEmpty()) {
      return Optional.empty();
    }
    byte[] inner = unxz(section.get().data());
    return Optional.of(ElfFile.parse(inner));
  }

  private static byte[] unxz(ByteBuffer data) {
    // a symbol table compresses about 5:1; far more is a bomb
    long max = Math.min(MAX_SIZE, ElfFile.INFLATE_RATIO * data.limit() + (1 << 20));
    byte[] out = new byte[(int) Math.min(max, Math.max(4096, data.limit() * 4L))];
    int n = 0;
    try (InputStream in =
        new XZInputStream(new BufferInput(data.duplicate()), XZ_MEMORY_LIMIT_KIB)) {
      while (true) {
        if (n == out.length) {
          if (out.length == max) {
            throw new ObjectFormatException(".gnu_debugdata inflates beyond " + max + " bytes");
          }
          out = Arrays.copyOf(out, (int) Math.min(max, 2L * out.length));
        }
        int got = in.read(out, n, out.length - n);
        if (got < 0) {
          return Arrays.copyOf(out, n);
        }
        n += got;
      }
    } catch (MemoryLimitException e) {
      throw new ObjectFormatException(
          ".gnu_debugdata needs " + e.getMemoryNeeded() + " KiB to decode, over the limit", e);
    } catch (IOException e) {
      throw new ObjectFormatException(".gnu_debugdata is not valid xz: " + e.getMessage(), e);
    }
  }
}
