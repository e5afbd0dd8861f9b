package io.symbolicate.app.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Descriptions as paragraphs that picocli wraps at the usage width. The commands write theirs as
 * lines of source code; picocli would print each as a line of its own and break sentences where
 * the source did, and its list of commands shows a command's first line only, often half a
 * sentence. Here lines are joined into paragraphs, and a paragraph's first sentence stands alone
 * so that the list of commands shows it whole.
 */
final class HelpText {
  private HelpText() {}

  /** Reflows the descriptions of this command and every subcommand under it. */
  static void reflow(CommandLine cl) {
    UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
    usage.description(paragraphs(usage.description()).toArray(String[]::new));
    CommandSpec spec = cl.getCommandSpec();
    for (OptionSpec o : List.copyOf(spec.options())) {
      // an option's lines make one paragraph; options of a group stay as they are (a group
      // holds its own copies)
      if (o.description().length > 1 && o.group() == null) {
        spec.remove(o);
        spec.addOption(
            o.toBuilder().description(String.join(" ", stripped(o.description()))).build());
      }
    }
    for (CommandLine sub : cl.getSubcommands().values()) {
      reflow(sub);
    }
  }

  private static String[] stripped(String... lines) {
    String[] out = new String[lines.length];
    for (int i = 0; i < lines.length; i++) {
      out[i] = lines[i].strip();
    }
    return out;
  }

  /**
   * The lines as paragraphs: consecutive lines are joined with a space; an empty line, or one
   * that starts with a space or "-" (a list), starts a new one; the first paragraph's first
   * sentence stands alone.
   */
  static List<String> paragraphs(String... lines) {
    List<String> out = new ArrayList<>();
    StringBuilder p = new StringBuilder();
    for (String line : lines) {
      boolean breaks = line.isEmpty() || line.startsWith(" ") || line.startsWith("-");
      if (p.length() > 0 && breaks) {
        out.add(p.toString());
        p.setLength(0);
      }
      if (line.isEmpty()) {
        out.add("");
        continue;
      }
      if (p.length() > 0) {
        p.append(' ');
      }
      p.append(p.length() == 0 ? line : line.strip());
    }
    if (p.length() > 0) {
      out.add(p.toString());
    }
    if (!out.isEmpty()) {
      String first = out.get(0);
      int end = first.indexOf(". ");
      if (end > 0 && end + 2 < first.length()) {
        out.set(0, first.substring(0, end + 1));
        out.add(1, first.substring(end + 2));
      }
    }
    return out;
  }
}
