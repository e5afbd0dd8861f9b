package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The source file names of a PDB's line rows, each distinct name once: rows carry its index, so
 * a row holds no {@code String} and two rows name the same file exactly when their indexes are
 * equal. Names come from the {@code /names} string table by offset (read once per offset).
 */
public final class PdbFileNames {
  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<Long, Integer> byOffset = new HashMap<>();

  /** The index of {@code name}, added when new. */
  public int intern(String name) {
    Integer i = index.get(name);
    if (i == null) {
      i = names.size();
      names.add(name);
      index.put(name, i);
    }
    return i;
  }

  /** The index of the name at {@code offset} of the string table ("" past its end). */
  int intern(ByteBuffer table, long offset) {
    Integer i = byOffset.get(offset);
    if (i == null) {
      String name =
          offset < table.limit() ? PdbFile.cString(table, (int) offset, table.limit()) : "";
      i = intern(name);
      byOffset.put(offset, i);
    }
    return i;
  }

  public String name(int i) {
    return names.get(i);
  }

  /** How many distinct names there are (indexes run below it). */
  public int count() {
    return names.size();
  }
}
