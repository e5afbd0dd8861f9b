package io.symbolicate.symbols.nativecode;

/** How page bodies are stored; the choice is written into each page. */
public enum PageCompression {
  /** Uncompressed. */
  STORED(NativeTableBuilder.CODEC_RAW),
  /** Our LZ77 ({@link PageLz}): the default, several times faster than deflate. */
  LZ(NativeTableBuilder.CODEC_LZ),
  /** java.util.zip deflate, level 1: about a fifth smaller than LZ, much slower to write. */
  DEFLATE(NativeTableBuilder.CODEC_DEFLATE);

  final int id;

  PageCompression(int id) {
    this.id = id;
  }
}
