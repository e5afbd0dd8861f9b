package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.id.KeySegments;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Where mappings live in the symbol bucket, and which objects to try for an event. Pure key
 * logic: fetching comes with the symbol store.
 *
 * <pre>
 * jvm/proguard/&lt;uuid&gt;/mapping.txt                   by ProGuard UUID (lower-case, hyphenated)
 * jvm/release/&lt;project&gt;/&lt;release&gt;/mapping.txt      by release, when the event carries no UUID
 * </pre>
 *
 * Project and release are percent-encoded (RFC 3986 unreserved characters kept) so any release
 * string ({@code com.app@1.2.3+45}) is one path segment. The uploader may gzip the object; readers
 * detect that by magic bytes.
 */
public final class MappingLocator {
  public static final String PREFIX = "jvm/";
  private static final Pattern UUID_RE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}");

  private MappingLocator() {}

  /** Object key of a mapping by its ProGuard UUID; throws on a malformed UUID. */
  public static String byUuid(String uuid) {
    return PREFIX + "proguard/" + normaliseUuid(uuid) + "/mapping.txt";
  }

  /** Object key of a mapping by project and release. */
  public static String byRelease(String project, String release) {
    if (project == null || project.isEmpty() || release == null || release.isEmpty()) {
      throw new IllegalArgumentException("project and release must not be empty");
    }
    return PREFIX + "release/" + segment(project) + "/" + segment(release) + "/mapping.txt";
  }

  /**
   * Keys to try for an event, best first: every ProGuard UUID its debug images carry (in order,
   * duplicates and malformed ones dropped), then the release's mapping if a release is known.
   */
  public static List<String> candidates(
      Collection<String> proguardUuids, String project, String release) {
    Set<String> keys = new LinkedHashSet<>();
    if (proguardUuids != null) {
      for (String u : proguardUuids) {
        if (u != null && UUID_RE.matcher(u.trim()).matches()) {
          keys.add(byUuid(u.trim()));
        }
      }
    }
    if (project != null && !project.isEmpty() && release != null && !release.isEmpty()) {
      keys.add(byRelease(project, release));
    }
    return new ArrayList<>(keys);
  }

  /** {@code 8-4-4-4-12} lower case; accepts the 32-digit form too. */
  public static String normaliseUuid(String uuid) {
    String u = uuid == null ? "" : uuid.trim();
    if (!UUID_RE.matcher(u).matches()) {
      throw new IllegalArgumentException("not a UUID: '" + uuid + "'");
    }
    String hex = u.replace("-", "").toLowerCase(Locale.ROOT);
    return hex.substring(0, 8)
        + "-"
        + hex.substring(8, 12)
        + "-"
        + hex.substring(12, 16)
        + "-"
        + hex.substring(16, 20)
        + "-"
        + hex.substring(20);
  }

  /**
   * The UUID Sentry's tools assign to a mapping file: a name-based (version 5, SHA-1) UUID of the
   * file's bytes in the namespace uuid5(DNS, "guardsquare.com").
   */
  public static String proguardUuid(byte[] mapping) {
    UUID ns =
        uuid5(
            UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
            "guardsquare.com".getBytes(StandardCharsets.UTF_8));
    return uuid5(ns, mapping).toString();
  }

  static UUID uuid5(UUID namespace, byte[] name) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      ByteBuffer ns = ByteBuffer.allocate(16);
      ns.putLong(namespace.getMostSignificantBits()).putLong(namespace.getLeastSignificantBits());
      sha1.update(ns.array());
      sha1.update(name);
      byte[] h = sha1.digest();
      h[6] = (byte) ((h[6] & 0x0f) | 0x50);
      h[8] = (byte) ((h[8] & 0x3f) | 0x80);
      ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
      return new UUID(b.getLong(), b.getLong());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is always available", e);
    }
  }

  static String segment(String s) {
    return KeySegments.encode(s);
  }
}
