package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.loader.dotnet.DotnetModuleLocator;
import io.symbolicate.connectors.loader.dotnet.DotnetTableConverter;
import io.symbolicate.connectors.loader.js.JsModuleLocator;
import io.symbolicate.connectors.loader.js.JsTableConverter;
import io.symbolicate.connectors.loader.jvm.JvmModuleLocator;
import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.connectors.loader.nativecode.DebugFileLayouts;
import io.symbolicate.connectors.loader.nativecode.NativeModuleLocator;
import io.symbolicate.connectors.loader.nativecode.NativeTableConverter;
import io.symbolicate.symbols.table.TableKind;
import java.util.EnumMap;
import java.util.Map;

/** The loader's converters and locators of every platform, for tests (the app wires its own). */
public final class TestEngines {
  private TestEngines() {}

  public static Map<TableKind, TableConverter> converters() {
    Map<TableKind, TableConverter> m = new EnumMap<>(TableKind.class);
    m.put(TableKind.NATIVE, new NativeTableConverter());
    m.put(TableKind.JVM, new JvmTableConverter());
    m.put(TableKind.JS, new JsTableConverter());
    m.put(TableKind.DOTNET, new DotnetTableConverter());
    return m;
  }

  public static Map<TableKind, ModuleLocator> locators() {
    Map<TableKind, ModuleLocator> m = new EnumMap<>(TableKind.class);
    m.put(TableKind.NATIVE, new NativeModuleLocator()); // debug_file/debug_id, or symbfile/FileID
    m.put(TableKind.JS, new JsModuleLocator());
    m.put(TableKind.DOTNET, new DotnetModuleLocator(DebugFileLayouts.defaults()::of));
    m.put(TableKind.JVM, new JvmModuleLocator());
    return m;
  }
}
