package io.symbolicate.bench.runner;

import io.symbolicate.app.cli.ModuleCommand;
import io.symbolicate.app.cli.UserException;
import io.symbolicate.bench.api.ApiLoadTest;
import io.symbolicate.bench.pipeline.PipelineBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator bench pipeline}: end-to-end throughput against the embedded broker. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks.",
    subcommands = {BenchCommand.Pipeline.class, BenchCommand.Api.class})
public final class BenchCommand implements ModuleCommand {
  @Override
  public String name() {
    return "bench";
  }

  @Command(name = "pipeline", mixinStandardHelpOptions = true,
      description = {"Native events of 30 frames, warm symbols, exactly-once, on the embedded broker, against a",
          "pass-through topology over the same events and serdes in the same run (medians of --rounds).",
          "With --big-sym, also measures warm events while that file loads from S3."})
  static final class Pipeline implements Callable<Integer> {
    @Option(names = "--events", defaultValue = "20000", description = "Events per run (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--rounds", defaultValue = "3", description = "Runs of each topology (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "2",
        description = "Unmeasured runs of each topology after the first warm-up, so both are measured with a "
            + "warm JIT (default: ${DEFAULT-VALUE}).")
    int warmupRounds;

    @Option(names = "--modules", defaultValue = "8", description = "Modules per event (default: ${DEFAULT-VALUE}).")
    int modules;

    @Option(names = "--functions", defaultValue = "20000",
        description = "Functions per synthetic module (default: ${DEFAULT-VALUE}).")
    int functions;

    @Option(names = "--partitions", defaultValue = "2", description = "Input partitions (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "A setting for both topologies (as for 'run'), e.g. streams.producer.compression.type=zstd; repeatable.")
    java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();

    @Option(names = "--big-sym", paramLabel = "FILE",
        description = "A large .sym (e.g. ceph-osd.sym from ../shared/bench/native-sym.sh) for the loading phase.")
    Path bigSym;

    @Option(names = "--load-events", defaultValue = "300000",
        description = "Warm events sent during the loading phase; enough to outlast the load, so the "
            + "window covers its publishing too (default: ${DEFAULT-VALUE}).")
    int loadEvents;

    @Option(names = "--load-warmups", defaultValue = "0",
        description = "Unmeasured loads of the --big-sym file (under other debug ids) before the measured one, so "
            + "the loader's code is JIT-compiled for real files as in an instance that has loaded some "
            + "(default: ${DEFAULT-VALUE}: the measured load is the process's first real file).")
    int loadWarmups;

    @Option(names = "--broker", defaultValue = "in-process", paramLabel = "in-process|child",
        description = "Where the embedded broker runs: in this JVM, or in a child JVM of its own (its heap, "
            + "collector and JIT apart from the app's, as in a deployment; it still shares this machine's cores) "
            + "(default: ${DEFAULT-VALUE}).")
    String broker;

    @Override
    public Integer call() throws Exception {
      if (!broker.equals("in-process") && !broker.equals("child")) {
        throw new UserException("--broker must be in-process or child, not " + broker);
      }
      if (bigSym != null && !Files.isRegularFile(bigSym)) {
        throw new UserException("no such file: " + bigSym);
      }
      if (events < 1 || rounds < 1 || modules < 1 || functions < 1 || partitions < 1) {
        throw new UserException("--events, --rounds, --modules, --functions and --partitions must be positive");
      }
      if (warmupRounds < 0 || loadWarmups < 0) {
        throw new UserException("--warmup-rounds and --load-warmups must not be negative");
      }
      try {
        io.symbolicate.app.config.AppConfig.load(null, overrides);
      } catch (io.symbolicate.app.config.AppConfig.ConfigException e) {
        throw new UserException(e.getMessage());
      }
      new PipelineBenchmark(new PipelineBenchmark.Options(events, rounds, warmupRounds, modules, functions,
          partitions, bigSym, loadEvents, loadWarmups, broker.equals("child"), overrides), System.out).run();
      return 0;
    }
  }

  @Command(name = "api", mixinStandardHelpOptions = true,
      description = {"Load test of the HTTP API from this process: starts 'serve' in a child JVM on loopback (or",
          "targets --url), warms the module, fires warm v5 requests of 10 jobs x 50 frames from --clients",
          "clients (requests/s, p50/p99), then --overload-clients clients against --max-in-flight permits",
          "(503s expected, no timeouts). Bounded by the request counts and --max-phase-seconds."})
  static final class Api implements Callable<Integer> {
    @Option(names = "--sym", paramLabel = "FILE", required = true,
        description = "A .sym file (e.g. ../bench-data/native/ceph-osd.sym, or a fixture).")
    Path sym;

    @Option(names = "--addrs", paramLabel = "FILE",
        description = "Module-relative hex addresses, one a line (e.g. ceph-osd.addrs.txt); default: FUNC starts.")
    Path addrs;

    @Option(names = "--url", paramLabel = "URL", description = "A running server instead of a child 'serve'.")
    java.net.URI url;

    @Option(names = "--clients", defaultValue = "4", description = "Warm-phase clients (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--requests", defaultValue = "2000", description = "Warm-phase requests (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--overload-clients", defaultValue = "64",
        description = "Overload-phase clients (default: ${DEFAULT-VALUE}).")
    int overloadClients;

    @Option(names = "--overload-requests", defaultValue = "2000",
        description = "Overload-phase requests (default: ${DEFAULT-VALUE}).")
    int overloadRequests;

    @Option(names = "--max-in-flight", defaultValue = "8",
        description = "http.max.in.flight of the child server (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--max-phase-seconds", defaultValue = "120",
        description = "Time bound of each phase (default: ${DEFAULT-VALUE}).")
    int maxPhaseSeconds;

    @Option(names = "--slow-headers", defaultValue = "50",
        description = "Attack phase: connections sending a header byte a second (default: ${DEFAULT-VALUE}).")
    int slowHeaders;

    @Option(names = "--slow-bodies", defaultValue = "50",
        description = "Attack phase: connections sending a body byte a second (default: ${DEFAULT-VALUE}).")
    int slowBodies;

    @Option(names = "--idle-lengths", defaultValue = "20",
        description = "Attack phase: connections announcing 4 MB and sending nothing (default: ${DEFAULT-VALUE}).")
    int idleLengths;

    @Option(names = "--attack-seconds", defaultValue = "30",
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
      if (clients < 1 || requests < 1 || overloadClients < 1 || overloadRequests < 1 || maxInFlight < 1
          || maxPhaseSeconds < 1) {
        throw new UserException("counts and --max-phase-seconds must be positive");
      }
      new ApiLoadTest(new ApiLoadTest.Options(sym, addrs, url, clients, requests, overloadClients, overloadRequests,
          maxInFlight, java.time.Duration.ofSeconds(maxPhaseSeconds), attackSeconds == 0 ? 0 : slowHeaders,
          attackSeconds == 0 ? 0 : slowBodies, attackSeconds == 0 ? 0 : idleLengths,
          java.time.Duration.ofSeconds(attackSeconds)), System.out).run();
      return 0;
    }
  }
}
