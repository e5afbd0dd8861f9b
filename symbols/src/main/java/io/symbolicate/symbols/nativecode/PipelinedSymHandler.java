package io.symbolicate.symbols.nativecode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SymHandler} that hands its records to another on a second thread, in order: the
 * reader of a debug file (DWARF, CFI) goes on producing while the table builder (or a {@code
 * .sym} writer) consumes, so a conversion uses two cores. Records are copied into chunks of
 * about {@link #CHUNK_BYTES} (numbers in a {@code long[]}, names in a {@code byte[]}); at most
 * {@link #QUEUED} chunks wait, so the heap this costs is bounded (a few MB) whatever the input.
 *
 * <p>The downstream handler sees exactly the calls made here, in the same order, from one thread;
 * the answers of {@link #line} and {@link #inline} are not waited for (they return true: the
 * readers ignore them). {@link #close()} waits until everything is consumed and rethrows what the
 * downstream handler threw; after it the downstream handler may be used by the caller's thread.
 */
public final class PipelinedSymHandler implements SymHandler, AutoCloseable {
  static final int CHUNK_BYTES = 1 << 18;
  static final int QUEUED = 8;

  private static final int MODULE = 1;
  private static final int CODE_ID = 2;
  private static final int FILE = 3;
  private static final int ORIGIN = 4;
  private static final int FUNC = 5;
  private static final int LINE = 6;
  private static final int INLINE = 7;
  private static final int PUBLIC = 8;
  private static final int BAD_LINE = 9;
  private static final int CFI_INIT = 10;
  private static final int CFI_DELTA = 11;
  private static final int WIN = 12;
  private static final int PARAM_SIZE = 13;

  /** One batch of records. */
  private static final class Chunk {
    long[] nums = new long[CHUNK_BYTES / 8];
    int n;
    byte[] bytes = new byte[CHUNK_BYTES / 2];
    int b;
    final List<Object> objects = new ArrayList<>();

    void num(long v) {
      if (n == nums.length) {
        nums = Arrays.copyOf(nums, n * 2);
      }
      nums[n++] = v;
    }

    void bytes(byte[] src, int off, int len) {
      num(len);
      if (b + len > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, b + len));
      }
      System.arraycopy(src, off, bytes, b, len);
      b += len;
    }

    boolean full() {
      return n >= CHUNK_BYTES / 8 - 64 || b >= CHUNK_BYTES / 2;
    }
  }

  private static final Chunk END = new Chunk();

  private final SymHandler out;
  private final BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUED);
  private final Thread consumer;
  private volatile Throwable failure;
  private Chunk cur = new Chunk();
  private boolean closed;

  /** The consumer's copy of an inline record's ranges. */
  private long[] ranges = new long[16];

  public PipelinedSymHandler(SymHandler out, String threadName) {
    this.out = out;
    this.consumer = new Thread(this::consume, threadName);
    this.consumer.setDaemon(true);
    this.consumer.start();
  }

  private void consume() {
    try {
      while (true) {
        Chunk c = queue.take();
        if (c == END) {
          return;
        }
        if (failure == null) {
          replay(c);
        }
      }
    } catch (Throwable t) { // rethrown by close(), on the producer's thread
      failure = t;
      queue.clear(); // the producer may be waiting for room
    }
  }

  private void replay(Chunk c) {
    long[] v = c.nums;
    byte[] data = c.bytes;
    int i = 0;
    int b = 0;
    int o = 0;
    while (i < c.n) {
      int op = (int) v[i++];
      switch (op) {
        case MODULE -> {
          String[] m = (String[]) c.objects.get(o++);
          out.module(m[0], m[1], m[2], m[3]);
        }
        case CODE_ID -> {
          String[] m = (String[]) c.objects.get(o++);
          out.codeId(m[0], m[1]);
        }
        case FILE, ORIGIN -> {
          int id = (int) v[i++];
          int len = (int) v[i++];
          if (op == FILE) {
            out.file(id, data, b, len);
          } else {
            out.inlineOrigin(id, data, b, len);
          }
          b += len;
        }
        case FUNC, PUBLIC -> {
          boolean multiple = v[i++] != 0;
          long address = v[i++];
          long size = op == FUNC ? v[i++] : 0;
          int len = (int) v[i++];
          if (op == FUNC) {
            out.func(multiple, address, size, data, b, len);
          } else {
            out.publicSymbol(multiple, address, data, b, len);
          }
          b += len;
        }
        case LINE -> {
          out.line(v[i], v[i + 1], (int) v[i + 2], (int) v[i + 3]);
          i += 4;
        }
        case INLINE -> {
          int level = (int) v[i++];
          int callLine = (int) v[i++];
          int callFile = (int) v[i++];
          int origin = (int) v[i++];
          int count = (int) v[i++];
          if (ranges.length < 2 * count) {
            ranges = new long[2 * count];
          }
          System.arraycopy(v, i, ranges, 0, 2 * count);
          out.inline(level, callLine, callFile, origin, ranges, count);
          i += 2 * count;
        }
        case BAD_LINE -> out.badLine(v[i++], (String) c.objects.get(o++));
        case CFI_INIT -> {
          long address = v[i++];
          long size = v[i++];
          int len = (int) v[i++];
          out.stackCfiInit(address, size, data, b, len);
          b += len;
        }
        case CFI_DELTA -> {
          long address = v[i++];
          int len = (int) v[i++];
          out.stackCfiDelta(address, data, b, len);
          b += len;
        }
        case WIN -> {
          int type = (int) v[i++];
          long rva = v[i++];
          long size = v[i++];
          int len = (int) v[i++];
          out.stackWin(type, rva, size, data, b, len);
          b += len;
        }
        case PARAM_SIZE -> {
          out.funcParameterSize(v[i], v[i + 1]);
          i += 2;
        }
        default -> throw new IllegalStateException("unknown record " + op);
      }
    }
  }

  private Chunk chunk() {
    if (cur.full()) {
      send(cur);
      cur = new Chunk();
    }
    return cur;
  }

  private void send(Chunk c) {
    try {
      while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
        if (failure != null || !consumer.isAlive()) {
          return; // close() reports it
        }
      }
    } catch (InterruptedException e) {
      consumer.interrupt(); // it stops too, not left waiting for records that will not come
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while handing over records", e);
    }
  }

  @Override
  public void module(String os, String arch, String debugId, String name) {
    Chunk c = chunk();
    c.num(MODULE);
    c.objects.add(new String[] {os, arch, debugId, name});
  }

  @Override
  public void codeId(String codeId, String codeFile) {
    Chunk c = chunk();
    c.num(CODE_ID);
    c.objects.add(new String[] {codeId, codeFile});
  }

  @Override
  public void file(int id, byte[] buf, int off, int len) {
    Chunk c = chunk();
    c.num(FILE);
    c.num(id);
    c.bytes(buf, off, len);
  }

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {
    Chunk c = chunk();
    c.num(ORIGIN);
    c.num(id);
    c.bytes(buf, off, len);
  }

  @Override
  public void func(
      boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen) {
    Chunk c = chunk();
    c.num(FUNC);
    c.num(multiple ? 1 : 0);
    c.num(address);
    c.num(size);
    c.bytes(buf, nameOff, nameLen);
  }

  @Override
  public boolean line(long address, long size, int line, int fileId) {
    Chunk c = chunk();
    c.num(LINE);
    c.num(address);
    c.num(size);
    c.num(line);
    c.num(fileId);
    return true;
  }

  @Override
  public boolean inline(
      int level, int callLine, int callFile, int origin, long[] ranges, int rangeCount) {
    Chunk c = chunk();
    c.num(INLINE);
    c.num(level);
    c.num(callLine);
    c.num(callFile);
    c.num(origin);
    c.num(rangeCount);
    for (int i = 0; i < 2 * rangeCount; i++) {
      c.num(ranges[i]);
    }
    return true;
  }

  @Override
  public void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int nameLen) {
    Chunk c = chunk();
    c.num(PUBLIC);
    c.num(multiple ? 1 : 0);
    c.num(address);
    c.bytes(buf, nameOff, nameLen);
  }

  @Override
  public void badLine(long lineNumber, String reason) {
    Chunk c = chunk();
    c.num(BAD_LINE);
    c.num(lineNumber);
    c.objects.add(reason);
  }

  @Override
  public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
    Chunk c = chunk();
    c.num(CFI_INIT);
    c.num(address);
    c.num(size);
    c.bytes(buf, off, len);
  }

  @Override
  public void stackCfiDelta(long address, byte[] buf, int off, int len) {
    Chunk c = chunk();
    c.num(CFI_DELTA);
    c.num(address);
    c.bytes(buf, off, len);
  }

  @Override
  public void stackWin(int type, long rva, long size, byte[] buf, int off, int len) {
    Chunk c = chunk();
    c.num(WIN);
    c.num(type);
    c.num(rva);
    c.num(size);
    c.bytes(buf, off, len);
  }

  @Override
  public void funcParameterSize(long address, long parameterSize) {
    Chunk c = chunk();
    c.num(PARAM_SIZE);
    c.num(address);
    c.num(parameterSize);
  }

  /**
   * Hands over what is left, waits until the other thread has consumed it, and rethrows what the
   * downstream handler threw (a RuntimeException or Error as it was).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    send(cur);
    cur = null;
    try {
      while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
        if (!consumer.isAlive()) {
          break;
        }
      }
      consumer.join();
    } catch (InterruptedException e) {
      consumer.interrupt();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the records were consumed", e);
    }
    Throwable t = failure;
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
