package io.symbolicate.symbols.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Builds one function's inline tree from its inlinees (any order) and its leaf line rows, the way
 * symbolic's FunctionBuilder does (Mozilla's dump_syms writes its records from that tree):
 * inlinees nested properly (overlapping siblings trimmed, children cut at their caller's end,
 * orphans dropped), each inlinee's call site added as a line of its caller, and lines split at
 * inlinee boundaries and cut at the function's end.
 */
final class FunctionBuilder {
  /** Inlinee re-queues (trims and splits) allowed per inlinee before the rest is dropped. */
  private static final int REQUEUE_BUDGET = 8;

  static final class Inlinee {
    final int depth;
    long address;
    long size;
    final String name;
    final String callPath;
    final long callLine;
    final long seq;

    Inlinee(
        int depth, long address, long size, String name, String callPath, long callLine, long seq) {
      this.depth = depth;
      this.address = address;
      this.size = size;
      this.name = name;
      this.callPath = callPath;
      this.callLine = callLine;
      this.seq = seq;
    }
  }

  static final class LineRec {
    final long address;
    long size; // -1: unknown
    final String path;
    final long line;

    LineRec(long address, long size, String path, long line) {
      this.address = address;
      this.size = size;
      this.path = path;
      this.line = line;
    }
  }

  static final class Node {
    final long address;
    final long size;
    final String name;
    final List<LineRec> lines = new ArrayList<>();
    final List<Node> children = new ArrayList<>();

    Node(long address, long size, String name) {
      this.address = address;
      this.size = size;
      this.name = name;
    }

    long end() {
      long e = address + size;
      return Long.compareUnsigned(e, address) < 0 ? -1L : e;
    }
  }

  private static final Comparator<Inlinee> ORDER =
      Comparator.<Inlinee>comparingLong(i -> i.address)
          .thenComparingInt(i -> i.depth)
          .thenComparingLong(i -> i.seq);

  final long address;
  final long size;
  private final List<Inlinee> inlinees = new ArrayList<>();
  private final List<LineRec> lines = new ArrayList<>();
  private long seq;

  FunctionBuilder(long address, long size) {
    this.address = address;
    this.size = size;
  }

  void addInlinee(int depth, long addr, long sz, String name, String callPath, long callLine) {
    if (addr < address) {
      return; // an inlinee starting before its function is bogus
    }
    inlinees.add(new Inlinee(depth, addr, sz, name, callPath, callLine, seq++));
  }

  void addLeafLine(long addr, long sz, String path, long line) {
    if (addr < address) {
      // a row running on into the function (GCC writes no row where a .cold part opens on the
      // location the part before it ended on): its part in the function, as llvm-symbolizer and
      // Breakpad answer there; symbolic drops it, and the function had no line there
      if (sz < 0 || addr + sz <= address) {
        return;
      }
      sz -= address - addr;
      addr = address;
    }
    lines.add(new LineRec(addr, sz, path, line));
  }

  Node finish(String name) {
    List<Inlinee> nested = ensureProperNesting();
    lines.sort(Comparator.comparingLong(l -> l.address));
    Node outer = new Node(address, size, name);
    long outerEnd = outer.end();
    List<Node> stack = new ArrayList<>();
    stack.add(outer);
    int ii = 0;
    int li = 0;
    LineRec nextLine = li < lines.size() ? lines.get(li++) : null;
    while (true) {
      Inlinee nextInl = ii < nested.size() ? nested.get(ii) : null;
      if (nextInl != null && (nextLine == null || nextInl.address <= nextLine.address)) {
        ii++;
        flushAddress(stack, nextInl.address);
        while (stack.size() > nextInl.depth + 1) {
          pop(stack);
        }
        if (nextInl.address >= outerEnd) {
          break;
        }
        top(stack)
            .lines
            .add(new LineRec(nextInl.address, nextInl.size, nextInl.callPath, nextInl.callLine));
        stack.add(new Node(nextInl.address, nextInl.size, nextInl.name));
        continue;
      }
      if (nextLine != null) {
        LineRec line = nextLine;
        flushAddress(stack, line.address);
        if (line.address >= outerEnd) {
          break;
        }
        if (line.size >= 0) {
          long lineEnd = line.address + line.size;
          if (lineEnd < line.address) {
            lineEnd = Long.MAX_VALUE;
          }
          long curEnd = top(stack).end();
          long split = nextInl != null ? Math.min(nextInl.address, curEnd) : curEnd;
          if (split < lineEnd) {
            LineRec rest = new LineRec(split, lineEnd - split, line.path, line.line);
            line.size = split - line.address;
            top(stack).lines.add(line);
            nextLine = rest;
            continue;
          }
        }
        top(stack).lines.add(line);
        nextLine = li < lines.size() ? lines.get(li++) : null;
        continue;
      }
      break;
    }
    while (stack.size() > 1) {
      pop(stack);
    }
    return outer;
  }

  private static Node top(List<Node> stack) {
    return stack.get(stack.size() - 1);
  }

  private static void pop(List<Node> stack) {
    Node n = stack.remove(stack.size() - 1);
    top(stack).children.add(n);
  }

  private static void flushAddress(List<Node> stack, long addr) {
    while (stack.size() > 1 && top(stack).end() <= addr) {
      pop(stack);
    }
  }

  private List<Inlinee> ensureProperNesting() {
    PriorityQueue<Inlinee> queue = new PriorityQueue<>(Math.max(1, inlinees.size()), ORDER);
    queue.addAll(inlinees);
    long budget = (long) REQUEUE_BUDGET * inlinees.size() + 1024;
    List<Inlinee> result = new ArrayList<>(inlinees.size());
    long[] ends = new long[8];
    int depthNow = 0;
    Inlinee inl;
    while ((inl = queue.poll()) != null) {
      int depth = inl.depth;
      long start = inl.address;
      long end = start + inl.size;
      if (end < start) {
        continue;
      }
      if (depthNow < depth) {
        continue; // no parent
      }
      if (depthNow > depth) {
        long prevEnd = ends[depth];
        if (end <= prevEnd) {
          continue; // engulfed by its previous sibling
        }
        if (start < prevEnd) {
          if (--budget < 0) {
            continue;
          }
          inl.address = prevEnd;
          inl.size = end - prevEnd;
          queue.add(inl);
          continue;
        }
      }
      depthNow = depth;
      if (depth > 0) {
        long callerEnd = ends[depth - 1];
        if (start >= callerEnd) {
          continue;
        }
        if (end > callerEnd) {
          if (--budget >= 0) {
            queue.add(
                new Inlinee(
                    depth,
                    callerEnd,
                    end - callerEnd,
                    inl.name,
                    inl.callPath,
                    inl.callLine,
                    inl.seq));
          }
          inl.size = callerEnd - start;
          end = callerEnd;
        }
      }
      result.add(inl);
      if (depth == ends.length) {
        ends = Arrays.copyOf(ends, ends.length * 2);
      }
      ends[depth] = end;
      depthNow = depth + 1;
    }
    return result;
  }
}
