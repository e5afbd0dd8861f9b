package io.symbolicate.symbols.js;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list of JSON strings kept as their bytes in the sourcemap's input and decoded on
 * {@link #get}: {@code sourcesContent} is most of a large map (9.1 MB of the 14 MB TypeScript
 * map) and is needed only to build content pages, so parsing does not make {@code String}s of it.
 * Jackson has already validated every element (escapes and UTF-8) while skipping it during the
 * parse, so decoding here cannot fail on well-formed input. Entries are either a position of an
 * opening quote in {@code raw}, null, or a string decoded eagerly by the parser.
 */
final class RawJsonStrings extends AbstractList<String> implements RandomAccess {
  private final JsonFactory decoder; // the parser's, so its string-length cap applies here too
  private final byte[] raw;
  private final int[] quoteAt; // -1: the entry is in eager (or null)
  private final String[] eager;
  private final int size;

  RawJsonStrings(JsonFactory decoder, byte[] raw, int[] quoteAt, String[] eager, int size) {
    this.decoder = decoder;
    this.raw = raw;
    this.quoteAt = quoteAt;
    this.eager = eager;
    this.size = size;
  }

  /** The same entries, cut or padded with nulls to {@code n} (one per source), still undecoded. */
  RawJsonStrings withSize(int n) {
    int[] q = Arrays.copyOf(quoteAt, n);
    String[] e = Arrays.copyOf(eager, n);
    for (int i = size; i < n; i++) {
      q[i] = -1; // padding: no content
      e[i] = null;
    }
    return new RawJsonStrings(decoder, raw, q, e, n);
  }

  @Override
  public String get(int index) {
    Objects.checkIndex(index, size);
    int q = quoteAt[index];
    if (q < 0) {
      return eager[index];
    }
    int end = plainEnd(q + 1);
    // bytes bound the chars from above: past the cap, Jackson below decides exactly (and refuses)
    if (end >= 0 && end - (q + 1) <= decoder.streamReadConstraints().getMaxStringLength()) {
      return new String(raw, q + 1, end - (q + 1), StandardCharsets.UTF_8);
    }
    // escapes: Jackson's own decoding loop over the quoted string, in place (no copy of raw)
    try (JsonParser p = decoder.createParser(raw, q, raw.length - q)) {
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw new IllegalStateException("not a JSON string at byte " + q);
      }
      return p.getText();
    } catch (IOException e) {
      throw new UncheckedIOException("sourcesContent entry " + index + " cannot be decoded", e);
    }
  }

  /** The closing quote of a string without escapes that starts at {@code from}, else -1. */
  private int plainEnd(int from) {
    for (int i = from; i < raw.length; i++) {
      byte b = raw[i];
      if (b == '"') {
        return i;
      }
      if (b == '\\') {
        return -1;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return size;
  }
}
