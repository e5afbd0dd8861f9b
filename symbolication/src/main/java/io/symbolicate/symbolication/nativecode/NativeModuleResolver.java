package io.symbolicate.symbolication.nativecode;

import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.symbols.id.BuildIdKeys;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Resolves a native frame to (module index, module-relative offset): either the pair the frame
 * carries (Mozilla's API form), or its instruction address relative to module N ({@code
 * addr_mode} {@code rel:N}, Symbolicator's form, which .NET frames use for their IL offset), or
 * the module whose [image_addr, image_addr + image_size) contains its absolute instruction
 * address (unsigned 64-bit arithmetic).
 */
public final class NativeModuleResolver {
  /** Outcome for one frame. {@code moduleIndex} is -1 when no module applies. */
  public record Resolution(Kind kind, int moduleIndex, long moduleOffset, String message) {
    public enum Kind {
      RESOLVED,
      UNKNOWN_MODULE,
      INVALID
    }
  }

  private final List<NativeModule> modules;
  // modules with an address range, by image address, sorted on the first frame that gives an
  // absolute address; and, among the first i + 1 of them, the one whose range reaches furthest
  // (unsigned end): when the last module starting at or below an address misses it, that one is
  // the only other that can contain it
  private Integer[] byAddr;
  private int[] reachesFurthest;

  public NativeModuleResolver(List<NativeModule> modules) {
    this.modules = modules;
  }

  private Integer[] byAddr() {
    if (byAddr == null) {
      // a module without image_addr or image_size contains no address: left out, it cannot
      // send the search the wrong way
      Integer[] a =
          IntStream.range(0, modules.size())
              .filter(
                  i ->
                      modules.get(i).getImageAddr() != null
                          && modules.get(i).getImageSize() != null)
              .boxed()
              .toArray(Integer[]::new);
      Arrays.sort(
          a,
          Comparator.comparing(
              (Integer i) -> modules.get(i).getImageAddr(), Long::compareUnsigned));
      int[] furthest = new int[a.length];
      long max = 0;
      int at = 0;
      for (int k = 0; k < a.length; k++) {
        NativeModule m = modules.get(a[k]);
        long end = m.getImageAddr() + m.getImageSize();
        if (Long.compareUnsigned(end, m.getImageAddr()) < 0) {
          end = -1L; // past 2^64: up to the top
        }
        if (k == 0 || Long.compareUnsigned(end, max) > 0) {
          max = end;
          at = k;
        }
        furthest[k] = at;
      }
      reachesFurthest = furthest;
      byAddr = a;
    }
    return byAddr;
  }

  /**
   * The index of the module a frame resolves to, or -1 when {@link #resolve} would not say
   * RESOLVED; the same answer without building a Resolution (run for every frame of every event).
   */
  public int moduleIndexOf(NativeFrame f) {
    Integer idx = f.getModuleIndex();
    if (idx != null) {
      return resolvesByIndex(idx, f.getModuleOffset()) ? idx : -1;
    }
    if (f.getAddrMode() != null) {
      int rel = relativeTo(f.getAddrMode());
      if (rel != ABSOLUTE) {
        return rel >= 0 && resolvesByIndex(rel, f.getInstructionAddr()) ? rel : -1;
      }
    }
    Resolution r = resolve(f);
    return r.kind() == Resolution.Kind.RESOLVED ? r.moduleIndex() : -1;
  }

  /**
   * The module a frame refers to, or -1: its module_index when in range, whatever its offset
   * (Mozilla's service looks such a module up and only skips the frame's own address lookup),
   * else as {@link #moduleIndexOf}. A module no frame refers to is {@code unused}.
   */
  public int referencedModuleOf(NativeFrame f) {
    Integer idx = f.getModuleIndex();
    if (idx == null && f.getAddrMode() != null) {
      int rel = relativeTo(f.getAddrMode());
      idx = rel == ABSOLUTE ? null : rel;
    }
    if (idx != null) {
      return idx >= 0 && idx < modules.size() ? idx : -1;
    }
    return moduleIndexOf(f);
  }

  /** {@link #relativeTo}: the address is absolute. */
  static final int ABSOLUTE = -1;

  /** {@link #relativeTo}: an addr_mode that is neither {@code abs} nor {@code rel:N}. */
  static final int BAD_ADDR_MODE = -2;

  /**
   * The module an {@code addr_mode} makes the instruction address relative to ({@code rel:N}:
   * N), {@link #ABSOLUTE} for {@code abs}, or {@link #BAD_ADDR_MODE}.
   */
  static int relativeTo(String addrMode) {
    if (addrMode.equalsIgnoreCase("abs")) {
      return ABSOLUTE;
    }
    if (addrMode.length() > 4
        && addrMode.length() <= 13
        && addrMode.regionMatches(true, 0, "rel:", 0, 4)) {
      long n = 0;
      for (int i = 4; i < addrMode.length(); i++) {
        char c = addrMode.charAt(i);
        if (c < '0' || c > '9') {
          return BAD_ADDR_MODE;
        }
        n = n * 10 + (c - '0');
      }
      return n <= Integer.MAX_VALUE ? (int) n : BAD_ADDR_MODE;
    }
    return BAD_ADDR_MODE;
  }

  /** A frame's module_index and module_offset that name a module and an offset in it. */
  private boolean resolvesByIndex(int idx, Long offset) {
    return idx >= 0 && idx < modules.size() && offset != null && offset >= 0;
  }

  public Resolution resolve(NativeFrame f) {
    Integer idx = f.getModuleIndex();
    if (idx != null) {
      if (resolvesByIndex(idx, f.getModuleOffset())) {
        return new Resolution(Resolution.Kind.RESOLVED, idx, f.getModuleOffset(), null);
      }
      if (idx == -1) {
        return new Resolution(
            Resolution.Kind.UNKNOWN_MODULE,
            -1,
            0,
            "frame is outside every module (module_index -1)");
      }
      if (idx < 0 || idx >= modules.size()) {
        return new Resolution(
            Resolution.Kind.INVALID,
            -1,
            0,
            "module_index " + idx + " out of range (" + modules.size() + " modules)");
      }
      if (f.getModuleOffset() == null) {
        return new Resolution(
            Resolution.Kind.INVALID, idx, 0, "module_index without module_offset");
      }
      return new Resolution(Resolution.Kind.INVALID, idx, 0, "negative module_offset");
    }
    Long addr = f.getInstructionAddr();
    if (f.getAddrMode() != null) {
      int rel = relativeTo(f.getAddrMode());
      if (rel == BAD_ADDR_MODE) {
        return new Resolution(
            Resolution.Kind.INVALID,
            -1,
            0,
            "addr_mode '" + shown(f.getAddrMode()) + "' is neither abs nor rel:N");
      }
      if (rel != ABSOLUTE) {
        if (rel >= modules.size()) {
          return new Resolution(
              Resolution.Kind.INVALID,
              -1,
              0,
              "addr_mode rel:" + rel + " out of range (" + modules.size() + " modules)");
        }
        if (addr == null || addr < 0) {
          return new Resolution(
              Resolution.Kind.INVALID,
              rel,
              0,
              addr == null
                  ? "addr_mode rel:" + rel + " without instruction_addr"
                  : "instruction_addr relative to a module is 2^63 or more");
        }
        return new Resolution(Resolution.Kind.RESOLVED, rel, addr, null);
      }
    }
    if (addr == null) {
      return new Resolution(
          Resolution.Kind.INVALID, -1, 0, "frame has neither instruction_addr nor module_index");
    }
    // the last module starting at or below addr, if it contains it; else (ranges that nest or
    // overlap) the earlier one that reaches furthest, if that reaches addr: two checks at most
    Integer[] byAddr = byAddr();
    int lo = 0;
    int hi = byAddr.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(modules.get(byAddr[mid]).getImageAddr(), addr) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    Resolution r = found < 0 ? null : within(found, addr);
    if (r == null && found > 0) {
      r = within(reachesFurthest[found - 1], addr);
    }
    return r != null
        ? r
        : new Resolution(
            Resolution.Kind.UNKNOWN_MODULE,
            -1,
            0,
            "no module contains address 0x" + Long.toHexString(addr));
  }

  /** The resolution of {@code addr} in the k-th module by address, or null when it lies outside. */
  private Resolution within(int k, long addr) {
    NativeModule m = modules.get(byAddr[k]);
    long offset = addr - m.getImageAddr();
    if (Long.compareUnsigned(offset, m.getImageSize()) >= 0) {
      return null;
    }
    if (offset < 0) {
      // a module-relative offset is signed 64-bit on the wire, as the module_index form's
      return new Resolution(
          Resolution.Kind.INVALID,
          byAddr[k],
          0,
          "address 0x" + Long.toHexString(addr) + " is 2^63 or more past its module's start");
    }
    return new Resolution(Resolution.Kind.RESOLVED, byAddr[k], offset, null);
  }

  /**
   * The {@code debug_file/debug_id} key of a module, else {@code symbfile/<file_id>} (as
   * written) when it names a FileID, else its code id's key ({@link #codeIdKey}), or null when
   * it names none.
   */
  public static String moduleKey(NativeModule m) {
    if (m.getDebugFile() == null || m.getDebugId() == null) {
      if (m.getFileId() != null) {
        return SymbfileKeys.MODULE_PREFIX + m.getFileId();
      }
      return codeIdKey(m);
    }
    return m.getDebugFile() + "/" + m.getDebugId();
  }

  /**
   * The key of a module named by its code id alone (no debug_file/debug_id pair), validated, or
   * null: a Mach-O module's UUID is its debug id (age 0), keyed {@code <name>/<UUID>0} with the
   * debug or code file's base name; a PE module's code id (timestamp and size) names no debug
   * file, so none; any other module's code id is an ELF build id, keyed {@code
   * buildid/<id>[/<name>]} ({@link BuildIdKeys}: the loader derives the debug id from it, as
   * Breakpad and Symbolicator do, and searches the build-id layouts by it).
   */
  public static String codeIdKey(NativeModule m) {
    if (m.getCodeId() == null || m.getCodeId().isEmpty()) {
      return null;
    }
    String type = m.getType() == null ? "" : m.getType().toLowerCase(Locale.ROOT);
    String name = baseName(m.getDebugFile() != null ? m.getDebugFile() : m.getCodeFile());
    try {
      if (type.equals("macho")) {
        String uuid = m.getCodeId().replace("-", "");
        if (name == null || uuid.length() != 32) {
          return null;
        }
        return DebugIdentifiers.nativeModule(name, uuid + "0").key();
      }
      if (type.equals("pe") || type.equals("pdb")) {
        return null;
      }
      return BuildIdKeys.key(m.getCodeId(), name);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** An event's string in a message: cut short, control characters replaced. */
  private static String shown(String s) {
    String cut = s.length() > 32 ? s.substring(0, 32) + "..." : s;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }

  /** The last segment of a path as crash reports write it ({@code /usr/lib/libc.so.6}), or null. */
  private static String baseName(String path) {
    if (path == null) {
      return null;
    }
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    String name = path.substring(cut + 1);
    return name.isEmpty() ? null : name;
  }
}
