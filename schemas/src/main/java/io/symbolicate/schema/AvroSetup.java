package io.symbolicate.schema;

import org.apache.avro.util.ClassSecurityValidator;

/**
 * Process-wide Avro settings our decoders rely on. Call {@link #ensure()} before decoding.
 *
 * <ul>
 *   <li>Avro 1.12.1+ refuses to instantiate generated classes outside trusted packages; our own
 *       wire types are trusted in code, so no JVM flag is needed.
 *   <li>Avro allocates arrays and strings of the length a record <em>claims</em>; hostile input
 *       could claim 2^31 items. We cap collection and string lengths far below that (unless the
 *       operator set the limits explicitly), so such input fails decoding instead of the JVM.
 * </ul>
 */
public final class AvroSetup {
  /** Cap on items in one Avro array/map, and on one string's bytes, unless configured. */
  public static final String DEFAULT_COLLECTION_LIMIT = "1000000";

  public static final String DEFAULT_STRING_LIMIT = String.valueOf(64 << 20);

  private static volatile boolean done;

  private AvroSetup() {}

  public static void ensure() {
    if (done) {
      return;
    }
    synchronized (AvroSetup.class) {
      if (done) {
        return;
      }
      // read once by org.apache.avro.SystemLimitException's static initialiser
      setIfAbsent("org.apache.avro.limits.collectionItems.maxLength", DEFAULT_COLLECTION_LIMIT);
      setIfAbsent("org.apache.avro.limits.string.maxLength", DEFAULT_STRING_LIMIT);
      setIfAbsent("org.apache.avro.limits.bytes.maxLength", DEFAULT_STRING_LIMIT);
      ClassSecurityValidator.ClassSecurityPredicate ours =
          c -> c.getName().startsWith(AvroSetup.class.getPackageName() + ".");
      ClassSecurityValidator.setGlobal(
          ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(), ours));
      done = true;
    }
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
