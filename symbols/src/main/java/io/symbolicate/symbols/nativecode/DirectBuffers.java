package io.symbolicate.symbols.nativecode;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Frees direct buffers at once instead of when the collector gets to them: a converted file's
 * chunks would otherwise stay reserved until an old-generation collection, and the next big load
 * could hit the direct-memory limit first. Uses {@code sun.misc.Unsafe.invokeCleaner} (module
 * jdk.unsupported, the supported way to do this before the foreign memory API); where that is
 * not available the buffers are left to the collector.
 */
final class DirectBuffers {
  private static final MethodHandle INVOKE_CLEANER = findCleaner();

  private DirectBuffers() {}

  private static MethodHandle findCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      return MethodHandles.lookup()
          .findVirtual(
              unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether buffers are freed at once (false: by the collector). */
  static boolean freesAtOnce() {
    return INVOKE_CLEANER != null;
  }

  /** Frees {@code b} (a direct buffer that nothing reads again); null is ignored. */
  static void release(ByteBuffer b) {
    if (b == null || !b.isDirect() || INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invokeExact(b);
    } catch (Throwable t) {
      // a slice or duplicate, or a JDK that refuses: the collector frees it
    }
  }
}
