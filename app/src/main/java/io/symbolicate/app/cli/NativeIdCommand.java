package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.objects.ObjectFeature;
import io.symbolicate.symbols.objects.ObjectFile;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.PeFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator native id}: the identity of an ELF, Mach-O, PE or PDB file, as JSON. */
@Command(
    name = "id",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the identity of an ELF, Mach-O, PE or PDB 7.0 file (or a dSYM bundle or dSYM zip,"
          + " or a symbol store's CAB-compressed name.pd_ or name.dl_) as JSON: code_id, debug_id"
          + " (Breakpad form), debug_id_guid (GUID-age form), arch, kind, file_format, features,"
          + " and the debug links of an ELF file, the PDB path (debug_file) of a PE image.",
      "A fat Mach-O file prints a JSON array, one object per architecture, unless --arch"
          + " chooses one. Exit code 2 on a file it cannot read or that is not an object file."
    })
final class NativeIdCommand implements Runnable {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description =
          "ELF, Mach-O, PE or PDB file, fat file, dSYM bundle directory or dSYM zip, a .pd_.")
  Path file;

  @Option(
      names = "--arch",
      paramLabel = "ARCH",
      description = "The slice of a fat Mach-O file: x86_64, arm64, x86, armv7, ...")
  String arch;

  @Override
  public void run() {
    if (!Files.exists(file)) {
      throw new UserException(file + ": no such file");
    }
    if (!Files.isReadable(file)) {
      throw new UserException(file + ": not readable");
    }
    Path file = CabFiles.expandIfCab(this.file);
    Object result;
    try {
      List<String> archs = arch == null ? ObjectFiles.architectures(file) : List.of(arch);
      if (archs.size() == 1) {
        result = describe(ObjectFiles.open(file, arch));
      } else {
        List<Object> all = new ArrayList<>();
        for (String a : archs) {
          all.add(describe(ObjectFiles.open(file, a)));
        }
        result = all;
      }
    } catch (ObjectFormatException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    try {
      out.println(JSON.writeValueAsString(result));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  static Map<String, Object> describe(ObjectFile f) {
    ObjectIdentity id = f.identity();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", f.name());
    m.put("code_id", id.codeId());
    m.put("debug_id", id.debugId());
    m.put("debug_id_guid", id.debugIdGuid());
    m.put("arch", id.arch());
    m.put("kind", id.kind().jsonName());
    m.put("file_format", id.fileFormat());
    m.put("load_address", "0x" + Long.toHexString(id.loadAddress()));
    List<String> features = new ArrayList<>();
    for (ObjectFeature feature : ObjectFeature.values()) {
      if (id.features().contains(feature)) {
        features.add(feature.jsonName());
      }
    }
    m.put("features", features);
    f.debugLink()
        .ifPresent(
            l -> {
              Map<String, Object> link = new LinkedHashMap<>();
              link.put("file_name", l.fileName());
              link.put("crc", String.format("%08x", l.crc()));
              m.put("debug_link", link);
            });
    f.debugAltLink()
        .ifPresent(
            l -> {
              Map<String, Object> link = new LinkedHashMap<>();
              link.put("file_name", l.fileName());
              link.put("build_id", l.buildId());
              m.put("debug_alt_link", link);
            });
    f.elf().ifPresent(e -> m.put("mini_debug_info", e.sectionHeader(".gnu_debugdata").isPresent()));
    f.pe()
        .flatMap(PeFile::codeView)
        .ifPresent(
            cv -> {
              m.put("debug_file", cv.path());
              m.put("breakpad_code_id", f.pe().get().breakpadCodeId());
            });
    return m;
  }
}
