package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The list files: siggen's layout and syntax, our defaults, and the Python-to-Java regex translation. */
class SignatureListsTest {
  @TempDir Path dir;

  @Test
  void defaultsLoadAndAreSmallAndGeneric() {
    SignatureLists d = SignatureLists.defaults();
    assertThat(d.lines(SignatureLists.IRRELEVANT)).isNotEmpty().hasSizeLessThan(100);
    assertThat(d.lines(SignatureLists.PREFIX)).isNotEmpty().hasSizeLessThan(100);
    assertThat(d.sentinels).contains("core::panicking::panic", "__assert_fail");
    assertThat(d.describe()).isEqualTo("using included signature lists");
    // the line-number list must match nothing (an empty list would match every frame)
    assertThat(d.lineNumbers.matcher("main").lookingAt()).isFalse();
    List<String> all = new ArrayList<>(d.lines(SignatureLists.IRRELEVANT));
    all.addAll(d.lines(SignatureLists.PREFIX));
    for (String line : all) {
      assertThat(line.toLowerCase())
          .doesNotContain("mozilla")
          .doesNotContain("gecko")
          .doesNotContain("xul");
    }
  }

  @Test
  void socorrosListsLoadFromTheirDirectory() throws Exception {
    SignatureLists s = SignatureLists.load(SiggenFixtures.socorroLists());
    assertThat(s.describe()).startsWith("using signature lists from ");
    // counts of siggen's files at the fixtures' commit, comments and blanks dropped
    assertThat(s.lines(SignatureLists.SENTINELS))
        .contains("_purecall", "IPC::MessageWriter::FatalError");
    assertThat(s.irrelevant.matcher("{virtual override thunk}").lookingAt()).isTrue();
    assertThat(s.prefix.matcher("<name omitted>").lookingAt()).isTrue();
    assertThat(s.irrelevant.matcher("handle_error").lookingAt()).isTrue();
    assertThat(s.irrelevant.matcher("handle_errorf").lookingAt()).isFalse();
    // the JavaScript lists are ours; a siggen directory falls back to our defaults for them
    assertThat(s.lines(SignatureLists.JS_NOT_IN_APP))
        .isEqualTo(SignatureLists.defaults().lines(SignatureLists.JS_NOT_IN_APP));
  }

  @Test
  void aDirectoryFollowsSiggensSyntax() throws Exception {
    write(SignatureLists.IRRELEVANT, "# comment\n\n   spaced   \r\n#another\nb\\(\n");
    write(SignatureLists.PREFIX, "p");
    write(SignatureLists.SENTINELS, "s<T>");
    write(SignatureLists.LINE_NUMBERS, "");
    SignatureLists l = SignatureLists.load(dir);
    assertThat(l.lines(SignatureLists.IRRELEVANT)).containsExactly("spaced", "b\\(");
    assertThat(l.sentinels).containsExactly("s<T>");
    // an empty regex list matches every frame, as in siggen ("|".join([]) is "")
    assertThat(l.lineNumbers.matcher("anything").lookingAt()).isTrue();
  }

  @Test
  void brokenListsAreRefusedWithTheReason() throws Exception {
    assertThatThrownBy(() -> SignatureLists.load(dir.resolve("nope")))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("not found");
    write(SignatureLists.IRRELEVANT, "ok\n");
    write(SignatureLists.PREFIX, "p");
    write(SignatureLists.SENTINELS, "s");
    assertThatThrownBy(() -> SignatureLists.load(dir))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("signatures_with_line_numbers_re.txt");
    write(SignatureLists.LINE_NUMBERS, "x");
    write(SignatureLists.IRRELEVANT, "ok\n# fine\nbad(\n");
    assertThatThrownBy(() -> SignatureLists.load(dir))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("at line 3")
        .hasMessageContaining("bad(");
    Files.write(
        dir.resolve(SignatureLists.IRRELEVANT + ".txt"), new byte[] {'a', (byte) 0xff, '\n'});
    assertThatThrownBy(() -> SignatureLists.load(dir))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("UTF-8");
    Files.write(
        dir.resolve(SignatureLists.IRRELEVANT + ".txt"),
        new byte[SignatureLists.MAX_LIST_FILE_BYTES + 1]);
    assertThatThrownBy(() -> SignatureLists.load(dir))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("larger than");
    write(SignatureLists.IRRELEVANT, "x\n".repeat(SignatureLists.MAX_LIST_LINES + 1));
    assertThatThrownBy(() -> SignatureLists.load(dir))
        .isInstanceOf(SignatureListException.class)
        .hasMessageContaining("lines");
    assertThatThrownBy(() -> SignatureLists.of(Map.of(SignatureLists.PREFIX, List.of("[unclosed"))))
        .isInstanceOf(SignatureListException.class);
  }

  @Test
  void pythonRegexSyntaxMeansWhatItMeansInPython() {
    assertMatches("{virtual override thunk}", "{virtual override thunk}");
    assertMatches("a{2}", "aa");
    assertThat(PythonRegex.compile("a{2}").matcher("a{2}").matches()).isFalse();
    assertMatches("a{,2}b", "aab");
    assertMatches("a{}", "a{}");
    assertMatches("x{1,", "x{1,");
    assertMatches("[[]", "[");
    assertMatches("[a&&b]", "&");
    assertMatches("[]a]", "]");
    assertMatches("(?P<n>ab)(?P=n)", "abab");
    assertMatches("a(?#comment)b", "ab");
    assertMatches("a\\Z", "a");
    assertThat(PythonRegex.compile("a\\Z").matcher("a\n").matches()).isFalse();
    assertMatches("\\<name omitted\\>", "<name omitted>");
    assertMatches("\\d+", "\u0663\u0664"); // Unicode digits, as in Python 3
    // only \n ends a line for '.' and '$'
    assertThat(PythonRegex.compile("a.b").matcher("a\rb").matches()).isTrue();
    assertThat(PythonRegex.compile("x$").matcher("x\n").find()).isTrue();
    assertThat(PythonRegex.compile("x$").matcher("x\r").find()).isFalse();
  }

  private static void assertMatches(String python, String text) {
    Pattern p = PythonRegex.compile(python);
    assertThat(p.matcher(text).matches()).as(python + " on " + text).isTrue();
  }

  private void write(String name, String content) throws Exception {
    Files.writeString(dir.resolve(name + ".txt"), content, StandardCharsets.UTF_8);
  }
}
