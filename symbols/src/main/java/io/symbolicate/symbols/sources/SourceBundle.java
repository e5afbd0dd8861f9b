package io.symbolicate.symbols.sources;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A source bundle as sentry-cli and symsorter write it: an optional {@code SYSB} header (magic and
 * a 32-bit version), then a zip whose {@code manifest.json} lists the files by their path in the
 * zip ({@code files}: zip path → {@code type}, {@code path} or {@code url}, {@code headers} with a
 * {@code debug-id}) and names the debug file it goes with ({@code debug_id}, {@code code_id},
 * {@code object_name}, {@code arch}).
 *
 * <p>Read from memory, never unpacked to disk. Refused with a reason: not a zip, no manifest, a
 * bundle that inflates past {@link SourceBundleLimits#maxTotalBytes()} or has more entries than
 * allowed. Skipped with a reason (in {@link #skipped()}): zip entries with an absolute path, a
 * {@code ..} segment, a backslash or a control character; files the manifest lists that the zip
 * lacks; files over the per-file limit, binary (a NUL byte) or not UTF-8.
 */
public record SourceBundle(
    String debugId,
    String codeId,
    String objectName,
    String arch,
    List<SourceFile> files,
    List<String> skipped) {

  static final byte[] MAGIC = {'S', 'Y', 'S', 'B'};
  static final String MANIFEST = "manifest.json";

  private static final JsonFactory JSON = new JsonFactory();

  /** Whether the bytes start as a source bundle (the {@code SYSB} header) or a plain zip. */
  public static boolean looksLikeBundle(byte[] head) {
    return head.length >= 4
        && (startsWith(head, MAGIC) || (head[0] == 'P' && head[1] == 'K' && head[2] == 3));
  }

  public static SourceBundle read(byte[] bytes) throws SourceBundleException {
    return read(bytes, SourceBundleLimits.DEFAULT);
  }

  public static SourceBundle read(byte[] bytes, SourceBundleLimits limits)
      throws SourceBundleException {
    int start = startsWith(bytes, MAGIC) ? 8 : 0;
    if (bytes.length < start + 4
        || bytes[start] != 'P'
        || bytes[start + 1] != 'K'
        || bytes[start + 2] != 3
        || bytes[start + 3] != 4) {
      throw new SourceBundleException("not a source bundle (no SYSB header or zip entry)");
    }
    List<String> skipped = new ArrayList<>();
    Map<String, byte[]> entries = new LinkedHashMap<>();
    byte[] manifest = null;
    long total = 0;
    int count = 0;
    byte[] buf = new byte[1 << 14];
    try (ZipInputStream zip =
        new ZipInputStream(new ByteArrayInputStream(bytes, start, bytes.length - start))) {
      ZipEntry e;
      while ((e = zip.getNextEntry()) != null) {
        if (++count > limits.maxEntries()) {
          throw new SourceBundleException(
              "more than " + limits.maxEntries() + " entries in the source bundle");
        }
        String name = e.getName();
        String bad = unsafeName(name);
        boolean isManifest = MANIFEST.equals(name);
        int cap = isManifest ? limits.maxManifestBytes() : limits.maxFileBytes();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean keep = bad == null && !e.isDirectory() && !entries.containsKey(name);
        long size = 0;
        int r;
        // every inflated byte counts, kept or not: a bomb stops at the bundle's limit
        while ((r = zip.read(buf)) > 0) {
          size += r;
          total += r;
          if (total > limits.maxTotalBytes()) {
            throw new SourceBundleException(
                "source bundle inflates to more than " + limits.maxTotalBytes() + " bytes");
          }
          if (keep && size <= cap) {
            out.write(buf, 0, r);
          }
        }
        if (bad != null) {
          skipped.add(printable(name) + ": " + bad);
        } else if (e.isDirectory()) {
          continue;
        } else if (!keep) {
          skipped.add(printable(name) + ": a second entry of this name");
        } else if (size > cap) {
          skipped.add(printable(name) + ": larger than " + cap + " bytes");
          if (isManifest) {
            throw new SourceBundleException("manifest.json larger than " + cap + " bytes");
          }
        } else if (isManifest) {
          manifest = out.toByteArray();
        } else {
          entries.put(name, out.toByteArray());
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      // a corrupt zip (bad header, CRC, deflate data) or an undecodable entry name
      throw new SourceBundleException("not a readable zip: " + e.getMessage(), e);
    }
    if (manifest == null) {
      throw new SourceBundleException("no manifest.json in the source bundle");
    }
    return fromManifest(manifest, entries, skipped);
  }

  private static SourceBundle fromManifest(
      byte[] manifest, Map<String, byte[]> entries, List<String> skipped)
      throws SourceBundleException {
    Map<String, String> top = new HashMap<>();
    List<SourceFile> files = new ArrayList<>();
    try (JsonParser p = JSON.createParser(manifest)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new SourceBundleException("manifest.json is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if ("files".equals(field) && t == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String zipPath = p.currentName();
            if (p.nextToken() != JsonToken.START_OBJECT) {
              p.skipChildren();
              skipped.add(printable(zipPath) + ": manifest entry is not an object");
              continue;
            }
            Map<String, String> info = readEntry(p);
            addFile(zipPath, info, entries, files, skipped);
          }
        } else if (t == JsonToken.VALUE_STRING) {
          top.put(field, p.getText());
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new SourceBundleException("manifest.json is not valid JSON: " + e.getMessage(), e);
    }
    return new SourceBundle(
        top.get("debug_id"),
        top.get("code_id"),
        top.get("object_name"),
        top.get("arch"),
        List.copyOf(files),
        List.copyOf(skipped));
  }

  /** type, path, url and the debug-id header of one manifest entry (other keys ignored). */
  private static Map<String, String> readEntry(JsonParser p) throws IOException {
    Map<String, String> info = new HashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String k = p.currentName();
      JsonToken t = p.nextToken();
      if ("headers".equals(k) && t == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String h = p.currentName().toLowerCase(Locale.ROOT);
          if (p.nextToken() == JsonToken.VALUE_STRING
              && (h.equals("debug-id") || h.equals("debug_id"))) {
            info.put("debug-id", p.getText());
          } else {
            p.skipChildren();
          }
        }
      } else if (t == JsonToken.VALUE_STRING) {
        info.put(k, p.getText());
      } else {
        p.skipChildren();
      }
    }
    return info;
  }

  private static void addFile(
      String zipPath,
      Map<String, String> info,
      Map<String, byte[]> entries,
      List<SourceFile> files,
      List<String> skipped) {
    String where = printable(zipPath);
    byte[] bytes = entries.get(zipPath);
    if (bytes == null) {
      if (unsafeName(zipPath) == null) {
        skipped.add(where + ": listed in the manifest, not in the zip (or skipped above)");
      }
      return;
    }
    String path = info.get("path");
    String url = info.get("url");
    if (path == null && url == null) {
      skipped.add(where + ": manifest entry has neither path nor url");
      return;
    }
    String text = text(bytes);
    if (text == null) {
      skipped.add(where + ": binary or not UTF-8");
      return;
    }
    String type = info.getOrDefault("type", "source");
    files.add(new SourceFile(zipPath, type, path, url, info.get("debug-id"), text));
  }

  /** The file's text: strict UTF-8 without NUL bytes (a leading BOM dropped), else null. */
  public static String text(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return null;
      }
    }
    int off =
        bytes.length >= 3
                && bytes[0] == (byte) 0xEF
                && bytes[1] == (byte) 0xBB
                && bytes[2] == (byte) 0xBF
            ? 3
            : 0;
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, off, bytes.length - off))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Why a zip path is not taken (absolute, {@code ..}, backslash, control character), or null. */
  static String unsafeName(String name) {
    if (name.isEmpty()) {
      return "empty path";
    }
    if (name.startsWith("/") || (name.length() > 1 && name.charAt(1) == ':')) {
      return "absolute path";
    }
    if (name.indexOf('\\') >= 0) {
      return "backslash in the path";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return "control character in the path";
      }
    }
    for (String seg : name.split("/", -1)) {
      if (seg.equals("..")) {
        return "'..' in the path";
      }
    }
    return null;
  }

  /** A name for messages: control characters escaped, at most 200 chars. */
  static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 200; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    if (b.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (b[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the manifest's debug id (absent: any) names the module of a Breakpad debug id
   * ({@code GUID} + age in hex, e.g. {@code 7F883FCDC55336D0A809B0150F09500B0}); the manifest
   * writes it as symbolic does, a UUID with the age after a dash when not zero.
   */
  public boolean matchesDebugId(String breakpadId) {
    if (debugId == null || debugId.isBlank()) {
      return true;
    }
    String m = SourcePaths.normalizeDebugId(debugId);
    String b = SourcePaths.normalizeDebugId(breakpadId);
    if (m.length() < 32 || b.length() < 32) {
      return m.equals(b);
    }
    return m.substring(0, 32).equals(b.substring(0, 32)) && age(m).equals(age(b));
  }

  private static String age(String id) {
    String a = id.substring(32).replaceFirst("^0+", "");
    return a.isEmpty() ? "0" : a;
  }

  /** The file compiled from {@code path} (exactly, else with separators normalised), or null. */
  public SourceFile byPath(String path) {
    if (path == null) {
      return null;
    }
    String norm = SourcePaths.normalize(path);
    SourceFile loose = null;
    for (SourceFile f : files) {
      if (path.equals(f.path()) || path.equals(f.url())) {
        return f;
      }
      if (loose == null && f.path() != null && SourcePaths.normalize(f.path()).equals(norm)) {
        loose = f;
      }
    }
    return loose;
  }

  /** The first file whose headers name {@code debugId} (JavaScript, JVM), or null. */
  public SourceFile byDebugId(String debugId) {
    if (debugId == null) {
      return null;
    }
    String want = SourcePaths.normalizeDebugId(debugId);
    for (SourceFile f : files) {
      if (f.debugId() != null && SourcePaths.normalizeDebugId(f.debugId()).equals(want)) {
        return f;
      }
    }
    return null;
  }
}
