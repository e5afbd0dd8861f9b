package io.symbolicate.symbols.pdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PDB reader against symbolic's crash.pdb snapshots (test_objects.rs) and Breakpad's .sym. */
class PdbFileTest {
  static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  static final String CRASH_PDB = "getsentry-symbolic/testutils/windows/crash.pdb";
  static final String SNAPSHOTS =
      "getsentry-symbolic/snapshots/symbolic-debuginfo/tests/snapshots/";

  @Test
  void crashPdbIdentity() throws Exception {
    PdbFile pdb = PdbFile.open(difs(CRASH_PDB));
    assertThat(pdb.arch()).isEqualTo("x86");
    assertThat(pdb.age()).isEqualTo(1);
    StringBuilder hex = new StringBuilder();
    for (byte b : pdb.guid()) {
      hex.append(String.format("%02x", b & 0xff));
    }
    assertThat(hex.toString()).isEqualTo("3249d99d0c4049318610f4e4fb0b6936");
    assertThat(pdb.modules()).isNotEmpty();
    assertThat(pdb.namedStream("/names")).isPresent();
  }

  @Test
  void publicsAreSymbolicsPdbSymbols() throws Exception {
    PdbFile pdb = PdbFile.open(difs(CRASH_PDB));
    List<String> snapshot = new ArrayList<>();
    for (String l : Files.readAllLines(difs(SNAPSHOTS + "test_objects__pdb_symbols.snap"))) {
      String t = l.trim();
      if (!t.isEmpty() && !l.startsWith("---") && l.startsWith(" ")) {
        snapshot.add(t);
      }
    }
    List<String> ours = new ArrayList<>();
    for (PdbPublic p : PdbSymbols.publics(pdb)) {
      if (p.code() || p.function()) {
        ours.add(Long.toHexString(p.rva()) + " " + p.name());
      }
    }
    assertThat(snapshot).hasSizeGreaterThan(30);
    assertThat(ours).containsAll(snapshot);
  }
}
