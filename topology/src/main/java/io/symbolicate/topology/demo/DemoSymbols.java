package io.symbolicate.topology.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The sample debug files the demo uploads into its S3 server, at their layout keys. */
public final class DemoSymbols {
  /** One object to upload. */
  public record Upload(String key, byte[] body) {}

  private DemoSymbols() {}

  public static List<Upload> uploads() {
    List<Upload> out = new ArrayList<>();
    // Mozilla symbol-server layout: <debug_file>/<DEBUG_ID>/<debug_file>.sym
    out.add(new Upload("crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym", resource("/demo/crashy.sym")));
    return out;
  }

  static byte[] resource(String name) {
    try (InputStream in = DemoSymbols.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing demo resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
