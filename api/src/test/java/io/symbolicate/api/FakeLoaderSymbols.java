package io.symbolicate.api;

import io.symbolicate.api.multipart.MultipartForm;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API's symbols over an in-memory table store, with a loader that answers each request at
 * once: the module's table when the test gave one, else {@code missing} (as a source without the
 * file would). For the file routes' tests.
 */
public final class FakeLoaderSymbols implements ApiSymbols {
  private final Map<ByteBuffer, byte[]> kv = new ConcurrentHashMap<>();
  private final Map<String, CompactTable> tables = new HashMap<>();
  private final PageCache cache = new PageCache(1 << 20);

  /** Every module asked for, in the order asked. */
  public final Set<ModuleRef> requested = ConcurrentHashMap.newKeySet();

  /** A table the loader finds for {@code key} ({@code debug_file/debug_id}) in any scope. */
  public FakeLoaderSymbols with(String key, CompactTable table) {
    tables.put(key, table);
    return this;
  }

  @Override
  public TableReader tables() {
    return key -> kv.get(ByteBuffer.wrap(key));
  }

  @Override
  public PageCache pageCache() {
    return cache;
  }

  @Override
  public void request(ModuleRef ref, RequestReason reason) {
    requested.add(ref);
    CompactTable t = tables.get(ref.key());
    ModuleState.Builder s =
        ModuleState.newBuilder()
            .setModule(ref.toString())
            .setGeneration(1)
            .setSource("test")
            .setMessage(null)
            .setUpdatedAt(Instant.now());
    if (t == null) {
      s.setStatus(TableStatus.missing)
          .setFormatVersion(new NativeSymbolicator().tableFormatVersion())
          .setHeader(null)
          .setPageCount(0)
          .setPageKeys(List.of())
          .setTableBytes(0)
          .setRetryAfter(Instant.now().plusSeconds(3600));
    } else {
      for (TablePage p : t.pages()) {
        kv.put(ByteBuffer.wrap(TableKeys.page(ref, 1, p.firstKey())), p.bytes());
      }
      s.setStatus(TableStatus.found)
          .setFormatVersion(t.formatVersion())
          .setHeader(ByteBuffer.wrap(t.header()))
          .setPageCount(t.pages().size())
          .setPageKeys(t.pages().stream().map(TablePage::firstKey).toList())
          .setTableBytes(t.encodedSize());
    }
    kv.put(ByteBuffer.wrap(TableKeys.state(ref)), WireSerdes.moduleState().encode(s.build()));
  }

  /** The stream's native step over these symbols. */
  public ApiSymbolicator symbolicator() {
    return new ApiSymbolicator(
        Map.of(io.symbolicate.schema.Platform.native$, new NativeSymbolicator()), this);
  }

  /** A multipart/form-data body of {@code (name, filename or null, bytes)} parts. */
  public static byte[] form(String boundary, Object[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object[] p : parts) {
      String head =
          "--"
              + boundary
              + "\r\nContent-Disposition: form-data; name=\""
              + p[0]
              + "\""
              + (p[1] != null
                  ? "; filename=\"" + p[1] + "\"\r\nContent-Type: application/octet-stream"
                  : "")
              + "\r\n\r\n";
      out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
      out.writeBytes(
          p[2] instanceof byte[] b ? b : p[2].toString().getBytes(StandardCharsets.UTF_8));
      out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  public static MultipartForm parse(byte[] body, String boundary) throws Exception {
    return MultipartForm.parse(body, "multipart/form-data; boundary=" + boundary);
  }
}
