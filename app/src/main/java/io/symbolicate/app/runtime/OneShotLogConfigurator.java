package io.symbolicate.app.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Logging of the one-shot commands (lookups, walks, conversions), set up in code: the launcher
 * marks them with {@code -Dsymbolicator.log.oneshot=true}, and parsing logback.xml would load
 * some 400 classes (XML parser, Joran, the pattern layout) for a process that lives a fraction
 * of a second and logs, at most, a warning. Writes what the text format's pattern writes, to
 * standard error. Any other run (and {@code json}) falls through to logback.xml.
 */
public final class OneShotLogConfigurator extends ContextAwareBase implements Configurator {
  static final String ONE_SHOT = "symbolicator.log.oneshot";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (!Boolean.getBoolean(ONE_SHOT)
        || !"text".equals(setting("symbolicator.log.format", "SYMBOLICATOR_LOG_FORMAT", "text"))) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    TextLayout layout = new TextLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> out = new ConsoleAppender<>();
    out.setContext(context);
    out.setName("out");
    out.setTarget("System.err");
    out.setEncoder(encoder);
    out.start();
    Level kafka =
        Level.toLevel(
            setting("symbolicator.log.kafka.level", "SYMBOLICATOR_KAFKA_LOG_LEVEL", "warn"));
    context.getLogger("org.apache.kafka").setLevel(kafka);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(
        Level.toLevel(setting("symbolicator.log.level", "SYMBOLICATOR_LOG_LEVEL", "info")));
    root.addAppender(out);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static String setting(String property, String env, String fallback) {
    String value = System.getProperty(property);
    if (value == null || value.isEmpty()) {
      value = System.getenv(env);
    }
    return value == null || value.isEmpty() ? fallback : value;
  }

  /** The text format's line: ISO-8601 time with offset, level, thread, logger, message. */
  static final class TextLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(ZoneId.systemDefault());

    @Override
    public String doLayout(ILoggingEvent event) {
      StringBuilder line = new StringBuilder(128);
      TIME.formatTo(Instant.ofEpochMilli(event.getTimeStamp()), line);
      String level = event.getLevel().toString();
      line.append(' ').append(level);
      for (int pad = level.length(); pad < 5; pad++) {
        line.append(' ');
      }
      line.append(" [").append(event.getThreadName()).append("] ").append(event.getLoggerName());
      line.append(" - ").append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
      if (event.getThrowableProxy() != null) {
        line.append(ThrowableProxyUtil.asString(event.getThrowableProxy()));
        line.append(CoreConstants.LINE_SEPARATOR);
      }
      return line.toString();
    }
  }
}
