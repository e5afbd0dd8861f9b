package io.symbolicate.topology;

import io.symbolicate.schema.Platform;
import io.symbolicate.topology.js.JsSymbolicator;
import io.symbolicate.topology.jvm.JvmSymbolicator;
import io.symbolicate.topology.nativecode.NativeSymbolicator;
import io.symbolicate.topology.platform.PlatformSymbolicator;
import java.util.List;
import java.util.Map;

/** The platform steps of every platform, for tests (the app lists its own in SymbolEngines). */
public final class TestPlatforms {
  private TestPlatforms() {}

  public static Map<Platform, PlatformSymbolicator> steps() {
    return SymbolicationTopology.steps(
        List.of(new NativeSymbolicator(), new JsSymbolicator(), new JvmSymbolicator()));
  }
}
