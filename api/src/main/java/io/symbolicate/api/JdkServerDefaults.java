package io.symbolicate.api;

/**
 * Settings of the JDK's HTTP server that are JVM-wide system properties, read once when the
 * first server of the JVM is created: set here, before that, unless given on the command line
 * ({@code JAVA_OPTS="-Dsun.net.httpserver.maxReqTime=..."}).
 */
public final class JdkServerDefaults {
  /** Seconds a client has to send its request, headers and body. */
  public static final int MAX_REQUEST_SECONDS = 20;
  /** Seconds from a complete request to the end of its answer: waiting for symbols, then writing. */
  public static final int MAX_RESPONSE_SECONDS = 120;

  static {
    // the JDK server writes headers and body separately; with Nagle's algorithm and the client's
    // delayed ACK every answer would wait ~40 ms
    setIfAbsent("sun.net.httpserver.nodelay", "true");
    // without these a client that sends half a request, or never reads its answer, holds a
    // handler thread for ever: as many such connections as threads stopped the server
    setIfAbsent("sun.net.httpserver.maxReqTime", String.valueOf(MAX_REQUEST_SECONDS));
    setIfAbsent("sun.net.httpserver.maxRspTime", String.valueOf(MAX_RESPONSE_SECONDS));
  }

  private JdkServerDefaults() {}

  /** Call before creating a JDK HTTP server (the static initialiser does the work). */
  public static void ensure() {
    // nothing: loading the class set the properties
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
