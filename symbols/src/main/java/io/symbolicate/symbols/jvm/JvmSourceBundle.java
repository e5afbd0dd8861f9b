package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.TablePage;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM source bundle ({@code sentry-cli debug-files bundle-jvm}: files by URL {@code
 * ~/<package>/<Class>.jvm}, see {@link JvmSourcePath}) as a JVM module of its own, named by the
 * bundle's debug id as events name it ({@code type: source} modules): its store key, where the
 * loader finds it, and its table, which holds no classes, only source pages (docs/jvm.md, "Source
 * context").
 */
public final class JvmSourceBundle {
  /** Module keys of source bundles start with this; a mapping's key is a bare UUID. */
  public static final String KEY_PREFIX = "source/";

  /** What a source bundle module's table header names as its compiler. */
  public static final String COMPILER = "source bundle";

  private JvmSourceBundle() {}

  /** The store key of the bundle with debug id {@code uuid}; throws when it is not a UUID. */
  public static String moduleKey(String uuid) {
    return KEY_PREFIX + MappingLocator.normaliseUuid(uuid);
  }

  /** Whether a JVM module key names a source bundle (not a mapping). */
  public static boolean isModuleKey(String key) {
    return key.startsWith(KEY_PREFIX);
  }

  /** The debug id (normalised UUID) of a source bundle's module key. */
  public static String uuidOf(String moduleKey) {
    if (!isModuleKey(moduleKey)) {
      throw new IllegalArgumentException("not a JVM source bundle key: " + moduleKey);
    }
    return MappingLocator.normaliseUuid(moduleKey.substring(KEY_PREFIX.length()));
  }

  /**
   * Object keys of the bundle, best first, in Symbolicator's {@code unified} layout: {@code
   * <id[0:2]>/<id[2:]>/sourcebundle}, the id as 32 lower-case hex digits (where the upload API
   * stores it), then with the age {@code 0} appended, as the native bundles' debug ids are
   * written there.
   */
  public static List<String> objectKeys(String uuid) {
    String hex = MappingLocator.normaliseUuid(uuid).replace("-", "");
    return List.of(unified(hex), unified(hex + "0"));
  }

  private static String unified(String id) {
    return DebugFileLayout.UNIFIED
        .keys(new DebugFileLayout.Query(null, id, null, null), DebugFileLayout.Kind.SOURCE_BUNDLE)
        .get(0);
  }

  /**
   * The bundle's table: an empty class page at key 0 (as every JVM table has) and its files as
   * source pages, at most {@code maxSourceBytes} of them; files left out are added to {@code
   * skipped} with their reason.
   */
  public static JvmTable table(SourceBundle bundle, long maxSourceBytes, List<String> skipped) {
    List<TablePage> pages = new ArrayList<>();
    pages.add(new TablePage(0, new JvmPageFormat.Encoder().finish()));
    skipped.addAll(bundle.skipped());
    pages.addAll(SourcePages.pages(bundle.files(), maxSourceBytes, skipped));
    JvmHeader h =
        new JvmHeader(
            JvmTable.FORMAT_VERSION,
            COMPILER,
            "",
            -1,
            bundle.debugId() == null ? "" : bundle.debugId(),
            "",
            "",
            0,
            0,
            pages.size(),
            0,
            0,
            0);
    return new JvmTable(h, h.encode(), List.copyOf(pages));
  }
}
