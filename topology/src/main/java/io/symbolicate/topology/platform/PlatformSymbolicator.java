package io.symbolicate.topology.platform;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;

/**
 * One symbolication step per platform: the topology routes each valid event to the step of its
 * platform. A step must not block on I/O; it never throws for bad frames (those get statuses),
 * and an exception it does throw sends the event to the DLQ as a processing error.
 */
public interface PlatformSymbolicator {

  Platform platform();

  SymbolicatedEvent symbolicate(CrashEvent event, long nowMillis);
}
