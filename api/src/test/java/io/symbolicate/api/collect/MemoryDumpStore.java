package io.symbolicate.api.collect;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;

/** A {@link DumpStore} in memory for the route's tests; {@link #failing} makes every call fail. */
final class MemoryDumpStore implements DumpStore {
  record Obj(byte[] bytes, long modified) {}

  final Map<String, Obj> objects = new ConcurrentSkipListMap<>();
  private final LongSupplier clock;
  volatile boolean failing;

  MemoryDumpStore(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public String bucket() {
    return "dumps";
  }

  private void check() throws IOException {
    if (failing) {
      throw new IOException("store down");
    }
  }

  @Override
  public Stored put(String key, InputStream in) throws IOException {
    check();
    byte[] b = in.readAllBytes();
    objects.put(key, new Obj(b, clock.getAsLong()));
    try {
      return new Stored(
          bucket(),
          key,
          b.length,
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void putSmall(String key, byte[] bytes) throws IOException {
    check();
    objects.put(key, new Obj(bytes.clone(), clock.getAsLong()));
  }

  @Override
  public byte[] getSmall(String key, int max) throws IOException {
    check();
    Obj o = objects.get(key);
    return o == null ? null : o.bytes();
  }

  @Override
  public void delete(String key) throws IOException {
    check();
    objects.remove(key);
  }

  @Override
  public List<Listed> list(String prefix, int max) throws IOException {
    check();
    List<Listed> out = new ArrayList<>();
    objects.forEach(
        (k, o) -> {
          if (k.startsWith(prefix) && out.size() < max) {
            out.add(new Listed(k, o.modified()));
          }
        });
    return out;
  }
}
