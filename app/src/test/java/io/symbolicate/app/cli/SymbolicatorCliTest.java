package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SymbolicatorCliTest {

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = SymbolicatorCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void helpListsTheCommands() {
    Run r = run("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("run", "demo", "native", "js", "jvm");
    assertThat(run("run", "--help").out()).contains("--config", "--set", "--bootstrap-servers");
  }

  @Test
  void serveNeedsASymbolSourceAndValidHttpSettings(@TempDir Path dir) {
    assertThat(run("serve", "--help").out())
        .contains("--symbols-dir", "--s3-bucket", "--port", "--cache-dir");
    Run none = run("serve");
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).contains("no symbol source").doesNotContain("\tat ");
    Run badKey =
        run(
            "serve",
            "--symbols-dir",
            dir.toString(),
            "--set",
            "http.max.in.flight=0",
            "--cache-dir",
            dir.resolve("c").toString());
    assertThat(badKey.code()).isEqualTo(2);
    assertThat(badKey.err()).contains("http.max.in.flight");
    // a wait for symbols the HTTP server's idle timeout would cut short
    Run tooLong =
        run(
            "serve",
            "--symbols-dir",
            dir.toString(),
            "--set",
            "http.request.timeout.ms=115000",
            "--cache-dir",
            dir.resolve("c").toString());
    assertThat(tooLong.code()).isEqualTo(2);
    assertThat(tooLong.err())
        .contains("http.request.timeout.ms (115000)", "http.idle.timeout.ms (30000)");
    Run notDir = run("serve", "--symbols-dir", dir.resolve("nope").toString());
    assertThat(notDir.code()).isEqualTo(2);
    assertThat(notDir.err()).contains("symbols.dir is not a directory");
  }

  @Test
  void resetExplainsABadInstantAndAnUnreachableCluster() {
    assertThat(run("--help").out()).contains("reset");
    assertThat(run("reset", "--help").out())
        .contains("--to-datetime", "--dry-run", "--allow-skipping", "--bootstrap-servers");
    Run badInstant = run("reset", "-b", "127.0.0.1:1", "--to-datetime", "yesterday");
    assertThat(badInstant.code()).isEqualTo(2);
    assertThat(badInstant.err())
        .contains("--to-datetime must be an ISO-8601 instant")
        .doesNotContain("\tat ");
    Run farAway = run("reset", "-b", "127.0.0.1:1", "--to-datetime", "+1000000000-12-31T23:59:59Z");
    assertThat(farAway.code()).isEqualTo(2);
    assertThat(farAway.err()).contains("--to-datetime must be").doesNotContain("\tat ");
    Run away = run("reset", "-b", "127.0.0.1:1", "--set", "startup.timeout.ms=1500", "--dry-run");
    assertThat(away.code()).isEqualTo(3);
    assertThat(away.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
  }

  @Test
  void cleanNamesItsOptionsAndExplainsAnUnreachableCluster() {
    assertThat(run("--help").out()).contains("clean");
    assertThat(run("clean", "--help").out())
        .contains("--dry-run", "--delete-outputs", "--discard-parked", "--bootstrap-servers");
    Run away = run("clean", "-b", "127.0.0.1:1", "--set", "startup.timeout.ms=1500", "--dry-run");
    assertThat(away.code()).isEqualTo(3);
    assertThat(away.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
  }

  @Test
  void reprocessExplainsBadArgumentsAndAnUnreachableCluster() {
    assertThat(run("--help").out()).contains("reprocess");
    assertThat(run("reprocess", "--help").out())
        .contains("--module", "--status", "--from-datetime", "--dry-run");
    Run noModule = run("reprocess", "-b", "127.0.0.1:1");
    assertThat(noModule.code()).isEqualTo(2);
    assertThat(noModule.err()).contains("--module").doesNotContain("\tat ");
    Run badStatus =
        run("reprocess", "-b", "127.0.0.1:1", "--module", "a.pdb/01", "--status", "missing,lost");
    assertThat(badStatus.code()).isEqualTo(2);
    assertThat(badStatus.err()).contains("unknown module status 'lost'").doesNotContain("\tat ");
    Run found = run("reprocess", "-b", "127.0.0.1:1", "--module", "a.pdb/01", "--status", "found");
    assertThat(found.code()).isEqualTo(2);
    assertThat(found.err()).contains("must not include found");
    Run badRate =
        run(
            "reprocess",
            "-b",
            "127.0.0.1:1",
            "--set",
            "startup.timeout.ms=1500",
            "--module",
            "a.pdb/01",
            "--max-rate",
            "-5");
    assertThat(badRate.code()).isEqualTo(2);
    assertThat(badRate.err()).contains("--max-rate must be");
    Run badInstant =
        run("reprocess", "-b", "127.0.0.1:1", "--module", "a.pdb/01", "--from-datetime", "monday");
    assertThat(badInstant.code()).isEqualTo(2);
    assertThat(badInstant.err()).contains("--from-datetime must be an ISO-8601 instant");
    Run away =
        run(
            "reprocess",
            "-b",
            "127.0.0.1:1",
            "--set",
            "startup.timeout.ms=1500",
            "--module",
            "a.pdb/01",
            "--dry-run");
    assertThat(away.code()).isEqualTo(3);
    assertThat(away.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
  }

  @Test
  void signaturesOnlyReprocessingExplainsBadArguments(@TempDir Path dir) {
    assertThat(run("reprocess", "--help").out()).contains("--signatures-only");
    Run withModule =
        run("reprocess", "-b", "127.0.0.1:1", "--signatures-only", "--module", "a.pdb/01");
    assertThat(withModule.code()).isEqualTo(2);
    assertThat(withModule.err())
        .contains("--signatures-only takes no --module")
        .doesNotContain("\tat ");
    Run badLists =
        run(
            "reprocess",
            "-b",
            "127.0.0.1:1",
            "--signatures-only",
            "--set",
            "signatures.lists.dir=" + dir.resolve("none"));
    assertThat(badLists.code()).isEqualTo(2);
    assertThat(badLists.err())
        .contains("signatures.lists.dir")
        .contains("not found")
        .doesNotContain("\tat ");
    Run away =
        run(
            "reprocess",
            "-b",
            "127.0.0.1:1",
            "--set",
            "startup.timeout.ms=1500",
            "--signatures-only",
            "--dry-run");
    assertThat(away.code()).isEqualTo(3);
    assertThat(away.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
  }

  @Test
  void aBadFlagIsAOneLineMessageNotAStackTrace() {
    Run r = run("run", "--no-such-flag");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("Unknown option: '--no-such-flag'").doesNotContain("\tat ");
  }

  @Test
  void aMissingConfigFileIsNamed(@TempDir Path dir) {
    Run r = run("run", "--config", dir.resolve("nope.properties").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("config file not found")
        .contains("nope.properties")
        .doesNotContain("\tat ");
  }

  @Test
  void missingBootstrapServersAndUnknownKeysAreExplained(@TempDir Path dir) throws Exception {
    for (String command : new String[] {"run", "loader", "reset", "clean"}) {
      Run unset = run(command);
      assertThat(unset.err()).as(command).contains("bootstrap.servers is not set");
      assertThat(unset.code()).as(command + ": a configuration error is exit 2").isEqualTo(2);
    }
    Run reprocess = run("reprocess", "--module", "a.pdb/01");
    assertThat(reprocess.err()).contains("bootstrap.servers is not set");
    assertThat(reprocess.code()).isEqualTo(2);
    Path cfg = dir.resolve("c.properties");
    Files.writeString(cfg, "bootstrap.servers=127.0.0.1:1\nmax.evnt.bytes=5\n");
    Run r = run("run", "-c", cfg.toString());
    assertThat(r.err()).contains("unknown configuration key 'max.evnt.bytes'");
    assertThat(r.code()).isEqualTo(2);
    assertThat(run("run", "-b", "x:1", "--set", "input.format=xml").err())
        .contains("input.format must be avro, json or auto");
  }

  @Test
  void badSymbolSourcesAreExplained(@TempDir Path dir) {
    assertThat(run("run", "-b", "127.0.0.1:1", "--set", "symbols.sources=s3,ftp").err())
        .contains("unknown symbol source 'ftp'");
    assertThat(run("loader", "--help").out()).contains("symbols.requests");
  }

  @Test
  void anUnreachableBrokerIsReportedClearly() {
    Run r = run("run", "-b", "127.0.0.1:1", "--set", "startup.timeout.ms=1500");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).contains("cannot reach Kafka at 127.0.0.1:1").doesNotContain("\tat ");
  }
}
