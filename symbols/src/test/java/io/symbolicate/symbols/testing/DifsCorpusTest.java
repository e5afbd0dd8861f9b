package io.symbolicate.symbols.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.DifsCorpus.Case;
import io.symbolicate.symbols.testing.DifsCorpus.Lookup;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated debug-file corpus ({@code scripts/difs-corpus.sh}) is complete and well-formed:
 * every file it lists exists with its SHA-256, every expected answer has at least two agreeing
 * tools, and the packagings issue 44 names are all there. Skipped without the corpus, failed
 * without it under {@code SYMBOLICATE_REQUIRE_CORPUS=1}.
 */
class DifsCorpusTest {
  private static DifsCorpus corpus;

  @BeforeAll
  static void load() {
    corpus = DifsCorpus.loadOrSkip();
  }

  @Test
  void everyListedFileHasItsChecksum() throws Exception {
    List<String> lines =
        Files.readAllLines(corpus.resolve("SHA256SUMS"), StandardCharsets.UTF_8).stream()
            .filter(l -> !l.isBlank())
            .toList();
    assertThat(lines).isNotEmpty();
    for (String line : lines) {
      String want = line.substring(0, 64);
      Path file = corpus.resolve(line.substring(66));
      assertThat(file).as(line).isRegularFile();
      assertThat(sha256(file)).as(file.toString()).isEqualTo(want);
    }
    assertThat(lines).anyMatch(l -> l.endsWith("  cases.json"));
  }

  @Test
  void everyCaseNamesFilesThatExist() {
    assertThat(corpus.cases()).isNotEmpty().hasSize(corpus.summary().binaries());
    for (Case c : corpus.cases()) {
      assertThat(corpus.resolve(c.binary())).as(c.name()).isRegularFile();
      assertThat(corpus.resolve(c.lookupFile())).as(c.name()).isRegularFile();
      if (c.debugFile() != null) {
        assertThat(corpus.resolve(c.debugFile())).as(c.name()).exists();
      }
      assertThat(c.tools()).as(c.name()).hasSizeGreaterThanOrEqualTo(2);
      assertThat(c.format()).as(c.name()).isIn("elf", "macho");
    }
    assertThat(corpus.cases().stream().map(Case::name).distinct().count())
        .isEqualTo(corpus.cases().size());
  }

  /** The identity recorded is really in the file: the ELF build-id note or the LC_UUID bytes. */
  @Test
  void identitiesAreTheFilesOwn() throws Exception {
    for (Case c : corpus.cases()) {
      String id = c.id();
      assertThat(id).as(c.name()).isNotNull();
      String hex = id.replace("-", "").toLowerCase();
      assertThat(hex).as(c.name()).matches("[0-9a-f]{32}|[0-9a-f]{40}");
      byte[] needle = HexFormat.of().parseHex(hex);
      assertThat(indexOf(Files.readAllBytes(corpus.resolve(c.binary())), needle))
          .as(c.name() + " holds " + id)
          .isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void everyExpectedAnswerHasTwoAgreeingToolsAndFrames() {
    int expected = 0;
    int disagreements = 0;
    for (Case c : corpus.cases()) {
      Set<Long> seen = new HashSet<>();
      for (Lookup l : c.addresses()) {
        String where = c.name() + " " + l.address();
        assertThat(l.agreed()).as(where).hasSizeGreaterThanOrEqualTo(2);
        assertThat(c.tools()).as(where).containsAll(l.agreed());
        assertThat(l.frames()).as(where).isNotEmpty();
        assertThat(l.frames())
            .as(where)
            .allSatisfy(f -> assertThat(f.function() != null || f.file() != null).isTrue());
        assertThat(seen.add(l.addressValue())).as(where + " listed twice").isTrue();
        if (l.others() != null) {
          assertThat(l.others().keySet()).as(where).doesNotContainAnyElementsOf(l.agreed());
        }
      }
      for (DifsCorpus.Disagreement d : c.disagreements()) {
        assertThat(seen.add(Long.parseUnsignedLong(d.address().substring(2), 16)))
            .as(c.name() + " " + d.address() + " listed twice")
            .isTrue();
        assertThat(d.answers().keySet()).as(c.name()).isEqualTo(Set.copyOf(c.tools()));
      }
      assertThat(c.addresses().size() + c.disagreements().size()).as(c.name()).isPositive();
      expected += c.addresses().size();
      disagreements += c.disagreements().size();
    }
    assertThat(expected).isEqualTo(corpus.summary().expected());
    assertThat(disagreements).isEqualTo(corpus.summary().disagreements());
    assertThat(expected + disagreements).isEqualTo(corpus.summary().addresses());
  }

  /** The packagings issue 44 names for the corpus are all built, by both compilers where ELF. */
  @Test
  void coversThePackagingsOfTheIssue() {
    Set<String> elf =
        corpus.cases().stream()
            .filter(c -> c.format().equals("elf"))
            .map(
                c ->
                    c.compiler()
                        + " "
                        + c.packaging().replaceAll("-(ld|objcopy|llvm-objcopy)$", ""))
            .collect(Collectors.toSet());
    for (String compiler : List.of("gcc", "clang")) {
      for (String p :
          List.of("pie", "split-dwo", "split-dwp", "debuglink", "zlib", "zstd", "so", "dwz")) {
        assertThat(elf).contains(compiler + " " + p);
      }
    }
    assertThat(corpus.cases()).anyMatch(c -> c.flags().contains("-gdwarf-4"));
    assertThat(corpus.cases()).anyMatch(c -> c.flags().contains("-gdwarf-5"));
    assertThat(corpus.cases()).anyMatch(c -> c.flags().contains("-O0"));
    assertThat(corpus.cases()).anyMatch(c -> c.flags().contains("-O2"));
    Set<String> macho =
        corpus.cases().stream()
            .filter(c -> c.format().equals("macho"))
            .map(c -> c.packaging() + " " + c.arch())
            .collect(Collectors.toSet());
    assertThat(macho).contains("dsym x86_64", "dsym arm64", "fat-dsym x86_64", "fat-dsym arm64");
    // inlined frames are among the expected answers, so readers' inline trees are tested
    assertThat(corpus.cases())
        .anyMatch(c -> c.addresses().stream().anyMatch(l -> l.frames().size() >= 3));
  }

  private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
