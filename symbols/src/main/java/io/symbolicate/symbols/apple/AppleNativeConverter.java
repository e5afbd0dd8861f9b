package io.symbolicate.symbols.apple;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Turns a parsed report into {@link NativeCrash}: every binary image becomes a module (UUID to
 * Breakpad debug id, path to debug file), every frame a module-relative address. Frames of an
 * .ips report name their image themselves (image index and offset); text frames are placed by
 * address in the image whose {@code [addr, endAddr]} holds it, as Symbolicator places them (the
 * module name on the frame line is not used). An image that spans the whole address space
 * ({@code ???} placeholders) holds no frame.
 */
public final class AppleNativeConverter {
  private AppleNativeConverter() {}

  public static NativeCrash convert(AppleCrashReport report) {
    List<BinaryImage> images = report.binaryImages();
    List<NativeCrash.Module> modules = new ArrayList<>(images.size());
    for (int i = 0; i < images.size(); i++) {
      modules.add(module(i, images.get(i)));
    }
    ImageIndex index = new ImageIndex(images);
    List<NativeCrash.Thread> threads = new ArrayList<>(report.threads().size());
    for (AppleThread t : report.threads()) {
      List<NativeCrash.Frame> frames = new ArrayList<>(t.frames().size());
      for (int f = 0; f < t.frames().size(); f++) {
        AppleFrame frame = t.frames().get(f);
        String trust = f == 0 ? "context" : null;
        int m = frame.imageIndex() >= 0 ? frame.imageIndex() : index.find(frame.instructionAddr());
        long offset =
            m < 0
                ? 0
                : frame.imageIndex() >= 0
                    ? frame.imageOffset()
                    : frame.instructionAddr() - images.get(m).addr();
        frames.add(new NativeCrash.Frame(frame.instructionAddr(), m, offset, trust));
      }
      threads.add(
          new NativeCrash.Thread(
              t.id(), t.name(), t.crashed(), List.copyOf(frames), t.registers()));
    }
    String codeType = report.codeType();
    String firstArch = images.isEmpty() ? null : images.get(0).arch();
    return new NativeCrash(
        breakpadArch(codeType, firstArch),
        report.metadata().get("Exception Type"),
        report.applicationSpecificInformation(),
        report.timestamp() == null ? null : report.timestamp().getEpochSecond(),
        systemInfo(report, firstArch),
        List.copyOf(modules),
        List.copyOf(threads));
  }

  static NativeCrash.Module module(int index, BinaryImage image) {
    String hex = Uuids.hex(image.uuid());
    long size = image.spansEverything() ? -1L : image.endAddr() - image.addr() + 1;
    return new NativeCrash.Module(
        index,
        "macho",
        image.path(),
        hex,
        lastSegment(image.path(), image.name()),
        hex.toUpperCase(Locale.ROOT) + "0",
        image.uuid(),
        image.name(),
        image.arch(),
        image.addr(),
        size);
  }

  /** The path's last segment; the image name when the path has none. */
  private static String lastSegment(String path, String name) {
    String p = path == null ? "" : path;
    int slash = p.lastIndexOf('/');
    String last = p.substring(slash + 1);
    return last.isEmpty() ? name : last;
  }

  /** Breakpad's arch name for a code type ({@code X86-64 (Native)}) or, lacking one, an image arch. */
  static String breakpadArch(String codeType, String imageArch) {
    if (codeType != null) {
      String c = codeType;
      int paren = c.indexOf(" (");
      if (paren >= 0) {
        c = c.substring(0, paren);
      }
      switch (Chars.trim(c).toUpperCase(Locale.ROOT)) {
        case "X86-64", "X86_64":
          return "amd64";
        case "X86", "I386":
          return "x86";
        case "ARM-64", "ARM64", "ARM64E", "ARM-64E":
          return "arm64";
        case "ARM":
          return "arm";
        default:
          return null;
      }
    }
    if (imageArch == null) {
      return null;
    }
    String a = imageArch.toLowerCase(Locale.ROOT).replace("(", "").replace(")", "");
    if (a.equals("x86_64") || a.equals("x86_64h")) {
      return "amd64";
    }
    if (a.equals("i386")) {
      return "x86";
    }
    if (a.startsWith("arm64")) {
      return "arm64";
    }
    return a.startsWith("armv7") || a.equals("arm") ? "arm" : null;
  }

  private static NativeCrash.SystemInfo systemInfo(AppleCrashReport r, String firstArch) {
    String os = r.metadata().get("OS Version");
    String osName = null;
    String osVersion = null;
    String osBuild = null;
    if (os != null) {
      String s = os;
      int open = s.lastIndexOf(" (");
      if (open >= 0 && s.endsWith(")")) {
        osBuild = s.substring(open + 2, s.length() - 1);
        s = s.substring(0, open);
      }
      int space = s.lastIndexOf(' ');
      if (space > 0 && space + 1 < s.length() && Chars.isDigit(s.charAt(space + 1))) {
        osVersion = s.substring(space + 1);
        s = s.substring(0, space);
      }
      osName =
          switch (s) {
            case "Mac OS X", "OS X" -> "macOS";
            case "iPhone OS" -> "iOS";
            default -> s.isEmpty() ? null : s;
          };
    }
    String arch = breakpadArch(r.codeType(), firstArch);
    String cpu =
        arch == null
            ? null
            : switch (arch) {
              case "amd64" -> "x86_64";
              case "x86" -> "x86";
              case "arm" -> "arm";
              default -> "arm64";
            };
    return new NativeCrash.SystemInfo(
        osName, osVersion, osBuild, r.metadata().get("Hardware Model"), cpu);
  }

  /** Images sorted by load address, for finding the one holding an address. */
  private static final class ImageIndex {
    private final long[] starts;
    private final long[] ends;
    private final int[] indices;
    // among the first k + 1 images by start, the position of the one reaching furthest: when
    // the last image starting at or below an address misses it, only that one can still hold it
    private final int[] reachesFurthest;

    ImageIndex(List<BinaryImage> images) {
      Integer[] order = new Integer[images.size()];
      int n = 0;
      for (int i = 0; i < images.size(); i++) {
        if (!images.get(i).spansEverything()) {
          order[n++] = i;
        }
      }
      order = Arrays.copyOf(order, n);
      Arrays.sort(
          order, Comparator.comparing((Integer i) -> images.get(i).addr(), Long::compareUnsigned));
      starts = new long[n];
      ends = new long[n];
      indices = new int[n];
      reachesFurthest = new int[n];
      int best = 0;
      for (int k = 0; k < n; k++) {
        BinaryImage image = images.get(order[k]);
        starts[k] = image.addr();
        ends[k] = image.endAddr();
        indices[k] = order[k];
        if (Long.compareUnsigned(ends[k], ends[best]) > 0) {
          best = k;
        }
        reachesFurthest[k] = best;
      }
    }

    /** Report index of the image holding {@code addr}, or -1. */
    int find(long addr) {
      int lo = 0;
      int hi = starts.length - 1;
      int floor = -1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(starts[mid], addr) <= 0) {
          floor = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (floor < 0) {
        return -1;
      }
      if (Long.compareUnsigned(addr, ends[floor]) <= 0) {
        return indices[floor];
      }
      int far = reachesFurthest[floor];
      return Long.compareUnsigned(addr, ends[far]) <= 0 ? indices[far] : -1;
    }
  }
}
