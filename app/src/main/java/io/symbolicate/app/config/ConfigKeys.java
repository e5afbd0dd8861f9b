package io.symbolicate.app.config;

import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.collect.CollectorLimits;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.api.upload.UploadLimits;
import io.symbolicate.connectors.loader.LoaderSettings;
import io.symbolicate.connectors.loader.nativecode.DebugFileLayouts;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.schema.topic.Topic;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.topology.config.TopologyConfig;
import java.util.List;

/**
 * Every configuration key of the application, with its default and its documentation, in the
 * order docs/configuration.md lists them (ConfigurationDocsTest checks that page against this
 * class). Code reads settings through these constants, never through string literals.
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  public static final ConfigKey BOOTSTRAP_SERVERS =
      ConfigKey.shown("bootstrap.servers", "", "(required)", "Kafka cluster");
  public static final ConfigKey APPLICATION_ID =
      ConfigKey.of(
          "application.id",
          "symbolicator",
          "Kafka Streams application id (consumer group, internal topics); the embedded or stand-alone loader's consumer group is `<application.id>-loader`");
  // the topics' names (io.symbolicate.schema.topic.Topics holds their serdes and cleanup)
  public static final ConfigKey TOPIC_RAW = topic(Topics.RAW);
  public static final ConfigKey TOPIC_SYMBOLICATED = topic(Topics.SYMBOLICATED);
  public static final ConfigKey TOPIC_DLQ = topic(Topics.DLQ);
  public static final ConfigKey TOPIC_REQUESTS = topic(Topics.SYMBOL_REQUESTS);
  public static final ConfigKey TOPIC_TABLES = topic(Topics.SYMBOL_TABLES);
  public static final ConfigKey TOPIC_INDEX = topic(Topics.SYMBOL_INDEX);
  public static final ConfigKey TOPIC_UPLOADS = topic(Topics.SYMBOL_UPLOADS);
  public static final ConfigKey TOPIC_MISSING = topic(Topics.SYMBOLS_MISSING);
  public static final ConfigKey INPUT_FORMAT =
      ConfigKey.of("input.format", "auto", "`avro`, `json` or `auto` (by the first bytes)");
  public static final ConfigKey MAX_EVENT_BYTES =
      ConfigKey.of(
          "max.event.bytes",
          String.valueOf(TopologyConfig.DEFAULT_MAX_EVENT_BYTES),
          "larger raw events are dead-lettered as `too_large`");
  public static final ConfigKey MAX_FRAMES_PER_EVENT =
      ConfigKey.of(
          "max.frames.per.event",
          String.valueOf(TopologyConfig.DEFAULT_MAX_FRAMES),
          "events with more frames in total are dead-lettered as `too_large`");
  public static final ConfigKey MAX_MODULES_PER_EVENT =
      ConfigKey.of(
          "max.modules.per.event",
          String.valueOf(TopologyConfig.Parking.DEFAULT_MAX_MODULES),
          "events whose frames need more distinct modules (native; JS sourcemaps; JVM mappings) are dead-lettered as `too_large`, before any symbol request");
  public static final ConfigKey SOURCE_CONTEXT_LINES =
      ConfigKey.of(
          "symbolication.source.context.lines",
          String.valueOf(ContextLines.DEFAULT_LINES),
          "source context lines before and after a frame's line (`pre_context`, `context_line`, `post_context`), in the stream, `POST /symbolicate` and `POST /symbolicate-jvm`, from the source bundle found beside a native module's debug file, the sources a Portable PDB embeds, or the JVM source bundles an event names; 0 turns it off. At most "
              + SourceContextLookup.MAX_LINES_PER_EVENT
              + " lines and 1 Mi chars per event or answer (docs/sources.md)");
  public static final ConfigKey SOURCE_LINK_ALLOW =
      ConfigKey.shown(
          "symbolication.source.link.allow",
          "",
          "(none: never fetched)",
          "URL prefixes whose Source Link files `POST /symbolicate` may fetch for the source context of .NET frames, comma-separated, e.g. `https://raw.githubusercontent.com/my-org/`; `PREFIX=MIRROR` fetches the URLs under `PREFIX` from `MIRROR` instead (the rest of the URL appended). Only http and https; a URL matches on scheme, host, port and path after `..` is resolved; redirects only to these prefixes or mirrors; hosts that resolve to loopback, private, link-local or other reserved addresses refused (see the next key). Answers cached by the `cache.*.retry.ms` rules. The stream does not fetch (docs/dotnet.md, \"Source Link\")");
  public static final ConfigKey SOURCE_LINK_ALLOW_PRIVATE =
      ConfigKey.of(
          "symbolication.source.link.allow.private",
          "false",
          "let Source Link fetches connect to loopback, private, link-local and other reserved addresses (a mirror inside the network)");
  public static final ConfigKey SOURCE_LINK_MAX_FILE_BYTES =
      ConfigKey.of(
          "symbolication.source.link.max.file.bytes",
          String.valueOf(SourceLinkFetcher.Settings.DEFAULT_MAX_FILE_BYTES),
          "a Source Link file larger than this (declared or read) gives no context and is cached as malformed, as a source bundle's file over 8 MiB is skipped");
  public static final ConfigKey SOURCE_LINK_TIMEOUT_MS =
      ConfigKey.of(
          "symbolication.source.link.timeout.ms",
          String.valueOf(SourceLinkFetcher.Settings.DEFAULT_TIMEOUT_MS),
          "a Source Link fetch (connection, redirects, body) not done by then gives no context (a failure, asked again after `cache.failed.retry.ms`); an answer waits at most this for its fetches, all at once");
  public static final ConfigKey SOURCE_LINK_MAX_FILES_PER_EVENT =
      ConfigKey.of(
          "symbolication.source.link.max.files.per.event",
          String.valueOf(SourceLinkFetcher.Settings.DEFAULT_MAX_FILES_PER_EVENT),
          "distinct Source Link URLs one answer fetches; frames of further URLs get no context");
  public static final ConfigKey SOURCE_LINK_CACHE_BYTES =
      ConfigKey.of(
          "symbolication.source.link.cache.bytes",
          String.valueOf(SourceLinkFetcher.Settings.DEFAULT_CACHE_BYTES),
          "heap the fetched Source Link files' lines may hold (least recently used out first)");
  public static final ConfigKey SIGNATURES_LISTS_DIR =
      ConfigKey.shown(
          "signatures.lists.dir",
          "",
          "(the built-in lists)",
          "directory of the crash signatures' frame lists, in the layout and syntax of siggen's `siglists/` folder (Socorro's works as is); read once at start-up, a missing file or bad regex stops it. After changing them, `reprocess --signatures-only` signs past events again; see docs/signatures.md");
  public static final ConfigKey PROCESSING_GUARANTEE =
      ConfigKey.of("processing.guarantee", "exactly_once_v2", "or `at_least_once`");
  public static final ConfigKey NUM_STREAM_THREADS =
      ConfigKey.of("num.stream.threads", "1", "stream threads per instance");
  public static final ConfigKey STATE_DIR =
      ConfigKey.shown(
          "state.dir",
          System.getProperty("java.io.tmpdir") + "/symbolicator-state",
          "`$TMPDIR/symbolicator-state`",
          "Kafka Streams state directory");
  public static final ConfigKey SESSION_TIMEOUT_MS =
      ConfigKey.of(
          "group.session.timeout.ms",
          "6000",
          "how soon the group notices a killed instance and gives its partitions to the others (the main consumer's and the embedded or standalone loader's `session.timeout.ms`, classic group protocol; their `heartbeat.interval.ms` is a quarter of it). 6000 is the lowest a broker takes by default (`group.min.session.timeout.ms`); Kafka's own default is 45000. Lower is not possible without the broker, higher survives longer pauses (GC, network) without a rebalance; see docs/operations.md#failover");
  public static final ConfigKey TRANSACTION_TIMEOUT_MS =
      ConfigKey.of(
          "transaction.timeout.ms",
          "5000",
          "with exactly-once, the open transaction of a killed instance hides every output written after it from `read_committed` readers, on all partitions, until the broker aborts it after this (plus up to the broker's `transaction.abort.timed.out.transaction.cleanup.interval.ms`, 10 s by default: set it to 1000 for failover in seconds). Kafka Streams' default is 10000; a transaction open longer than this (a stream thread stalled that long) is aborted and the instance rejoins the group");
  public static final ConfigKey STANDBY_REPLICAS =
      ConfigKey.of(
          "standby.replicas",
          "1",
          "copies of each task's state (parked events) kept warm on other instances (`num.standby.replicas`), so the instance that takes a killed one's partitions over does not restore them from the changelog first; each copy costs its disk and the reading of the changelog");
  public static final ConfigKey TOPICS_CREATE =
      ConfigKey.of("topics.create", "true", "create missing topics at start-up");
  public static final ConfigKey TOPICS_PARTITIONS =
      ConfigKey.of("topics.partitions", "3", "partitions of topics created at start-up");
  public static final ConfigKey TOPICS_REPLICATION_FACTOR =
      ConfigKey.of(
          "topics.replication.factor",
          "-1",
          "replication of created topics (-1: the broker's default)");
  public static final ConfigKey DLQ_MAX_MESSAGE_BYTES =
      ConfigKey.of(
          "dlq.max.message.bytes",
          String.valueOf(8 << 20),
          "DLQ and symbolicated topics' `max.message.bytes` and the producer's `max.request.size`; a symbolicated event larger than this less 64 KB (a sixteenth of a limit under 1 MB) once encoded goes to the DLQ as `too_large` with its raw input (topics you create yourself must take this much; checked at start-up)");
  public static final ConfigKey STARTUP_TIMEOUT_MS =
      ConfigKey.of("startup.timeout.ms", "15000", "how long to wait for the cluster at start-up");
  public static final ConfigKey SYMBOLS_SOURCES =
      ConfigKey.of(
          "symbols.sources",
          "s3,dir,http",
          "the sources to use, in priority order (unconfigured ones are skipped)");
  public static final ConfigKey SYMBOLS_S3_BUCKET =
      ConfigKey.shown(
          "symbols.s3.bucket",
          "",
          "(none)",
          "S3 bucket of debug files; credentials come from the default AWS chain and are never logged");
  public static final ConfigKey SYMBOLS_S3_PREFIX =
      ConfigKey.shown("symbols.s3.prefix", "", "(none)", "key prefix inside the bucket");
  public static final ConfigKey SYMBOLS_S3_REGION =
      ConfigKey.of(
          "symbols.s3.region", "us-east-1", "region of the bucket (S3-compatible stores take any)");
  public static final ConfigKey SYMBOLS_S3_ENDPOINT =
      ConfigKey.shown("symbols.s3.endpoint", "", "(AWS)", "endpoint of an S3-compatible store");
  public static final ConfigKey SYMBOLS_S3_PATH_STYLE =
      ConfigKey.of(
          "symbols.s3.path-style", "false", "path-style addressing (most S3-compatible stores)");
  public static final ConfigKey SYMBOLS_DIR =
      ConfigKey.shown("symbols.dir", "", "(none)", "a local directory with the same layout");
  public static final ConfigKey SYMBOLS_HTTP_URL =
      ConfigKey.shown(
          "symbols.http.url",
          "",
          "(none)",
          "an HTTP symbol server (GET `<url>/<key>`, redirects followed), e.g. Mozilla's");
  public static final ConfigKey SYMBOLS_FETCH_TIMEOUT_MS =
      ConfigKey.of("symbols.fetch.timeout.ms", "30000", "per-request timeout of a source");
  public static final ConfigKey SYMBOLS_MAX_FILE_BYTES =
      ConfigKey.of(
          "symbols.max.file.bytes",
          String.valueOf(4L << 30),
          "cap on a debug file's decompressed size (gzip bombs). ProGuard mappings and sourcemaps are parsed in memory, so for them the cap is also a quarter of the max heap (`-Xmx`); a bigger one is cached as malformed with a reason that says so");
  public static final ConfigKey MINIDUMP_S3_BUCKET =
      ConfigKey.shown(
          "minidump.s3.bucket",
          "",
          "(`collector.s3.bucket`, else `symbols.s3.bucket`)",
          "bucket of the minidumps events carry by reference when the reference names none (the collector always names one); read with the `symbols.s3.*` endpoint, region and credentials");
  public static final ConfigKey MINIDUMP_MAX_BYTES =
      ConfigKey.of(
          "minidump.max.bytes",
          String.valueOf(64L << 20),
          "largest minidump the stream walks; a larger one is a dead letter (`too_large`) with its reference");
  public static final ConfigKey MINIDUMP_FETCH_MEMORY_BYTES =
      ConfigKey.of(
          "minidump.fetch.memory.bytes",
          String.valueOf(256L << 20),
          "heap the dumps of parked events may hold per instance (fetched or being fetched); past it further fetches wait for room");
  public static final ConfigKey MINIDUMP_FETCH_THREADS =
      ConfigKey.of(
          "minidump.fetch.threads",
          "4",
          "threads fetching dumps from S3 (never the stream threads)");
  public static final ConfigKey MINIDUMP_FETCH_RETRY_MS =
      ConfigKey.of(
          "minidump.fetch.retry.ms",
          "5000",
          "how long after a transient fetch failure (S3 unreachable, 5xx) the dump is fetched again; its event stays parked meanwhile");
  public static final ConfigKey LOADER_EMBEDDED =
      ConfigKey.of("loader.embedded", "true", "run the loader inside the stream application");
  public static final ConfigKey LOADER_CONCURRENCY =
      ConfigKey.of(
          "loader.concurrency",
          "4",
          "downloads/conversions at once. A native conversion keeps its records and names outside the heap until it ends (direct memory, about half the .sym's size: ~60 MB for a 130 MB file), so this many big files at once need that much beside the heap; the JVM's direct-memory limit (`-XX:MaxDirectMemorySize`, by default the max heap) bounds them. Near that limit the JDK runs a full collection (`System.gc()`) before it gives up; a conversion that still finds no room fails as a transient error and is retried, never cached as malformed");
  public static final ConfigKey LOADER_ATTEMPTS =
      ConfigKey.of(
          "loader.attempts", "4", "tries per fetch for transient failures (5xx, resets, timeouts)");
  public static final ConfigKey LOADER_BACKOFF_MS =
      ConfigKey.of("loader.backoff.ms", "500", "first retry delay, doubled per attempt");
  public static final ConfigKey LOADER_CPU_SHARE =
      ConfigKey.of(
          "loader.cpu.share",
          String.valueOf(LoaderSettings.DEFAULT_CPU_SHARE),
          "share of one core each load may use while the machine's cores are busy: after every ~20 ms of CPU spent reading and converting a file or sending its pages, the load sleeps in proportion (`cpu × (1 − share) / share`), so stream threads keep their CPU while a big file loads; a load then takes about `1 / share` times its CPU time. `1` or more: unpaced. Applies to `serve` and the converter warm-up too");
  public static final ConfigKey LOADER_CPU_SHARE_IDLE =
      ConfigKey.of(
          "loader.cpu.share.idle",
          String.valueOf(LoaderSettings.DEFAULT_CPU_SHARE_IDLE),
          "the most a load may use while cores are free: after each slice the loader looks at how many cores the process's other threads used over the last ~200 ms (its CPU time less the loads'), and how many everything else on the machine used (`/proc/stat` on Linux, less the loads': a broker or another instance on the same host; counted only when the process may use every core of the machine, not under a container's quota or cpuset), and may use what is left beyond half a core, of the available processors and of the machine's cores, whichever leaves less, between `loader.cpu.share` and this, never more than one core (so an idle instance loads unpaced; work a load causes in other threads, such as sending its pages, GC, or a broker on the same host storing them, counts as busy). Raised to `loader.cpu.share` if lower; equal to it: a fixed share");
  public static final ConfigKey LOADER_DEBUG_FILE_LAYOUTS =
      ConfigKey.of(
          "loader.debug.file.layouts",
          DebugFileLayouts.DEFAULT,
          "where the loader looks for a native module's debug files (ELF, Mach-O, dSYM, PDB, PE) when no source has its Breakpad `.sym`: per kind of source (`s3`, `dir`, `http`), the layouts searched in order, of `native` (`<debug_file>/<DEBUG_ID>/<debug_file>`, where uploads go), `unified` (`<id[0:2]>/<id[2:]>/debuginfo`), `symstore` (Microsoft's symbol store: `<name.pdb>/<GUID><age>/<name.pdb>`, its CAB-compressed `.pd_` and `file.ptr` redirects within the source; ELF by `_.debug/elf-buildid-sym-<id>/_.debug`), `symstore_index2` (the same under the name's first two characters), `ssqp` (the `symstore` keys in lower case) and `debuginfod` (`buildid/<id>/debuginfo`); the executable is looked for beside the debug file in the same layouts (unwind info from whichever has it). Each layout is one request per module not found; a kind followed by nothing searches only `.sym` files; a kind left out keeps its default. The build-id layouts need the module's code id. A .NET module's Portable PDB is searched in the same layouts as debug info (the symbol-store ones with the age `ffffffff`; docs/dotnet.md): see docs/operations.md, \"Debug-file layouts\"");
  public static final ConfigKey LOADER_WARMUP =
      ConfigKey.of(
          "loader.warmup",
          "true",
          "at start, convert a synthetic ~16 MB Breakpad file shaped like `dump_syms` output four times, then 800 small files (half of them plain, without PUBLICs), in the background, paced like a load, once per process (~1.3 s of CPU): the JIT then compiles the converter, its page cutter included, before events flow instead of during the first big load (logged as `converter warm-up`)");
  public static final ConfigKey CACHE_MISSING_RETRY_MS =
      ConfigKey.of(
          "cache.missing.retry.ms",
          String.valueOf(3_600_000L),
          "a module missing from every source is asked for again after 1 h");
  public static final ConfigKey CACHE_MALFORMED_RETRY_MS =
      ConfigKey.of(
          "cache.malformed.retry.ms",
          String.valueOf(86_400_000L),
          "a malformed file is tried again after 24 h (or after a restart or an engine format change)");
  public static final ConfigKey CACHE_FAILED_RETRY_MS =
      ConfigKey.of(
          "cache.failed.retry.ms",
          "30000",
          "after a transient failure, ask again after this (never cached as missing)");
  public static final ConfigKey CACHE_UNUSED_TTL_MS =
      ConfigKey.of(
          "cache.unused.ttl.ms",
          String.valueOf(7L * 86_400_000L),
          "tables unused for 7 days are removed (tombstones)");
  public static final ConfigKey PAGE_CACHE_BYTES =
      ConfigKey.shown(
          "page.cache.bytes",
          String.valueOf(Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4)),
          "256 MB or a quarter of the max heap, whichever is less",
          "bound of the decoded-page cache per instance; pages are weighed by the heap they hold once decoded (a native page holds ~25× its encoded size)");
  public static final ConfigKey PARK_TIMEOUT_MS =
      ConfigKey.of("park.timeout.ms", "60000", "longest wait of an event for its symbols");
  public static final ConfigKey PARK_CHECK_INTERVAL_MS =
      ConfigKey.of("park.check.interval.ms", "250", "how often parked events are looked at");
  public static final ConfigKey PARK_MAX_EVENTS =
      ConfigKey.of(
          "park.max.events",
          "100000",
          "parked events per task; beyond, events are emitted at once with honest statuses");
  public static final ConfigKey PARK_REQUEST_RETRY_MS =
      ConfigKey.of(
          "park.request.retry.ms",
          "5000",
          "a module still unknown is requested again after this; the modules requested within this interval take at most 4 MB of heap per platform and task (about 20,000 native modules; a burst of events naming random ids), a check of the parked events at most half of it; the others are asked for once older requests have made room, the next check starting from the parked event where the last ran out");
  public static final ConfigKey PARK_TOUCH_INTERVAL_MS =
      ConfigKey.of(
          "park.touch.interval.ms",
          "3600000",
          "a module in use is reported to the loader (for eviction) at most this often");
  public static final ConfigKey HTTP_ENABLED =
      ConfigKey.of(
          "http.enabled",
          "false",
          "`run` serves the HTTP API beside the stream (`serve` always does)");
  public static final ConfigKey HTTP_HOST =
      ConfigKey.of("http.host", "127.0.0.1", "address the API binds");
  public static final ConfigKey HTTP_PORT =
      ConfigKey.of("http.port", "8000", "port of the API (0: any free port)");
  public static final ConfigKey HTTP_MAX_IN_FLIGHT =
      ConfigKey.of(
          "http.max.in.flight",
          "16",
          "requests symbolicated at once; more get 503 with `Retry-After`");
  public static final ConfigKey HTTP_MAX_IN_FLIGHT_BYTES =
      ConfigKey.shown(
          "http.max.in.flight.bytes",
          "0",
          "`0` (half the max heap)",
          "heap the requests in flight may claim, 32 bytes per byte of body (a 4 MB body claims 128 MB) and 1 KB per frame, stack and module; more get 503 with `Retry-After`, so a few large requests at once cannot run the server out of memory");
  public static final ConfigKey HTTP_MAX_BODY_BYTES =
      ConfigKey.of(
          "http.max.body.bytes", String.valueOf(5L << 20), "larger request bodies get 413");
  public static final ConfigKey HTTP_MAX_FRAMES =
      ConfigKey.of(
          "http.max.frames",
          "100000",
          "requests with more frames, more stacks or more modules (memory-map entries) than this get 413");
  public static final ConfigKey HTTP_MAX_MODULES =
      ConfigKey.of(
          "http.max.modules",
          String.valueOf(ApiSettings.DEFAULT_MAX_MODULES),
          "requests whose frames need more distinct modules (across all jobs of a request) get 413, before any is requested");
  public static final ConfigKey HTTP_REQUEST_TIMEOUT_MS =
      ConfigKey.of(
          "http.request.timeout.ms",
          "10000",
          "how long a request waits for its modules to load; then they are reported not found");
  public static final ConfigKey HTTP_RETRY_AFTER_SECONDS =
      ConfigKey.of("http.retry.after.seconds", "1", "`Retry-After` of a 503");
  public static final ConfigKey HTTP_CORS_ORIGINS =
      ConfigKey.of(
          "http.cors.origins",
          "*",
          "pages of which other origins may call the symbolication endpoints from a browser: `*` (any, global scope only), `none`, or a comma-separated list such as `https://profiler.firefox.com` (listed origins may also send `X-Symbolicator-Scope`)");
  public static final ConfigKey HTTP_CACHE_DIR =
      ConfigKey.shown(
          "http.cache.dir",
          System.getProperty("java.io.tmpdir") + "/symbolicator-api-cache",
          "`$TMPDIR/symbolicator-api-cache`",
          "`serve`: the local on-disk table cache (RocksDB)");
  public static final ConfigKey API_KEYS =
      ConfigKey.shown(
          "api.keys",
          "",
          "(none)",
          "API keys, as SHA-256 hashes of the keys (never the keys), each bound to one scope and the actions it may take there: `<sha256 hex>=<scope>:<action>[+<action>...]`, comma-separated; actions `upload` (the upload routes), `symbolicate` (the symbolication endpoints: read the key's scope, then the global one) and `submit` (the crash collector, `POST /submit`); `echo -n KEY | sha256sum` gives a hash; see docs/api/keys.md");
  public static final ConfigKey API_ANONYMOUS_SCOPES =
      ConfigKey.of(
          "api.anonymous.scopes",
          "global",
          "scopes the symbolication endpoints answer without a key (comma-separated; `none` for none): a request naming another scope in `X-Symbolicator-Scope` without a key allowed to `symbolicate` there gets 403; see docs/api/keys.md");
  public static final ConfigKey UPLOAD_ENABLED =
      ConfigKey.of(
          "upload.enabled",
          "false",
          "mount the symbol upload routes (`/api/symbols-*`, docs/api/symbols-upload.md) on `serve`, and on `run` with `http.enabled`; needs a key with `upload` in `api.keys` and `symbols.s3.bucket` or `symbols.dir` to write to");
  public static final ConfigKey UPLOAD_MAX_PART_BYTES =
      ConfigKey.of(
          "upload.max.part.bytes",
          String.valueOf(UploadLimits.DEFAULT_MAX_PART_BYTES),
          "a larger upload part (by its `Content-Length`, before it is read) gets 413");
  public static final ConfigKey UPLOAD_MAX_PARTS =
      ConfigKey.of(
          "upload.max.parts",
          String.valueOf(UploadLimits.DEFAULT_MAX_PARTS),
          "an upload announcing more parts (`FileParts`) gets 413; an assembled file over `symbols.max.file.bytes` gets 413 too, and its parts are deleted");
  public static final ConfigKey UPLOAD_MAX_REQUESTS_IN_FLIGHT =
      ConfigKey.of(
          "upload.max.requests.in.flight",
          String.valueOf(UploadLimits.DEFAULT_MAX_REQUESTS_IN_FLIGHT),
          "upload requests handled at once by this instance; more get 429");
  public static final ConfigKey UPLOAD_MAX_FILES_IN_FLIGHT =
      ConfigKey.of(
          "upload.max.files.in.flight",
          String.valueOf(UploadLimits.DEFAULT_MAX_FILES_IN_FLIGHT),
          "incomplete files (some parts sent) per scope, counted in the staging area, so across instances; the first part of one more gets 429");
  public static final ConfigKey UPLOAD_INCOMPLETE_EXPIRY_MS =
      ConfigKey.of(
          "upload.incomplete.expiry.ms",
          String.valueOf(UploadLimits.DEFAULT_INCOMPLETE_EXPIRY.toMillis()),
          "the parts of a file whose last part arrived longer ago than this, and that never completed, are deleted (checked every quarter of this, between 1 s and 10 min)");
  public static final ConfigKey UPLOAD_MAX_EXPANSION_RATIO =
      ConfigKey.of(
          "upload.max.expansion.ratio",
          String.valueOf(UploadLimits.DEFAULT_MAX_EXPANSION_RATIO),
          "what an upload extracts to (a zip's entries together) is at most this many times its own bytes (counting at least 1 MiB); beyond, extraction stops with 413 (zip bombs)");
  public static final ConfigKey UPLOAD_DIR_MAX_SCOPE_BYTES =
      ConfigKey.of(
          "upload.dir.max.scope.bytes",
          "0",
          "a scope's files in a `symbols.dir` symbol store (the global scope: all but `scopes/` and the staging folder) are at most this many bytes, and so, separately, are its staged parts; an upload that would pass it is refused with 507 `1007` and leaves nothing behind (0: no quota; S3 stores are not counted)");
  public static final ConfigKey UPLOAD_STAGING_BUCKET =
      ConfigKey.shown(
          "upload.staging.bucket",
          "",
          "(`symbols.s3.bucket`)",
          "S3 bucket of the upload parts until their file completes (same endpoint and credentials as the symbol bucket)");
  public static final ConfigKey UPLOAD_STAGING_PREFIX =
      ConfigKey.of(
          "upload.staging.prefix",
          "upload-staging/",
          "prefix of the upload parts in the staging bucket (outside `symbols.s3.prefix`'s layout), or their folder under `symbols.dir` when uploads go to a directory");
  public static final ConfigKey COLLECTOR_ENABLED =
      ConfigKey.of(
          "collector.enabled",
          "false",
          "mount the crash collector, `POST /submit` (Breakpad's and Crashpad's upload format, answered as Socorro's collector does; docs/api/submit.md), on `serve`, and on `run` with `http.enabled`; needs `bootstrap.servers` (it writes `topic.raw`) and `collector.s3.bucket`");
  public static final ConfigKey COLLECTOR_S3_BUCKET =
      ConfigKey.shown(
          "collector.s3.bucket",
          "",
          "(none)",
          "S3 bucket the collector stores dumps in (and its pending events); endpoint, region, path style and credentials are the symbol bucket's (`symbols.s3.*`)");
  public static final ConfigKey COLLECTOR_S3_PREFIX =
      ConfigKey.of(
          "collector.s3.prefix",
          "dumps/",
          "key prefix of the dumps: `<prefix><yyyy-mm-dd>/<crash id>/<field>.dmp`; pending events under `<prefix>pending/`");
  public static final ConfigKey COLLECTOR_KEYS_REQUIRED =
      ConfigKey.of(
          "collector.keys.required",
          "false",
          "refuse reports without an API key with the `submit` action (401); when false, a report without a key goes to the global scope and one with a key to the key's scope (a wrong key is 403 either way)");
  public static final ConfigKey COLLECTOR_MAX_BODY_BYTES =
      ConfigKey.of(
          "collector.max.body.bytes",
          String.valueOf(CollectorLimits.DEFAULT_MAX_BODY_BYTES),
          "a report body larger than this as sent (compressed or not) gets 413, by its `Content-Length` before it is read or as it arrives");
  public static final ConfigKey COLLECTOR_MAX_DECOMPRESSED_BYTES =
      ConfigKey.of(
          "collector.max.decompressed.bytes",
          String.valueOf(CollectorLimits.DEFAULT_MAX_DECOMPRESSED_BYTES),
          "a gzip body larger than this once decompressed gets 413 (gzip bombs; decompression stops there)");
  public static final ConfigKey COLLECTOR_MAX_DUMP_BYTES =
      ConfigKey.of(
          "collector.max.dump.bytes",
          String.valueOf(CollectorLimits.DEFAULT_MAX_DUMP_BYTES),
          "a dump (any file field) larger than this gets 413");
  public static final ConfigKey COLLECTOR_MAX_DUMPS =
      ConfigKey.of(
          "collector.max.dumps",
          String.valueOf(CollectorLimits.DEFAULT_MAX_DUMPS),
          "file fields per report; more get 413");
  public static final ConfigKey COLLECTOR_MAX_FIELDS =
      ConfigKey.of(
          "collector.max.fields",
          String.valueOf(CollectorLimits.DEFAULT_MAX_FIELDS),
          "annotations per report (form fields, or entries of the `extra` JSON field); more get 413");
  public static final ConfigKey COLLECTOR_MAX_FIELD_BYTES =
      ConfigKey.of(
          "collector.max.field.bytes",
          String.valueOf(CollectorLimits.DEFAULT_MAX_FIELD_BYTES),
          "an annotation's value larger than this gets 413");
  public static final ConfigKey COLLECTOR_MAX_ANNOTATIONS_BYTES =
      ConfigKey.of(
          "collector.max.annotations.bytes",
          String.valueOf(CollectorLimits.DEFAULT_MAX_ANNOTATION_BYTES),
          "all annotations' names and values together; more get 413 (they travel in the event: keep this well under `max.event.bytes`)");
  public static final ConfigKey COLLECTOR_MAX_IN_FLIGHT =
      ConfigKey.of(
          "collector.max.in.flight",
          String.valueOf(CollectorLimits.DEFAULT_MAX_IN_FLIGHT),
          "reports received at once by this instance (each holds an 8 MiB store part and its annotations); more get 503 with `Retry-After` (`http.retry.after.seconds`)");
  public static final ConfigKey COLLECTOR_SEND_WAIT_MS =
      ConfigKey.of(
          "collector.send.wait.ms",
          String.valueOf(CollectorLimits.DEFAULT_SEND_WAIT.toMillis()),
          "how long a report waits for the broker to acknowledge its event; then it is answered anyway, its event pending (stored beside the dumps, sent by the producer's retries or the sweeper)");
  public static final ConfigKey COLLECTOR_PENDING_RESEND_MS =
      ConfigKey.of(
          "collector.pending.resend.ms",
          String.valueOf(CollectorLimits.DEFAULT_RESEND_AFTER.toMillis()),
          "a pending event older than this is sent again by the sweeper of any instance (its producer gave up after 2 min, or its instance died)");
  public static final ConfigKey COLLECTOR_SWEEP_INTERVAL_MS =
      ConfigKey.of(
          "collector.sweep.interval.ms",
          String.valueOf(CollectorLimits.DEFAULT_SWEEP_INTERVAL.toMillis()),
          "how often the sweeper looks for pending events");
  public static final ConfigKey ANALYTICS_ENABLED =
      ConfigKey.of(
          "analytics.enabled",
          "false",
          "`run` also counts top crashers (docs/api/top-crashers.md): a second Kafka Streams client in the same process, with its own application id, state and internal topics, reading the symbolicated topic. Off by default so that a symbolication instance spends nothing on it unless asked; `./symbolicator aggregate` runs the aggregation alone. Its answers need the HTTP API (`http.enabled`)");
  public static final ConfigKey ANALYTICS_APPLICATION_ID =
      ConfigKey.shown(
          "analytics.application.id",
          "",
          "`<application.id>-analytics`",
          "Kafka Streams application id of the top-crashers aggregation (its consumer group, state and internal topics): instances with the same id share the counts");
  public static final ConfigKey ANALYTICS_RETENTION_MS =
      ConfigKey.of(
          "analytics.retention.ms",
          String.valueOf(30L * 86_400_000L),
          "crashes older than this (by crash time: `received_at`, else when first seen) are not counted, and their hours are purged from the stores (30 days; at least an hour)");
  public static final ConfigKey ANALYTICS_PURGE_INTERVAL_MS =
      ConfigKey.of(
          "analytics.purge.interval.ms",
          "60000",
          "how often the aggregation deletes expired hours (each pass looks at up to 100,000 remembered events per task, going on from there the next time)");
  public static final ConfigKey ANALYTICS_ADVERTISED_HOST =
      ConfigKey.shown(
          "analytics.advertised.host",
          "",
          "(`http.host`)",
          "the host other instances reach this one's HTTP API at (with `http.port`: Kafka Streams' `application.server`), to route a release's question to the instance that counts it");
  public static final ConfigKey STATUS_TOP_CRASHERS_URL =
      ConfigKey.shown(
          "status.top.crashers.url",
          "",
          "(this HTTP server)",
          "where the status page (`GET /status`) reads the top crashers (`/api/top-crashers`, `/api/signatures/...`): empty for this HTTP server, or the root URL of the instance that runs `aggregate`, such as `http://aggregate:8080`");
  public static final ConfigKey HTTP_IDLE_TIMEOUT_MS =
      ConfigKey.of(
          "http.idle.timeout.ms",
          "30000",
          "HTTP server (API and metrics): a connection with nothing sent or read for this long is closed (keep-alive between requests; an answer the client stops reading); must exceed `http.request.timeout.ms` by 10 s");
  public static final ConfigKey HTTP_HEADER_TIMEOUT_MS =
      ConfigKey.of(
          "http.header.timeout.ms",
          "10000",
          "a new connection must have sent its first request's headers within this, or it is closed");
  public static final ConfigKey HTTP_BODY_TIMEOUT_MS =
      ConfigKey.of(
          "http.body.timeout.ms",
          "10000",
          "grace for a request body: after it the body must have arrived at `http.body.min.rate.bytes` per second since it started, or it is cut off (408)");
  public static final ConfigKey HTTP_BODY_MIN_RATE_BYTES =
      ConfigKey.of(
          "http.body.min.rate.bytes",
          "4096",
          "the minimum rate of a request body, in bytes per second (see `http.body.timeout.ms`)");
  public static final ConfigKey HTTP_MAX_THREADS =
      ConfigKey.of(
          "http.max.threads",
          "200",
          "threads of the HTTP server (its selectors, and handlers while they run; symbolication is limited by `http.max.in.flight`)");
  public static final ConfigKey HTTP_MAX_CONNECTIONS =
      ConfigKey.of(
          "http.max.connections",
          String.valueOf(ServerLimits.DEFAULT_MAX_CONNECTIONS),
          "open connections in all: at the limit the server stops accepting (new ones wait in the accept queue) and closes idle ones after 1 s");
  public static final ConfigKey HTTP_MAX_CONNECTIONS_PER_ADDRESS =
      ConfigKey.shown(
          "http.max.connections.per.address",
          String.valueOf(ServerLimits.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
          "`0` (no limit)",
          "open connections from one client address; one more is closed at once (leave it off behind a proxy or load balancer: all clients then have its address)");
  public static final ConfigKey HTTP_H2C =
      ConfigKey.of(
          "http.h2c",
          "false",
          "also serve HTTP/2 in the clear (prior knowledge or `Upgrade: h2c`; off by default: an upgrade whose large body is still arriving loses it); with TLS, HTTP/2 is always offered by ALPN");
  public static final ConfigKey HTTP_TLS_KEYSTORE_PATH =
      ConfigKey.shown(
          "http.tls.keystore.path",
          "",
          "(none: plain HTTP)",
          "a PKCS12 (or JKS) keystore with the API server's key and certificate: the API is served over HTTPS only");
  public static final ConfigKey HTTP_TLS_KEYSTORE_PASSWORD =
      ConfigKey.shown("http.tls.keystore.password", "", "(none)", "the keystore's password");
  public static final ConfigKey METRICS_PORT =
      ConfigKey.shown(
          "metrics.port",
          "-1",
          "`-1` (off)",
          "serve `GET /metrics` and `GET /health` on this port (0: any free port); see [Metrics and health](#metrics-and-health)");
  public static final ConfigKey METRICS_HOST =
      ConfigKey.of(
          "metrics.host",
          "127.0.0.1",
          "address of that server (`0.0.0.0` for a Kubernetes probe or a Prometheus in another pod)");
  public static final ConfigKey METRICS_REFRESH_MS =
      ConfigKey.of(
          "metrics.refresh.ms",
          "10000",
          "how often Kafka client metrics of new tasks and stores are picked up");

  /** Every key, in documentation order. */
  public static final List<ConfigKey> ALL =
      List.of(
          BOOTSTRAP_SERVERS,
          APPLICATION_ID,
          TOPIC_RAW,
          TOPIC_SYMBOLICATED,
          TOPIC_DLQ,
          TOPIC_REQUESTS,
          TOPIC_TABLES,
          TOPIC_INDEX,
          TOPIC_UPLOADS,
          TOPIC_MISSING,
          INPUT_FORMAT,
          MAX_EVENT_BYTES,
          MAX_FRAMES_PER_EVENT,
          MAX_MODULES_PER_EVENT,
          SOURCE_CONTEXT_LINES,
          SOURCE_LINK_ALLOW,
          SOURCE_LINK_ALLOW_PRIVATE,
          SOURCE_LINK_MAX_FILE_BYTES,
          SOURCE_LINK_TIMEOUT_MS,
          SOURCE_LINK_MAX_FILES_PER_EVENT,
          SOURCE_LINK_CACHE_BYTES,
          SIGNATURES_LISTS_DIR,
          PROCESSING_GUARANTEE,
          NUM_STREAM_THREADS,
          STATE_DIR,
          SESSION_TIMEOUT_MS,
          TRANSACTION_TIMEOUT_MS,
          STANDBY_REPLICAS,
          TOPICS_CREATE,
          TOPICS_PARTITIONS,
          TOPICS_REPLICATION_FACTOR,
          DLQ_MAX_MESSAGE_BYTES,
          STARTUP_TIMEOUT_MS,
          SYMBOLS_SOURCES,
          SYMBOLS_S3_BUCKET,
          SYMBOLS_S3_PREFIX,
          SYMBOLS_S3_REGION,
          SYMBOLS_S3_ENDPOINT,
          SYMBOLS_S3_PATH_STYLE,
          SYMBOLS_DIR,
          SYMBOLS_HTTP_URL,
          SYMBOLS_FETCH_TIMEOUT_MS,
          SYMBOLS_MAX_FILE_BYTES,
          MINIDUMP_S3_BUCKET,
          MINIDUMP_MAX_BYTES,
          MINIDUMP_FETCH_MEMORY_BYTES,
          MINIDUMP_FETCH_THREADS,
          MINIDUMP_FETCH_RETRY_MS,
          LOADER_EMBEDDED,
          LOADER_CONCURRENCY,
          LOADER_ATTEMPTS,
          LOADER_BACKOFF_MS,
          LOADER_CPU_SHARE,
          LOADER_CPU_SHARE_IDLE,
          LOADER_DEBUG_FILE_LAYOUTS,
          LOADER_WARMUP,
          CACHE_MISSING_RETRY_MS,
          CACHE_MALFORMED_RETRY_MS,
          CACHE_FAILED_RETRY_MS,
          CACHE_UNUSED_TTL_MS,
          PAGE_CACHE_BYTES,
          PARK_TIMEOUT_MS,
          PARK_CHECK_INTERVAL_MS,
          PARK_MAX_EVENTS,
          PARK_REQUEST_RETRY_MS,
          PARK_TOUCH_INTERVAL_MS,
          HTTP_ENABLED,
          HTTP_HOST,
          HTTP_PORT,
          HTTP_MAX_IN_FLIGHT,
          HTTP_MAX_IN_FLIGHT_BYTES,
          HTTP_MAX_BODY_BYTES,
          HTTP_MAX_FRAMES,
          HTTP_MAX_MODULES,
          HTTP_REQUEST_TIMEOUT_MS,
          HTTP_RETRY_AFTER_SECONDS,
          HTTP_CORS_ORIGINS,
          HTTP_CACHE_DIR,
          HTTP_IDLE_TIMEOUT_MS,
          HTTP_HEADER_TIMEOUT_MS,
          HTTP_BODY_TIMEOUT_MS,
          HTTP_BODY_MIN_RATE_BYTES,
          HTTP_MAX_THREADS,
          HTTP_MAX_CONNECTIONS,
          HTTP_MAX_CONNECTIONS_PER_ADDRESS,
          HTTP_H2C,
          HTTP_TLS_KEYSTORE_PATH,
          HTTP_TLS_KEYSTORE_PASSWORD,
          API_KEYS,
          API_ANONYMOUS_SCOPES,
          UPLOAD_ENABLED,
          UPLOAD_MAX_PART_BYTES,
          UPLOAD_MAX_PARTS,
          UPLOAD_MAX_REQUESTS_IN_FLIGHT,
          UPLOAD_MAX_FILES_IN_FLIGHT,
          UPLOAD_INCOMPLETE_EXPIRY_MS,
          UPLOAD_MAX_EXPANSION_RATIO,
          UPLOAD_DIR_MAX_SCOPE_BYTES,
          UPLOAD_STAGING_BUCKET,
          UPLOAD_STAGING_PREFIX,
          COLLECTOR_ENABLED,
          COLLECTOR_S3_BUCKET,
          COLLECTOR_S3_PREFIX,
          COLLECTOR_KEYS_REQUIRED,
          COLLECTOR_MAX_BODY_BYTES,
          COLLECTOR_MAX_DECOMPRESSED_BYTES,
          COLLECTOR_MAX_DUMP_BYTES,
          COLLECTOR_MAX_DUMPS,
          COLLECTOR_MAX_FIELDS,
          COLLECTOR_MAX_FIELD_BYTES,
          COLLECTOR_MAX_ANNOTATIONS_BYTES,
          COLLECTOR_MAX_IN_FLIGHT,
          COLLECTOR_SEND_WAIT_MS,
          COLLECTOR_PENDING_RESEND_MS,
          COLLECTOR_SWEEP_INTERVAL_MS,
          ANALYTICS_ENABLED,
          ANALYTICS_APPLICATION_ID,
          ANALYTICS_RETENTION_MS,
          ANALYTICS_PURGE_INTERVAL_MS,
          ANALYTICS_ADVERTISED_HOST,
          STATUS_TOP_CRASHERS_URL,
          METRICS_PORT,
          METRICS_HOST,
          METRICS_REFRESH_MS);

  private static ConfigKey topic(Topic<?, ?> t) {
    return ConfigKey.of(t.configKey(), t.defaultName(), "topic name; " + t.role());
  }
}
