package io.symbolicate.symbols.symbfile;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * Elastic's FileID of an executable: SHA-256 over its first 4096 bytes, its last 4096 bytes and
 * its length as a big-endian u64, cut to the first 128 bits. Reads at most 8 KiB of a file of
 * any size, so an agent can name a binary without reading it whole. Written as 22 characters of
 * unpadded URL-safe base64 (the upload header's form) or 32 hex digits.
 */
public record FileId(long hi, long lo) {
  /** Bytes hashed from each end of the file. */
  public static final int CHUNK = 4096;

  private static final int BASE64_CHARS = 22;
  private static final int HEX_CHARS = 32;
  private static final BigInteger FNV128_PRIME =
      new BigInteger("0000000001000000000000000000013B", 16);
  private static final BigInteger FNV128_OFFSET =
      new BigInteger("6c62272e07bb014262b821756295c58d", 16);
  private static final BigInteger MASK128 = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

  /** The FileID of the file at {@code path}. */
  public static FileId of(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      return of(ch);
    }
  }

  /** The FileID of a file open for reading (its position is moved). */
  public static FileId of(SeekableByteChannel ch) throws IOException {
    long size = ch.size();
    MessageDigest sha = sha256();
    int n = (int) Math.min(CHUNK, size);
    sha.update(readAt(ch, 0, n));
    sha.update(readAt(ch, size - n, n));
    sha.update(ByteBuffer.allocate(8).putLong(size).array());
    return fromDigest(sha.digest());
  }

  /** The FileID of a file held in memory. */
  public static FileId of(byte[] file) {
    MessageDigest sha = sha256();
    int n = Math.min(CHUNK, file.length);
    sha.update(file, 0, n);
    sha.update(file, file.length - n, n);
    sha.update(ByteBuffer.allocate(8).putLong(file.length).array());
    return fromDigest(sha.digest());
  }

  /**
   * The FileID Elastic derives for a Linux kernel image from its GNU build id: FNV-128a over
   * the build id's lowercase hex text.
   */
  public static FileId ofKernelBuildId(String buildIdHex) {
    BigInteger h = FNV128_OFFSET;
    for (byte b : buildIdHex.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII)) {
      h = h.xor(BigInteger.valueOf(b & 0xFF)).multiply(FNV128_PRIME).and(MASK128);
    }
    return new FileId(h.shiftRight(64).longValue(), h.longValue());
  }

  /** Parses either text form: 22 characters of base64 (URL-safe or standard, unpadded) or 32 hex digits. */
  public static FileId parse(String text) throws SymbfileException {
    if (text == null) {
      throw new SymbfileException("no FileID given");
    }
    String s = text.trim();
    if (s.length() == HEX_CHARS) {
      return fromHex(s);
    }
    if (s.length() == BASE64_CHARS || s.length() == BASE64_CHARS + 2 && s.endsWith("==")) {
      String core = s.substring(0, BASE64_CHARS).replace('+', '-').replace('/', '_');
      byte[] b;
      try {
        b = Base64.getUrlDecoder().decode(core);
      } catch (IllegalArgumentException e) {
        throw new SymbfileException("FileID '" + shown(s) + "' is not base64: " + e.getMessage());
      }
      return fromDigest(b);
    }
    throw new SymbfileException(
        "FileID '"
            + shown(s)
            + "' has "
            + s.length()
            + " characters; expected 22 (base64) or 32 (hex)");
  }

  private static FileId fromHex(String s) throws SymbfileException {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        throw new SymbfileException("FileID '" + shown(s) + "' is not hex (character " + i + ")");
      }
    }
    return new FileId(
        Long.parseUnsignedLong(s.substring(0, 16), 16),
        Long.parseUnsignedLong(s.substring(16), 16));
  }

  /** Unpadded URL-safe base64 of the 16 bytes, big-endian: the symbfile API's form. */
  public String toBase64() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes());
  }

  /** 32 lowercase hex digits. */
  public String toHex() {
    return String.format(Locale.ROOT, "%016x%016x", hi, lo);
  }

  /** The halves exchanged (Elastic's {@code Swapped}, used where the halves are stored the other way). */
  public FileId swapped() {
    return new FileId(lo, hi);
  }

  public byte[] bytes() {
    return ByteBuffer.allocate(16).putLong(hi).putLong(lo).array();
  }

  @Override
  public String toString() {
    return toBase64();
  }

  private static FileId fromDigest(byte[] d) {
    ByteBuffer b = ByteBuffer.wrap(d);
    return new FileId(b.getLong(), b.getLong());
  }

  private static byte[] readAt(SeekableByteChannel ch, long pos, int n) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(n);
    ch.position(pos);
    while (buf.hasRemaining()) {
      if (ch.read(buf) < 0) {
        throw new IOException("file shrank while its FileID was computed");
      }
    }
    return buf.array();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String shown(String s) {
    return s.length() <= 64 ? s : s.substring(0, 64) + "...";
  }
}
