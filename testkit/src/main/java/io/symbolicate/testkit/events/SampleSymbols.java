package io.symbolicate.testkit.events;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The sample debug files the demo uploads into its S3 server, at their layout keys. */
public final class SampleSymbols {
  /** One object to upload. */
  public record Upload(String key, byte[] body) {}

  private SampleSymbols() {}

  public static List<Upload> uploads() {
    List<Upload> out = new ArrayList<>();
    // Mozilla symbol-server layout: <debug_file>/<DEBUG_ID>/<debug_file>.sym
    out.add(
        new Upload(
            "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym", resource("/demo/crashy.sym")));
    // sourcemaps by debug id (docs/js.md)
    out.add(
        new Upload(
            "js/debug-id/c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10/sourcemap",
            resource("/demo/app.min.js.map")));
    // ProGuard/R8 mappings by UUID (docs/jvm.md)
    out.add(
        new Upload(
            "jvm/proguard/5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a/mapping.txt",
            resource("/demo/mapping.txt")));
    return out;
  }

  /** The module the demo's native event misses at first, and the file that arrives for it later. */
  public static final String LATE_MODULE =
      "global|native|libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900";

  public static Upload lateUpload() {
    return new Upload(
        "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900/libc.so.6.sym",
        resource("/demo/libc.so.6.sym"));
  }

  static byte[] resource(String name) {
    try (InputStream in = SampleSymbols.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing demo resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
