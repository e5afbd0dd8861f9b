package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Help text wraps at sentence boundaries, not where the source broke its lines. */
class HelpTextTest {
  @Test
  void linesBecomeParagraphsWithTheFirstSentenceAlone() {
    assertThat(
            HelpText.paragraphs(
                "Walk the stacks with the symbol",
                "directory DIR. Then print",
                "the report.",
                "",
                "- a list item",
                "  indented"))
        .containsExactly(
            "Walk the stacks with the symbol directory DIR.",
            "Then print the report.",
            "",
            "- a list item",
            "  indented");
  }

  @Test
  void theCommandListShowsWholeSentences() {
    JsCommandTest.Run r = JsCommandTest.run("--help");
    assertThat(r.code()).isZero();
    // picocli showed the description's first source line alone: "... reads crash-events.raw
    // again:" and "... as a table keyed by event id" with the rest of the sentence cut off
    String flat = r.out().replaceAll("\\s+", " ");
    assertThat(flat)
        .contains(
            "reset Reset the stopped stream application so that its next run reads"
                + " crash-events.raw again: from the earliest offsets, or from the first record"
                + " at or after --to-datetime. clean");
    JsCommandTest.Run walk = JsCommandTest.run("minidump", "walk", "--help");
    // one paragraph filled to the usage width: only its last line is short (picocli wrapped each
    // source line alone, leaving "(name/DEBUGID/name.sym)" on a line of its own mid-sentence)
    List<String> lines = walk.out().lines().toList();
    int first =
        lines.indexOf(
            lines.stream().filter(l -> l.startsWith("Walk the dump")).findFirst().orElseThrow());
    int last = first;
    while (!lines.get(last).endsWith("(docs/minidump.md).")) {
      last++;
    }
    assertThat(last).isGreaterThan(first);
    assertThat(lines.subList(first, last)).allMatch(l -> l.length() >= 60, "filled to the width");
  }
}
