package io.symbolicate.topology.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BackgroundThreadsTest {
  @Test
  void threadsAreDaemonsAtTheLowestPriority() {
    Thread t = BackgroundThreads.named("loader-x").newThread(() -> {});
    assertThat(t.getName()).isEqualTo("loader-x");
    assertThat(t.isDaemon()).isTrue();
    assertThat(t.getPriority()).isEqualTo(Thread.MIN_PRIORITY);
  }

  /**
   * The launcher's JVM options, as the app commands get them, put background threads and the
   * JIT's compiler threads at nice 10 and leave threads of normal priority as they were.
   * (A child JVM, since the options act at JVM start.)
   */
  @Test
  void theLaunchersOptionsLowerTheOsPriorityOfBackgroundWork() throws Exception {
    String script = Files.readString(Path.of("..", "symbolicator"));
    Matcher m = Pattern.compile("\\*\\) DEFAULT_OPTS=\"([^\"]+)\"").matcher(script);
    assertThat(m.find()).as("the launcher's default options for the app commands").isTrue();
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(m.group(1).split(" ")));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), NiceProbe.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();

    Map<String, Integer> nice = new HashMap<>();
    for (String line : out.split("\n")) {
      if (line.startsWith("nice ")) {
        String[] f = line.split(" ", 3);
        nice.put(f[2], Integer.parseInt(f[1]));
      }
    }
    // the JVM's own nice value (the launcher's caller's), as a thread of normal priority has it
    assertThat(nice).as(out).containsKeys("probe-normal", "probe-bg", "C1 CompilerThre", "C2 CompilerThre");
    int own = nice.get("probe-normal");
    assertThat(nice.get("probe-bg")).as(out).isEqualTo(Math.max(own, 10));
    assertThat(nice.get("C2 CompilerThre")).as(out).isEqualTo(Math.max(own, 10));
    assertThat(nice.get("C1 CompilerThre")).as(out).isEqualTo(Math.max(own, 10));
  }

  /** Prints "nice N thread-name" for its threads, read from /proc. */
  public static final class NiceProbe {
    public static void main(String[] args) throws Exception {
      CountDownLatch done = new CountDownLatch(1);
      Runnable park = () -> {
        try {
          done.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
      BackgroundThreads.named("probe-bg").newThread(park).start();
      Thread normal = new Thread(park, "probe-normal");
      normal.setDaemon(true);
      normal.start();
      Thread.sleep(200);
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
        for (Path task : tasks) {
          print(task);
        }
      }
      done.countDown();
    }

    private static void print(Path task) throws IOException {
      String comm = Files.readString(task.resolve("comm")).trim();
      String stat = Files.readString(task.resolve("stat"));
      // fields after the command's closing parenthesis start at field 3 (state); nice is field 19
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      System.out.println("nice " + fields[16] + " " + comm);
    }
  }
}
