package io.symbolicate.app.runtime;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.loader.dotnet.DotnetModuleLocator;
import io.symbolicate.connectors.loader.dotnet.DotnetTableConverter;
import io.symbolicate.connectors.loader.js.JsModuleLocator;
import io.symbolicate.connectors.loader.js.JsTableConverter;
import io.symbolicate.connectors.loader.jvm.JvmModuleLocator;
import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.connectors.loader.nativecode.DebugFileLayouts;
import io.symbolicate.connectors.loader.nativecode.NativeModuleLocator;
import io.symbolicate.connectors.loader.nativecode.NativeTableConverter;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbolication.js.JsSymbolicator;
import io.symbolicate.symbolication.jvm.JvmSymbolicator;
import io.symbolicate.symbolication.minidump.AttachmentFetcher;
import io.symbolicate.symbolication.minidump.FileEventSymbolicator;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.config.TopologyConfig;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The platform engines wired into the application: the stream steps, the loader's converters
 * and where each platform's files live in a source.
 */
public final class SymbolEngines {
  private SymbolEngines() {}

  /** The stream steps without a store for dumps by reference (the API, topology descriptions). */
  public static Map<Platform, PlatformSymbolicator> steps() {
    return steps(
        AttachmentFetcher.NONE,
        FileEventSymbolicator.Settings.defaults(TopologyConfig.Parking.DEFAULT_MAX_MODULES));
  }

  /**
   * The steps behind the HTTP API: the stream's, the native one without source context ({@code
   * POST /symbolicate} adds its own, per request; the other native routes answer none).
   */
  public static Map<Platform, PlatformSymbolicator> apiSteps() {
    return apiSteps(ContextLines.DEFAULT_LINES);
  }

  /**
   * As {@link #apiSteps()}, the JVM step with {@code jvmContextLines} of source context from the
   * request's source bundles ({@code POST /symbolicate-jvm} names them only where the request
   * applies source context).
   */
  public static Map<Platform, PlatformSymbolicator> apiSteps(int jvmContextLines) {
    return SymbolicationTopology.steps(
        List.of(
            new FileEventSymbolicator(
                new NativeSymbolicator(0),
                AttachmentFetcher.NONE,
                FileEventSymbolicator.Settings.defaults(
                    TopologyConfig.Parking.DEFAULT_MAX_MODULES)),
            new JsSymbolicator(),
            new JvmSymbolicator(jvmContextLines)));
  }

  /** The stream steps; native events that carry a dump are walked, fetching it with {@code dumps}. */
  public static Map<Platform, PlatformSymbolicator> steps(
      AttachmentFetcher dumps, FileEventSymbolicator.Settings settings) {
    return steps(dumps, settings, ContextLines.DEFAULT_LINES);
  }

  /**
   * The stream steps, native and JVM frames with {@code contextLines} of source context ({@code
   * symbolication.source.context.lines}; 0: none).
   */
  public static Map<Platform, PlatformSymbolicator> steps(
      AttachmentFetcher dumps, FileEventSymbolicator.Settings settings, int contextLines) {
    return SymbolicationTopology.steps(
        List.of(
            new FileEventSymbolicator(new NativeSymbolicator(contextLines), dumps, settings),
            new JsSymbolicator(),
            new JvmSymbolicator(contextLines)));
  }

  public static Map<TableKind, TableConverter> converters() {
    Map<TableKind, TableConverter> m = new EnumMap<>(TableKind.class);
    m.put(TableKind.NATIVE, new NativeTableConverter());
    m.put(TableKind.JVM, new JvmTableConverter());
    m.put(TableKind.JS, new JsTableConverter());
    m.put(TableKind.DOTNET, new DotnetTableConverter());
    return m;
  }

  /** Where each platform's files live, with the default debug-file layouts. */
  public static Map<TableKind, ModuleLocator> locators() {
    return locators(DebugFileLayouts.defaults(), DebugFileInput.DEFAULT_MAX_BYTES);
  }

  /**
   * Where each platform's files live; native debug files in {@code layouts}, an executable
   * beside a debug file spooled up to {@code maxFileBytes}.
   */
  public static Map<TableKind, ModuleLocator> locators(
      DebugFileLayouts layouts, long maxFileBytes) {
    Map<TableKind, ModuleLocator> m = new EnumMap<>(TableKind.class);
    // debug_file/debug_id, buildid/<id>, or symbfile/FileID: .sym files, then debug files
    m.put(TableKind.NATIVE, new NativeModuleLocator(layouts, maxFileBytes));
    m.put(TableKind.JS, new JsModuleLocator()); // by debug id, or release + dist + URL
    // pe_dotnet modules: their Portable PDB, in the native debug-file layouts
    m.put(TableKind.DOTNET, new DotnetModuleLocator(layouts::of));

    m.put(TableKind.JVM, new JvmModuleLocator());
    return m;
  }
}
