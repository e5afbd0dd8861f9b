package io.symbolicate.connectors.s3;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** The connector's settings, validated by {@link #CONFIG_DEF} (Connect's REST validation shows its messages). */
final class S3SourceConfig extends AbstractConfig {
  static final String BUCKET = "s3.bucket";
  static final String PREFIXES = "s3.prefixes";
  static final String REGION = "s3.region";
  static final String ENDPOINT = "s3.endpoint";
  static final String PATH_STYLE = "s3.path.style.access";
  static final String ACCESS_KEY = "aws.access.key.id";
  static final String SECRET_KEY = "aws.secret.access.key";
  static final String TOPIC = "topic";
  static final String POLL_INTERVAL_MS = "poll.interval.ms";
  static final String RECONCILE_INTERVAL_MS = "reconcile.interval.ms";
  static final String RECONCILE_LOOKBACK_MS = "reconcile.lookback.ms";
  static final String SEEN_KEYS_MAX = "seen.keys.max";
  static final String PAGE_SIZE = "list.page.size";
  static final String RETRY_BACKOFF_MAX_MS = "s3.retry.backoff.max.ms";

  /** Set by the connector for each task: the prefixes that task lists. */
  static final String TASK_PREFIXES = "task.prefixes";

  /** ListObjectsV2 returns at most this many keys a page. */
  static final int MAX_PAGE_SIZE = 1000;

  /** The bound of the seen-key memory, whatever is configured (about 200 bytes a key). */
  static final int MAX_SEEN_KEYS = 10_000_000;

  static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(
              BUCKET,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyStringWithoutControlChars(),
              Importance.HIGH,
              "The symbol bucket to watch.")
          .define(
              PREFIXES,
              Type.LIST,
              "",
              S3SourceConfig::validatePrefixes,
              Importance.HIGH,
              "Key prefixes to watch, split between the tasks (e.g. scopes/acme/,xul.pdb/); empty: the whole bucket."
                  + " Prefixes must not overlap, or an object would be announced by two tasks.")
          .define(
              REGION,
              Type.STRING,
              "us-east-1",
              new ConfigDef.NonEmptyStringWithoutControlChars(),
              Importance.MEDIUM,
              "AWS region of the bucket.")
          .define(
              ENDPOINT,
              Type.STRING,
              "",
              S3SourceConfig::validateEndpoint,
              Importance.MEDIUM,
              "An S3-compatible endpoint (http(s)://host:port); empty: AWS's endpoint for the region.")
          .define(
              PATH_STYLE,
              Type.BOOLEAN,
              false,
              Importance.LOW,
              "Path-style requests (host/bucket/key), as most S3-compatible servers need.")
          .define(
              ACCESS_KEY,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "Access key id; unset: the AWS default credentials chain (environment, profile, web identity, instance role)."
                  + " Use a config provider (${file:...}, ${env:...}) rather than a literal.")
          .define(
              SECRET_KEY,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "Secret access key, with " + ACCESS_KEY + "; never logged.")
          .define(
              TOPIC,
              Type.STRING,
              "symbols.uploads",
              new ConfigDef.NonEmptyStringWithoutControlChars(),
              Importance.HIGH,
              "The topic the symbol loader reads announcements from.")
          .define(
              POLL_INTERVAL_MS,
              Type.LONG,
              10_000L,
              Range.between(100L, 3_600_000L),
              Importance.MEDIUM,
              "Pause between incremental listings (StartAfter the last key seen) once one reached the end.")
          .define(
              RECONCILE_INTERVAL_MS,
              Type.LONG,
              600_000L,
              Range.between(1_000L, 7L * 24 * 3_600_000L),
              Importance.MEDIUM,
              "Period of the full listing that finds keys written below the offset (late writers).")
          .define(
              RECONCILE_LOOKBACK_MS,
              Type.LONG,
              3_600_000L,
              Range.between(0L, 30L * 24 * 3_600_000L),
              Importance.LOW,
              "A full listing announces a key it has not seen (below the offset) only when its"
                  + " LastModified is at most this long before the previous full listing began: cover the clock skew"
                  + " and the time an upload takes to become listable.")
          .define(
              SEEN_KEYS_MAX,
              Type.INT,
              100_000,
              Range.between(1, MAX_SEEN_KEYS),
              Importance.MEDIUM,
              "Keys (with their ETag) a task remembers, most recently listed first; an unchanged object is never"
                  + " announced twice while its key is remembered.")
          .define(
              PAGE_SIZE,
              Type.INT,
              MAX_PAGE_SIZE,
              Range.between(1, MAX_PAGE_SIZE),
              Importance.LOW,
              "Keys asked for per ListObjectsV2 call (one call per task poll).")
          .define(
              RETRY_BACKOFF_MAX_MS,
              Type.LONG,
              30_000L,
              Range.between(100L, 600_000L),
              Importance.LOW,
              "Longest pause between listings while S3 fails (doubling from 100 ms); the task stays running.")
          .defineInternal(TASK_PREFIXES, Type.LIST, "", Importance.LOW);

  S3SourceConfig(Map<String, String> props) {
    super(CONFIG_DEF, props);
    Password id = getPassword(ACCESS_KEY);
    Password secret = getPassword(SECRET_KEY);
    if ((id == null) != (secret == null)) {
      throw new ConfigException(
          ACCESS_KEY
              + " and "
              + SECRET_KEY
              + " go together: set both, or neither to use the AWS default credentials chain");
    }
  }

  static void validatePrefixes(String name, Object value) {
    @SuppressWarnings("unchecked")
    List<String> prefixes = value == null ? List.of() : (List<String>) value;
    List<String> seen = new ArrayList<>();
    for (String p : prefixes) {
      if (p.startsWith("/")) {
        throw new ConfigException(
            name, p, "S3 keys do not start with '/': write the prefix without it");
      }
      if (p.chars().anyMatch(Character::isISOControl)) {
        throw new ConfigException(name, p, "a prefix must not contain control characters");
      }
      for (String q : seen) {
        if (p.startsWith(q) || q.startsWith(p)) {
          throw new ConfigException(
              name,
              p,
              "prefixes overlap ('"
                  + q
                  + "' and '"
                  + p
                  + "'): an object would be announced by two tasks");
        }
      }
      seen.add(p);
    }
  }

  static void validateEndpoint(String name, Object value) {
    String s = (String) value;
    if (s == null || s.isEmpty()) {
      return;
    }
    try {
      URI u = new URI(s);
      if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
        throw new ConfigException(name, s, "must be an http(s)://host[:port] URL");
      }
    } catch (URISyntaxException e) {
      throw new ConfigException(name, s, "not a URL: " + e.getReason());
    }
  }

  /** The watched prefixes; the whole bucket ("") when none is configured. */
  List<String> prefixes() {
    List<String> p = getList(PREFIXES);
    return p.isEmpty() ? List.of("") : p;
  }
}
