package io.symbolicate.deploy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Every overlay, rendered once per test JVM. */
final class Overlays {
  private static final Map<String, Rendered> CACHE = new ConcurrentHashMap<>();

  private Overlays() {}

  static List<Rendered> all() throws IOException, InterruptedException {
    List<Rendered> out = new ArrayList<>();
    for (String o : Kustomize.overlays()) {
      out.add(get(o));
    }
    return out;
  }

  static Rendered get(String overlay) throws IOException, InterruptedException {
    Rendered r = CACHE.get(overlay);
    if (r == null) {
      r = new Rendered(overlay, Kustomize.render(Kustomize.OVERLAYS.resolve(overlay)));
      CACHE.put(overlay, r);
    }
    return r;
  }
}
