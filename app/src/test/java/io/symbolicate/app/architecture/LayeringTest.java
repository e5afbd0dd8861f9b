package io.symbolicate.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.symbolicate.app.cli.SymbolicatorCli;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/ARCHITECTURE.md, checked on the production classes of every module the
 * app is built from: a wrong import fails here with the rule it breaks.
 */
class LayeringTest {
  private static final String P = "io.symbolicate.";

  /** The engines of each platform; the native ones share the native table. */
  private static final List<List<String>> PLATFORMS =
      List.of(
          List.of(
              "nativecode",
              "minidump",
              "symbfile",
              "apple",
              "objects",
              "pdb",
              "dwarf",
              "cfi",
              "demangle",
              "dumpsyms"),
          List.of("js"),
          List.of("jvm"),
          List.of("dotnet"));

  /**
   * The one crossing allowed: .NET assemblies are PE images, so the dotnet platform reads them
   * (debug directory, CLI header) through {@code symbols.objects}; objects never uses dotnet.
   */
  private static final String DOTNET_MAY_USE = "symbols.objects";

  private static JavaClasses classes;

  @BeforeAll
  static void importProductionClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(
                location ->
                    !location.contains("-tests.jar") && !location.contains("/test-classes/"))
            .importPackages("io.symbolicate");
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }

  @Test
  void noPackageCycles() {
    check(
        slices()
            .matching("io.symbolicate.(**)")
            .namingSlices("package io.symbolicate.$1")
            .should()
            .beFreeOfCycles()
            .as("no package import cycles anywhere"));
  }

  @Test
  void theEnginesKnowNoKafkaAndNothingAboveThem() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "symbols..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "org.apache.kafka..",
                P + "symbolication..",
                P + "topology..",
                P + "connectors..",
                P + "api..",
                P + "app..",
                "software.amazon..")
            .as(
                "symbols: the engines and formats, no Kafka, no S3, nothing of the modules above them"));
  }

  @Test
  void theSchemasKnowNothingAboveThem() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "schema..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                P + "symbols..",
                P + "signatures..",
                P + "symbolication..",
                P + "topology..",
                P + "connectors..",
                P + "api..",
                P + "app..")
            .as("schemas: Avro types, serdes and topics depend on nothing of ours"));
  }

  @Test
  void platformsNeverDependOnEachOther() {
    for (String layer : List.of("symbols", "symbolication", "connectors.loader", "api")) {
      for (List<String> platform : PLATFORMS) {
        String[] own =
            platform.stream().map(p -> P + layer + "." + p + "..").toArray(String[]::new);
        String[] others =
            PLATFORMS.stream()
                .filter(o -> o != platform)
                .flatMap(List::stream)
                .filter(
                    p ->
                        !(platform.get(0).equals("dotnet")
                            && (layer + "." + p).equals(DOTNET_MAY_USE)))
                .map(p -> P + layer + "." + p + "..")
                .toArray(String[]::new);
        check(
            noClasses()
                .that()
                .resideInAnyPackage(own)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(others)
                .allowEmptyShould(true)
                .as(
                    layer
                        + ": the "
                        + platform.get(0)
                        + " platform never depends on another platform's package"));
      }
    }
  }

  @Test
  void theSignaturesKnowOnlyCrashData() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "signatures..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                P + "schema..",
                P + "symbols..",
                P + "symbolication..",
                P + "topology..",
                P + "analytics..",
                P + "connectors..",
                P + "api..",
                P + "app..",
                "org.apache.kafka..",
                "org.apache.avro..")
            .as(
                "signatures: Socorro's rules over plain crash data; nothing of ours, no Kafka, no Avro"
                    + " (symbolication maps events onto crash data)"));
  }

  @Test
  void theSymbolicationServiceKnowsNoKafka() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "symbolication..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "org.apache.kafka..",
                "org.rocksdb..",
                P + "topology..",
                P + "analytics..",
                P + "connectors..",
                P + "api..",
                P + "app..",
                "picocli..",
                "io.micrometer..",
                "com.sun.net.httpserver..",
                "org.eclipse.jetty..",
                "software.amazon..")
            .as(
                "symbolication: the service the stream and the API share (platform steps, store"
                    + " lookups, signing) knows no Kafka, RocksDB, S3, HTTP or CLI"));
  }

  @Test
  void theTopologyIsTheStreamAppOnly() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "topology..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                P + "connectors..",
                P + "api..",
                P + "app..",
                P + "analytics..",
                "picocli..",
                "io.micrometer..",
                "com.sun.net.httpserver..",
                "software.amazon..")
            .as(
                "topology: the Kafka Streams application only (no loader, HTTP, CLI, metrics registry or analytics)"));
  }

  @Test
  void theAnalyticsReadTheOutputOnly() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "analytics..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                P + "topology..",
                P + "symbolication..",
                P + "symbols..",
                P + "signatures..",
                P + "connectors..",
                P + "api..",
                P + "app..",
                "picocli..",
                "io.micrometer..",
                "com.sun.net.httpserver..",
                "software.amazon..")
            .as(
                "analytics: the top-crashers aggregation knows the output's schema and topic (schemas) and Kafka"
                    + " Streams, nothing of the pipeline's internals, HTTP or the CLI"));
  }

  @Test
  void theConnectorsKnowNeitherTheStreamNorItsServers() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "connectors..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(P + "symbolication..", P + "topology..", P + "api..", P + "app..")
            .as("connectors: symbol sources and the loader depend on schemas and symbols only"));
  }

  @Test
  void theApiKnowsNotTheApp() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "api..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(P + "app..", "picocli..")
            .as("api: the HTTP API does not reach into the app that runs it"));
  }

  @Test
  void theApiNeverDependsOnTopology() {
    check(
        noClasses()
            .that()
            .resideInAPackage(P + "api..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(P + "topology..")
            .as(
                "api: the HTTP API uses the symbolication service, never the stream's topology"
                    + " (app hands it what it needs of a running stream)"));
  }

  @Test
  void productionCodeCarriesNoTestInfrastructure() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                P + "schema..",
                P + "symbols..",
                P + "signatures..",
                P + "symbolication..",
                P + "topology..",
                P + "analytics..",
                P + "connectors..",
                P + "api..",
                P + "app..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                P + "testkit..",
                P + "demo..",
                P + "bench..",
                "kafka.server..",
                "org.apache.kafka.common.test..",
                "org.gaul..",
                "scala..")
            .as("run, serve and loader start without the test kit, the broker, Scala or s3proxy"));
    // Jetty is the HTTP server of the API and the metrics: used through api.server only
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                P + "schema..",
                P + "symbols..",
                P + "signatures..",
                P + "symbolication..",
                P + "topology..",
                P + "analytics..",
                P + "connectors..",
                P + "api..",
                P + "app..")
            .and()
            .resideOutsideOfPackage(P + "api.server..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.eclipse.jetty..")
            .as(
                "Jetty only behind the HTTP server (api.server; s3proxy's servlet Jetty stays in tests)"));
  }

  @Test
  void handlersUseOurRequestAndResponseNotTheJdkServer() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.symbolicate..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("com.sun.net.httpserver..")
            .as(
                "HTTP handlers are api.server.Handler over our Request and Response (Jetty behind"
                    + " them), never the JDK server's HttpExchange, HttpHandler or Headers"));
  }

  @Test
  void theCommandLineIsTheOnlyMain() {
    check(
        methods()
            .that()
            .haveName("main")
            .and()
            .areStatic()
            .and()
            .areDeclaredInClassesThat()
            .resideInAnyPackage(
                P + "schema..",
                P + "symbols..",
                P + "signatures..",
                P + "symbolication..",
                P + "topology..",
                P + "analytics..",
                P + "connectors..",
                P + "api..",
                P + "app..")
            .should()
            .beDeclaredIn(SymbolicatorCli.class)
            .as(
                "app's SymbolicatorCli is the only main of the production modules: every command is"
                    + " a picocli subcommand over library calls (testkit's child mains and the"
                    + " benchmarks' probes are not production code)"));
  }

  @Test
  void productionCodeLogsThroughSlf4jOnly() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.symbolicate..")
            // the one-shot commands' logging configuration is the backend's, set up in code
            .and()
            .doNotHaveFullyQualifiedName("io.symbolicate.app.runtime.OneShotLogConfigurator")
            .and()
            .doNotHaveFullyQualifiedName(
                "io.symbolicate.app.runtime.OneShotLogConfigurator$TextLayout")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "ch.qos.logback..",
                "org.slf4j.simple..",
                "org.apache.logging.log4j..",
                "org.apache.log4j..")
            .as(
                "code logs through the SLF4J API; the backend (logback, app/src/main/resources/logback.xml) is configuration"));
  }
}
