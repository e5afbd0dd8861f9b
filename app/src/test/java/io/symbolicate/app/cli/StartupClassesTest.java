package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-shot commands start fast because they load only what they use: run each in a child JVM
 * that logs every class it loads, and fail when one comes from the pipeline's server side (Kafka,
 * Jetty, RocksDB, the AWS SDK), as happened while picocli built every command's model at start.
 */
class StartupClassesTest {
  private static final Path TESTDATA =
      SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");

  /** Packages of the jars a one-shot command must not touch. */
  private static final List<String> SERVER_SIDE =
      List.of("org.apache.kafka.", "org.eclipse.jetty.", "org.rocksdb.", "software.amazon.awssdk.");

  private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)");

  @Test
  void minidumpWalkLoadsNoServerClasses(@TempDir Path dir) throws Exception {
    List<String> classes =
        loaded(
            dir,
            "minidump",
            "walk",
            TESTDATA.resolve("minidump2.dmp").toString(),
            "--symbols",
            TESTDATA.resolve("symbols").toString(),
            "-m");
    assertThat(classes).contains("io.symbolicate.app.cli.MinidumpCommand$Walk");
    assertNoServerClasses(classes);
    // -m needs neither the event schema (Avro) nor Jackson's object mapper
    assertThat(classes).noneMatch(c -> c.startsWith("org.apache.avro.specific."));
    assertThat(classes).noneMatch(c -> c.startsWith("com.fasterxml.jackson.databind."));
  }

  @Test
  void nativeLookupLoadsNoServerClasses(@TempDir Path dir) throws Exception {
    Path sym =
        TESTDATA.resolve(
            "symbols/microdump/crash_example/8F36148CC4647A8116CAF2A25F591F570/crash_example.sym");
    List<String> classes = loaded(dir, "native", "lookup", "--sym", sym.toString(), "1000");
    assertThat(classes).contains("io.symbolicate.app.cli.NativeCommand$Lookup");
    assertNoServerClasses(classes);
  }

  @Test
  void dotnetLookupLoadsNoServerClasses(@TempDir Path dir) throws Exception {
    Path pdb =
        SharedFixtures.fixtures("difs")
            .resolve("getsentry-symbolic/testutils/windows/portable.pdb");
    List<String> classes = loaded(dir, "dotnet", "lookup", "--pdb", pdb.toString(), "7", "10");
    assertThat(classes).contains("io.symbolicate.app.cli.DotnetCommand$Lookup");
    assertNoServerClasses(classes);
    assertThat(classes).noneMatch(c -> c.startsWith("io.symbolicate.app.cli.NativeCommand"));
  }

  @Test
  void versionAndAppleParseLoadNoOtherCommand(@TempDir Path dir) throws Exception {
    List<String> version = loaded(dir, "--version");
    assertNoServerClasses(version);
    assertThat(version).noneMatch(c -> c.startsWith("io.symbolicate.app.cli.RunCommand"));
    Path report =
        SharedFixtures.fixtures("apple-crash")
            .resolve("apple-crash-report-parser/tests/fixtures/handcrafted.txt");
    List<String> apple = loaded(dir, "apple", "parse", report.toString());
    assertThat(apple).contains("io.symbolicate.app.cli.AppleCommand$Parse");
    assertNoServerClasses(apple);
    // the other commands' models are not built
    assertThat(apple)
        .noneMatch(c -> c.startsWith("io.symbolicate.app.cli.ServeCommand"))
        .noneMatch(c -> c.startsWith("io.symbolicate.app.cli.NativeCommand"));
  }

  @Test
  void oneShotLoggingSkipsLogbackXml(@TempDir Path dir) throws Exception {
    String[] walk = {
      "minidump",
      "walk",
      TESTDATA.resolve("minidump2.dmp").toString(),
      "--symbols",
      TESTDATA.resolve("symbols").toString(),
      "-m"
    };
    // as the launcher runs a one-shot command: logging set up in code, no XML parsed
    List<String> oneShot = loaded(dir, List.of("-Dsymbolicator.log.oneshot=true"), walk);
    assertThat(oneShot).contains("io.symbolicate.app.runtime.OneShotLogConfigurator");
    assertThat(oneShot)
        .doesNotContain("ch.qos.logback.classic.joran.JoranConfigurator")
        .noneMatch(c -> c.startsWith("com.sun.org.apache.xerces."));
    // without the mark, logback reads its XML as before (run, serve and the loader)
    List<String> plain = loaded(dir, List.of(), walk);
    assertThat(plain).contains("ch.qos.logback.classic.joran.JoranConfigurator");
  }

  private static void assertNoServerClasses(List<String> classes) {
    for (String prefix : SERVER_SIDE) {
      assertThat(classes).as("classes of " + prefix).noneMatch(c -> c.startsWith(prefix));
    }
  }

  /** The classes a child JVM loads running the CLI with these arguments (which must succeed). */
  private static List<String> loaded(Path dir, String... args) throws Exception {
    return loaded(dir, List.of(), args);
  }

  private static List<String> loaded(Path dir, List<String> jvmOptions, String... args)
      throws Exception {
    Path log = Files.createTempFile(dir, "classes", ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xshare:auto");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Xlog:class+load=info:file=" + log);
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SymbolicatorCli.class.getName());
    cmd.addAll(List.of(args));
    Path out = dir.resolve("out.txt");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the command finished").isTrue();
    assertThat(p.exitValue()).as(Files.readString(out)).isZero();
    assertThat(Files.size(out)).isPositive();
    List<String> classes = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      Matcher m = LOADED.matcher(line);
      if (m.find()) {
        classes.add(m.group(1));
      }
    }
    assertThat(classes).as("the class-load log").isNotEmpty();
    return classes;
  }
}
