package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.symbolicate.symbols.dotnet.Document;
import io.symbolicate.symbols.dotnet.EmbeddedSource;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.dotnet.SourceLinkMap;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.sources.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code symbolicator sources FILE}: the source files a source bundle or a Portable PDB holds
 * (or links to).
 */
@Command(
    name = "sources",
    mixinStandardHelpOptions = true,
    description = {
      "List the source files of a source bundle (sentry-cli's zip with a manifest.json): one JSON"
          + " object per file with zip_path, type, path or url, debug_id and lines, then one per"
          + " entry left out with skipped (the reason); or of a Portable PDB (or of a .NET"
          + " assembly that embeds one): one JSON"
          + " object per document with path, language, embedded (its size in bytes, when the"
          + " PDB embeds the file) and source_link (the URL a Source Link rule maps it to, never"
          + " fetched)."
    })
final class SourcesCommand implements Runnable {
  private void listBundle() {
    SourceBundle b;
    try {
      b = SourceBundle.read(Files.readAllBytes(file));
    } catch (IOException | SourceBundleException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
    try (JsonGenerator g = DotnetCommand.json(System.out)) {
      for (SourceFile f : b.files()) {
        g.writeStartObject();
        g.writeStringField("zip_path", f.zipPath());
        g.writeStringField("type", f.type());
        if (f.path() != null) {
          g.writeStringField("path", f.path());
        }
        if (f.url() != null) {
          g.writeStringField("url", f.url());
        }
        if (f.debugId() != null) {
          g.writeStringField("debug_id", f.debugId());
        }
        g.writeNumberField("lines", ContextLines.split(f.text()).length);
        g.writeEndObject();
        g.writeRaw('\n');
      }
      for (String s : b.skipped()) {
        g.writeStartObject();
        g.writeStringField("skipped", s);
        g.writeEndObject();
        g.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new UserException("writing output: " + e.getMessage(), e);
    }
  }

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "A Portable PDB or a PE embedding one.")
  Path file;

  @Override
  public void run() {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(4);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
    if (SourceBundle.looksLikeBundle(head)) {
      listBundle();
      return;
    }
    DotnetCommand.Loaded loaded = DotnetCommand.load(file);
    PortablePdb pdb = loaded.pdb();
    Map<String, Integer> embedded = new HashMap<>();
    SourceLinkMap links;
    try {
      for (EmbeddedSource s : pdb.embeddedSources()) {
        embedded.putIfAbsent(s.path(), s.length());
      }
      links = pdb.sourceLinks();
    } catch (PortablePdbException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
    try (JsonGenerator g = DotnetCommand.json(System.out)) {
      for (Document d : pdb.documents()) {
        g.writeStartObject();
        g.writeStringField("path", d.name());
        g.writeStringField("language", d.language());
        Integer size = embedded.get(d.name());
        if (size != null) {
          g.writeNumberField("embedded", size);
        }
        Optional<String> link = links.resolve(d.name());
        if (link.isPresent()) {
          g.writeStringField("source_link", link.get());
        }
        g.writeEndObject();
        g.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new UserException("writing output: " + e.getMessage(), e);
    } catch (PortablePdbException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }
}
