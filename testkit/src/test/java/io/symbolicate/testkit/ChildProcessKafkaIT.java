package io.symbolicate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The child-process broker: stopped, killed and restarted on the same port, keeping its data. */
class ChildProcessKafkaIT {

  @Test
  void restartsOnTheSamePortAfterSigtermAndSigkillWithItsData() throws Exception {
    Path dir;
    long lastPid;
    try (ChildProcessKafka kafka = ChildProcessKafka.start()) {
      dir = kafka.directory();
      String bootstrap = kafka.bootstrapServers();
      assertThat(bootstrap).isEqualTo("127.0.0.1:" + kafka.port());
      assertThat(kafka.port())
          .as("below the ephemeral range")
          .isLessThan(ChildProcessKafka.ephemeralLow());
      assertOnlyLoopback(kafka.port());
      kafka.createTopics(2, "t");
      produce(bootstrap, "a-", 50);
      long cpu = kafka.brokerCpuNanos();
      assertThat(cpu).as("the broker JVM's CPU so far").isPositive();
      produce(bootstrap, "a2-", 50);
      assertThat(kafka.brokerCpuNanos()).as("grows as it works").isGreaterThanOrEqualTo(cpu);

      assertThat(kafka.stop(Duration.ofSeconds(30))).as("SIGTERM: exit 128+15").isEqualTo(143);
      assertThat(kafka.isRunning()).isFalse();
      assertThat(kafka.brokerCpuNanos()).as("not running: unknown").isEqualTo(-1);
      assertThatThrownBy(() -> new Socket("127.0.0.1", kafka.port()).close())
          .isInstanceOf(IOException.class);

      kafka.restart();
      assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
      produce(bootstrap, "b-", 50);

      assertThat(kafka.kill()).as("SIGKILL: exit 128+9").isEqualTo(137);
      kafka.restart();
      produce(bootstrap, "c-", 50);
      assertThat(kafka.starts()).isEqualTo(3);

      List<String> all = consumeAll(bootstrap, 200);
      assertThat(all).hasSize(200).doesNotHaveDuplicates();
      assertThat(all).filteredOn(v -> v.startsWith("a-")).hasSize(50);
      assertThat(all).filteredOn(v -> v.startsWith("b-")).hasSize(50);
      lastPid = kafka.pid();
    }
    assertThat(ProcessHandle.of(lastPid).map(ProcessHandle::isAlive).orElse(false))
        .as("killed on close")
        .isFalse();
    assertThat(Files.exists(dir)).as("directory removed").isFalse();
  }

  /** A benchmark's broker runs with the JVM options it is given, not the tests' small C1-only JVM. */
  @Test
  void theBrokerJvmGetsTheGivenOptions() throws Exception {
    try (ChildProcessKafka kafka =
        ChildProcessKafka.start(Map.of(), List.of("-Xms128m", "-Xmx400m", "-XX:+UseSerialGC"))) {
      // the broker JVM's command line as the kernel has it (ProcessHandle.Info may leave it out)
      List<String> args =
          List.of(Files.readString(Path.of("/proc/" + kafka.pid() + "/cmdline")).split("\0"));
      assertThat(args)
          .contains("-Xms128m", "-Xmx400m", "-XX:+UseSerialGC")
          .doesNotContain("-XX:TieredStopAtLevel=1");
      kafka.createTopics(1, "t");
      produce(kafka.bootstrapServers(), "u-", 10);
      assertThat(kafka.brokerCpuNanos()).isPositive();
    }
    assertThat(ChildProcessKafka.LOAD_JVM_OPTIONS)
        .as("a load test's broker compiles with C2")
        .noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel"));
  }

  /** The broker JVM ends by itself when the JVM that started it dies without running any hook. */
  @Test
  void theBrokerDiesWithItsParentEvenOnSigkill() throws Exception {
    List<String> cmd =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m",
            "-cp",
            System.getProperty("java.class.path"),
            ParentMain.class.getName());
    Process parent = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    long brokerPid;
    Path brokerDir;
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line)
          .as("the parent printed the broker's pid")
          .isNotNull()
          .startsWith("broker-pid ");
      String[] parts = line.split(" ", 3);
      brokerPid = Long.parseLong(parts[1]);
      brokerDir = Path.of(parts[2]);
      assertThat(ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive)).contains(true);
    } finally {
      parent.destroyForcibly(); // SIGKILL: no shutdown hook runs in the parent
      parent.waitFor();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive).orElse(false)
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    try (var files = Files.walk(brokerDir)) { // the killed parent could not remove it
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  /** Starts a broker, prints its pid and waits to be killed. */
  public static final class ParentMain {
    public static void main(String[] args) throws Exception {
      ChildProcessKafka kafka = ChildProcessKafka.start();
      System.out.println("broker-pid " + kafka.pid() + " " + kafka.directory());
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(2)); // the test kills this JVM long before
      kafka.close();
    }
  }

  private static void assertOnlyLoopback(int port) throws IOException {
    for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress a : Collections.list(ni.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
          try (Socket s = new Socket()) {
            assertThatThrownBy(() -> s.connect(new InetSocketAddress(a, port), 1000))
                .as("not reachable on " + a)
                .isInstanceOf(IOException.class);
          }
        }
      }
    }
  }

  private static void produce(String bootstrap, String prefix, int n) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (var producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < n; i++) {
        producer.send(new ProducerRecord<>("t", prefix + i, prefix + i)).get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static List<String> consumeAll(String bootstrap, int expected) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "reader");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> seen = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of("t"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (seen.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.value()));
      }
      consumer.poll(Duration.ofMillis(300)).forEach(r -> seen.add(r.value()));
    }
    return seen;
  }
}
