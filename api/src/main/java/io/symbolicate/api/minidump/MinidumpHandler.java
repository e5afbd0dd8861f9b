package io.symbolicate.api.minidump;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.sentry.SymbolicatorFileHandler;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /minidump}, Symbolicator's minidump endpoint: the {@code upload_file_minidump}
 * part is read by our minidump reader and walked with the symbols (CFI and functions) of the API's
 * table store. The walk says which modules it needs only while walking, so: walk with what the
 * store holds, ask for the modules it wanted that the store knew nothing of, wait for them (up to
 * the request's deadline), walk again; at most {@link #MAX_WALKS} walks, and at most
 * {@code http.max.modules} modules asked for. Answered in Symbolicator's shape
 * ({@link MinidumpResponse}). docs/api/minidump.md.
 */
public final class MinidumpHandler extends SymbolicatorFileHandler {
  public static final String FILE_FIELD = "upload_file_minidump";

  /** The largest request body: the dump and the other fields. */
  public static final long MAX_BODY_BYTES = 64L << 20;

  /** Walks of one dump: the first, then one after each wait for modules it asked for. */
  public static final int MAX_WALKS = 3;

  public MinidumpHandler(Symbolication shared) {
    this(shared, MAX_BODY_BYTES);
  }

  /** With another body limit (tests). */
  public MinidumpHandler(Symbolication shared, long maxBodyBytes) {
    super(shared, FILE_FIELD, maxBodyBytes);
  }

  @Override
  protected JsonNode answer(
      byte[] file,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      ApiSettings settings)
      throws InterruptedException {
    Minidump dump;
    try {
      dump = Minidump.read(file);
    } catch (MinidumpException e) {
      throw badFile(e);
    }
    Walked last = walk(dump, scope, deadlineMillis, symbolicator, settings.maxModules());
    return MinidumpResponse.render(last.state(), last.supplier().arches());
  }

  /** The last walk and the symbols it had. */
  private record Walked(ProcessState state, StoreSymbolSupplier supplier) {}

  private Walked walk(
      Minidump dump,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      int maxModules)
      throws InterruptedException {
    Set<ModuleRef> asked = new LinkedHashSet<>();
    List<ModuleRef> waitFor = List.of();
    for (int walk = 1; ; walk++) {
      StoreSymbolSupplier supplier =
          new StoreSymbolSupplier(
              symbolicator.await(waitFor, Platform.native$, walk == 1 ? 0 : deadlineMillis), scope);
      ProcessState state;
      try {
        state = new MinidumpProcessor(supplier).process(dump);
      } catch (MinidumpException e) {
        throw badFile(e);
      }
      boolean more = false;
      for (ModuleRef ref : supplier.asked()) {
        if (asked.size() < maxModules && asked.add(ref) && supplier.unanswered().contains(ref)) {
          more = true;
        }
      }
      if (!more || walk == MAX_WALKS || System.currentTimeMillis() >= deadlineMillis) {
        // ask (without waiting) for what the walk used whose answers are due again
        symbolicator.await(
            supplier.asked().stream().filter(asked::contains).toList(), Platform.native$, 0);
        return new Walked(state, supplier);
      }
      waitFor = new ArrayList<>(asked);
    }
  }
}
