package io.symbolicate.symbols.apple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Collects a report's parts under {@link AppleLimits}; shared by the text and .ips parsers. */
final class ReportBuilder {
  String incidentIdentifier = Uuids.NIL;
  Instant timestamp;
  String codeType;
  String path;
  String applicationSpecificInformation;
  String filteredSyslog;
  long reportVersion;
  final TreeMap<String, String> metadata = new TreeMap<>();
  final List<AppleThread> threads = new ArrayList<>();
  final List<BinaryImage> images = new ArrayList<>();
  private int frames;

  void putMetadata(String key, String value) throws AppleCrashReportException {
    if (metadata.size() >= AppleLimits.MAX_METADATA_ENTRIES && !metadata.containsKey(key)) {
      throw new AppleCrashReportException(
          "more than " + AppleLimits.MAX_METADATA_ENTRIES + " header fields");
    }
    metadata.put(key, value);
  }

  void checkThreadCount(int more) throws AppleCrashReportException {
    if (threads.size() + more > AppleLimits.MAX_THREADS) {
      throw new AppleCrashReportException("more than " + AppleLimits.MAX_THREADS + " threads");
    }
  }

  /** Counts one frame of a thread that has {@code inThread} frames so far. */
  void countFrame(int inThread) throws AppleCrashReportException {
    if (inThread >= AppleLimits.MAX_FRAMES_PER_THREAD) {
      throw new AppleCrashReportException(
          "a thread has more than " + AppleLimits.MAX_FRAMES_PER_THREAD + " frames");
    }
    if (++frames > AppleLimits.MAX_FRAMES) {
      throw new AppleCrashReportException("more than " + AppleLimits.MAX_FRAMES + " frames in all");
    }
  }

  void addImage(BinaryImage image) throws AppleCrashReportException {
    if (images.size() >= AppleLimits.MAX_IMAGES) {
      throw new AppleCrashReportException("more than " + AppleLimits.MAX_IMAGES + " binary images");
    }
    images.add(image);
  }

  static SortedMap<String, Long> registers(TreeMap<String, Long> r) {
    return r == null ? null : Collections.unmodifiableSortedMap(r);
  }

  AppleCrashReport build(AppleCrashReport.ReportFormat format) {
    return new AppleCrashReport(
        format,
        incidentIdentifier,
        timestamp,
        codeType,
        path,
        applicationSpecificInformation,
        filteredSyslog,
        reportVersion,
        Collections.unmodifiableSortedMap(metadata),
        List.copyOf(threads),
        List.copyOf(images));
  }
}
