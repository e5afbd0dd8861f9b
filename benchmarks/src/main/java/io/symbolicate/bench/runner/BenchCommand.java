package io.symbolicate.bench.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.app.cli.ModuleCommand;
import io.symbolicate.app.cli.UserException;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.bench.api.ApiLoadTest;
import io.symbolicate.bench.collect.CollectorAttackBenchmark;
import io.symbolicate.bench.collect.MinidumpBenchmark;
import io.symbolicate.bench.collect.ServeChild;
import io.symbolicate.bench.minidump.StackwalkComparison;
import io.symbolicate.bench.minidump.SyntheticDump;
import io.symbolicate.bench.pipeline.PipelineBenchmark;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator bench pipeline}: end-to-end throughput against the embedded broker. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks.",
    subcommands = {
      BenchCommand.Pipeline.class,
      BenchCommand.Api.class,
      BenchCommand.Stackwalk.class,
      BenchCommand.Minidump.class,
      BenchCommand.Collector.class,
      ChaosCommand.class,
      SoakCommand.class
    })
public final class BenchCommand implements ModuleCommand {
  @Override
  public String name() {
    return "bench";
  }

  @Command(
      name = "pipeline",
      mixinStandardHelpOptions = true,
      description = {
        "Native events of 30 frames, warm symbols, exactly-once, on the embedded broker, against a",
        "pass-through topology over the same events and serdes in the same run (medians of --rounds).",
        "With --big-sym, also measures warm events while that file loads from S3."
      })
  static final class Pipeline implements Callable<Integer> {
    @Option(
        names = "--events",
        defaultValue = "20000",
        description = "Events per run (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(
        names = "--rounds",
        defaultValue = "3",
        description = "Runs of each topology (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--warmup-rounds",
        defaultValue = "2",
        description =
            "Unmeasured runs of each topology after the first warm-up, so both are measured with a "
                + "warm JIT (default: ${DEFAULT-VALUE}).")
    int warmupRounds;

    @Option(
        names = "--modules",
        defaultValue = "8",
        description = "Modules per event (default: ${DEFAULT-VALUE}).")
    int modules;

    @Option(
        names = "--functions",
        defaultValue = "20000",
        description = "Functions per synthetic module (default: ${DEFAULT-VALUE}).")
    int functions;

    @Option(
        names = "--partitions",
        defaultValue = "2",
        description = "Input partitions (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
        names = "--set",
        paramLabel = "KEY=VALUE",
        description =
            "A setting for both topologies (as for 'run'), e.g. streams.producer.compression.type=zstd; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
        names = "--big-sym",
        paramLabel = "FILE",
        description =
            "A large .sym (e.g. ceph-osd.sym from ../shared/bench/native-sym.sh) for the loading phase.")
    Path bigSym;

    @Option(
        names = "--load-events",
        defaultValue = "300000",
        description =
            "Warm events sent during the loading phase; enough to outlast the load, so the "
                + "window covers its publishing too (default: ${DEFAULT-VALUE}).")
    int loadEvents;

    @Option(
        names = "--load-warmups",
        defaultValue = "0",
        description =
            "Unmeasured loads of the --big-sym file (under other debug ids) before the measured one, so "
                + "the loader's code is JIT-compiled for real files as in an instance that has loaded some "
                + "(default: ${DEFAULT-VALUE}: the measured load is the process's first real file).")
    int loadWarmups;

    @Option(
        names = "--broker",
        defaultValue = "in-process",
        paramLabel = "in-process|child",
        description =
            "Where the embedded broker runs: in this JVM, or in a child JVM of its own (its heap, "
                + "collector and JIT apart from the app's, as in a deployment; it still shares this machine's cores) "
                + "(default: ${DEFAULT-VALUE}).")
    String broker;

    @Option(
        names = "--aggregate",
        description =
            "Instead of the pass-through, measure the top-crashers aggregation over each symbolicator "
                + "run's output, in the same rounds (ratio aggregation / symbolicator, target >= 1).")
    boolean aggregate;

    @Override
    public Integer call() throws Exception {
      if (!broker.equals("in-process") && !broker.equals("child")) {
        throw new UserException("--broker must be in-process or child, not " + broker);
      }
      if (bigSym != null && !Files.isRegularFile(bigSym)) {
        throw new UserException("no such file: " + bigSym);
      }
      if (events < 1 || rounds < 1 || modules < 1 || functions < 1 || partitions < 1) {
        throw new UserException(
            "--events, --rounds, --modules, --functions and --partitions must be positive");
      }
      if (warmupRounds < 0 || loadWarmups < 0) {
        throw new UserException("--warmup-rounds and --load-warmups must not be negative");
      }
      try {
        AppConfig.load(null, overrides);
      } catch (AppConfig.ConfigException e) {
        throw new UserException(e.getMessage());
      }
      new PipelineBenchmark(
              new PipelineBenchmark.Options(
                  events,
                  rounds,
                  warmupRounds,
                  modules,
                  functions,
                  partitions,
                  bigSym,
                  loadEvents,
                  loadWarmups,
                  broker.equals("child"),
                  overrides,
                  aggregate),
              System.out)
          .run();
      return 0;
    }
  }

  @Command(
      name = "api",
      mixinStandardHelpOptions = true,
      description = {
        "Load test of the HTTP API from this process: starts 'serve' in a child JVM on loopback (or",
        "targets --url), warms the module, fires warm v5 requests of 10 jobs x 50 frames from --clients",
        "clients (requests/s, p50/p99), then --overload-clients clients against --max-in-flight permits",
        "(503s expected, no timeouts). Bounded by the request counts and --max-phase-seconds."
      })
  static final class Api implements Callable<Integer> {
    @Option(
        names = "--sym",
        paramLabel = "FILE",
        required = true,
        description = "A .sym file (e.g. ../bench-data/native/ceph-osd.sym, or a fixture).")
    Path sym;

    @Option(
        names = "--addrs",
        paramLabel = "FILE",
        description =
            "Module-relative hex addresses, one a line (e.g. ceph-osd.addrs.txt); default: FUNC starts.")
    Path addrs;

    @Option(
        names = "--url",
        paramLabel = "URL",
        description = "A running server instead of a child 'serve'.")
    URI url;

    @Option(
        names = "--clients",
        defaultValue = "4",
        description = "Warm-phase clients (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        names = "--requests",
        defaultValue = "2000",
        description = "Warm-phase requests (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
        names = "--overload-clients",
        defaultValue = "64",
        description = "Overload-phase clients (default: ${DEFAULT-VALUE}).")
    int overloadClients;

    @Option(
        names = "--overload-requests",
        defaultValue = "2000",
        description = "Overload-phase requests (default: ${DEFAULT-VALUE}).")
    int overloadRequests;

    @Option(
        names = "--max-in-flight",
        defaultValue = "8",
        description = "http.max.in.flight of the child server (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(
        names = "--max-phase-seconds",
        defaultValue = "120",
        description = "Time bound of each phase (default: ${DEFAULT-VALUE}).")
    int maxPhaseSeconds;

    @Option(
        names = "--slow-headers",
        defaultValue = "50",
        description =
            "Attack phase: connections sending a header byte a second (default: ${DEFAULT-VALUE}).")
    int slowHeaders;

    @Option(
        names = "--slow-bodies",
        defaultValue = "50",
        description =
            "Attack phase: connections sending a body byte a second (default: ${DEFAULT-VALUE}).")
    int slowBodies;

    @Option(
        names = "--idle-lengths",
        defaultValue = "20",
        description =
            "Attack phase: connections announcing 4 MB and sending nothing (default: ${DEFAULT-VALUE}).")
    int idleLengths;

    @Option(
        names = "--attack-seconds",
        defaultValue = "30",
        description = "Length of the attack phase; 0 skips it (default: ${DEFAULT-VALUE}).")
    int attackSeconds;

    @Override
    public Integer call() throws Exception {
      if (slowHeaders < 0 || slowBodies < 0 || idleLengths < 0 || attackSeconds < 0) {
        throw new UserException("attacker counts and --attack-seconds must not be negative");
      }
      if (!Files.isRegularFile(sym) || addrs != null && !Files.isRegularFile(addrs)) {
        throw new UserException("no such file: " + (Files.isRegularFile(sym) ? addrs : sym));
      }
      if (clients < 1
          || requests < 1
          || overloadClients < 1
          || overloadRequests < 1
          || maxInFlight < 1
          || maxPhaseSeconds < 1) {
        throw new UserException("counts and --max-phase-seconds must be positive");
      }
      new ApiLoadTest(
              new ApiLoadTest.Options(
                  sym,
                  addrs,
                  url,
                  clients,
                  requests,
                  overloadClients,
                  overloadRequests,
                  maxInFlight,
                  Duration.ofSeconds(maxPhaseSeconds),
                  attackSeconds == 0 ? 0 : slowHeaders,
                  attackSeconds == 0 ? 0 : slowBodies,
                  attackSeconds == 0 ? 0 : idleLengths,
                  Duration.ofSeconds(attackSeconds)),
              System.out)
          .run();
      return 0;
    }
  }

  @Command(
      name = "stackwalk",
      mixinStandardHelpOptions = true,
      description = {
        "Per dump: Breakpad's minidump_stackwalk -m process against our walk of the same dump with",
        "the same symbols and warm tables, in the same run (medians of --rounds; both -m outputs compared).",
        "Cases: every dump of the generated corpus (../shared/bench/minidumps.sh DIR) and SyntheticDump",
        "(30 frames over 12 modules, written with its symbols under DIR's sibling 'target' folder)."
      })
  static final class Stackwalk implements Callable<Integer> {
    @Option(
        names = "--corpus",
        defaultValue = "../bench-data/minidump",
        paramLabel = "DIR",
        description =
            "The generated corpus, with cases.json, symbols/ and tools/ (default: ${DEFAULT-VALUE}).")
    Path corpus;

    @Option(
        names = "--tool",
        paramLabel = "FILE",
        description = "Breakpad's minidump_stackwalk (default: DIR/tools/minidump_stackwalk).")
    Path tool;

    @Option(
        names = "--rounds",
        defaultValue = "5",
        description = "Rounds a case (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--round-millis",
        defaultValue = "500",
        description = "Time of our walks in a round (default: ${DEFAULT-VALUE}).")
    long roundMillis;

    @Option(
        names = "--warmup-millis",
        defaultValue = "2000",
        description = "Unmeasured walks of a case before its rounds (default: ${DEFAULT-VALUE}).")
    long warmupMillis;

    @Option(
        names = "--case",
        paramLabel = "NAME",
        description = "Only these cases (repeatable; 'generated' is SyntheticDump).")
    List<String> only;

    @Override
    public Integer call() throws Exception {
      Path cases = corpus.resolve("cases.json");
      if (!Files.isRegularFile(cases)) {
        throw new UserException(
            "no generated corpus at " + corpus + ": run ../shared/bench/minidumps.sh " + corpus);
      }
      Path exe = tool != null ? tool : corpus.resolve("tools/minidump_stackwalk");
      if (!Files.isExecutable(exe)) {
        throw new UserException("not an executable: " + exe);
      }
      if (rounds < 1 || roundMillis < 1 || warmupMillis < 0) {
        throw new UserException(
            "--rounds and --round-millis must be positive, --warmup-millis not negative");
      }
      List<StackwalkComparison.Case> list = new ArrayList<>();
      for (var c : new ObjectMapper().readTree(cases.toFile()).get("cases")) {
        String name = c.get("name").asText();
        if (only == null || only.contains(name)) {
          list.add(
              new StackwalkComparison.Case(
                  name,
                  corpus.resolve(c.get("dump").asText()),
                  corpus.resolve(c.get("symbols").asText())));
        }
      }
      if (only == null || only.contains("generated")) {
        Path dir = Path.of("target", "synthetic-dump");
        list.add(
            new StackwalkComparison.Case(
                "generated", SyntheticDump.writeTo(dir), dir.resolve("symbols")));
      }
      if (list.isEmpty()) {
        throw new UserException("no such case: " + only);
      }
      new StackwalkComparison(
              new StackwalkComparison.Options(exe, list, rounds, roundMillis, warmupMillis),
              System.out)
          .run();
      return 0;
    }
  }

  @Command(
      name = "minidump",
      mixinStandardHelpOptions = true,
      description = {
        "Generated dumps (SyntheticDump: 12 modules, 30 CFI frames, a --stack-bytes stack; ~100 KB)",
        "uploaded to the collector's POST /submit on the embedded broker and S3 server: the collector alone",
        "(upload, store in S3, write the event: the baseline) and collector plus stream (walk with warm",
        "symbols) take turns at full speed, then the whole path is paced at --paced-fraction of the",
        "baseline; dumps/s and p50/p99 from upload start to the event on the output (read_committed),",
        "medians of --runs."
      })
  static final class Minidump implements Callable<Integer> {
    @Option(
        names = "--dumps",
        defaultValue = "150",
        description = "Dumps per phase of a run (default: ${DEFAULT-VALUE}).")
    int dumps;

    @Option(
        names = "--warmup-dumps",
        defaultValue = "100",
        description =
            "Unmeasured dumps before each app's runs, so symbols are loaded and the JIT warm "
                + "(default: ${DEFAULT-VALUE}).")
    int warmupDumps;

    @Option(
        names = "--runs",
        defaultValue = "5",
        description = "Runs of each phase (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(
        names = "--clients",
        defaultValue = "8",
        description = "Concurrent uploads in the full-speed phases (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        names = "--stack-bytes",
        defaultValue = "98304",
        description =
            "The crashed thread's stack in each dump; 96 KB makes a dump of about 100 KB (default: ${DEFAULT-VALUE}).")
    int stackBytes;

    @Option(
        names = "--partitions",
        defaultValue = "2",
        description = "Topic partitions (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
        names = "--paced-fraction",
        defaultValue = "0.5",
        description =
            "The paced phase's rate, as a fraction of the collector alone's (default: ${DEFAULT-VALUE}).")
    double pacedFraction;

    @Option(
        names = "--max-phase-seconds",
        defaultValue = "300",
        description = "Time bound of each phase (default: ${DEFAULT-VALUE}).")
    int maxPhaseSeconds;

    @Option(
        names = "--set",
        paramLabel = "KEY=VALUE",
        description =
            "A setting for both apps (as for 'run'), e.g. streams.commit.interval.ms=1000; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
      if (dumps < 1
          || runs < 1
          || clients < 1
          || partitions < 1
          || maxPhaseSeconds < 1
          || warmupDumps < 1) {
        throw new UserException(
            "--dumps, --warmup-dumps, --runs, --clients, --partitions and --max-phase-seconds must be positive");
      }
      if (!(pacedFraction > 0 && pacedFraction <= 1)) {
        throw new UserException("--paced-fraction must be in (0, 1]");
      }
      if (stackBytes < 4096 || stackBytes > SyntheticDump.MAX_STACK_SIZE || stackBytes % 16 != 0) {
        throw new UserException(
            "--stack-bytes must be a multiple of 16 from 4096 to " + SyntheticDump.MAX_STACK_SIZE);
      }
      try {
        AppConfig.load(null, overrides); // an unknown key or a bad value: refused here
      } catch (AppConfig.ConfigException e) {
        throw new UserException(e.getMessage());
      }
      new MinidumpBenchmark(
              new MinidumpBenchmark.Options(
                  dumps,
                  warmupDumps,
                  runs,
                  clients,
                  stackBytes,
                  partitions,
                  pacedFraction,
                  Duration.ofSeconds(maxPhaseSeconds),
                  overrides),
              System.out)
          .run();
      return 0;
    }
  }

  @Command(
      name = "collector",
      mixinStandardHelpOptions = true,
      description = {
        "Issue 43's attack phase: serve (in a child JVM by default, see --server; on the embedded broker",
        "and S3 server, which stay in this JVM) with the collector, the upload routes and metrics.port;",
        "per run, --slow-senders over-limit POST /submit senders trickling bytes, --idle idle",
        "connections and --uploads-per-scope concurrent Breakpad uploads in each of --scopes scopes",
        "beside --reporters normal crash reporters, /health sampled every 50 ms: report statuses and",
        "p99, /health p99 and max, 500s, uploads without an answer, staging files left; medians and",
        "ranges of --runs."
      })
  static final class Collector implements Callable<Integer> {
    @Option(names = "--runs", defaultValue = "5", description = "Runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(
        names = "--warmup-runs",
        defaultValue = "1",
        description =
            "Whole attack runs before the measured ones, not counted: the server's JIT warms up "
                + "under the attack's mix (default: ${DEFAULT-VALUE}).")
    int warmupRuns;

    @Option(
        names = "--seconds",
        defaultValue = "20",
        description = "The normal reporters' time in each run (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(
        names = "--reporters",
        defaultValue = "4",
        description = "Normal crash reporters (default: ${DEFAULT-VALUE}).")
    int reporters;

    @Option(
        names = "--slow-senders",
        defaultValue = "100",
        description = "Slow over-limit /submit senders (default: ${DEFAULT-VALUE}).")
    int slowSenders;

    @Option(
        names = "--idle",
        defaultValue = "100",
        description = "Idle connections (default: ${DEFAULT-VALUE}).")
    int idle;

    @Option(
        names = "--scopes",
        defaultValue = "5",
        description = "Scopes uploading (default: ${DEFAULT-VALUE}).")
    int scopes;

    @Option(
        names = "--uploads-per-scope",
        defaultValue = "20",
        description = "Concurrent uploads in each scope (default: ${DEFAULT-VALUE}).")
    int uploadsPerScope;

    @Option(
        names = "--set",
        paramLabel = "KEY=VALUE",
        description = "A setting for serve, after the benchmark's own; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
        names = "--server",
        defaultValue = "child",
        paramLabel = "child|in-process",
        description =
            "Where serve runs: in a child JVM of its own (its heap, collector and JIT apart from the "
                + "clients', as in a deployment; the machine's cores are still shared), or in this JVM "
                + "beside the clients (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(
        names = "--server-jvm-options",
        paramLabel = "OPTIONS",
        description =
            "The child's heap and collector options, space-separated (default: deploy/base/serve.yaml's "
                + "JAVA_OPTS and -XX:+ExitOnOutOfMemoryError: \"-Xmx1g -XX:-G1UseAdaptiveIHOP "
                + "-XX:InitiatingHeapOccupancyPercent=75 -XX:+ExitOnOutOfMemoryError\").")
    String serverJvmOptions;

    @Option(
        names = "--log-dir",
        defaultValue = "target/bench-collector",
        paramLabel = "DIR",
        description =
            "Where the child's log (serve-<time>.log, stdout and stderr, at info) and its GC log "
                + "(serve-<time>-gc.log) go (default: ${DEFAULT-VALUE}).")
    Path logDir;

    @Override
    public Integer call() throws Exception {
      if (!server.equals("child") && !server.equals("in-process")) {
        throw new UserException("--server must be child or in-process, not " + server);
      }
      if (runs < 1 || seconds < 1 || reporters < 1 || scopes < 1) {
        throw new UserException("--runs, --seconds, --reporters and --scopes must be positive");
      }
      if (warmupRuns < 0) {
        throw new UserException("--warmup-runs must not be negative");
      }
      if (slowSenders < 0 || idle < 0 || uploadsPerScope < 0) {
        throw new UserException(
            "--slow-senders, --idle and --uploads-per-scope must not be negative");
      }
      try {
        AppConfig.load(null, overrides);
      } catch (AppConfig.ConfigException e) {
        throw new UserException(e.getMessage());
      }
      new CollectorAttackBenchmark(
              new CollectorAttackBenchmark.Options(
                  runs,
                  warmupRuns,
                  Duration.ofSeconds(seconds),
                  reporters,
                  slowSenders,
                  idle,
                  scopes,
                  uploadsPerScope,
                  overrides,
                  server.equals("child"),
                  serverJvmOptions == null || serverJvmOptions.isBlank()
                      ? ServeChild.DEPLOYMENT_JVM_OPTIONS
                      : List.of(serverJvmOptions.strip().split("\\s+")),
                  logDir),
              System.out)
          .run();
      return 0;
    }
  }
}
