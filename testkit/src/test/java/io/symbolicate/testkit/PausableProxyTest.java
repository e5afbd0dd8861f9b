package io.symbolicate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The proxy forwards both ways, holds every byte while paused and lets it through on resume. */
class PausableProxyTest {

  @Test
  void holdsBytesWhilePausedAndDeliversThemOnResume() throws Exception {
    try (ServerSocket echo = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
      Thread server =
          new Thread(
              () -> {
                while (!echo.isClosed()) {
                  try {
                    Socket s = echo.accept();
                    Thread t =
                        new Thread(
                            () -> {
                              try (s;
                                  InputStream in = s.getInputStream();
                                  OutputStream out = s.getOutputStream()) {
                                in.transferTo(out);
                              } catch (IOException ignored) {
                                // the client went
                              }
                            });
                    t.setDaemon(true);
                    t.start();
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      server.setDaemon(true);
      server.start();

      try (PausableProxy proxy = PausableProxy.start(echo.getLocalPort());
          Socket client = new Socket("127.0.0.1", proxy.port())) {
        client.setSoTimeout(2000);
        assertThat(roundTrip(client, "one")).isEqualTo("one");

        proxy.pause();
        assertThat(proxy.isPaused()).isTrue();
        client.setSoTimeout(700);
        client.getOutputStream().write("two".getBytes(StandardCharsets.US_ASCII));
        boolean answered;
        try {
          answered = client.getInputStream().read() >= 0;
        } catch (SocketTimeoutException held) {
          answered = false;
        }
        assertThat(answered).as("nothing passes while paused").isFalse();
        // a connection opened while paused is accepted but not served
        try (Socket late = new Socket("127.0.0.1", proxy.port())) {
          late.setSoTimeout(500);
          late.getOutputStream().write('x');
          boolean lateAnswered;
          try {
            lateAnswered = late.getInputStream().read() >= 0;
          } catch (SocketTimeoutException held) {
            lateAnswered = false;
          }
          assertThat(lateAnswered).isFalse();

          proxy.resume();
          late.setSoTimeout(5000);
          assertThat(late.getInputStream().read())
              .as("the late connection's byte, after resume")
              .isEqualTo('x');
        }
        client.setSoTimeout(5000);
        assertThat(new String(client.getInputStream().readNBytes(3), StandardCharsets.US_ASCII))
            .as("the held bytes arrive on resume")
            .isEqualTo("two");
        assertThat(roundTrip(client, "three")).isEqualTo("three");
      }
    }
  }

  private static String roundTrip(Socket s, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.US_ASCII);
    s.getOutputStream().write(b);
    return new String(s.getInputStream().readNBytes(b.length), StandardCharsets.US_ASCII);
  }
}
