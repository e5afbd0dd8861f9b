package io.symbolicate.symbols.dotnet;

import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The sources a Portable PDB embeds, as source files for {@code SourcePages}: the first source
 * of context for .NET frames (a source bundle beside the PDB adds the documents it does not
 * embed), found by the document's path as the sequence points name it. Source Link URLs are not
 * sources: never fetched.
 */
public final class EmbeddedSources {
  private EmbeddedSources() {}

  /**
   * The PDB's embedded sources as text; a binary or non-UTF-8 one, or a second of one path, is
   * left out and named in {@code skipped}.
   */
  public static List<SourceFile> files(PortablePdb pdb, List<String> skipped) {
    List<SourceFile> files = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (EmbeddedSource s : pdb.embeddedSources()) {
      if (!seen.add(s.path())) {
        skipped.add(s.path() + ": embedded twice");
        continue;
      }
      String text = SourceBundle.text(s.contents());
      if (text == null) {
        skipped.add(s.path() + ": binary or not UTF-8");
        continue;
      }
      files.add(new SourceFile("embedded:" + s.path(), "source", s.path(), null, null, text));
    }
    return files;
  }
}
