package io.symbolicate.topology.http;

import io.symbolicate.schema.CrashEvent;

/** Frame counts of an event of any platform (the API's per-request frame limit). */
final class ApiFrames {
  private ApiFrames() {}

  static int count(CrashEvent e) {
    int n = 0;
    if (e.getNative$() != null) {
      for (var t : e.getNative$().getThreads()) {
        n += t.getFrames().size();
      }
    }
    if (e.getJavascript() != null) {
      for (var x : e.getJavascript().getExceptions()) {
        n += x.getFrames().size();
      }
    }
    if (e.getJvm() != null) {
      for (var x : e.getJvm().getExceptions()) {
        n += x.getFrames().size();
      }
    }
    return n;
  }
}
