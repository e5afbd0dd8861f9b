package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every sequence point and method name against Mono.Cecil 0.11's reading of the same assemblies
 * and PDBs (the goldens under {@code cecil/}, written by scripts/cecil/goldens.sh: method row, IL
 * offset, start line, start column, end line, end column, hidden, document, Type.Method).
 */
class CecilSequencePointsTest {
  record Expected(List<String> points, String name) {}

  static Map<Integer, Expected> golden(String name) throws IOException {
    Map<Integer, Expected> byMethod = new TreeMap<>();
    try (InputStream in = CecilSequencePointsTest.class.getResourceAsStream("cecil/" + name)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t");
        Expected e =
            byMethod.computeIfAbsent(
                Integer.parseInt(f[0]), k -> new Expected(new ArrayList<>(), f[8]));
        e.points().add(String.join(" ", f[1], f[2], f[3], f[4], f[5], f[6], f[7]));
      }
    }
    return byMethod;
  }

  static void check(String goldenName, PortablePdb pdb, MethodNames names) throws IOException {
    Map<Integer, Expected> golden = golden(goldenName);
    assertThat(golden).as(goldenName).isNotEmpty();
    int withPoints = 0;
    for (int m = 1; m <= pdb.methodCount(); m++) {
      List<String> ours = new ArrayList<>();
      for (SequencePoint p : pdb.sequencePoints(m)) {
        ours.add(
            String.join(
                " ",
                String.valueOf(p.ilOffset()),
                String.valueOf(p.startLine()),
                String.valueOf(p.startColumn()),
                String.valueOf(p.endLine()),
                String.valueOf(p.endColumn()),
                p.isHidden() ? "1" : "0",
                pdb.document(p.document()).name()));
      }
      Expected e = golden.get(m);
      if (e == null) {
        assertThat(ours).as("%s method %d: Cecil reads no points", goldenName, m).isEmpty();
        continue;
      }
      withPoints++;
      assertThat(ours).as("%s method %d", goldenName, m).isEqualTo(e.points());
      assertThat(names.name(m)).as("%s method %d", goldenName, m).contains(e.name());
    }
    assertThat(withPoints).isEqualTo(golden.size());
  }

  @Test
  void portablePdbBesideItsAssembly() throws IOException {
    check(
        "portable.tsv",
        PortablePdbTest.pdb("testutils/windows/portable.pdb"),
        DotnetImage.parse(PortablePdbTest.read("testutils/windows/integration.dll")).methodNames());
    check(
        "sourcelink-sample.tsv",
        PortablePdbTest.pdb("testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb"),
        DotnetImage.parse(
                PortablePdbTest.read("testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.dll"))
            .methodNames());
  }

  @Test
  void portablePdbsEmbeddedInTheirAssembly() throws IOException {
    for (String[] c :
        new String[][] {
          {"embedded-ppdb.tsv", "Sentry.Samples.Console.Basic-embedded-ppdb.dll"},
          {
            "embedded-ppdb-with-sources.tsv",
            "Sentry.Samples.Console.Basic-embedded-ppdb-with-sources.dll"
          }
        }) {
      DotnetImage image = DotnetImage.parse(PortablePdbTest.read("testutils/windows/" + c[1]));
      check(
          c[0], PortablePdb.parse(image.embeddedPortablePdb().orElseThrow()), image.methodNames());
    }
  }
}
