package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes the seeds of the api module's fuzz targets (scripts/fuzz-seeds.sh): a request of each
 * shape for {@code ApiRequestFuzzTests#request}, and for {@link UploadFuzzTests#upload} the
 * symbols module's seeds of each format behind the byte that picks it (the object readers' ELF
 * and Mach-O seeds for the debug-file format), plus a zip of a {@code .sym} and a zip of a
 * debug file. Arguments: the symbols module's test resources, this module's.
 */
public final class ApiFuzzSeeds {
  private ApiFuzzSeeds() {}

  private static final String[][] REQUESTS = {
    {
      "v5",
      """
          {"jobs": [{"stacks": [[[0, 6688], [0, 7170], [1, 65802], [-1, 4096]]], "memoryMap": [["crashy", "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0"], ["wntdll.pdb", "D74F79EB1F8D4A45ABCD2F476CCABACC2"]]}]}"""
    },
    {
      "v5-symbfile-debug",
      """
          {"debug": true, "jobs": [{"stacks": [[[0, 4198400]]], "memoryMap": [["symbfile", "AAAAAAAAAAAAAAAAAAAAAA"]]}, {"stacks": [[]], "memoryMap": []}]}"""
    },
    {
      "v4",
      """
          {"stacks": [[[0, 11723767], [1, 65802]]], "memoryMap": [["xul.pdb", "44E4EC8C2F41492B9369D6B9A059577C2"], ["wntdll.pdb", "D74F79EB1F8D4A45ABCD2F476CCABACC2"]], "version": 4}"""
    },
    {
      "js",
      """
          {"release": "1.0", "dist": "web", "stacktraces": [{"frames": [{"abs_path": "http://example.com/test.min.js", "lineno": 1, "colno": 39, "function": "a"}, {"abs_path": "http://example.com/index.html", "lineno": 2, "colno": 5}]}], "modules": [{"type": "sourcemap", "code_file": "http://example.com/test.min.js", "debug_id": "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10"}], "options": {"apply_source_context": true}}"""
    },
    {
      "jvm",
      """
          {"sources": [{"type": "sentry", "id": "sentry:project", "url": "http://127.0.0.1:1/"}], "exceptions": [{"type": "g$a", "module": "org.a.b"}], "stacktraces": [{"frames": [{"function": "onClick", "module": "e.a.c.a", "lineno": 2, "index": 0}, {"function": "t", "module": "io.sentry.sample.MainActivity", "filename": "MainActivity.java", "lineno": 1}]}], "modules": [{"type": "proguard", "uuid": "5b46fdc0-0000-4000-8000-000000000001"}], "classes": ["org.a.b.g$a"], "release_package": "io.sentry.sample", "options": {"apply_source_context": true}}"""
    },
    {
      "symbolicate-native",
      """
          {"stacktraces": [{"registers": {"rip": "0x555500001210"}, "frames": [{"instruction_addr": "0x555500001210"}, {"instruction_addr": "0x555500001271", "adjust_instruction_addr": true}, {"instruction_addr": 4660, "addr_mode": "rel:0"}]}], "modules": [{"type": "elf", "code_id": "b060ad20c6b47781552708aa192e7739fac7c84a", "debug_id": "20ad60b0-b4c6-8177-5527-08aa192e7739", "debug_file": "/usr/bin/basic", "code_file": "/usr/bin/basic", "image_addr": "0x555500000000", "image_size": 65536}], "options": {"apply_source_context": false}}"""
    },
    {
      "symbolicate-dotnet",
      """
          {"stacktraces": [{"frames": [{"instruction_addr": 10, "function_id": 6, "addr_mode": "rel:0"}, {"instruction_addr": "0x2f", "function_id": "0x5", "addr_mode": "rel:1"}]}], "modules": [{"type": "pe_dotnet", "debug_file": "integration.pdb", "debug_id": "0c1033f78632492e91c6c314b72e1920e60b819d"}, {"type": "pe_dotnet", "debug_file": "portable-embedded.pdb", "debug_id": "b6919861-510c-4887-9994-943f64f70c37-870b9ef9"}]}"""
    },
    {
      "not-json",
      "{\"jobs\": [{\"stacks\": [[[0, 1]]], \"memoryMap\": [[\"../../etc/passwd\", \"AB\"]]}"
    },
  };

  /** The byte that picks {@link DebugFileFormat} in {@link UploadFuzzTests}. */
  static final int DEBUG_FILE = 4;

  /** Copies the {@code seed-*} files of {@code from} behind the byte of {@code format}. */
  private static int copySeeds(Path from, Path to, int format, String tag) throws IOException {
    int n = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(from, "seed-*")) {
      for (Path seed : ds) {
        byte[] body = Files.readAllBytes(seed);
        byte[] out = new byte[body.length + 1];
        out[0] = (byte) format;
        System.arraycopy(body, 0, out, 1, body.length);
        Files.write(
            to.resolve("seed-" + format + "-" + tag + seed.getFileName().toString().substring(5)),
            out);
        n++;
      }
    }
    return n;
  }

  public static void main(String[] args) throws IOException {
    Path symbols = Path.of(args[0]).resolve("io/symbolicate/symbols");
    Path api = Path.of(args[1]);
    Path requests =
        Files.createDirectories(
            api.resolve("io/symbolicate/api/ApiRequestFuzzTestsInputs/request"));
    for (String[] r : REQUESTS) {
      Files.writeString(requests.resolve("seed-" + r[0]), r[1]);
    }
    Path uploads =
        Files.createDirectories(
            api.resolve("io/symbolicate/api/upload/UploadFuzzTestsInputs/upload"));
    String[] sources = {
      "nativecode/NativeFuzzTestsInputs/symFile",
      "jvm/JvmFuzzTestsInputs/mapping",
      "js/JsFuzzTestsInputs/sourceMap",
      "symbfile/SymbfileFuzzTestsInputs/symbfile"
    };
    int n = REQUESTS.length;
    for (int format = 0; format < sources.length; format++) {
      n += copySeeds(symbols.resolve(sources[format]), uploads, format, "");
    }
    // the debug-file format: the object readers' ELF and Mach-O seeds (heads of the peers'
    // files and small whole ones), and a zip of a dSYM-like bundle holding one
    Path objects = symbols.resolve("objects/ObjectFuzzTestsInputs");
    n += copySeeds(objects.resolve("elf"), uploads, DEBUG_FILE, "elf-");
    n += copySeeds(objects.resolve("macho"), uploads, DEBUG_FILE, "macho-");
    byte[] elf = Files.readAllBytes(objects.resolve("elf/seed-built-64le"));
    ByteArrayOutputStream dsym = new ByteArrayOutputStream();
    dsym.write(DEBUG_FILE);
    try (ZipOutputStream z = new ZipOutputStream(dsym)) {
      ZipEntry plist = new ZipEntry("app.dSYM/Contents/Info.plist");
      plist.setTime(0);
      z.putNextEntry(plist);
      z.write("<plist/>".getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
      ZipEntry dwarf = new ZipEntry("app.dSYM/Contents/Resources/DWARF/app");
      dwarf.setTime(0);
      z.putNextEntry(dwarf);
      z.write(elf);
      z.closeEntry();
    }
    Files.write(uploads.resolve("seed-4-zip-built-64le"), dsym.toByteArray());
    n++;
    // a zip of one .sym at the path its MODULE line gives, as the Breakpad route takes it
    byte[] sym = Files.readAllBytes(symbols.resolve(sources[0]).resolve("seed-func_end_1"));
    DebugIdentifiers.Native module;
    try {
      module = BreakpadFormat.moduleLine(new ByteArrayInputStream(sym), "seed");
    } catch (UploadError e) {
      throw new IOException("the seed's MODULE line: " + e.getMessage(), e);
    }
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    zip.write(0);
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry(SymbolLayout.breakpad(module).get(0)));
      z.write(sym);
      z.closeEntry();
      z.putNextEntry(new ZipEntry("README.txt"));
      z.write("not a symbol file".getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    Files.write(uploads.resolve("seed-0-zip-func_end_1"), zip.toByteArray());
    System.out.println("wrote " + (n + 1) + " api seeds");
  }
}
