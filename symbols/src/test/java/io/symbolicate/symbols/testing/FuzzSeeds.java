package io.symbolicate.symbols.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMap;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.JvmTableBuilder;
import io.symbolicate.symbols.jvm.JvmTableFile;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.PageCompression;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.MachOFile;
import io.symbolicate.symbols.objects.Section;
import io.symbolicate.symbols.symbfile.SymToSymbfile;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the fuzz targets' seed corpora (scripts/fuzz-seeds.sh): small real-shaped inputs, cut
 * from the peer fixtures in {@code ../shared} (never whole large files) or encoded by our own
 * converters from them. Seeds are {@code seed-*} files beside the findings ({@code crash-*},
 * which this never touches) in each target's inputs directory.
 */
public final class FuzzSeeds {
  /** Seeds stay below libFuzzer's default input length, so mutations can reach all of them. */
  static final int MAX_SEED_BYTES = 4096;

  /**
   * Whole small dumps: a minidump's streams lie all over the file, so a 4 KB head never reaches
   * the walker; libFuzzer takes its input limit from the largest seed.
   */
  static final int MAX_DUMP_SEED_BYTES = 30 << 10;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path fixtures;
  private final Path resources;
  private int written;

  private FuzzSeeds(Path shared, Path resources) {
    this.fixtures = shared.resolve("fixtures");
    this.resources = resources;
  }

  /** Arguments: the shared directory and the test resources directory of the symbols module. */
  public static void main(String[] args) throws Exception {
    FuzzSeeds s = new FuzzSeeds(Paths.get(args[0]), Paths.get(args[1]));
    s.nativeSeeds();
    s.jsSeeds();
    s.jvmSeeds();
    s.minidumpSeeds();
    s.symbfileSeeds();
    s.appleSeeds();
    s.cfiSeeds();
    System.out.println("wrote " + s.written + " seeds");
  }

  // ------------------------------------------------------------------ native

  private void nativeSeeds() throws IOException {
    Path sym = dir("nativecode", "NativeFuzzTests", "symFile");
    Path table = dir("nativecode", "NativeFuzzTests", "tableBytes");
    String[] small = {
      "google-breakpad/module1.out",
      "google-breakpad/module3_bad.out",
      "google-breakpad/linux_inline/linux_inline.new.sym",
      "getsentry-symbolic/xul.sym",
      "getsentry-symbolic/libgallium_dri.sym",
      "getsentry-symbolic/extracted/func_end_1.sym"
    };
    for (String f : small) {
      byte[] b = Files.readAllBytes(fixtures.resolve("native").resolve(f));
      write(sym, name(f), b);
    }
    // a head of a real file with inline records, and the same gzipped
    byte[] inlines =
        head(fixtures.resolve("native/getsentry-symbolic/macos/crash.inlines.sym"), 3000);
    write(sym, "crash-inlines-head", inlines);
    write(
        sym,
        "module1-gzip",
        gzip(Files.readAllBytes(fixtures.resolve("native/google-breakpad/module1.out"))));
    // stored tables of the same inputs: headers and pages in each codec
    int i = 0;
    for (byte[] input :
        new byte[][] {
          Files.readAllBytes(fixtures.resolve("native/google-breakpad/module1.out")),
          Files.readAllBytes(
              fixtures.resolve("native/google-breakpad/linux_inline/linux_inline.new.sym")),
          inlines
        }) {
      for (PageCompression codec : PageCompression.values()) {
        NativeTable t =
            NativeSymbols.convert(
                new ByteArrayInputStream(input),
                NativeSymbols.Options.defaults().withPageTargetBytes(1024).withCodec(codec));
        if (codec == PageCompression.STORED) {
          write(table, "header-" + i, t.header());
        }
        int p = 0;
        for (TablePage page : t.pages()) {
          if (p++ < 2 && page.bytes().length <= MAX_SEED_BYTES) {
            write(table, "page-" + i + "-" + codec.name().toLowerCase() + "-" + p, page.bytes());
          }
        }
      }
      i++;
    }
  }

  // ------------------------------------------------------------------ js

  private void jsSeeds() throws Exception {
    Path maps = dir("js", "JsFuzzTests", "sourceMap");
    Path mappings = dir("js", "JsFuzzTests", "mappings");
    Path minified = dir("js", "JsFuzzTests", "minifiedScopes");
    Path table = dir("js", "JsFuzzTests", "tableBytes");
    Path js = fixtures.resolve("js");
    String tc39 = "tc39-source-map-tests/resources/";
    String[] small = {
      tc39 + "basic-mapping.js.map",
      tc39 + "index-map-two-concatenated-sources.js.map",
      tc39 + "index-map-invalid-overlap.js.map",
      tc39 + "ignore-list-out-of-bounds-1.js.map",
      tc39 + "valid-mapping-boundary-values.js.map",
      tc39 + "vlq-valid-continuation-bit-present-1.js.map",
      tc39 + "sources-null-sources-content-non-null.js.map",
      tc39 + "transitive-mapping.js.map",
      "mozilla-source-map/testMap.js.map",
      "mozilla-source-map/issue72-duplicate-sources.js.map",
      "getsentry-symbolicator/01_sourcemap_expansion/test.min.js.map",
      "getsentry-symbolicator/09_webpack/test1.min.js.map"
    };
    for (String f : small) {
      byte[] b = Files.readAllBytes(js.resolve(f));
      write(maps, name(f), b);
      JsonNode m = JSON.readTree(b);
      for (JsonNode mm :
          m.has("sections") ? m.findValues("mappings") : List.of(m.path("mappings"))) {
        if (mm.isTextual() && !mm.asText().isEmpty()) {
          write(
              mappings,
              name(f) + "-" + Integer.toHexString(mm.asText().hashCode()),
              mm.asText().getBytes(StandardCharsets.US_ASCII));
        }
      }
    }
    // the XSSI prefix some servers put before a map
    byte[] basic = Files.readAllBytes(js.resolve(tc39 + "basic-mapping.js.map"));
    write(maps, "xssi-prefix", concat(")]}'\n".getBytes(StandardCharsets.US_ASCII), basic));
    write(maps, "basic-gzip", gzip(basic));
    // minified sources and their maps: scopes, and tables with every page kind
    String[][] pairs = {
      {
        "getsentry-symbolicator/01_sourcemap_expansion/test.min.js",
        "getsentry-symbolicator/01_sourcemap_expansion/test.min.js.map"
      },
      {
        "getsentry-symbolicator/09_webpack/test1.min.js",
        "getsentry-symbolicator/09_webpack/test1.min.js.map"
      },
      {"mozilla-source-map/min.js", "mozilla-source-map/testMap.js.map"}
    };
    int i = 0;
    for (String[] pair : pairs) {
      byte[] src = Files.readAllBytes(js.resolve(pair[0]));
      write(minified, name(pair[0]), src);
      SourceMap map = new SourceMapParser().parse(Files.readAllBytes(js.resolve(pair[1])));
      JsTable t = new JsTableBuilder(4).build(map, new String(src, StandardCharsets.UTF_8));
      write(table, "header-" + i, t.header());
      int p = 0;
      for (TablePage page : t.pages()) {
        if (p++ < 4 && page.bytes().length <= MAX_SEED_BYTES) {
          write(table, "page-" + i + "-" + (char) page.bytes()[0] + "-" + p, page.bytes());
        }
      }
      i++;
    }
  }

  // ------------------------------------------------------------------ jvm

  private void jvmSeeds() throws IOException {
    Path mapping = dir("jvm", "JvmFuzzTests", "mapping");
    Path trace = dir("jvm", "JvmFuzzTests", "stackTrace");
    Path table = dir("jvm", "JvmFuzzTests", "tableBytes");
    Path jvm = fixtures.resolve("jvm");
    String x = "getsentry-rust-proguard/extracted/";
    String[] small = {
      x + "test_remap.mapping.txt",
      x + "ambiguous_inline_frames_mapping.mapping.txt",
      x + "inline_source_file_mapping.mapping.txt",
      x + "moved_synthetized_info_mapping.mapping.txt",
      x + "synthetic_lambda_method_mapping.mapping.txt",
      x + "test_remap_kotlin.mapping.txt",
      "getsentry-rust-proguard/mapping-rewrite-complex.txt",
      "getsentry-rust-proguard/mapping-r8-symbolicated_file_names.txt",
      "getsentry-symbolicator/resolving_inline/proguard.txt"
    };
    int i = 0;
    for (String f : small) {
      byte[] b = Files.readAllBytes(jvm.resolve(f));
      write(mapping, name(f), b);
      if (i < 4) {
        JvmTable t = JvmTableBuilder.build(MappingParser.parse(b));
        write(table, "header-" + i, t.header());
        write(table, "page-" + i, t.pages().get(0).bytes());
        byte[] file = JvmTableFile.toBytes(t);
        if (file.length <= MAX_SEED_BYTES) {
          write(table, "file-" + i, file);
        }
      }
      i++;
    }
    write(
        mapping,
        "mapping-inlines-head",
        head(jvm.resolve("getsentry-rust-proguard/mapping-inlines.txt"), 3000));
    write(
        mapping,
        "mapping-zero-line-info-head",
        head(jvm.resolve("getsentry-rust-proguard/mapping-zero-line-info.txt"), 3000));
    // stack traces of the peer cases (retraced against the target's own small mapping)
    JsonNode cases = JSON.readTree(jvm.resolve("cases.json").toFile());
    int n = 0;
    for (JsonNode c : cases.path("cases")) {
      if (c.path("kind").asText().equals("stacktrace") && n < 8) {
        byte[] b = c.path("input").asText().getBytes(StandardCharsets.UTF_8);
        if (b.length <= MAX_SEED_BYTES) {
          write(trace, c.path("id").asText(), b);
          n++;
        }
      }
    }
  }

  // ------------------------------------------------------------------ minidump

  private void minidumpSeeds() throws IOException {
    Path dumps = dir("minidump", "MinidumpFuzzTests", "dump");
    Path md = fixtures.resolve("minidump");
    // two tiny broken dumps whole, and the heads of small real ones (header, directory and the
    // first streams; the reader answers a cut stream with its exception or skips it)
    for (String f :
        new String[] {
          "rust-minidump/testdata/invalid-record-count.dmp",
          "rust-minidump/testdata/invalid-range.dmp"
        }) {
      write(dumps, name(f), Files.readAllBytes(md.resolve(f)));
    }
    // two whole small dumps that read and walk (x86 Windows, amd64 Linux)
    for (String f :
        new String[] {
          "breakpad/src/processor/testdata/minidump2.dmp",
          "breakpad/src/processor/testdata/linux_inline.dmp"
        }) {
      byte[] b = Files.readAllBytes(md.resolve(f));
      if (b.length > MAX_DUMP_SEED_BYTES) {
        throw new IllegalStateException(
            f + " is " + b.length + " bytes, over " + MAX_DUMP_SEED_BYTES);
      }
      Files.write(dumps.resolve("seed-breakpad-" + name(f)), b);
      written++;
    }
    for (String f :
        new String[] {
          "breakpad/src/processor/testdata/minidump2.dmp",
          "breakpad/src/processor/testdata/linux_inline.dmp",
          "rust-minidump/testdata/simple-crashpad.dmp",
          "symbolicator/tests/fixtures/macos.dmp",
          "symbolicator/tests/fixtures/windows.dmp",
          "symbolicator/tests/fixtures/linux.dmp"
        }) {
      byte[] b = Files.readAllBytes(md.resolve(f));
      String n =
          f.substring(f.indexOf('/') + 1).startsWith("src") ? "breakpad-" + name(f) : name(f);
      write(dumps, n + "-head", Arrays.copyOf(b, Math.min(b.length, MAX_SEED_BYTES)));
    }
  }

  // ------------------------------------------------------------------ symbfile

  private void symbfileSeeds() throws IOException {
    Path out = dir("symbfile", "SymbfileFuzzTests", "symbfile");
    byte[] peer =
        Files.readAllBytes(
            fixtures.resolve(
                "symbfile/otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile"));
    write(out, "inline-no-tco-ranges", peer);
    write(out, "inline-no-tco-ranges-gzip", gzip(peer));
    // .sym files with inline records and lines, written as symbfiles by the test writer
    for (String f :
        new String[] {
          "google-breakpad/module1.out", "google-breakpad/linux_inline/linux_inline.new.sym"
        }) {
      byte[] sym = Files.readAllBytes(fixtures.resolve("native").resolve(f));
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      SymToSymbfile.convert(new ByteArrayInputStream(sym), b);
      if (b.size() <= MAX_SEED_BYTES) {
        write(out, name(f) + "-symbfile", b.toByteArray());
      }
    }
  }

  // ------------------------------------------------------------------ apple

  private void appleSeeds() throws IOException {
    Path out = dir("apple", "AppleFuzzTests", "report");
    Path apple = fixtures.resolve("apple-crash");
    write(
        out,
        "xcode16",
        Files.readAllBytes(apple.resolve("apple-crash-report-parser/tests/fixtures/xcode16.txt")));
    write(out, "UmengDemo", Files.readAllBytes(apple.resolve("SYM/SYMTests/UmengDemo.crash")));
    for (String f :
        new String[] {
          "apple-crash-report-parser/tests/fixtures/handcrafted.txt",
          "apple-crash-report-parser/tests/fixtures/spaces.txt",
          "symbolicator/tests/fixtures/apple_crash_report.txt"
        }) {
      write(out, name(f) + "-head", head(apple.resolve(f), 3500));
    }
    // an .ips cut down to its first thread's first frames and the images they name
    String ips =
        Files.readString(apple.resolve("SYM/SYMTests/AppleJson.ips"), StandardCharsets.UTF_8);
    int nl = ips.indexOf('\n');
    ObjectNode body = (ObjectNode) JSON.readTree(ips.substring(nl + 1));
    body.retain(
        "incident",
        "bug_type",
        "osVersion",
        "modelCode",
        "cpuType",
        "procName",
        "procPath",
        "pid",
        "captureTime",
        "exception",
        "faultingThread",
        "threads",
        "usedImages");
    ArrayNode threads = (ArrayNode) body.path("threads");
    while (threads.size() > 2) { // the main thread and the faulting one (1)
      threads.remove(threads.size() - 1);
    }
    for (JsonNode t : threads) {
      ArrayNode frames = (ArrayNode) t.path("frames");
      while (frames.size() > 3) {
        frames.remove(frames.size() - 1);
      }
    }
    ArrayNode images = (ArrayNode) body.path("usedImages");
    while (images.size() > 5) {
      images.remove(images.size() - 1);
    }
    write(
        out,
        "AppleJson-ips-cut",
        (ips.substring(0, nl + 1) + JSON.writeValueAsString(body))
            .getBytes(StandardCharsets.UTF_8));
  }

  // ------------------------------------------------------------------ files

  // ------------------------------------------------------------------ cfi

  /**
   * Unwind sections of the peers' ELF and Mach-O fixtures behind the target's header bytes:
   * {@code ehFrame} takes the machine and the section address, {@code compactUnwind} the machine
   * and the length of {@code __unwind_info} (followed by the head of {@code __eh_frame}).
   */
  private void cfiSeeds() throws IOException {
    Path eh = dir("cfi", "CfiFuzzTests", "ehFrame");
    Path compact = dir("cfi", "CfiFuzzTests", "compactUnwind");
    Path difs = fixtures.resolve("difs");
    Object[][] elfs = {
      {"basic-full-eh_frame", "mozilla-dump_syms/linux/basic.full", 1, 4096},
      {"cfi_test-arm64-eh_frame", "getsentry-symbolic/testutils/linux/arm64/cfi_test", 3, 4096},
      {"crash-eh_frame-head", "getsentry-symbolic/testutils/linux/crash", 1, 4000}
    };
    for (Object[] e : elfs) {
      Section s = ElfFile.open(difs.resolve((String) e[1])).section(".eh_frame").orElseThrow();
      byte[] bytes = sectionBytes(s, (Integer) e[3]);
      ByteBuffer head = ByteBuffer.allocate(5).order(ByteOrder.LITTLE_ENDIAN);
      head.put((byte) (int) (Integer) e[2]).putInt((int) s.address());
      write(eh, (String) e[0], concat(head.array(), bytes));
    }
    MachOFile macho =
        MachOFile.open(difs.resolve("getsentry-symbolic/testutils/macos/crash"), null);
    byte[] info = sectionBytes(macho.section("__unwind_info").orElseThrow(), MAX_SEED_BYTES);
    byte[] frames = sectionBytes(macho.section(".eh_frame").orElseThrow(), MAX_SEED_BYTES);
    ByteBuffer head = ByteBuffer.allocate(3).order(ByteOrder.LITTLE_ENDIAN);
    head.put((byte) 0).putShort((short) info.length);
    byte[] seed = concat(head.array(), info);
    write(
        compact,
        "macos-crash-head",
        concat(seed, Arrays.copyOf(frames, MAX_SEED_BYTES - seed.length)));
  }

  private static byte[] sectionBytes(Section s, int max) {
    byte[] b = new byte[Math.min(max, s.size())];
    s.data().duplicate().get(b);
    return b;
  }

  private Path dir(String pkg, String cls, String target) throws IOException {
    Path d =
        resources
            .resolve("io/symbolicate/symbols")
            .resolve(pkg)
            .resolve(cls + "Inputs")
            .resolve(target);
    Files.createDirectories(d);
    try (Stream<Path> old = Files.list(d)) {
      for (Path p : (Iterable<Path>) old::iterator) {
        if (p.getFileName().toString().startsWith("seed-")) {
          Files.delete(p);
        }
      }
    }
    return d;
  }

  private void write(Path dir, String name, byte[] bytes) throws IOException {
    if (bytes.length > MAX_SEED_BYTES) {
      throw new IllegalStateException(
          name + " is " + bytes.length + " bytes, over " + MAX_SEED_BYTES);
    }
    Files.write(dir.resolve("seed-" + name), bytes);
    written++;
  }

  private static String name(String path) {
    String f = path.substring(path.lastIndexOf('/') + 1);
    return f.replace(".mapping.txt", "")
        .replace(".js.map", "")
        .replace(".sym", "")
        .replace(".out", "")
        .replace(".txt", "")
        .replace(".js", "")
        .replace(".dmp", "")
        .replace(".crash", "")
        .replace('.', '-');
  }

  /** The first lines of a file, at most {@code max} bytes. */
  private static byte[] head(Path file, int max) throws IOException {
    byte[] b = Files.readAllBytes(file);
    int end = Math.min(b.length, max);
    while (end > 0 && end < b.length && b[end - 1] != '\n') {
      end--;
    }
    return Arrays.copyOf(b, end);
  }

  private static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
      gz.write(b);
    }
    return bos.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
