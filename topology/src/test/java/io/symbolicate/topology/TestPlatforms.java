package io.symbolicate.topology;

import io.symbolicate.schema.Platform;
import io.symbolicate.symbolication.js.JsSymbolicator;
import io.symbolicate.symbolication.jvm.JvmSymbolicator;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
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
