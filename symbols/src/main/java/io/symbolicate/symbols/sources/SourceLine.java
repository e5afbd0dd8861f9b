package io.symbolicate.symbols.sources;

import io.symbolicate.schema.AvroSetup;
import java.io.ObjectInput;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.avro.util.Utf8;

/**
 * A stored source line as its UTF-8 bytes, made once when its chunk is decoded: an output
 * record's {@code pre_context}, {@code context_line} and {@code post_context} take it as it is,
 * and the encoder copies its bytes instead of encoding a {@link String} per line and event (issue
 * 46: that was most of what context cost an event). The chunk keeps no String beside it (half
 * the heap, and the encoder reads only these bytes); {@link #toString} makes one when asked (the
 * HTTP API, the CLI, tests). Shared by every event that shows the line, so it is frozen: Avro's
 * in-place reuse fails instead of rewriting a cached chunk.
 */
public final class SourceLine extends Utf8 {
  static {
    // Avro reads its decoding limits once, when a Utf8 is first built: the project's must be read
    AvroSetup.ensure();
  }

  private final int chars;
  private final boolean ascii;

  /** {@code utf8} is valid UTF-8 (a String's encoding), handed over and never changed. */
  private SourceLine(byte[] utf8, int chars) {
    super(utf8);
    this.chars = chars;
    this.ascii = chars == utf8.length;
  }

  static SourceLine of(String text) {
    return new SourceLine(text.getBytes(StandardCharsets.UTF_8), text.length());
  }

  /** A new String each time: nothing is kept beside the bytes. */
  @Override
  public String toString() {
    return new String(getBytes(), 0, getByteLength(), StandardCharsets.UTF_8);
  }

  /** Characters (UTF-16 units) of the line, as its String would count them. */
  @Override
  public int length() {
    return chars;
  }

  @Override
  public char charAt(int index) {
    if (!ascii) {
      return toString().charAt(index);
    }
    Objects.checkIndex(index, chars);
    return (char) getBytes()[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    if (!ascii) {
      return toString().subSequence(start, end);
    }
    Objects.checkFromToIndex(start, end, chars);
    return new String(getBytes(), start, end - start, StandardCharsets.ISO_8859_1);
  }

  /** Heap of the line: the object and its byte array. */
  long heapBytes() {
    return 56L + getByteLength();
  }

  @Override
  public Utf8 setByteLength(int newLength) {
    throw new UnsupportedOperationException("a cached chunk's lines are shared and immutable");
  }

  @Override
  public Utf8 set(String string) {
    throw new UnsupportedOperationException("a cached chunk's lines are shared and immutable");
  }

  @Override
  public Utf8 set(Utf8 other) {
    throw new UnsupportedOperationException("a cached chunk's lines are shared and immutable");
  }

  @Override
  public void readExternal(ObjectInput in) {
    throw new UnsupportedOperationException("a cached chunk's lines are shared and immutable");
  }
}
