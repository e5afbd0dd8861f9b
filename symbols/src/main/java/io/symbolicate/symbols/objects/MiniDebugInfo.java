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

  /** Memory the xz decoder may use (its dictionary), in KiB. */
  private static final int XZ_MEMORY_LIMIT_KIB = 64 << 10;

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
    byte[] out = new byte[Math.min(MAX_SIZE, Math.max(4096, data.limit() * 4))];
    int n = 0;
    try (InputStream in =
        new XZInputStream(new BufferInput(data.duplicate()), XZ_MEMORY_LIMIT_KIB)) {
      while (true) {
        if (n == out.length) {
          if (out.length == MAX_SIZE) {
            throw new ObjectFormatException(
                ".gnu_debugdata inflates beyond " + MAX_SIZE + " bytes");
          }
          out = Arrays.copyOf(out, (int) Math.min(MAX_SIZE, 2L * out.length));
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
