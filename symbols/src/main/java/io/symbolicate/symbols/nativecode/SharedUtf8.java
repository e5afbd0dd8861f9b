package io.symbolicate.symbols.nativecode;

import io.symbolicate.schema.AvroSetup;
import java.io.ObjectInput;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.avro.util.Utf8;

/**
 * A name or path of a decoded page, as its UTF-8 bytes: Avro writes it into an output record
 * with one copy of those bytes, where a {@link String} costs an encoded copy per output frame.
 * One instance is shared by every answer (and every output frame) that carries it, so it is
 * frozen: Avro's in-place reuse ({@code readString(old)}) fails instead of rewriting a cached
 * page. {@link #toString} does not keep the String it builds (Avro's {@code Utf8} would, growing
 * a page behind the cache's size estimate); {@link #cachedString} does, for pages that memoise
 * their answers and count it (and for a non-ASCII name asked for its characters, which the
 * stream never does).
 */
public final class SharedUtf8 extends Utf8 {
  static {
    // Avro reads its decoding limits once, when a Utf8 is first built: that may be here, before
    // any serde, and the project's caps must be the ones read
    AvroSetup.ensure();
  }

  private final boolean ascii;
  private String cached;

  /**
   * Per name, the heap the size estimate of a page that builds its answers afresh allows for the
   * value a consumer keeps with it ({@link #keep}): a record and one String of about the name's
   * length (the name's normalized form), plus {@link #KEPT_BYTES_PER_BYTE} times the name's
   * length (16 bytes more than those need since the record is kept here without a holder). Small on purpose: it is paid for every name of every cached page, and the
   * cache holds fewer pages for it.
   */
  public static final int KEPT_BYTES = 16 + 24 + 24 + 16;

  /** See {@link #KEPT_BYTES}. */
  public static final int KEPT_BYTES_PER_BYTE = 1;

  // what a consumer derived from the name and keeps with it (the stream's crash-data mapper: the
  // name's normalized signature form), so that a warm name is normalized once while its page is
  // cached, not at every frame that carries it
  private volatile Object kept;

  /** Takes {@code utf8} as it is: the caller hands over valid UTF-8 and never changes it. */
  private SharedUtf8(byte[] utf8, boolean ascii) {
    super(utf8);
    this.ascii = ascii;
  }

  /** The bytes as they are when they are valid UTF-8, else with each bad sequence replaced (U+FFFD). */
  static SharedUtf8 of(byte[] buf, int off, int len) {
    if (isAscii(buf, off, len)) {
      return new SharedUtf8(Arrays.copyOfRange(buf, off, off + len), true);
    }
    // the JDK's decoder replaces malformed input; encoding its result back gives valid UTF-8
    // (identical bytes when they were valid), as the String this replaces would have held
    return new SharedUtf8(
        new String(buf, off, len, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), false);
  }

  /** A name given as a String (the constant for omitted names; tests). */
  public static SharedUtf8 of(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return new SharedUtf8(b, isAscii(b, 0, b.length));
  }

  private static boolean isAscii(byte[] b, int off, int len) {
    int any = 0;
    for (int i = off; i < off + len; i++) {
      any |= b[i];
    }
    return any >= 0;
  }

  /*
   * Avro's Utf8 answers length, charAt and subSequence through toString(), which here builds a
   * new String each time: a loop over the characters (Avro's compareSequences, a generated
   * equals against a String) would allocate the name once per character. An ASCII name (nearly
   * all symbol names) answers from its bytes; another keeps its String once asked.
   */
  @Override
  public int length() {
    return ascii ? getByteLength() : cachedString().length();
  }

  @Override
  public char charAt(int index) {
    if (!ascii) {
      return cachedString().charAt(index);
    }
    Objects.checkIndex(index, getByteLength());
    return (char) getBytes()[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    if (!ascii) {
      return cachedString().subSequence(start, end);
    }
    Objects.checkFromToIndex(start, end, getByteLength());
    return new String(getBytes(), start, end - start, StandardCharsets.ISO_8859_1);
  }

  /**
   * The value a consumer keeps with this name ({@link #keep}), or null. One slot per name: a
   * consumer checks that the value is its own kind.
   */
  public Object kept() {
    return kept;
  }

  /**
   * Keeps {@code value} with this name (replacing any), for as long as the name lives: on a
   * cached page, while the page is cached, whose size estimate allows {@link #KEPT_BYTES} plus
   * {@link #KEPT_BYTES_PER_BYTE} per byte of the name for it. Threads may race: the last write
   * wins, so the value must be one any thread can make again.
   */
  public void keep(Object value) {
    kept = value;
  }

  /** A new String each time: nothing is kept. */
  @Override
  public String toString() {
    return new String(getBytes(), 0, getByteLength(), StandardCharsets.UTF_8);
  }

  /** The String, built once and kept (for answer-memoising pages, which count it). */
  String cachedString() {
    String s = cached;
    if (s == null) {
      s = toString();
      cached = s;
    }
    return s;
  }

  @Override
  public Utf8 setByteLength(int newLength) {
    throw new UnsupportedOperationException("a page's names are shared and immutable");
  }

  @Override
  public Utf8 set(String string) {
    throw new UnsupportedOperationException("a page's names are shared and immutable");
  }

  @Override
  public Utf8 set(Utf8 other) {
    throw new UnsupportedOperationException("a page's names are shared and immutable");
  }

  @Override
  public void readExternal(ObjectInput in) {
    throw new UnsupportedOperationException("a page's names are shared and immutable");
  }
}
