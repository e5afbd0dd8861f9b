package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.dotnet.MethodNames;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.dotnet.PpdbLineTable;
import io.symbolicate.symbols.dotnet.SourceLinkMap;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code symbolicator dotnet}: .NET frames (method token, IL offset) against Portable PDBs. */
@Command(
    name = "dotnet",
    mixinStandardHelpOptions = true,
    description =
        ".NET symbols: look up (method token, IL offset) in a Portable PDB (docs/dotnet.md).",
    subcommands = {DotnetCommand.Lookup.class})
final class DotnetCommand implements Runnable {
  /** Files larger than this are refused (Portable PDBs of the largest assemblies are far less). */
  static final long MAX_FILE_BYTES = 1L << 30;

  @Override
  public void run() {
    throw new UserException("missing subcommand: use 'dotnet lookup' (see 'dotnet --help')");
  }

  @Command(
      name = "lookup",
      mixinStandardHelpOptions = true,
      description = {
        "Look up IL offsets of one method in a Portable PDB and print one JSON object per offset:"
            + " method_token, il_offset, file, line, column, language, method (when an assembly"
            + " names it), source_link (when a Source Link rule maps the file) and found.",
        "A hidden sequence point answers line 0, as Symbolicator does."
      })
  static final class Lookup implements Runnable {
    @Option(
        names = "--pdb",
        required = true,
        paramLabel = "FILE",
        description = "A Portable PDB, or a .NET assembly (PE) that embeds one.")
    Path pdb;

    @Option(
        names = "--pe",
        paramLabel = "FILE",
        description =
            "The assembly the PDB belongs to, to name methods (a PE --pdb names its own).")
    Path pe;

    @Parameters(
        index = "0",
        paramLabel = "METHOD_TOKEN",
        description = "A MethodDef token (0x06000007) or its row number (7 or 0x7).")
    String method;

    @Parameters(
        index = "1..*",
        arity = "1..*",
        paramLabel = "IL_OFFSET",
        description = "IL offsets in the method (decimal, or hex with 0x).")
    List<String> offsets = new ArrayList<>();

    @Override
    public void run() {
      int row = methodRow(method);
      List<Long> ils = new ArrayList<>();
      for (String o : offsets) {
        ils.add(parseNumber(o, "IL offset"));
      }
      Loaded loaded = load(pdb);
      MethodNames names = loaded.names();
      if (pe != null) {
        names = image(pe).methodNames();
      }
      PpdbLineTable table;
      SourceLinkMap links;
      try {
        table = PpdbLineTable.build(loaded.pdb());
        links = loaded.pdb().sourceLinks();
      } catch (PortablePdbException e) {
        throw new UserException(pdb + ": " + e.getMessage(), e);
      }
      Optional<String> name = names == null ? Optional.empty() : names.name(row);
      String token = String.format(Locale.ROOT, "0x%08x", 0x06000000 | row);
      try (JsonGenerator g = json(System.out)) {
        for (long il : ils) {
          g.writeStartObject();
          g.writeStringField("method_token", token);
          g.writeNumberField("il_offset", il);
          Optional<PpdbLineTable.LineInfo> info = table.lookup(row, il);
          if (info.isPresent()) {
            String file = info.get().document().name();
            g.writeStringField("file", file);
            g.writeNumberField("line", info.get().line());
            g.writeNumberField("column", info.get().column());
            g.writeStringField("language", info.get().document().language());
            if (name.isPresent()) {
              g.writeStringField("method", name.get());
            }
            Optional<String> link = links.resolve(file);
            if (link.isPresent()) {
              g.writeStringField("source_link", link.get());
            }
          } else if (name.isPresent()) {
            g.writeStringField("method", name.get());
          }
          g.writeBooleanField("found", info.isPresent());
          g.writeEndObject();
          g.writeRaw('\n');
        }
      } catch (IOException e) {
        throw new UserException("writing output: " + e.getMessage(), e);
      }
    }
  }

  /** A MethodDef token (table 0x06) or a bare row number, as the row. */
  static int methodRow(String s) {
    long v = parseNumber(s, "method token");
    long table = v >>> 24;
    long row = v & 0xffffff;
    if (v > 0xffffffffL || (table != 0 && table != 0x06)) {
      throw new UserException(
          "method token " + s + " is not a MethodDef token (0x06xxxxxx) or row number");
    }
    if (row == 0) {
      throw new UserException("method token " + s + " names row 0 (rows start at 1)");
    }
    return (int) row;
  }

  static long parseNumber(String s, String what) {
    try {
      long v =
          s.startsWith("0x") || s.startsWith("0X")
              ? Long.parseLong(s.substring(2), 16)
              : Long.parseLong(s);
      if (v < 0 || v > 0xffffffffL) {
        throw new UserException(what + " " + s + " is out of range (0 to 0xffffffff)");
      }
      return v;
    } catch (NumberFormatException e) {
      throw new UserException(what + " '" + s + "' is not a number (decimal, or hex with 0x)");
    }
  }

  /** A Portable PDB read from a file: the PDB, and method names when the file is an assembly. */
  record Loaded(PortablePdb pdb, MethodNames names) {}

  static Loaded load(Path file) {
    byte[] data = read(file);
    try {
      if (DotnetImage.looksLikePe(data)) {
        DotnetImage image = DotnetImage.parse(data);
        Optional<byte[]> embedded = image.embeddedPortablePdb();
        if (embedded.isEmpty()) {
          String named =
              image
                  .portablePdbReference()
                  .map(r -> "; it names " + r.path() + " (debug id " + r.debugId() + ")")
                  .orElse("");
          throw new UserException(
              file + ": a PE without an embedded Portable PDB" + named + ": pass that PDB");
        }
        return new Loaded(PortablePdb.parse(embedded.get()), image.methodNames());
      }
      if (startsWith(data, "Microsoft C/C++ MSF 7.00")) {
        // Symbolicator answers such a module debug_status "unsupported"
        throw new UserException(
            file + ": a Windows (MSF) PDB; .NET frames need a Portable PDB (unsupported)");
      }
      if (!PortablePdb.looksLikePortablePdb(data)) {
        throw new UserException(file + ": not a Portable PDB (no BSJB signature) nor a PE");
      }
      return new Loaded(PortablePdb.parse(data), null);
    } catch (PortablePdbException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  private static boolean startsWith(byte[] data, String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    return data.length >= p.length && Arrays.equals(data, 0, p.length, p, 0, p.length);
  }

  static DotnetImage image(Path file) {
    try {
      return DotnetImage.parse(read(file));
    } catch (PortablePdbException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  static byte[] read(Path file) {
    try {
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES) {
        throw new UserException(
            file + ": " + size + " bytes, more than the " + MAX_FILE_BYTES + " read");
      }
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new UserException(file + ": no such file", e);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  static JsonGenerator json(PrintStream out) throws IOException {
    JsonGenerator g = new JsonFactory().createGenerator((OutputStream) out);
    g.setRootValueSeparator(null);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    return g;
  }
}
